"""The engine imports only the standard library and itself."""

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "server" / "engine"


def test_engine_imports_only_the_standard_library():
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    continue
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if name.startswith("server.engine") or top in sys.stdlib_module_names:
                    continue
                offenders.append(f"{path.name}: {name}")
    assert offenders == []


def test_engine_has_no_module_level_randomness():
    for path in sorted(ENGINE.rglob("*.py")):
        text = path.read_text()
        for banned in (
            "random.random(",
            "random.shuffle(",
            "random.choice(",
            "random.seed(",
            "random.randint(",
        ):
            assert banned not in text, f"{path.name} uses {banned}; use a seeded random.Random"

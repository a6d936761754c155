"""Entry point of the `mahjong-hall` command.

Each subcommand lives in its own module under `server/cli/` and provides
``configure(parser)`` and ``run(args) -> int``. Modules are imported only when their
command runs, so `mahjong-hall score` never pays for importing the web stack.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "score": ("server.cli.score", "score one hand read as JSON from standard input"),
    "replay": ("server.cli.replay", "replay a fixed deal read as JSON from standard input"),
    "serve": ("server.cli.serve", "apply migrations and start the server"),
    "migrate": ("server.cli.migrate", "apply database migrations and exit"),
    "cluster": (
        "server.cli.cluster",
        "run several servers on one Postgres behind HAProxy (docs/scaling.md)",
    ),
    "simulate": ("server.cli.simulate", "play bots-only deals in-process and print a summary"),
    "bench": ("server.cli.bench", "load-test a server with WebSocket clients"),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(
        prog="mahjong-hall", description="Mahjong Hall server and tools"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, summary) in COMMANDS.items():
        sub.add_parser(name, help=summary)
    if not argv or argv[0] not in COMMANDS:
        parser.print_help(sys.stderr if argv else sys.stdout)
        return 2 if argv else 0
    name = argv[0]
    module = importlib.import_module(COMMANDS[name][0])
    command_parser = argparse.ArgumentParser(
        prog=f"mahjong-hall {name}", description=COMMANDS[name][1]
    )
    module.configure(command_parser)
    args = command_parser.parse_args(argv[1:])
    return int(module.run(args))


if __name__ == "__main__":
    sys.exit(main())

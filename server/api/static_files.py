"""The browser client's files, sent compressed and cacheable.

Every file of `web/` is served at `/static/<path>` with a strong ETag and
``Cache-Control: no-cache`` (the browser asks again and gets a 304 while the file is
unchanged), and at `/static/v/<version>/<path>`, where `<version>` is a digest of the
whole client, with a year's ``immutable`` caching. The lobby and table pages are sent
with their `/static/` links rewritten to the versioned path; since the client's modules
import each other by relative paths, the whole module graph then loads under the
version, and a second visit fetches nothing but the page itself (a 304). A changed
client has a new version, so nobody keeps a stale mix of old and new files.

Text files are gzipped once and kept in memory while their size and modification time
stay the same.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from functools import lru_cache
from pathlib import Path

from fastapi import Request
from fastapi.responses import Response

_TEXT_TYPES = {".js", ".css", ".html", ".svg", ".json", ".txt", ".map"}
_REVALIDATE = "no-cache"
_IMMUTABLE = "public, max-age=31536000, immutable"
VERSIONED_PREFIX = "/static/v/"


class WebFileMissingError(Exception):
    """No such file under the client's directory (or the path escapes it)."""


def web_file(root: Path, relative: str) -> Path:
    """The file `relative` under `root`; `WebFileMissingError` for anything outside it."""
    if "\x00" in relative:  # no file has a NUL in its name; the OS would refuse it
        raise WebFileMissingError(relative)
    base = root.resolve()
    target = (base / relative).resolve()
    # Refuse anything that escapes web/ (`..`, absolute paths, symlinks out).
    if not target.is_relative_to(base) or not target.is_file():
        raise WebFileMissingError(relative)
    return target


@lru_cache(maxsize=512)
def _packed(path: str, size: int, mtime_ns: int) -> tuple[bytes, bytes | None, str]:
    """The file's bytes, their gzip (None when it does not pay), and its ETag."""
    raw = Path(path).read_bytes()
    packed = None
    if Path(path).suffix in _TEXT_TYPES:
        squeezed = gzip.compress(raw, compresslevel=9, mtime=0)
        packed = squeezed if len(squeezed) < len(raw) else None
    digest = hashlib.sha256(raw).hexdigest()[:24]
    return raw, packed, f'"{digest}"'


def client_version(root: Path) -> str:
    """A digest of every client file's name, size and modification time."""
    digest = hashlib.sha256()
    for path in sorted(root.resolve().rglob("*")):
        if path.is_file():
            stat = path.stat()
            digest.update(
                f"{path.relative_to(root.resolve())}:{stat.st_size}:{stat.st_mtime_ns}".encode()
            )
    return digest.hexdigest()[:12]


def _media_type(path: Path) -> str:
    media = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    if path.suffix == ".js":
        media = "text/javascript"
    if media.startswith("text/") or path.suffix in (".json", ".svg"):
        media += "; charset=utf-8"
    return media


def _send(
    request: Request, body: bytes, packed: bytes | None, etag: str, media: str, cache: str
) -> Response:
    headers = {"ETag": etag, "Cache-Control": cache, "Vary": "Accept-Encoding"}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    if packed is not None and "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        body = packed
    return Response(body, media_type=media, headers=headers)


def static_response(request: Request, root: Path, relative: str, versioned: bool) -> Response:
    """A client file, compressed when the browser takes gzip; 304 when its ETag matches."""
    target = web_file(root, relative)
    stat = target.stat()
    raw, packed, etag = _packed(str(target), stat.st_size, stat.st_mtime_ns)
    cache = _IMMUTABLE if versioned else _REVALIDATE
    return _send(request, raw, packed, etag, _media_type(target), cache)


def page_response(request: Request, root: Path, name: str) -> Response:
    """An HTML page with its `/static/` links pointing at this client version."""
    target = web_file(root, name)
    prefix = f"{VERSIONED_PREFIX}{client_version(root)}/"
    html = target.read_bytes().replace(b'"/static/', f'"{prefix}'.encode())
    etag = f'"{hashlib.sha256(html).hexdigest()[:24]}"'
    packed = gzip.compress(html, compresslevel=9, mtime=0)
    return _send(request, html, packed, etag, "text/html; charset=utf-8", _REVALIDATE)

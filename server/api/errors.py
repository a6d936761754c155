"""The one shape of every HTTP error: `{"error": {"code", "message"[, "details"]}}`.

The API, the dashboard, the request guards (which answer before the app runs) and the
socket handshake's refusals all build their bodies here (docs/protocol.md).
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi.responses import JSONResponse


def error_object(code: str, message: str, details: Any = None) -> dict[str, Any]:
    """The error body as a JSON-ready object."""
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return {"error": body}


def error_body(code: str, message: str) -> bytes:
    """The error body encoded, for answers written below the app (request guards)."""
    return orjson.dumps(error_object(code, message))


def error_response(
    status: int,
    code: str,
    message: str,
    details: Any = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    """An HTTP answer with the error body."""
    return JSONResponse(error_object(code, message, details), status_code=status, headers=headers)

"""The one shape of every HTTP error: `{"error": {"code", "message"[, "details"]}}`, and the
one mapping from whatever refused a request to a code of docs/protocol.md in our words.

The API, the dashboard, the request guards (which answer before the app runs) and the
socket handshake's refusals all build their bodies here. What the frameworks raise is
worded here too: Starlette's HTTP errors (`http_error_words`) and pydantic's validation
problems (`problem_words`), so no client ever reads Python's, pydantic's or Starlette's
own text.
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi.responses import JSONResponse


class ApiError(Exception):
    """An error answered as `{"error": {"code", "message"}}` with `status`."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


def bad_value(message: str) -> ApiError:
    """A query or body value out of its range or of the wrong kind: `422 validation_error`."""
    return ApiError(422, "validation_error", message)


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


# Starlette's own HTTP errors: the router's misses, and FastAPI's 400 for a body that its
# JSON reader gave up on although it parsed (a number over Python's 4,300 digits, text
# that is not UTF-8). A 413 carries our own words (request_guards.BodyTooLarge).
_HTTP_ERRORS = {
    400: ("bad_json", "the request body could not be read as JSON (is a number too long?)"),
    404: ("not_found", "no such path"),
    405: ("method_not_allowed", "this path does not take that method"),
}


def http_error_words(status: int, detail: str) -> tuple[str, str]:
    """The documented code and our message for a Starlette HTTP error of `status`."""
    if status == 413:
        return "body_too_large", detail
    return _HTTP_ERRORS.get(status, ("bad_request", "the server cannot answer this request"))


def _field(problem: dict[str, Any]) -> str:
    """The field a problem is about, as a client names it (`rules.min_fan`, not `body.rules`)."""
    parts = [str(part) for part in problem.get("loc", ())]
    if parts and parts[0] in ("body", "query", "path", "header"):
        parts = parts[1:]
    return ".".join(parts) or "body"


def _limit(context: dict[str, Any], key: str) -> str:
    return str(context.get(key, "?"))


def problem_words(problem: dict[str, Any]) -> str:
    """One pydantic problem in our words (its `type` decides; its `msg` is never shown)."""
    kind = str(problem.get("type", ""))
    context: dict[str, Any] = dict(problem.get("ctx") or {})
    if kind == "value_error" and "error" in context:
        return str(context["error"])  # our own validators' words (models.display_name)
    words = {
        "missing": "is required",
        "extra_forbidden": "is not a field of this call",
        "int_type": "must be a whole JSON number",
        "int_from_float": "must be a whole number",
        "int_parsing": "must be a whole number",
        "float_type": "must be a JSON number",
        "float_parsing": "must be a number",
        "finite_number": "must be a finite number",
        "bool_type": "must be true or false",
        "bool_parsing": "must be true or false",
        "string_type": "must be a string",
        "string_unicode": "must be valid Unicode text",
        "list_type": "must be a list",
        "dict_type": "must be an object",
        "model_type": "must be an object",
        "model_attributes_type": "must be an object",
        "json_invalid": "is not valid JSON",
        "literal_error": f"must be one of {_limit(context, 'expected')}",
        "enum": f"must be one of {_limit(context, 'expected')}",
        "greater_than_equal": f"must be at least {_limit(context, 'ge')}",
        "greater_than": f"must be more than {_limit(context, 'gt')}",
        "less_than_equal": f"must be at most {_limit(context, 'le')}",
        "less_than": f"must be less than {_limit(context, 'lt')}",
        "string_too_short": f"must have at least {_limit(context, 'min_length')} characters",
        "string_too_long": f"must have at most {_limit(context, 'max_length')} characters",
        "too_short": f"must have at least {_limit(context, 'min_length')} items",
        "too_long": f"must have at most {_limit(context, 'max_length')} items",
    }
    return words.get(kind, "is not a value this call takes")


def validation_details(problems: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """The 422's message and `details` (`loc`, `msg`) for pydantic's problems, in our words."""
    details = [
        {"loc": [str(part) for part in problem.get("loc", ())], "msg": problem_words(problem)}
        for problem in problems
    ]
    summary = "; ".join(
        f"{_field(problem)}: {detail['msg']}"
        for problem, detail in zip(problems, details, strict=True)
    )
    return summary or "invalid request", details

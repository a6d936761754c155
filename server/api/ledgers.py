"""The ledger's HTTP routes (docs/protocol.md, "Ledgers"; docs/ledger.md).

| call | what |
|---|---|
| `POST /api/ledgers` | open a ledger: `{"ledger_id", "invite", "url", "host_token"}` |
| `GET /api/ledgers/{id}?invite=` | the players, every hand reckoned, the scores, the next hand |
| `POST /api/ledgers/{id}/hands` | record a hand (at the end, or `"before": n`) |
| `POST /api/ledgers/{id}/hands/check` | the same, saving nothing: the engine's answer first |
| `PUT /api/ledgers/{id}/hands/{n}` | change hand n; every later hand is reckoned again |
| `DELETE /api/ledgers/{id}/hands/{n}?invite=` | delete hand n |
| `GET /api/ledgers/{id}/history?invite=` | every change, who made it and when |
| `GET /api/ledgers/{id}/settle-up?invite=` | the fewest transfers, and the text for a chat |
| `PATCH /api/ledgers/{id}` | the host: let the night's figures join the standings |
| `WS /ws/ledgers/{id}?invite=` | the ledger live (`ledger_live.py`) |
| `GET /ledgers`, `GET /ledgers/{id}` | the page (web/ledger.html) |
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response

from server.api import ledger_live
from server.api.address_limits import AddressBuckets, client_key, retry_after
from server.api.errors import ApiError, error_response
from server.api.http import client_file
from server.api.ledger_access import (
    OpenLedger,
    ledger_json,
    ledger_store,
    new_ledger_id,
    new_secret,
    open_ledger,
    require_host,
    stored_night,
)
from server.api.ledger_bodies import CreateLedger, HandCall, LedgerSwitch, changer_name, hand_call
from server.api.ledger_changes import (
    HandRefused,
    HandsChange,
    canonical,
    change_hands,
    hand_index,
    refusal,
)
from server.engine.settle_up import PointValue, SettleUpError
from server.ledger import LedgerError, LedgerSetup, NotAWinError, reckon_night
from server.ledger.views import hand_view, not_a_win_view, settle_up_view
from server.store import hash_token
from server.store.ledgers import LedgerChange, LedgerChangedError, NewLedger, StoredHand

router = APIRouter()


def install(app: FastAPI) -> None:
    """Register the ledger's routes, its socket, its refusals and its live watch."""
    app.state.ledger_watch = ledger_live.LedgerWatch()

    @app.exception_handler(HandRefused)
    async def _refused(_request: Request, error: HandRefused) -> JSONResponse:
        return error_response(422, error.code, error.message, error.details)

    app.include_router(router)
    app.include_router(ledger_live.router)


def _spend_a_new_ledger(request: Request) -> None:
    # New ledgers share the address's budget of new tables (docs/operations.md, "Limits").
    buckets: AddressBuckets | None = getattr(request.app.state, "room_buckets", None)
    wait = None if buckets is None else buckets.take(client_key(request.scope))
    if wait is not None:
        raise ApiError(
            429,
            "rate_limited",
            f"too many new tables and ledgers from your address; try again in {retry_after(wait)} s",
            headers={"Retry-After": retry_after(wait)},
        )


async def _body(request: Request) -> HandCall:
    try:
        raw = await request.json()
    except ValueError:
        raise ApiError(400, "bad_json", "the request body is not valid JSON") from None
    try:
        return hand_call(raw)
    except ValueError as error:
        raise ApiError(422, "validation_error", str(error)) from None


@router.post("/api/ledgers", status_code=201)
async def create_ledger(request: Request, body: CreateLedger) -> dict[str, str]:
    """Open a ledger; answers its id, invite secret and link, and the host's secret."""
    _spend_a_new_ledger(request)
    try:
        setup = LedgerSetup.checked(body.variant, body.players, body.rules, body.round_wind)
        value = PointValue.from_json(body.point_value or {"currency": "points"})
    except (LedgerError, SettleUpError) as error:
        raise ApiError(422, "validation_error", str(error)) from None
    ledger_id, invite, host = new_ledger_id(), new_secret(), new_secret()
    now = datetime.now(UTC)
    ledger = NewLedger(
        ledger_id=ledger_id,
        variant=setup.variant.name,
        name=body.name,
        players=setup.players,
        rules=None if setup.rules is None else setup.rules.to_json(),
        round_wind=setup.round_wind,
        point_value=value.to_json(),
        invite_hash=hash_token(invite),
        host_hash=hash_token(host),
        in_standings=body.in_standings,
        created_at=now,
    )
    await ledger_store(request).create(ledger, LedgerChange("open", now, body.by))
    # The secret rides in the fragment, which browsers never send to a server.
    page = request.url_for("ledger_page", ledger_id=ledger_id)
    return {
        "ledger_id": ledger_id,
        "invite": invite,
        "url": f"{page}#invite={invite}",
        "host_token": host,
    }


@router.get("/api/ledgers/{ledger_id}")
async def show_ledger(request: Request, ledger_id: str, invite: str | None = None) -> Any:
    """The players, every hand with its payments, the running scores, the coming hand."""
    return ledger_json(await open_ledger(request, ledger_id, invite))


def _answer(opened: OpenLedger, night: Any, hand_no: int, revision: int) -> dict[str, Any]:
    return {**hand_view(opened.setup, night.hands[hand_no - 1]), "revision": revision}


@router.post("/api/ledgers/{ledger_id}/hands", status_code=201)
async def add_hand(request: Request, ledger_id: str) -> dict[str, Any]:
    """Record a hand at the end of the night, or before hand `before`."""
    call = await _body(request)

    def add(opened: OpenLedger, now: datetime) -> HandsChange:
        hands = list(opened.record.hands)
        at = len(hands) if call.before is None else hand_index(opened, call.before)
        entry = canonical(opened, call.hand)
        hands.insert(at, StoredHand(entry, now, call.by))
        action = "add" if call.before is None else "insert"
        return HandsChange(hands, LedgerChange(action, now, call.by, at + 1, None, entry), at + 1)

    opened, night, revision, changed = await change_hands(
        request, ledger_id, call.invite, call.revision, add
    )
    assert changed.hand_no is not None
    return _answer(opened, night, changed.hand_no, revision)


@router.post("/api/ledgers/{ledger_id}/hands/check")
async def check_hand(request: Request, ledger_id: str) -> dict[str, Any]:
    """What the hand would come to (or why it is not a win), saving nothing.

    `"hand_no": n` checks it in the place of hand n; `"before": n` before it.
    """
    call = await _body(request)
    replacing = call.hand.pop("hand_no", None)
    if replacing is not None and (not isinstance(replacing, int) or isinstance(replacing, bool)):
        raise ApiError(422, "validation_error", "hand_no: the number of the hand it would replace")
    opened = await open_ledger(request, ledger_id, call.invite)
    entries = opened.entries
    try:
        entry = opened.setup.read_entry(call.hand)
        if replacing is not None:
            at = hand_index(opened, replacing)
            entries[at] = entry
        else:
            at = len(entries) if call.before is None else hand_index(opened, call.before)
            entries.insert(at, entry)
        night = reckon_night(opened.setup, entries)
    except NotAWinError as error:
        if error.hand_no != at + 1:
            raise refusal(error, opened) from None
        return not_a_win_view(opened.setup, error)
    except LedgerError as error:
        raise refusal(error, opened) from None
    return {**hand_view(opened.setup, night.hands[at]), "revision": opened.record.revision}


@router.put("/api/ledgers/{ledger_id}/hands/{hand_no}")
async def edit_hand(request: Request, ledger_id: str, hand_no: int) -> dict[str, Any]:
    """Change hand `hand_no`; every later hand is reckoned again."""
    call = await _body(request)

    def edit(opened: OpenLedger, now: datetime) -> HandsChange:
        hands = list(opened.record.hands)
        at = hand_index(opened, hand_no)
        before = hands[at]
        entry = canonical(opened, call.hand)
        hands[at] = StoredHand(entry, before.entered_at, before.entered_by)
        change = LedgerChange("edit", now, call.by, hand_no, before.entry, entry)
        return HandsChange(hands, change, hand_no)

    opened, night, revision, _ = await change_hands(
        request, ledger_id, call.invite, call.revision, edit
    )
    return _answer(opened, night, hand_no, revision)


@router.delete("/api/ledgers/{ledger_id}/hands/{hand_no}")
async def delete_hand(
    request: Request,
    ledger_id: str,
    hand_no: int,
    invite: str | None = None,
    by: str | None = None,
    revision: int | None = None,
) -> dict[str, Any]:
    """Delete hand `hand_no`; every later hand moves up one and is reckoned again."""
    try:
        who = changer_name(by)
    except ValueError as error:
        raise ApiError(422, "validation_error", str(error)) from None

    def delete(opened: OpenLedger, now: datetime) -> HandsChange:
        hands = list(opened.record.hands)
        removed = hands.pop(hand_index(opened, hand_no))
        return HandsChange(hands, LedgerChange("delete", now, who, hand_no, removed.entry), None)

    _, night, written, _ = await change_hands(request, ledger_id, invite, revision, delete)
    return {"deleted": hand_no, "revision": written, "scores": night.balances}


@router.get("/api/ledgers/{ledger_id}/history")
async def ledger_history(
    request: Request, ledger_id: str, invite: str | None = None
) -> dict[str, Any]:
    """Every change of the ledger, oldest first, with both versions of a changed hand."""
    await open_ledger(request, ledger_id, invite)
    return {"ledger_id": ledger_id, "changes": await ledger_store(request).history(ledger_id)}


@router.get("/api/ledgers/{ledger_id}/settle-up")
async def ledger_settle_up(
    request: Request,
    ledger_id: str,
    invite: str | None = None,
    currency: str | None = None,
    minor_per_point: int | None = None,
) -> dict[str, Any]:
    """The fewest transfers that square the night, at the ledger's value of a point
    (or another, asked for), with the English lines for a group chat."""
    opened = await open_ledger(request, ledger_id, invite)
    value = opened.point_value
    if currency is not None:
        try:
            value = PointValue.from_json(
                {"currency": currency, "minor_per_point": minor_per_point or 1}
            )
        except SettleUpError as error:
            raise ApiError(422, "validation_error", str(error)) from None
    night, _ = stored_night(opened)
    return {
        "ledger_id": ledger_id,
        "players": list(night.setup.players),
        **settle_up_view(night, value),
    }


@router.patch("/api/ledgers/{ledger_id}")
async def switch_standings(request: Request, ledger_id: str, body: LedgerSwitch) -> dict[str, Any]:
    """The host lets the night's figures join the dashboard's standings (or not)."""
    opened = await open_ledger(request, ledger_id, body.invite)
    require_host(request, opened)
    seen = opened.record.revision if body.revision is None else body.revision
    change = LedgerChange(
        "standings", datetime.now(UTC), body.by, after={"in_standings": body.in_standings}
    )
    try:
        revision = await ledger_store(request).set_in_standings(
            ledger_id, seen, body.in_standings, change
        )
    except LedgerChangedError:
        raise ApiError(409, "ledger_changed", "the ledger changed since it was read") from None
    ledger_live.ledger_watch(request).changed(ledger_id)
    return {"ledger_id": ledger_id, "in_standings": body.in_standings, "revision": revision}


@router.get("/ledgers", include_in_schema=False)
async def new_ledger_page(request: Request) -> Response:
    """The ledger page, opening a new ledger."""
    return client_file(request, "ledger.html", page=True)


@router.get("/ledgers/{ledger_id}", include_in_schema=False, name="ledger_page")
async def ledger_page(request: Request, ledger_id: str) -> Response:
    """The ledger page (web/ledger.html); it reads the id from its URL and the invite
    from the fragment."""
    return client_file(request, "ledger.html", page=True)

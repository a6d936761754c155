"""Host events as rows written once each, and pause requests limited (issue 25, point 5),
through `Room.handle` with no event loop.

Each pause request or host command used to be saved by rewriting the room's whole table
log (up to 1,000 events), and the log was capped, so a non-host's flood of pause requests
pushed the host's removals and handovers out of the record. Now each event is one row,
appended once; a player has one pause request pending at a time and waits a cool-down
(on the room's clock) before asking again; nothing ever drops an event from the record.
"""

from __future__ import annotations

from server.rooms import commands as cmd
from server.rooms.effects import AppendHostEvent, SaveTableLog
from tests.rooms.core.core_table import CoreTable, Link, make_table, sent_to

COOLDOWN = 60.0


def _table_of_two(extra_human: str = "", **options: float) -> tuple[CoreTable, Link, Link]:
    """HK: Ana (host) and Bo connected (and `extra_human`, if named), bots in the other
    seats, the deal dealt."""
    table = make_table("hk", **options)
    links = []
    for name in ("Ana", "Bo", extra_human):
        if name:
            seat = table.ask(lambda answer, name=name: cmd.Join(name=name, reply=answer))
            links.append(Link(seat["player_index"], seat["token"]))
            table.handle(cmd.Connect(links[-1], links[-1].token))
    table.ask(lambda answer: cmd.AddBots(reply=answer))
    return table, links[0], links[1]


def _host(table: CoreTable, link: Link, kind: str, **fields: object) -> list[dict]:
    """`kind` from `link`; the errors it answered."""
    effects = table.handle(cmd.HostCommand(link, kind, dict(fields), kind))
    return [m for m in sent_to(effects, link) if m["type"] == "error"]


def _appended(table: CoreTable) -> list[AppendHostEvent]:
    return [write for write in table.writes if isinstance(write, AppendHostEvent)]


def test_each_host_event_is_one_row_written_once_and_none_rewrites_the_log() -> None:
    table, ana, bo = _table_of_two()
    _host(table, ana, "bot_level", player_index=2, level="easy")
    _host(table, ana, "spectators", allowed=False)
    _host(table, ana, "make_host", player_index=1)
    rows = _appended(table)
    assert [(row.seq, row.event["kind"]) for row in rows] == [
        (0, "bot_level"),
        (1, "spectators"),
        (2, "make_host"),
    ]
    assert all(row.room_id == "room-1" and row.event["by"] == 0 for row in rows)
    assert not any(
        isinstance(write, SaveTableLog) and "host_events" in write.table_log
        for write in table.writes
    ), "the table log no longer carries the host events"


def test_a_flood_of_pause_requests_records_one_and_erases_nothing() -> None:
    # The flood: a removal, a spectators change and a handover, then 50 pause
    # requests from a player who is no longer host.
    table, ana, bo = _table_of_two(extra_human="Cy")
    _host(table, ana, "remove_player", player_index=2)
    _host(table, ana, "spectators", allowed=False)
    _host(table, ana, "make_host", player_index=1)
    refusals = [_host(table, ana, "pause") for _ in range(50)]
    assert refusals[0] == []
    assert all([e["code"] for e in errors] == ["already_asked"] for errors in refusals[1:])
    kinds = ["remove_player", "spectators", "make_host", "pause_asked"]
    assert [row.event["kind"] for row in _appended(table)] == kinds
    assert [event["kind"] for event in table.room.host.events] == kinds


def test_a_pause_request_waits_its_cool_down_on_the_rooms_clock() -> None:
    table, ana, bo = _table_of_two(pause_request_cooldown_seconds=COOLDOWN)
    assert _host(table, bo, "pause") == []
    asked_at = table.now
    table.advance_to(asked_at + COOLDOWN - 1)
    (error,) = _host(table, bo, "pause")
    assert error["code"] == "already_asked" and error["id"] == "pause"
    table.advance_to(asked_at + COOLDOWN)
    assert _host(table, bo, "pause") == [], "asked again once the cool-down is over"
    assert [row.event["kind"] for row in _appended(table)] == ["pause_asked", "pause_asked"]

    # Granted by the host and resumed: the next request still waits out the cool-down.
    _host(table, ana, "pause")
    _host(table, ana, "resume")
    (error,) = _host(table, bo, "pause")
    assert error["code"] == "too_soon" and "s" in error["message"]
    table.advance_to(table.now + COOLDOWN)
    assert _host(table, bo, "pause") == []


def test_resume_requests_are_limited_the_same_way() -> None:
    table, ana, bo = _table_of_two()
    _host(table, ana, "pause")
    assert _host(table, bo, "resume") == []
    for _ in range(20):
        (error,) = _host(table, bo, "resume")
        assert error["code"] == "already_asked"
    kinds = [row.event["kind"] for row in _appended(table)]
    assert kinds == ["pause", "resume_asked"]


def test_the_host_pauses_and_resumes_without_a_cool_down() -> None:
    table, ana, bo = _table_of_two()
    for _ in range(3):
        assert _host(table, ana, "pause") == []
        assert _host(table, ana, "resume") == []
    kinds = [row.event["kind"] for row in _appended(table)]
    assert kinds == ["pause", "resume"] * 3
    assert [row.seq for row in _appended(table)] == list(range(6))

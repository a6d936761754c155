"""The room actor over a real SQLite store, with a hand-driven clock and recording links."""

from __future__ import annotations

import sqlite3

from server.engine import Action, DealSettings, replay, view
from server.rooms import commands as cmd
from server.rooms.clock import ManualClock
from server.rooms.manager import RoomManager
from server.rooms.settings import RoomSettings
from server.store import Store
from tests.rooms.conftest import RecordingConnection, quiet, until


async def test_a_bots_only_room_plays_a_whole_deal_and_logs_it(
    manager: RoomManager, store: Store
) -> None:
    room_id = await manager.create_room(RoomSettings(variant="kaki3"))
    actor = manager.get(room_id)
    watcher = RecordingConnection(None)
    actor.tell(cmd.Connect(watcher, None))
    await manager.add_bots(room_id)
    await until(lambda: any(m["type"] == "result" for m in watcher.sent))
    seqs = [m["seq"] for m in watcher.states]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "seq must grow by one per change"
    result = next(m for m in watcher.sent if m["type"] == "result")
    assert result["outcome"] in ("win", "draw")
    assert result["seq"] == watcher.states[-1]["seq"]
    assert sum(result["running_scores"].values()) == 0
    stored = await store.room_results(room_id)
    assert stored is not None and len(stored["deals"]) == 1
    assert all("hand" not in state for state in watcher.states), "a spectator never gets a hand"


async def _seated_room(manager: RoomManager, **settings: float) -> tuple[str, RecordingConnection]:
    """A kaki3 room with one connected human (player 0, East) and two bots."""
    room_id = await manager.create_room(RoomSettings(variant="kaki3", **settings))
    actor = manager.get(room_id)
    seated = await manager.join(room_id, "Ana")
    assert seated["seat"] == "E" and seated["player_index"] == 0
    human = RecordingConnection(0, seated["token"])
    actor.tell(cmd.Connect(human, human.token))
    await manager.add_bots(room_id)
    await until(
        lambda: bool(human.states) and human.last_state.get("phase") not in (None, "waiting")
    )
    await quiet(actor)
    return room_id, human


async def test_the_turn_timer_hands_the_decision_to_the_bot(
    manager: RoomManager, store: Store, clock: ManualClock
) -> None:
    room_id, human = await _seated_room(manager, turn_seconds=40)
    actor = manager.get(room_id)
    state = human.last_state
    assert state["legal"], "the dealer owes the first discard"
    assert state["turn_deadline"] == round((clock.now() + 40) * 1000)
    seq_before = actor.seq
    clock.advance(39)
    await quiet(actor)
    assert actor.seq == seq_before, "nothing happens before the 40 s are up"
    clock.advance(1.5)
    await until(lambda: actor.seq > seq_before)
    records = await store.load_open_rooms()
    logged = next(r for r in records if r.room_id == room_id).open_deal
    assert logged is not None or actor.deal.ended
    first = logged.actions[0] if logged else None
    if first is not None:
        assert first.seat == "E" and first.by_bot and first.bot_reason == "timeout"


async def test_the_deal_limit_ends_the_deal_as_timeout(
    manager: RoomManager, store: Store, clock: ManualClock
) -> None:
    room_id, human = await _seated_room(manager, turn_seconds=40, deal_seconds=30)
    actor = manager.get(room_id)
    assert human.last_state["deal_deadline"] == round((clock.now() + 30) * 1000)
    clock.advance(30)
    await until(lambda: any(m["type"] == "result" for m in human.sent))
    result = next(m for m in human.sent if m["type"] == "result")
    assert result["outcome"] == "timeout" and result["winners"] == []
    stored = await store.room_results(room_id)
    assert stored is not None and stored["deals"][0]["outcome"] == "timeout"
    assert actor.deal is not None and actor.deal.ended


async def test_a_disconnected_seat_is_played_by_its_bot_and_taken_back(
    manager: RoomManager, store: Store
) -> None:
    room_id, human = await _seated_room(manager)
    actor = manager.get(room_id)
    actor.tell(cmd.Disconnect(human))
    await until(
        lambda: actor.deal is not None and (actor.deal.ended or actor.deal.next_log_seq > 1)
    )
    records = await store.load_open_rooms()
    deal = next(r for r in records if r.room_id == room_id).open_deal
    if deal is not None:  # the deal may already be over: bots are quick
        east_moves = [a for a in deal.actions if a.seat == "E"]
        assert east_moves and all(a.by_bot and a.bot_reason == "disconnected" for a in east_moves)
    back = RecordingConnection(0, human.token)
    actor.tell(cmd.Connect(back, back.token))
    await until(lambda: bool(back.states))
    me = next(p for p in back.last_state["room"]["players"] if p["player_index"] == 0)
    assert me["connected"] and not me["bot_covered"]


async def test_a_newer_connection_replaces_the_older_one(manager: RoomManager) -> None:
    room_id, human = await _seated_room(manager)
    actor = manager.get(room_id)
    newer = RecordingConnection(0, human.token)
    actor.tell(cmd.Connect(newer, newer.token))
    await until(lambda: bool(newer.states))
    assert human.closed_with is not None and human.closed_with[0] == 4409
    actor.tell(cmd.PlayerAction(human, {"type": "pass"}, "old"))
    await until(lambda: any(m["type"] == "error" for m in human.sent))
    assert actor.player_connections[0] is newer


async def test_illegal_and_malformed_actions_change_nothing(manager: RoomManager) -> None:
    room_id, human = await _seated_room(manager, turn_seconds=40)
    actor = manager.get(room_id)
    seq = actor.seq
    for bad, code in (
        ({"type": "discard", "tile": "9z"}, "bad_action"),
        ({"type": "pong", "tiles": "1p1p"}, "not_legal"),
        ({"type": "discard", "tile": "1m"}, "not_legal"),
        ({"type": "timeout"}, "not_legal"),
        ("discard", "bad_action"),
        ({"type": "discard", "seat": "S", "tile": "1p"}, "bad_action"),
    ):
        actor.tell(cmd.PlayerAction(human, bad, code))
    await until(lambda: len([m for m in human.sent if m["type"] == "error"]) == 6)
    errors = [m for m in human.sent if m["type"] == "error"]
    assert [e["code"] for e in errors] == [e["id"] for e in errors]
    assert actor.seq == seq


async def test_a_room_reopens_after_a_restart_with_its_deal_replayed(
    store: Store, clock: ManualClock, manager: RoomManager
) -> None:
    # Three connected humans and no bot, so the table moves only when the test makes it.
    room_id = await manager.create_room(RoomSettings(variant="hk", turn_seconds=40))
    actor = manager.get(room_id)
    humans = []
    for index, name in enumerate(("Ana", "Bo", "Cy", "Di")):
        seated = await manager.join(room_id, name)
        humans.append(RecordingConnection(index, seated["token"]))
        actor.tell(cmd.Connect(humans[-1], humans[-1].token))
    await until(lambda: actor.deal is not None and all(h.states for h in humans))
    played = []
    for _ in range(6):  # six decisions, each the first legal action of the first pending seat
        await quiet(actor)
        seat = next(iter(actor.deal.turns))
        human = humans[actor.deal.seat_players[seat]]
        action = human.last_state["legal"][0]
        played.append(action)
        logged = actor.deal.next_log_seq
        actor.tell(cmd.PlayerAction(human, action))
        await until(lambda logged=logged: actor.deal.next_log_seq > logged)
    await quiet(actor)
    clock.advance(10)
    await quiet(actor)
    before = {seat: view(actor.deal.state, seat) for seat in "ESWN"}
    deadline = actor.deal.deadline
    await manager.shutdown()
    assert all(h.closed_with is not None and h.closed_with[0] == 1012 for h in humans)

    reopened = RoomManager(store, clock, manager.table_settings)
    try:
        assert await reopened.recover() >= 1
        again = reopened.get(room_id)
        # Before the reopened actor takes any step, the table is exactly as it was.
        assert {seat: view(again.deal.state, seat) for seat in "ESWN"} == before
        # The 10 s the server was "down" after the last action are given back to the deal.
        assert abs(again.deal.deadline - (deadline + 10)) < 1e-3
        records = await store.load_open_rooms()
        deal = next(r for r in records if r.room_id == room_id).open_deal
        assert deal is not None
        # The reopened actor may already have let a bot play on (nobody is connected), so
        # the log starts with what was played before the restart.
        logged = deal.actions[: len(played)]
        assert [Action.from_json(a.action) for a in logged] == [Action.from_json(a) for a in played]
        rebuilt = replay(DealSettings("hk"), deal.seed, [a.action for a in logged])
        assert view(rebuilt, "E") == before["E"]
        # Every pending seat gets a fresh turn timer; with nobody connected the bots then play.
        await until(lambda: again.seq > 0)
        await until(lambda: again.deal.next_log_seq > len(played) + 1 or again.deal.ended)
    finally:
        await reopened.shutdown()


async def test_a_room_with_no_connection_closes_after_the_idle_time(
    manager: RoomManager, store: Store, clock: ManualClock
) -> None:
    room_id = await manager.create_room(RoomSettings(variant="hk"))
    actor = manager.get(room_id)
    await manager.join(room_id, "Ana")
    clock.advance(manager.table_settings.idle_close_seconds - 1)
    await quiet(actor)
    assert actor.status == "waiting"
    clock.advance(2)
    await until(lambda: actor.status == "closed")
    assert room_id not in [r.room_id for r in await store.load_open_rooms()]


async def test_the_next_deal_starts_by_itself_after_the_pause(
    manager: RoomManager, clock: ManualClock
) -> None:
    room_id = await manager.create_room(RoomSettings(variant="kaki3", rounds=2))
    actor = manager.get(room_id)
    watcher = RecordingConnection(None)
    actor.tell(cmd.Connect(watcher, None))
    await manager.add_bots(room_id)
    await until(lambda: any(m["type"] == "result" for m in watcher.sent))
    result = next(m for m in watcher.sent if m["type"] == "result")
    assert result["next_deal_at"] == round(
        (clock.now() + manager.table_settings.next_deal_seconds) * 1000
    )
    await quiet(actor)
    assert actor.deal.deal_no == 1 and actor.deal.ended
    clock.advance(manager.table_settings.next_deal_seconds)
    await until(lambda: actor.deal.deal_no == 2)
    # The second deal's dealer is the first deal's next dealer, seated East.
    next_dealer_name = result["seat_players"][result["next_dealer"]]
    east_player = actor.deal.seat_players["E"]
    assert actor.players[east_player].name == next_dealer_name


async def test_a_newcomer_gets_a_grace_before_the_bot_plays_their_seat(
    manager: RoomManager, database_url: str, clock: ManualClock
) -> None:
    room_id = await manager.create_room(RoomSettings(variant="kaki3"))
    actor = manager.get(room_id)
    await manager.join(room_id, "Ana")  # Ana (East) joins, then fills the seats from the lobby
    await manager.add_bots(room_id)
    await quiet(actor)
    assert actor.deal.next_log_seq == 1, "nobody plays East's first discard during the grace"
    clock.advance(manager.table_settings.join_grace_seconds)
    await until(lambda: actor.deal.next_log_seq > 1 or actor.deal.ended)
    with sqlite3.connect(database_url.split("///", 1)[1]) as db:
        first = db.execute(
            "SELECT seat, by_bot, bot_reason FROM deal_actions ORDER BY deal_id, seq LIMIT 1"
        ).fetchone()
    assert first == ("E", 1, "disconnected")

"""A restart between two deals keeps the dealer rotation, the round wind and the deal count."""

from __future__ import annotations

from typing import Any

from server.engine.game import Game
from server.rooms import commands as cmd
from server.rooms.clock import ManualClock
from server.rooms.manager import RoomManager, rotation_after
from server.rooms.settings import RoomSettings
from server.store import Store
from server.store.records import FinishedDealRecord
from tests.rooms.conftest import RecordingConnection, quiet, until


def results_of(watcher: RecordingConnection) -> list[dict[str, Any]]:
    return [message for message in watcher.sent if message["type"] == "result"]


async def test_a_restart_between_deals_keeps_dealer_round_wind_and_deal_count(
    store: Store, clock: ManualClock, manager: RoomManager
) -> None:
    room_id = await manager.create_room(RoomSettings(variant="hk", rounds=4))
    actor = manager.get(room_id)
    watcher = RecordingConnection(None)
    await actor.queue.put(cmd.Connect(watcher))
    await manager.add_bots(room_id)
    # The engine's Game is the independent reckoning of the rotation (docs/engine.md).
    game = Game("hk", seed=0, rounds=4)
    # Play bot deals until the deal has passed, so the next dealer is not player 0.
    for _ in range(20):
        seen = len(game.results)
        await until(lambda seen=seen: len(results_of(watcher)) > seen, timeout=60)
        result = results_of(watcher)[-1]
        game.record(result)
        if game.player_at("E") != 0:
            break
        await quiet(actor)
        clock.advance(manager.table_settings.next_deal_seconds)
    assert game.player_at("E") != 0
    await quiet(actor)
    assert actor.deal is not None and actor.deal.ended, "stopped between two deals"
    await manager.shutdown()

    reopened = RoomManager(store, clock, manager.table_settings)
    try:
        assert await reopened.recover() >= 1
        again = reopened.get(room_id)
        await until(lambda: again.deal is not None and not again.deal.ended)
        assert again.deal.deal_no == len(game.results) + 1
        assert again.deal.seat_players["E"] == game.player_at("E")
        assert again.deal.seat_players == {seat: game.player_at(seat) for seat in "ESWN"}
        assert again.deal.state.settings.round_wind == game.round_wind
        assert again.public_room()["round_wind"] == game.round_wind
    finally:
        await reopened.shutdown()


def test_the_rotation_rebuilt_from_finished_deals_reaches_the_south_round() -> None:
    # Five passes of the deal (E -> S each time) and one dealer repeat, as stored rows.
    game = Game("hk", seed=0, rounds=2)
    finished = []
    for deal_no, next_dealer in enumerate(["S", "S", "E", "S", "S", "S"], start=1):
        seat_players = {seat: game.player_at(seat) for seat in "ESWN"}
        finished.append(FinishedDealRecord(deal_no, seat_players, next_dealer))
        game.record({"scores": {}, "next_dealer": next_dealer})
    progress = rotation_after(RoomSettings(variant="hk", rounds=2), finished)
    assert progress.round_wind == game.round_wind == "S"
    assert progress.deals_played == 6
    assert progress.seat_players() == {seat: game.player_at(seat) for seat in "ESWN"}
    assert progress.seat_players()["E"] == 1

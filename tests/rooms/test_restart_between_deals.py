"""A restart between two deals keeps the dealer rotation, the round wind and the deal count."""

from __future__ import annotations

from typing import Any

from server.engine.game import Game
from server.rooms import commands as cmd
from server.rooms.clock import ManualClock
from server.rooms.manager import RoomManager, game_after
from server.rooms.seating import seat_players
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
    actor.tell(cmd.Connect(watcher, None))
    await manager.add_bots(room_id)
    # The engine's Game is the independent reckoning of the rotation (docs/engine.md).
    game = Game("hk", seed=0, rounds=4)
    # Play bot deals until the deal has passed, so the next dealer is not player 0. These
    # tables use baseline bots, which seldom reach 3 fan at Hong Kong: the dealer keeps the
    # deal after about 85% of their deals, so 20 deals failed to pass it about once in 25
    # runs; 150 deals fail about once in 10^10.
    for _ in range(150):
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
    # Five passes of the deal (E -> S each time) and one dealer repeat, as stored rows; the
    # seating of each row is what it was (player 0 East, then 1, 2, 3, 0 after each pass).
    dealers = [0, 1, 2, 2, 3, 0]
    finished = [
        FinishedDealRecord(
            deal_no, {seat: (dealer + i) % 4 for i, seat in enumerate("ESWN")}, next_dealer
        )
        for deal_no, (dealer, next_dealer) in enumerate(
            zip(dealers, ["S", "S", "E", "S", "S", "S"], strict=True), start=1
        )
    ]
    rebuilt = game_after(RoomSettings(variant="hk", rounds=2), finished)
    assert rebuilt.round_wind == "S"
    assert rebuilt.deal_number == 6
    assert seat_players(rebuilt) == {"E": 1, "S": 2, "W": 3, "N": 0}

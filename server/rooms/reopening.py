"""What a room was when the server stopped, rebuilt from its store record.

Pure: the stored players, scores and finished deals give the game's position, and an
unfinished deal is replayed from its seed and logged actions. `RoomActor.from_record`
(server/rooms/table.py) puts the result on a fresh actor.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from server.engine import Action, DealSettings, replay
from server.engine.game import Game
from server.engine.rules import TableRules
from server.rooms.deal_in_play import DealInPlay
from server.rooms.players import Player
from server.rooms.seating import new_game, record_result
from server.rooms.settings import RoomSettings


def game_after(settings: RoomSettings, finished_deals: list[Any]) -> Game:
    """The room's game after `finished_deals` (in play order), rebuilt from their results.

    Each finished deal's stored result names the next dealer's seat, which is all the
    rotation needs: replaying them gives the next dealer, the passes of the deal (Hong Kong's
    round wind) and the deals played, for a restart between deals as well as during one.
    """
    game = new_game(settings)
    for finished in finished_deals:
        record_result(game, {"scores": finished.scores, "next_dealer": finished.next_dealer})
    return game


@dataclass
class ReopenedRoom:
    """A stored room's position: who sits, the scores, the game, and the deal in play."""

    settings: RoomSettings
    players: list[Player]
    running_scores: dict[int, int]
    game: Game
    deal: DealInPlay | None
    # Between deals with every seat taken: the next deal starts at once.
    deal_due: bool
    # What the host did (the last events, and how many), and from the table log the
    # time banks (docs/persistence.md, "The table log").
    host_events: list[dict[str, Any]] = field(default_factory=list)
    host_event_count: int = 0
    time_banks: dict[str, Any] = field(default_factory=dict)


def reopened_room(record: Any, now: float) -> ReopenedRoom:
    """Rebuild a room from `Store.load_open_rooms`' record; an open deal's clock restarts at
    `now` with the deal time that was left."""
    settings = RoomSettings.from_json({"variant": record.variant, **record.settings})
    players = [
        Player(stored.player_index, stored.name, stored.token_hash, stored.is_bot)
        for stored in sorted(record.players, key=lambda p: p.player_index)
    ]
    running_scores = {p.player_index: int(record.scores.get(p.player_index, 0)) for p in players}
    game = game_after(settings, record.finished_deals)
    table_log = record.settings.get("table_log") or {}
    time_banks = dict(table_log.get("time_banks", {}))
    host_events = list(record.host_events)
    open_deal = record.open_deal
    if open_deal is None:
        return ReopenedRoom(
            settings,
            players,
            running_scores,
            game,
            deal=None,
            deal_due=record.status == "playing" and len(players) == len(settings.seats),
            host_events=host_events,
            host_event_count=record.host_event_count,
            time_banks=time_banks,
        )
    actions = [Action.from_json(stored.action) for stored in open_deal.actions]
    stored_rules = open_deal.settings.get("rules")
    # A deal replays by the rules it was dealt with (stored with it); an older deal has
    # none stored and was played by the room's.
    rules = (
        TableRules.from_json(stored_rules, settings.variant)
        if stored_rules is not None
        else settings.table_rules
    )
    state = replay(
        DealSettings(
            variant=settings.variant,
            round_wind=open_deal.settings.get("round_wind", "E"),
            rules=rules,
        ),
        open_deal.seed,
        actions,
    )
    left = open_deal.deal_seconds_left
    seconds_left = settings.deal_seconds if left is None else float(left)
    deal = DealInPlay(
        deal_id=open_deal.deal_id,
        deal_no=open_deal.deal_no,
        seed=open_deal.seed,
        seat_players={seat: int(index) for seat, index in open_deal.seat_players.items()},
        state=state,
        deadline=now + seconds_left,
        next_log_seq=max((stored.seq for stored in open_deal.actions), default=0) + 1,
    )
    return ReopenedRoom(
        settings,
        players,
        running_scores,
        game,
        deal=deal,
        deal_due=False,
        host_events=host_events,
        host_event_count=record.host_event_count,
        time_banks=time_banks,
    )

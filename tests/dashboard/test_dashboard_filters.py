"""The dashboard's filters are declared once (`DealFilters.from_query`) and serve every
list route and every table a view reads."""

from __future__ import annotations

import inspect
from datetime import UTC, datetime

import pytest

from server.app import create_app
from server.dashboard import summaries
from server.dashboard.filters import DealFilters, FilterError
from server.store.schema import chart_counts, deal_actions, deal_players, deals, player_totals

LIST_ROUTES = ("deals", "standings", "charts", "operations")


def test_every_list_route_takes_exactly_the_declared_filters() -> None:
    declared = set(inspect.signature(DealFilters.from_query).parameters)
    assert declared == {"variant", "room", "player", "outcome", "since", "until"}
    paths = create_app().openapi()["paths"]
    own = {"deals": {"limit", "offset"}, "standings": {"include_bots", "limit"}}
    for route in LIST_ROUTES:
        parameters = paths[f"/api/dashboard/{route}"]["get"]["parameters"]
        names = {parameter["name"] for parameter in parameters if parameter["in"] == "query"}
        assert names == declared | own.get(route, set()), route


def test_one_filter_becomes_the_same_term_on_each_table() -> None:
    filters = DealFilters.from_query(variant="hk", player="Ana")
    for table in (deal_players, player_totals, chart_counts):
        rendered = sorted(str(term) for term in filters.terms_on(table))
        assert rendered == [
            f"{table.name}.player_name = :player_name_1",
            f"{table.name}.variant = :variant_1",
        ], table.name
    # `deals` has no player column: a player is one seated in the deal.
    on_deals = [str(term) for term in filters.on_deals(deals)]
    assert on_deals[0] == "deals.ended_at IS NOT NULL"
    assert "EXISTS" in on_deals[2] and "deal_players.player_name" in on_deals[2]


def test_a_filter_a_table_cannot_answer_is_refused() -> None:
    with pytest.raises(ValueError, match="player_totals cannot be filtered by room_id"):
        DealFilters(room_id="room-a").terms_on(player_totals)
    with pytest.raises(ValueError, match="deal_actions cannot be filtered by date"):
        DealFilters(since=datetime(2026, 11, 1, tzinfo=UTC)).terms_on(deal_actions)


def test_the_summaries_answer_only_the_filters_they_keep_apart() -> None:
    assert DealFilters(variant="hk", player="Ana").chosen() == {"variant", "player"}
    assert summaries.answered_by_summaries(DealFilters(variant="hk", player="Ana"))
    assert not summaries.answered_by_summaries(DealFilters(outcome="draw"))


def test_bad_values_name_their_parameter() -> None:
    with pytest.raises(FilterError, match="^outcome: 'lost'"):
        DealFilters.from_query(outcome="lost")
    with pytest.raises(FilterError, match="^since must be before until"):
        DealFilters.from_query(since="2026-11-02", until="2026-11-01")

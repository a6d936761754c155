"""Every query parameter and path value of every read route, fuzzed against a real server
(issue 25, points 6 and 10): never a 500, always a documented code in our own words."""

from __future__ import annotations

from urllib.parse import quote

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.error_codes import assert_documented_error
from tests.api.live_server import LiveServer

FILTERS = ["variant", "room", "player", "outcome", "since", "until"]
RULES = ["min_fan", "fan_cap", "points", "win_payment", "time_bank_seconds"]
SECRETS = ["invite", "token"]
# Each read route's path (its `{...}` values fuzzed too) and query fields.
ROUTES: list[tuple[str, list[str]]] = [
    ("/api/rooms", ["status", "limit", "cursor"]),
    ("/api/house-rules/{variant}", RULES),
    ("/api/variants/{variant}", RULES),
    ("/api/rooms/{room}", SECRETS),
    ("/api/rooms/{room}/results", SECRETS),
    ("/api/rooms/{room}/settle-up", ["currency", "minor_per_point", *SECRETS]),
    ("/api/rooms/{room}/deals/{number}", SECRETS),
    ("/api/rooms/{room}/deals/{number}/export", SECRETS),
    ("/rooms/{room}/deals/{number}", SECRETS),
    ("/api/dashboard/deals", [*FILTERS, "limit", "offset"]),
    ("/api/dashboard/deals/{number}", []),
    ("/api/dashboard/standings", [*FILTERS, "include_bots", "limit"]),
    ("/api/dashboard/charts", FILTERS),
    ("/api/dashboard/operations", FILTERS),
    ("/api/dashboard/rooms/{room}/settlement", ["currency", "minor_per_point"]),
]
TRICKY = [
    "",
    "0",
    "-1",
    "1" * 5000,
    "9" * 12,
    "²",
    "１",
    "٣",
    "1e3",
    "1.0",
    " 1",
    "NaN",
    "true",
    "hk",
    "kaki3",
    "points",
    "half",
    "MYR",
    "waiting,playing",
    "0001-01-01T00:00:00+23:59",
    "9999-12-31T23:59:59-23:59",
    "2026-12-01",
    "\x00",
    "../..",
]
texts = st.one_of(
    st.sampled_from(TRICKY),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
)


def test_no_query_or_path_value_answers_500_or_foreign_words(live: LiveServer) -> None:
    with httpx.Client(base_url=live.http_url, timeout=10) as client:
        room = client.post("/api/rooms", json={"variant": "kaki3"}).json()["room_id"]

        @settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(
            route=st.sampled_from(ROUTES),
            path_values=st.fixed_dictionaries(
                {"variant": texts, "room": st.one_of(st.just(room), texts), "number": texts}
            ),
            picks=st.lists(st.tuples(st.integers(0, 20), texts), max_size=4),
        )
        def probe(
            route: tuple[str, list[str]],
            path_values: dict[str, str],
            picks: list[tuple[int, str]],
        ) -> None:
            template, fields = route
            segments = {key: quote(value, safe="") or "x" for key, value in path_values.items()}
            path = template.format(**segments)
            query = {fields[index % len(fields)]: value for index, value in picks} if fields else {}
            answer = client.get(path, params=query)
            assert answer.status_code < 500, (path, query, answer.text)
            if answer.status_code >= 400 and "application/json" in answer.headers.get(
                "content-type", ""
            ):
                assert_documented_error(answer)

        probe()

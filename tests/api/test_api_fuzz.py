"""Random and malformed messages thrown at a live table never crash it or change it unfairly."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import httpx
from websockets.exceptions import ConnectionClosed

from server.engine import Action, DealSettings, replay, view
from tests.api.deal_truth import logged_deals
from tests.api.live_server import LiveServer, TableClient, create_room, join

TILES = ["1p", "5p", "9p", "1z", "7z", "j", "1f", "0p", "10p", "x", "", "5m", "9s"]
TYPES = [
    "discard",
    "chow",
    "pong",
    "kong",
    "win",
    "pass",
    "concealed_kong",
    "added_kong",
    "sink",
    "swap",
    "timeout",
    "??",
]


def random_junk(rng: random.Random, legal: list[dict]) -> str:
    """One hostile frame: broken JSON, wrong shapes, random actions, or a mangled legal action."""
    choice = rng.randrange(9)
    if choice == 0:
        return rng.choice(
            ["{", "}", "null", "[]", '"action"', "1e999", '{"type":', "\x00", "{" * 2000]
        )
    if choice == 1:
        return json.dumps(
            {"type": rng.choice(["action", "next_deal", "ping", "state", "", "ACTION", None, 3])}
        )
    if choice == 2:
        return json.dumps(
            {"type": "action", "action": rng.choice([None, 1, "pass", [], {}, {"type": None}])}
        )
    if choice == 3:
        action = {
            "type": rng.choice(TYPES),
            "tile": rng.choice(TILES),
            "tiles": " ".join(rng.sample(TILES, 3)),
        }
        return json.dumps({"type": "action", "action": action, "id": rng.randrange(1000)})
    if choice == 4 and legal:
        action = dict(rng.choice(legal))
        action[rng.choice(["seat", "tile", "tiles", "type", "fei_as"])] = rng.choice(
            [*TILES, "N", "S", 7, None]
        )
        return json.dumps({"type": "action", "action": action})
    if choice == 5:
        return json.dumps(
            {"type": "action", "action": {"type": "discard", "tile": "1p"}, "id": "x" * 100}
        )
    if choice == 6:
        return json.dumps(
            {
                "type": "action",
                "action": {"type": "discard", "tile": rng.choice(TILES)},
                "extra": list(range(50)),
            }
        )
    if choice == 7:
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 60)))
    return json.dumps({"type": "next_deal", "id": rng.random()})


async def test_fuzzed_table_still_finishes_its_deal_correctly(
    live: LiveServer, http: httpx.AsyncClient, tmp_path: Path
) -> None:
    rng = random.Random(20261129)
    room_id = await create_room(http, "kaki3")
    seated = [await join(http, room_id, name) for name in ("Ana", "Bo", "Cy")]
    players = [await TableClient.open(live.ws_url(room_id, s["token"])) for s in seated]
    spectator = await TableClient.open(live.ws_url(room_id))
    troll = players[0]
    sent = 0

    # Between its real moves, Ana's client sends bursts of junk (kept under the rate limit);
    # the spectator throws junk too. The others play normally.
    async def ana_plays_and_trolls() -> dict:
        nonlocal sent
        while True:
            message = await troll.receive(timeout=30)
            if message["type"] == "result":
                return message
            if message["type"] == "error" and message["code"] == "rate_limited" and troll.states:
                # Our own junk used up the rate: our real move may have been dropped, so resend.
                await asyncio.sleep(0.3)
                troll.forget_answer()
                await troll.act_if_due(troll.states[-1])
            if message["type"] == "state":
                for _ in range(rng.randrange(0, 3)):
                    await troll.socket.send(random_junk(rng, message.get("legal") or []))
                    sent += 1
                await troll.act_if_due(message)

    async def spectator_trolls() -> None:
        try:
            for _ in range(15):
                await spectator.socket.send(random_junk(rng, []))
                await asyncio.sleep(0.1)
        except ConnectionClosed:
            pass

    results = await asyncio.gather(
        ana_plays_and_trolls(),
        players[1].play_until_result(),
        players[2].play_until_result(),
        spectator_trolls(),
    )
    result = results[0]
    assert result["outcome"] in ("win", "draw")
    # How much junk went in during the deal depends on how long the deal ran (a random
    # seed), and answers to the last of it may come after the result. Junk sent now,
    # between deals, must be answered too: one error each, naming its id.
    await asyncio.sleep(2.5)  # let the rate limit's bucket refill
    late_ids = {f"late-{n}" for n in range(3)}
    for late_id in sorted(late_ids):
        await troll.socket.send(json.dumps({"type": "shout", "id": late_id}))
        sent += 1
    while late_ids - {e.get("id") for e in troll.errors}:
        await troll.receive(timeout=10)
    assert sent > 3 and troll.errors, "the junk was answered with errors"
    assert {e["code"] for e in troll.errors} <= {
        "bad_json",
        "bad_message",
        "unknown_type",
        "bad_action",
        "not_legal",
        "no_deal",
        "message_too_large",
        "rate_limited",
    }
    # The logged deal replays to the very result the players were sent: no junk got in.
    deal = logged_deals(tmp_path / "hall.sqlite3", room_id)[0]
    final = replay(
        DealSettings("kaki3"), deal["seed"], [Action.from_json(a) for a in deal["actions"]]
    )
    assert view(final, None)["result"]["outcome"] == result["outcome"]
    assert view(final, None)["result"]["scores"] == result["scores"]
    assert all(a["type"] != "timeout" for a in deal["actions"])
    assert (await http.get("/healthz")).status_code == 200

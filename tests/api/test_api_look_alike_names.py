"""Look-alike names over real HTTP (issue 25, point 9): "Аna" (a Cyrillic А) cannot join a
table where Ana sits; the refusal is the usual 409 `name_taken`, naming the look-alike."""

from __future__ import annotations

import httpx

from tests.api.live_server import create_room, invited, join, room_state


async def test_a_look_alike_of_a_seated_name_is_refused_as_taken(http: httpx.AsyncClient) -> None:
    room_id = await create_room(http, "hk")
    await join(http, room_id, "Ana")
    # A Cyrillic А; both a Cyrillic (А and а around a Latin n); fullwidth; capitals.
    for look_alike in ("\u0410na", "\u0410n\u0430", "Ａｎａ", "ANA"):
        answer = await http.post(
            f"/api/rooms/{room_id}/join", json=invited(room_id, name=look_alike)
        )
        error = answer.json()["error"]
        assert (answer.status_code, error["code"]) == (409, "name_taken"), look_alike
        assert "'Ana'" in error["message"], error
    # Not every Cyrillic name is a look-alike: "Ана" reads "AHA".
    assert (await join(http, room_id, "Anna"))["player_index"] == 1
    assert (await join(http, room_id, "\u0410\u043d\u0430"))["player_index"] == 2
    names = [player["name"] for player in (await room_state(http, room_id))["players"]]
    assert names == ["Ana", "Anna", "\u0410\u043d\u0430"]

"""Who may call each sign-up, lobby and co-director route (issue 20), as a matrix: no
token, a player, a waitlisted sign-up's token, a co-director with every right, one who
reviews posts only, a revoked co-director, and the director. Also the director's own
routes a review-only co-director is refused (start, pause, add a player)."""

from __future__ import annotations

from typing import Any

import pytest
from httpx import AsyncClient

from tests.service.helpers import TB_SETTINGS, bearer, create_game, ok

ROLES = ("nobody", "player", "waiting", "co_all", "co_review", "co_revoked", "director")
DENIED_ALL = {"nobody": 401, "player": 403, "waiting": 401, "co_revoked": 401}

# (method, path, body, who may: "director" | "co" (every co-director right) | "review")
ROUTES: list[tuple[str, str, Any, str]] = [
    ("GET", "/signups", None, "review"),
    ("GET", "/directors", None, "review"),
    ("GET", "/audit", None, "review"),
    ("PUT", "/signup", {"open": True, "max_players": 1}, "co"),
    ("PUT", "/listing", {"listed": True}, "co"),
    ("POST", "/signup/post", None, "co"),
    ("PATCH", "/signups/{sid}", {"side": "A"}, "co"),
    ("POST", "/signups/{sid}/approve", None, "co"),
    ("POST", "/signups/{sid}/reject", None, "co"),
    ("POST", "/players", {"name": "手加", "side": "B"}, "co"),
    ("POST", "/directors", {"name": "又一位"}, "director"),
    ("DELETE", "/directors/{did}", None, "director"),
    ("POST", "/start", None, "co"),
    ("POST", "/pause", None, "co"),
]


def _expected(role: str, who: str) -> str:
    if role in DENIED_ALL:
        return str(DENIED_ALL[role])
    if role == "director" or (role == "co_all" and who in ("co", "review")):
        return "allowed"
    if role == "co_review" and who == "review":
        return "allowed"
    return "403"


@pytest.mark.parametrize("role", ROLES)
async def test_each_route_answers_each_caller_as_the_matrix_says(
    client: AsyncClient, role: str
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    ok(await game.put("/signup", "director", {"open": True, "max_players": 1}))
    seat = ok(await client.post(f"{game.url}/signups", json={"name": "甲", "side": "A"}), 201)
    waiting = ok(await client.post(f"{game.url}/signups", json={"name": "乙"}), 201)
    co_all = ok(await game.post("/directors", "director", {"name": "全权"}), 201)
    co_review = ok(
        await game.post("/directors", "director", {"name": "审稿", "scope": "review"}), 201
    )
    revoked = ok(await game.post("/directors", "director", {"name": "已撤"}), 201)
    ok(await game.delete(f"/directors/{revoked['id']}", "director"))
    spare = ok(await game.post("/directors", "director", {"name": "备用"}), 201)
    tokens = {
        "nobody": None,
        "player": seat["token"],
        "waiting": waiting["token"],
        "co_all": co_all["token"],
        "co_review": co_review["token"],
        "co_revoked": revoked["token"],
        "director": game.director,
    }
    ok(
        await game.put(
            "/signup", "director", {"open": True, "approval": "director", "max_players": 1}
        )
    )
    pending = ok(await client.post(f"{game.url}/signups", json={"name": "丙"}), 201)
    ok(await client.post(f"{game.url}/signups", json={"name": "丁", "side": "B"}), 201)
    wrong: list[str] = []
    for method, path, body, who in ROUTES:
        url = game.url + path.format(sid=pending["id"], did=spare["id"])
        answer = await client.request(method, url, headers=bearer(tokens[role]), json=body)
        got = str(answer.status_code)
        seen = "allowed" if got not in ("401", "403") else got
        if seen != _expected(role, who):
            wrong.append(
                f"{method} {path}: {got} (expected {_expected(role, who)}) {answer.text[:80]}"
            )
    assert not wrong, "\n".join(wrong)
    # A sign-up's own routes: its token or the director; nobody else.
    own = f"{game.url}/signups/{waiting['id']}"
    answer = await client.get(own, headers=bearer(tokens[role]))
    allowed_own = role in ("waiting", "director", "co_all", "co_review")
    assert (answer.status_code == 200) == allowed_own, (role, answer.status_code, answer.text)


async def test_a_review_only_co_director_reviews_posts_and_is_audited_by_name(
    client: AsyncClient,
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    ok(await game.put("/publishing", "director", {"review": "always"}))
    ok(await game.put("/signup", "director", {"open": True}))
    posted = ok(await game.post("/signup/post", "director"), 201)
    reviewer = ok(
        await game.post("/directors", "director", {"name": "审稿", "scope": "review"}), 201
    )
    url = f"{game.url}/posts/{posted['post_id']}/approve"
    post = ok(await client.post(url, headers=bearer(reviewer["token"])))
    assert post["status"] == "published" and post["kind"] == "signup_list"
    assert "报名进行中" in post["bodies"]["text"] and "Sign-ups are open" in post["bodies"]["text"]
    audit = ok(await game.get("/audit", "director"))
    entry = next(a for a in audit if a["payload"].get("by") == "审稿")
    assert entry["actor"] == "co_director"

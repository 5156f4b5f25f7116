"""The record directors can trust (issue 21): per account, games played, finished and
dropped, and the share of deadlines met with an order or "ready" — computed from the games'
own steps (deadlines by the game's own timer kinds, here the toy duel's), only from finished
games, and shown to a director only with the player's consent."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from httpx import AsyncClient

from app.clock import FakeClock
from tests.service.helpers import TB_SETTINGS, bearer, create_game, ok, problem, tick
from tests.service.page_text import problems
from tests.service.passkey_helpers import AccountBrowser, SoftPasskey
from tests.service.test_toy_game import ROCK, ROUND, duel
from tests.service.test_web_sessions import invite
from tests.service.web_helpers import Browser, browse, join, post_form
from tests.toy.registration import toy_registered


@pytest.fixture(autouse=True)
def toy() -> Iterator[str]:
    with toy_registered() as name:
        yield name


async def test_the_record_counts_deadlines_met_in_finished_games_with_consent(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    played = await duel(client, rounds=2)
    person = AccountBrowser(browser())
    await join(person.http, await invite(played, "甲"))
    ok(await person.register("Ann", SoftPasskey()), 201)
    await played.order("甲", ROCK)  # round 1 in time; round 2 missed
    await tick(client, clock, ROUND)
    await tick(client, clock, ROUND)
    assert (await played.summary())["status"] == "finished"
    running = await duel(client, rounds=2)
    await join(person.http, await invite(running, "甲"))
    await running.order("甲", ROCK)  # a running game's orders are not counted yet

    record = ok(await person.http.get("/api/v1/me/record"))
    assert record == {
        "games_played": 2,
        "games_finished": 1,
        "games_dropped": 0,
        "deadlines": 2,
        "deadlines_met": 1,
        "deadlines_met_share": 0.5,
    }

    # A director reviewing the sign-up sees it only once the player shares it.
    pid = running.players["甲"]["id"]
    path = f"/players/{pid}/record"
    problem(await running.get(path, "director"), 404, "record_not_shared")
    headers = {"x-csrf-token": await person.csrf()}
    shared = await person.http.put(
        "/api/v1/me/settings", json={"share_record": True}, headers=headers
    )
    assert ok(shared) == {"share_record": True}
    seen = ok(await running.get(path, "director"))
    assert (seen["name"], seen["deadlines_met"], seen["deadlines"]) == ("Ann", 1, 2)
    problem(await running.get(path, "乙"), 403, "forbidden")
    # The same on the director's page, as the player reads nothing more than counts.
    desk = browser()
    await browse(desk, f"/director/{running.id}")
    await post_form(desk, f"/director/{running.id}/login", {"token": running.director})
    page = await browse(desk, f"/director/{running.id}/record/{pid}")
    assert page.status_code == 200 and "Ann" in page.text
    assert "按时下指令或准备：1 / 2 个截止时间" in page.text
    assert not problems(page.text, "zh", {running.id, pid})
    assert (await browse(browser(), f"/director/{running.id}/record/{pid}")).status_code == 401
    # A player without an account has no record to show.
    other = running.players["乙"]["id"]
    problem(await running.get(f"/players/{other}/record", "director"), 404, "record_not_shared")


async def test_a_seat_handed_to_someone_else_counts_as_dropped(
    client: AsyncClient, browser: Browser
) -> None:
    game = await duel(client, rounds=2)
    person = AccountBrowser(browser())
    await join(person.http, await invite(game, "甲"))
    ok(await person.register("Ann", SoftPasskey()), 201)
    ok(await game.post(f"/players/{game.players['甲']['id']}/replace", "director"))
    record = ok(await person.http.get("/api/v1/me/record"))
    assert (record["games_played"], record["games_dropped"]) == (1, 1)
    # The seat is no longer the account's: not in its games, not its token's to play.
    assert await person.my_games() == []
    made = await person.post("/me/tokens", {"name": "bot", "scopes": ["play"]})
    token = ok(made, 201)["token"]
    problem(await client.get(f"{game.url}/view", headers=bearer(token)), 401, "unauthorized")


async def test_a_director_reviewing_a_pending_sign_up_sees_the_shared_record(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    """Issue 21 item 4 with issue 20's sign-ups: a player signed in signs up on the page of a
    game where the director approves each sign-up; the console's list links the sign-up to
    its account's record, which shows once the player shares it."""
    played = await duel(client, rounds=2)
    person = AccountBrowser(browser())
    await join(person.http, await invite(played, "甲"))
    ok(await person.register("Ann", SoftPasskey()), 201)
    await played.order("甲", ROCK)
    await tick(client, clock, ROUND)
    await tick(client, clock, ROUND)
    wanted = await create_game(client, "team_battle", TB_SETTINGS)
    ok(await wanted.put("/signup", "director", {"open": True, "approval": "director"}))
    await browse(person.http, f"/g/{wanted.id}/signup")
    await post_form(person.http, f"/g/{wanted.id}/signup", {"name": "安"})
    (signup,) = ok(await wanted.get("/signups", "director"))
    assert signup["status"] == "pending" and signup["has_account"] is True
    desk = browser()
    await browse(desk, f"/director/{wanted.id}")
    await post_form(desk, f"/director/{wanted.id}/login", {"token": wanted.director})
    console = (await browse(desk, f"/director/{wanted.id}")).text
    link = f"/director/{wanted.id}/record/{signup['id']}"
    assert f'href="{link}"' in console and "往绩" in console
    assert (await browse(desk, link)).status_code == 404  # not shared yet: nothing shown
    headers = {"x-csrf-token": await person.csrf()}
    ok(await person.http.put("/api/v1/me/settings", json={"share_record": True}, headers=headers))
    page = await browse(desk, link)
    assert page.status_code == 200 and "Ann" in page.text
    assert "按时下指令或准备：1 / 2 个截止时间" in page.text

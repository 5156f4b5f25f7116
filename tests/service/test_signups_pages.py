"""The sign-up page (issue 20): phone-first, a name and a button; a seat taken leaves the
browser signed in to it; the waitlist and an offered seat are shown and acted on there."""

from __future__ import annotations

from httpx import AsyncClient

from app.api.security import CSRF_COOKIE
from tests.service.helpers import TB_SETTINGS, create_game, ok
from tests.service.web_helpers import Browser, browse, post_form


async def test_signing_up_on_the_page_signs_the_player_in_to_their_seat(
    client: AsyncClient, browser: Browser
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    phone = browser()
    page = await browse(phone, f"/g/{game.id}/signup")
    assert page.status_code == 200 and "这局游戏没有开放报名" in page.text
    ok(await game.put("/signup", "director", {"open": True, "max_players": 1}))
    page = await browse(phone, f"/g/{game.id}/signup")
    assert "报名进行中" in page.text and 'name="forum_name"' in page.text
    assert 'name="side"' in page.text  # the game has sides to ask for
    done = await post_form(phone, f"/g/{game.id}/signup", {"name": "小明", "forum_name": "xm"})
    assert done.status_code == 303 and done.headers["location"] == f"/play/{game.id}"
    play = await browse(phone, f"/play/{game.id}")
    assert play.status_code == 200 and "小明" in play.text
    mine = await browse(phone, f"/g/{game.id}/signup")
    assert "你已报名成功" in mine.text and "退出报名" in mine.text

    # The seat is taken: the next one waits, and sees their place.
    other = browser()
    await browse(other, f"/g/{game.id}/signup")
    waiting = await post_form(other, f"/g/{game.id}/signup", {"name": "小红"})
    assert waiting.status_code == 303 and waiting.headers["location"] == f"/g/{game.id}/signup"
    page = await browse(other, f"/g/{game.id}/signup")
    assert "你在候补名单上（第 1 位）" in page.text and "候补（1）" in page.text

    # A look-alike of a name taken comes back with the reason and what was typed.
    third = browser()
    await browse(third, f"/g/{game.id}/signup")
    refused = await post_form(third, f"/g/{game.id}/signup", {"name": "小明 ", "forum_name": "q"})
    assert refused.status_code == 303
    page = await browse(third, f"/g/{game.id}/signup")
    assert "相同或相似的名字" in page.text and 'value="q"' in page.text

    # Withdrawing on the page moves the waitlist up.
    gone = await post_form(phone, f"/g/{game.id}/signup/withdraw")
    assert gone.status_code == 303
    listing = ok(await game.get("/signup"))
    assert [p["name"] for p in listing["players"]] == ["小红"]


async def test_a_backup_takes_the_offered_seat_on_the_page(
    client: AsyncClient, browser: Browser
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    ok(await game.put("/signup", "director", {"open": True, "max_players": 2}))
    for name, side in (("甲", "A"), ("乙", "B")):
        ok(await client.post(f"{game.url}/signups", json={"name": name, "side": side}), 201)
    phone = browser()
    await browse(phone, f"/g/{game.id}/signup")
    await post_form(phone, f"/g/{game.id}/signup", {"name": "丙"})
    await game.start()
    players = ok(await game.get("/signups", "director"))
    seat = next(s for s in players if s["name"] == "甲")
    ok(await game.post(f"/players/{seat['player_id']}/drop", "director"))
    page = await browse(phone, f"/g/{game.id}/signup")
    assert "有空位留给你了" in page.text
    taken = await post_form(phone, f"/g/{game.id}/signup/accept")
    assert taken.status_code == 303 and taken.headers["location"] == f"/play/{game.id}"
    play = await browse(phone, f"/play/{game.id}")
    assert play.status_code == 200 and "甲" in play.text


async def test_the_lobby_lists_chosen_games_with_what_they_need(
    client: AsyncClient, browser: Browser
) -> None:
    hidden = await create_game(client, "team_battle", TB_SETTINGS, title="没人列出的局")
    recruiting = await create_game(client, "team_battle", TB_SETTINGS, title="招人局")
    ok(await recruiting.put("/signup", "director", {"open": True, "max_players": 3}))
    ok(await client.post(f"{recruiting.url}/signups", json={"name": "甲"}), 201)
    unlisted = await create_game(client, "team_battle", TB_SETTINGS, title="私下招人")
    ok(await unlisted.put("/signup", "director", {"open": True, "listed": False}))
    home = await browse(browser(), "/")
    assert "招人局" in home.text and "还差 2 人" in home.text
    assert f"/g/{recruiting.id}/signup" in home.text
    assert "没人列出的局" not in home.text and "私下招人" not in home.text
    # Closing sign-ups takes it off the list (by default); listing it keeps it on.
    ok(await recruiting.put("/signup", "director", {"open": False}))
    assert "招人局" not in (await browse(browser(), "/")).text
    ok(await hidden.put("/listing", "director", {"listed": True}))
    assert "没人列出的局" in (await browse(browser(), "/")).text
    # A game in setup is deleted: gone from everywhere.
    ok(await recruiting.delete("", "director"))
    assert (await client.get(f"{recruiting.url}/signup")).status_code == 404


async def test_refreshing_the_created_page_creates_no_game(
    client: AsyncClient, browser: Browser
) -> None:
    laptop = browser()
    await browse(laptop, "/director/new")
    made = await post_form(laptop, "/director/new", {"ruleset": "team_battle", "title": "一局"})
    assert made.status_code == 303
    created = made.headers["location"]
    for _ in range(3):
        assert (await browse(laptop, created)).status_code == 200
    game_id = created.split("/")[2]
    csrf = {"x-csrf-token": laptop.cookies.get(CSRF_COOKIE, "")}  # the director's cookie
    ok(await laptop.put(f"/api/v1/games/{game_id}/listing", json={"listed": True}, headers=csrf))
    home = await browse(browser(), "/")
    assert home.text.count("/g/") == 1

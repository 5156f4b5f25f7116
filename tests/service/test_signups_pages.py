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


async def test_the_director_runs_sign_ups_from_the_console(
    client: AsyncClient, browser: Browser
) -> None:
    from tests.service.test_web_console_pages import console, director, section, text_of

    game = await create_game(client, "team_battle", TB_SETTINGS)
    laptop = await director(browser, game)
    page = await console(laptop, game)
    assert "报名设置" in section(page, "signups") and "邀请协助导演" in page
    form = {
        "open": "1",
        "max_players": "2",
        "waitlist": "1",
        "max_waitlist": "10",
        "approval": "director",
        "closes_at": "2031-05-01T20:00",
        "listed": "1",
        "side_assignment": "seed",
    }
    saved = await post_form(laptop, f"/director/{game.id}/signups/settings", form)
    assert saved.status_code == 303 and saved.headers["location"].endswith("#signups")
    listing = ok(await game.get("/signup"))
    assert listing["open"] and listing["approval"] == "director" and listing["max_players"] == 2
    assert listing["closes_at"] == "2031-05-01T12:00:00+00:00"  # 20:00 in Asia/Shanghai
    made = ok(await client.post(f"{game.url}/signups", json={"name": "甲", "side": "B"}), 201)
    page = await console(laptop, game)
    part = text_of(section(page, "signups"))
    assert "甲" in part and "待确认" in part and f"/g/{game.id}/signup" in page
    assert 'value="2031-05-01T20:00"' in page
    approved = await post_form(laptop, f"/director/{game.id}/signups/{made['id']}/approve")
    assert approved.status_code == 303
    assert ok(await game.get("/signup"))["players"][0]["name"] == "甲"
    sided = await post_form(laptop, f"/director/{game.id}/signups/{made['id']}/side", {"side": "A"})
    assert sided.status_code == 303
    rows = ok(await game.get("/signups", "director"))
    assert rows[0]["side"] == "A"
    posted = await post_form(laptop, f"/director/{game.id}/signups/post")
    assert posted.status_code == 303
    kinds = [p["kind"] for p in ok(await game.get("/posts", "director"))]
    assert kinds == ["signup_list"]
    # A co-director: the token is shown once on the console, then revoked there.
    invited = await post_form(laptop, f"/director/{game.id}/co-directors", {"name": "小助手"})
    assert invited.status_code == 303
    page = await console(laptop, game)
    assert "只显示这一次" in page and "fpc_" in page
    (co,) = ok(await game.get("/directors", "director"))
    assert "fpc_" not in (await console(laptop, game))  # once only
    revoked = await post_form(laptop, f"/director/{game.id}/co-directors/{co['id']}/revoke")
    assert revoked.status_code == 303
    assert ok(await game.get("/directors", "director"))[0]["revoked_at"] is not None
    # A refused setting comes back with the reason.
    bad = await post_form(laptop, f"/director/{game.id}/signups/settings", {"max_players": "x"})
    assert bad.status_code == 303
    assert "请填写有效的数字" in await console(laptop, game)


async def test_a_co_director_signs_in_to_the_console_with_their_own_token(
    client: AsyncClient, browser: Browser
) -> None:
    from tests.service.test_web_console_pages import console, text_of

    game = await create_game(client, "team_battle", TB_SETTINGS)
    ok(await game.put("/signup", "director", {"open": True, "approval": "director"}))
    made = ok(await client.post(f"{game.url}/signups", json={"name": "甲"}), 201)
    helper = ok(await game.post("/directors", "director", {"name": "小助手"}), 201)
    reviewer = ok(
        await game.post("/directors", "director", {"name": "审稿", "scope": "review"}), 201
    )

    laptop = browser()
    await browse(laptop, f"/director/{game.id}")
    signed = await post_form(laptop, f"/director/{game.id}/login", {"token": helper["token"]})
    assert signed.status_code == 303
    assert "报名设置" in await console(laptop, game)
    approved = await post_form(laptop, f"/director/{game.id}/signups/{made['id']}/approve")
    assert approved.status_code == 303
    audit = ok(await game.get("/audit", "director"))
    entry = next(a for a in audit if a["action"] == "signup_approved")
    assert entry["actor"] == "co_director" and entry["payload"]["by"] == "小助手"

    other = browser()
    await browse(other, f"/director/{game.id}")
    await post_form(other, f"/director/{game.id}/login", {"token": reviewer["token"]})
    refused = await post_form(other, f"/director/{game.id}/signups/settings", {"open": "1"})
    assert refused.status_code == 303
    assert "只负责审稿" in text_of(await console(other, game))
    assert ok(await game.get("/signup"))["approval"] == "director"  # nothing changed

    ok(await game.delete(f"/directors/{helper['id']}", "director"))
    page = await browse(laptop, f"/director/{game.id}")
    assert 'name="token"' in page.text  # signed out: the sign-in form again

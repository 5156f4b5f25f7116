"""The player's page and the public pages as a person meets them (issue 16): before the
start, signed out, after a refused or accepted form (post/redirect/get), an instant
island action's outcome, the read-back of a text order, error pages, and the headers."""

from __future__ import annotations

import html
import re

import pytest
from httpx import AsyncClient, Response

from app.api.security import session_cookie_name
from app.clock import FakeClock
from app.web import routes, views
from app.web.flash import FLASH_COOKIE
from app.web.messages import LANG_COOKIE
from tests.service.helpers import TB_SETTINGS, Game, create_game, ok, problem, team_battle, tick
from tests.service.island_helpers import example_text, island_game, local, quiet_overrides
from tests.service.test_web_sessions import invite
from tests.service.web_helpers import Browser, browse, join, post_form

SIX = ["ann", "bob", "cat", "dan", "eve", "fay"]  # the example island's roster


def text_of(page: Response | str) -> str:
    """The visible text of a page (or part of one): no scripts, no tags, entities decoded."""
    body = page if isinstance(page, str) else page.text
    body = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", body)
    body = re.sub(r"</?span\b[^>]*>", "", body)  # inline: no space of its own
    body = re.sub(r"(?s)<[^>]+>", " ", body)
    return re.sub(r"\s+", " ", html.unescape(body)).strip()


def alert(page: Response) -> str:
    """The text of the page's error box (empty when there is none)."""
    parts = page.text.split('class="alert error"', 1)
    return text_of(parts[1].split("</p>")[0].partition(">")[2]) if len(parts) == 2 else ""


def english(http: AsyncClient) -> AsyncClient:
    http.cookies.set(LANG_COOKIE, "en")
    return http


async def player(game: Game, browser: Browser, who: str) -> AsyncClient:
    phone = browser()
    assert (await join(phone, await invite(game, who))).status_code == 303
    return phone


def inputs(page: Response, prefix: str) -> dict[str, str]:
    """The values the page's inputs named ``prefix…`` carry (what a browser would show)."""
    found = {}
    for tag in re.findall(r"<input\b[^>]*>", page.text):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and name.group(1).startswith(prefix):
            found[name.group(1)] = html.unescape(value.group(1)) if value else ""
    return found


async def follow(http: AsyncClient, answer: Response, game: Game) -> Response:
    """A form post answers 303 to the player's page; the browser then loads it."""
    assert answer.status_code == 303, (answer.status_code, answer.text[:300])
    assert answer.headers["location"] == f"/play/{game.id}"
    return await browse(http, answer.headers["location"])


# --- item 1: never JSON, never a crash ---------------------------------------------------
async def test_a_team_battle_player_who_joins_before_the_start_gets_the_waiting_page(
    client: AsyncClient, browser: Browser
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await game.add_player("张三", "A")
    await game.add_player("李四", "B")
    phone = await player(game, browser, "张三")
    page = await browse(phone, f"/play/{game.id}")
    assert page.status_code == 200, page.text[:300]
    assert page.headers["content-type"].startswith("text/html")
    words = text_of(page)
    assert "你是 张三（甲方）" in words
    assert '<span translate="no">张三</span>' in page.text  # user data, not to be translated
    assert "游戏还没有开始" in words and "李四" in words
    assert "就绪" not in words  # nothing to be ready for yet

    page = await browse(english(phone), f"/play/{game.id}")
    assert page.status_code == 200 and "The game has not started yet" in text_of(page)


async def test_an_unexpected_error_on_a_page_is_an_html_page_in_the_readers_language(
    client: AsyncClient, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await team_battle(client)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(views, "feed", broken)
    page = await browse(browser(), f"/g/{game.id}")
    assert page.status_code == 500
    assert page.headers["content-type"].startswith("text/html")
    assert "出错了" in text_of(page) and "操作未生效" in text_of(page)
    assert "internal_error" not in page.text and "a bug" not in page.text
    page = await browse(english(browser()), f"/g/{game.id}")
    assert page.status_code == 500 and "Something went wrong" in text_of(page)
    assert "nothing was changed" in text_of(page)

    # The API keeps problem+json.
    monkeypatch.setattr("app.services.games.view", broken)
    problem(await game.get("/view", "a1"), 500, "internal_error")


async def test_when_even_the_error_page_cannot_render_a_plain_html_page_answers(
    client: AsyncClient, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await team_battle(client)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("templates are broken")

    monkeypatch.setattr(routes.templates, "get_template", broken)
    page = await browse(browser(), f"/g/{game.id}")
    assert page.status_code == 500 and page.headers["content-type"].startswith("text/html")
    assert "出错了" in text_of(page) and "操作未生效" in text_of(page)
    page = await browse(english(browser()), f"/g/{game.id}")
    assert "Something went wrong" in text_of(page)


async def test_an_unknown_page_or_a_bad_query_is_an_html_page_and_the_api_stays_json(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    missing = await browse(browser(), f"/play/{game.id}/nothing/here")
    assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")
    assert "找不到该页面或游戏" in text_of(missing)
    bad = await browse(browser(), f"/g/{game.id}?verify=yes")
    assert bad.status_code == 422 and bad.headers["content-type"].startswith("text/html")
    assert "地址或表单里的内容有误" in text_of(bad)
    assert "query" not in text_of(bad)
    problem(await client.get("/api/v1/nothing"), 404, "not_found")


# --- item 2: the island before the start -------------------------------------------------
async def test_an_island_player_before_the_start_is_not_told_they_are_dead(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    clock.set(local(1, 9))
    game = await create_game(client, "island", quiet_overrides(), scenario=example_text())
    for name in ("ann", "bob", "cat"):
        await game.add_player(name)
    phone = await player(game, browser, "ann")
    words = text_of(await browse(phone, f"/play/{game.id}"))
    assert "你已经死亡" not in words and "已死亡" not in words
    assert "None" not in words
    assert "游戏还没有开始" in words and "你是 ann" in words and "bob" in words


# --- item 16: signed out -------------------------------------------------------------------
async def test_a_browser_without_a_session_is_told_how_to_get_back_in(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    page = await browse(browser(), f"/play/{game.id}")
    assert page.status_code == 200
    words = text_of(page)
    assert "还没有以玩家身份登录" in words and "新的邀请链接" in words
    assert f'href="/g/{game.id}"' in page.text


async def test_a_player_signed_out_by_the_director_is_told_why_and_keeps_the_cookie(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    phone = await player(game, browser, "b1")
    pid = game.players["b1"]["id"]
    ok(await game.post(f"/players/{pid}/revoke-sessions", "director"))
    page = await browse(phone, f"/play/{game.id}")
    assert page.status_code == 200
    words = text_of(page)
    assert "登录已经失效" in words and "新的邀请链接" in words
    # A GET changes nothing: the cookie is not cleared.
    cleared = [
        h for h in page.headers.get_list("set-cookie") if h.startswith(session_cookie_name(game.id))
    ]
    assert cleared == []
    page = await browse(english(phone), f"/play/{game.id}")
    assert "ask the director for a new invite link" in text_of(page)


# --- items 11, 12, 20: post/redirect/get, typed values kept, notices once ---------------
async def test_a_refused_deployment_redirects_with_the_reason_and_the_five_numbers(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    phone = await player(game, browser, "a1")
    troops = {f"troops.{i}": str(n) for i, n in enumerate([10, 10, 10, 10, 10])}
    answer = await post_form(phone, f"/play/{game.id}/orders", {"type": "deploy", **troops})
    page = await follow(phone, answer, game)
    assert page.status_code == 200
    reason = text_of(page.text.split('class="alert error"')[1].split("</p>")[0])
    assert "30" in reason, reason
    assert inputs(page, "troops.") == troops
    assert re.search(r'<details class="order-form" data-type="deploy" open>', page.text)
    assert (await game.view("a1"))["orders"] == []

    # Shown once: a reload (or a later visit) shows neither the reason nor the numbers.
    again = await browse(phone, f"/play/{game.id}")
    assert "alert error" not in again.text
    assert set(inputs(again, "troops.").values()) == {""}
    assert FLASH_COOKIE not in phone.cookies


async def test_an_accepted_order_says_so_once_without_a_query_string(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    phone = await player(game, browser, "a1")
    troops = {f"troops.{i}": "6" for i in range(5)}
    answer = await post_form(phone, f"/play/{game.id}/orders", {"type": "deploy", **troops})
    page = await follow(phone, answer, game)
    assert "指令已提交。" in text_of(page)
    assert "指令已提交。" not in text_of(await browse(phone, f"/play/{game.id}"))


async def test_a_refused_revision_keeps_the_typed_values_in_its_own_form(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    game = await team_battle(client)
    await game.order("a1", {"type": "deploy", "troops": [10, 5, 5, 5, 5]})
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    await tick(client, clock, 3600)
    order = await game.order(
        "a2", {"type": "dispatch", "moves": [{"from": 2, "to": 1, "troops": 2}]}
    )
    phone = await player(game, browser, "a2")
    typed = {"moves.0.from": "2", "moves.0.to": "1", "moves.0.troops": "99"}
    answer = await post_form(
        phone, f"/play/{game.id}/orders/{order['id']}/revise", {"type": "dispatch", **typed}
    )
    page = await follow(phone, answer, game)
    assert "alert error" in page.text
    opened = page.text.split('<details class="revise" open>')
    assert len(opened) == 2, "the revise form it came from is open again"
    form = opened[1].split("</details>")[0]
    assert 'name="moves.0.troops" step="1" min="1" value="99"' in form
    assert re.search(r'name="moves\.0\.from">.*?<option value="2" selected>', form)
    dispatch = [o for o in ok(await game.get("/orders", "a2")) if o["id"] == order["id"]]
    assert dispatch[0]["body"]["moves"] == [{"from": 2, "to": 1, "troops": 2}]


async def test_a_refused_withdrawal_or_ready_redirects_to_the_page_with_the_reason(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    phone = await player(game, browser, "a1")
    answer = await post_form(phone, f"/play/{game.id}/orders/nosuchorder/withdraw")
    page = await follow(phone, answer, game)
    assert "找不到该指令" in alert(page)
    ok(await game.post("/pause", "director"))
    page = await follow(phone, await post_form(phone, f"/play/{game.id}/ready"), game)
    assert "暂停" in alert(page) and "已标记为就绪。" not in text_of(page)
    assert (await game.view("a1"))["sides"]["A"]["ready"] is False


async def test_ready_is_not_announced_after_the_phase_changed(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    game = await team_battle(client)
    phone = await player(game, browser, "a1")
    answer = await post_form(phone, f"/play/{game.id}/ready")
    assert answer.status_code == 303 and answer.headers["location"] == f"/play/{game.id}"
    await tick(client, clock, 3600)  # deployment closes before the page is loaded
    assert (await game.view("a1"))["phase"] != "deployment"
    page = await browse(phone, f"/play/{game.id}")
    assert "已标记为就绪。" not in text_of(page)


async def test_ready_is_announced_while_the_phase_lasts(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    phone = await player(game, browser, "a1")
    page = await follow(phone, await post_form(phone, f"/play/{game.id}/ready"), game)
    assert "已标记为就绪。" in text_of(page)


# --- items 12, 25: text orders ---------------------------------------------------------
async def test_a_refused_text_order_keeps_its_text(client: AsyncClient, browser: Browser) -> None:
    game = await team_battle(client)
    phone = await player(game, browser, "a1")
    words = "部署 40 1 1 1 1"
    answer = await post_form(phone, f"/play/{game.id}/orders/text", {"text": words})
    page = await follow(phone, answer, game)
    assert "alert error" in page.text
    assert re.search(
        r'<textarea id="order-text"[^>]*>' + re.escape(words) + "</textarea>", page.text
    )
    assert (await game.view("a1"))["orders"] == []


async def test_a_text_order_reads_back_how_it_was_understood(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    phone = await player(game, browser, "a1")
    answer = await post_form(phone, f"/play/{game.id}/orders/text", {"text": "部署 6 6 6 6 6"})
    words = text_of(await follow(phone, answer, game))
    assert "指令已提交。" in words and "读作：" in words and "6" in words.split("读作：")[1]
    assert len((await game.view("a1"))["orders"]) == 1


async def test_read_back_first_shows_the_reading_and_submits_nothing(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    phone = await player(game, browser, "a1")
    start = await browse(phone, f"/play/{game.id}")
    assert f'formaction="/play/{game.id}/orders/read"' in start.text
    words = "部署 10 5 5 5 5"
    answer = await post_form(phone, f"/play/{game.id}/orders/read", {"text": words})
    page = await follow(phone, answer, game)
    shown = text_of(page)
    assert "读作：" in shown and "还没有提交" in shown
    assert re.search(
        r'<textarea id="order-text"[^>]*>' + re.escape(words) + "</textarea>", page.text
    )
    assert (await game.view("a1"))["orders"] == []
    english_page = await follow(
        english(phone),
        await post_form(phone, f"/play/{game.id}/orders/read", {"text": words}),
        game,
    )
    assert "Read as:" in text_of(english_page)


# --- item 15: an instant island action shows its outcome -------------------------------
async def test_an_instant_island_action_shows_its_outcome_where_it_was_taken(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    game = await island_game(client, clock, SIX, quiet_overrides())
    phone = await player(game, browser, "ann")
    answer = await post_form(phone, f"/play/{game.id}/orders", {"type": "explore"})
    page = await follow(phone, answer, game)
    assert page.status_code == 200
    outcome = page.text.split('class="alert outcome"')
    assert len(outcome) == 2, text_of(page)
    told = text_of(outcome[1].split("</div>")[0])
    assert "探索结果" in told  # the explore's own report, from ann's private events
    stamina = (await game.view("ann"))["stamina"]
    assert f"体力：5 → {stamina}" in told and stamina < 5  # and what it cost
    # Shown once: not on a reload.
    assert "outcome" not in (await browse(phone, f"/play/{game.id}")).text


# --- item 21: the seed and the verify page -------------------------------------------------
async def test_the_player_page_links_to_the_verification_once_the_seed_is_revealed(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    game = await team_battle(client)
    phone = await player(game, browser, "a1")
    before = await browse(phone, f"/play/{game.id}")
    assert f'href="/g/{game.id}?verify=1"' not in before.text
    await finished_team_battle_from(game, client, clock)
    after = await browse(phone, f"/play/{game.id}")
    assert f'href="/g/{game.id}?verify=1"' in after.text
    assert "核对整局的骰子" in text_of(after)


async def finished_team_battle_from(game: Game, http: AsyncClient, clock: FakeClock) -> None:
    await game.order("a1", {"type": "deploy", "troops": [10, 5, 5, 5, 5]})
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    for _ in range(400):
        if (await game.summary())["status"] == "finished":
            return
        await tick(http, clock, 3600)
    raise AssertionError("the game did not finish")


# --- item 27: one brand, proper English headers ----------------------------------------
async def test_the_home_title_names_the_brand_once_and_the_english_header_says_daytime(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    home = await browse(browser(), "/")
    assert "<title>论坛戏</title>" in home.text
    game = await island_game(client, clock, SIX, quiet_overrides())
    page = await browse(english(browser()), f"/g/{game.id}")
    assert "Day 1 · Daytime" in text_of(page)
    assert "<title>测试局 · forumplay</title>" in page.text
    chinese = await browse(browser(), f"/g/{game.id}")
    assert "第 1 天 · 白天" in text_of(chinese)


# --- issue 17: a game's own page parts ------------------------------------------------------
async def test_an_island_player_sees_their_map_and_numbers_and_no_odds(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    """The player's page draws the game's player parts (the map, the numbers), not the
    spectator's list of who lives; a game without odds has no odds fragment (404, HTML)."""
    game = await island_game(client, clock, SIX, quiet_overrides())
    phone = await player(game, browser, "ann")
    page = await browse(phone, f"/play/{game.id}")
    assert page.status_code == 200
    assert 'id="map"' in page.text and 'id="stats"' in page.text
    assert 'id="people"' not in page.text and 'class="odds"' not in page.text
    spectator = await browse(browser(), f"/g/{game.id}")
    assert 'id="people"' in spectator.text and 'id="map"' not in spectator.text
    odds = await post_form(phone, f"/play/{game.id}/odds")
    assert odds.status_code == 404 and odds.headers["content-type"].startswith("text/html")

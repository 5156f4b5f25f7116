"""The director's pages as a director reads them (issue 16): the audit log in words, the
create form in the reader's language, what each action did, confirmations that work
without JavaScript, the token shown once by a GET, deleting a game, the review queue's
"approve all" and preview, and the director's own session cookie."""

from __future__ import annotations

import base64
import html
import re
from typing import Any

from httpx import AsyncClient, Response

from app.clock import FakeClock
from app.models import Game as GameRow
from tests.service.helpers import TB_SETTINGS, Game, create_game, ok, problem, team_battle
from tests.service.island_helpers import island_game, local, quiet_overrides
from tests.service.publish_helpers import posts
from tests.service.web_helpers import Browser, browse, join, post_form

# The example island places six (a smaller roster is issue 16 item 3, not this file's).
ISLANDERS = ["张三", "李四", "王五", "赵六", "钱七", "孙八"]
PY_DICT = re.compile(r"\{'|\{\}|'\w+': ")


async def director(browser: Browser, game: Game) -> AsyncClient:
    """A browser signed in to the game's console."""
    laptop = browser()
    await browse(laptop, f"/director/{game.id}")
    signed = await post_form(laptop, f"/director/{game.id}/login", {"token": game.director})
    assert signed.status_code == 303
    return laptop


def text_of(page: str) -> str:
    """A page's visible text, roughly: no tags, scripts or styles; entities decoded."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def section(page: str, section_id: str) -> str:
    found = re.search(rf'<section[^>]*id="{section_id}".*?</section>', page, re.S)
    assert found, section_id
    return found.group(0)


async def console(laptop: AsyncClient, game: Game, lang: str = "zh-CN") -> str:
    page = await browse(laptop, f"/director/{game.id}", headers={"Accept-Language": lang})
    assert page.status_code == 200, page.text[:300]
    return page.text


async def act(laptop: AsyncClient, path: str, data: dict[str, Any] | None = None) -> Response:
    """Post a console form; every one answers a redirect back to the console."""
    answer = await post_form(laptop, path, data)
    assert answer.status_code == 303, answer.text[:500]
    return answer


def notice(page: str) -> str:
    found = re.search(r'<p class="alert ok notice"[^>]*>(.*?)</p>', page, re.S)
    return text_of(found.group(1)).strip() if found else ""


def alert(page: str) -> str:
    found = re.search(r'<p class="alert error"[^>]*>(.*?)</p>', page, re.S)
    return text_of(found.group(1)).strip() if found else ""


# --- item 7: the audit log ---------------------------------------------------------------
async def test_the_audit_log_reads_as_sentences_with_names_in_both_languages(
    client: AsyncClient, browser: Browser
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    laptop = await director(browser, game)
    await act(
        laptop, f"/director/{game.id}/players", {"name": "张三", "side": "A", "forum_name": "zs"}
    )
    await act(laptop, f"/director/{game.id}/players", {"name": "李四", "side": "B"})
    await act(laptop, f"/director/{game.id}/publishing", {"review": "always"})
    await act(laptop, f"/director/{game.id}/start", {"confirm": "1"})
    await act(laptop, f"/director/{game.id}/advance", {"confirm": "1"})
    first = (await posts(game))[0]
    await act(laptop, f"/director/{game.id}/posts/{first['id']}/approve")

    zh = text_of(section(await console(laptop, game), "audit"))
    for line in ("添加玩家 张三", "论坛名 zs", "添加玩家 李四", "开始游戏", "修改发帖设置"):
        assert line in zh, zh
    assert "立即结束当前阶段，运行了：部署阶段的截止" in zh, zh
    assert f"批准帖子「{first['title']}」" in zh, zh
    assert not PY_DICT.search(zh), zh
    for code in ("add_player", "approve_post", "player_id", "forum_name", "advance", "timer"):
        assert code not in zh, (code, zh)

    en = text_of(section(await console(laptop, game, "en"), "audit"))
    assert "Added player 张三" in en and "Started the game" in en, en
    assert "ran the close of the Deployment" in en, en
    assert not PY_DICT.search(en) and "add_player" not in en, en


# --- item 8: the create form --------------------------------------------------------------
async def test_the_create_form_reads_in_chinese_with_rule_ids_and_durations_in_hours(
    client: AsyncClient, browser: Browser
) -> None:
    laptop = browser()
    page = await browse(laptop, "/director/new", headers={"Accept-Language": "zh-CN"})
    text = text_of(page.text)
    assert "每方并排的格子数。" in text and "TB-2" in text
    assert "number of parallel slots" not in text
    # Choices in words, orders by their names.
    assert "平均分配兵力" in text and "士气低者负" in text and "在移动之后" in text
    assert "部署" in text and "血战" in text
    for code in ("even", "forfeit", "random", "after_moves", "lower_morale_loses", "blood_battle"):
        assert not re.search(rf">\s*{code}\s*<", page.text), code
    # Phase lengths in hours (the default day), not 86400 seconds.
    assert 'name="deployment_seconds"' in page.text
    assert re.search(r'name="deployment_seconds"[^>]*value="24"', page.text), page.text
    assert "86400" not in text

    island = await browse(laptop, "/director/new?ruleset=island")
    assert "移动一格消耗的体力。" in text_of(island.text)
    assert "(IS-10)." not in island.text
    # Item 3: the form says how many players the example takes, and the placement choice
    # reads as words.
    assert "示例岛：5×5 格，可容纳 2–6 名玩家。" in text_of(island.text)
    assert "按剧本" in text_of(island.text) and "随机（由种子决定）" in text_of(island.text)
    assert not re.search(r">\s*scenario\s*<", island.text)

    en = await browse(laptop, "/director/new", headers={"Accept-Language": "en"})
    assert "How many slots stand side by side" in text_of(en.text)
    assert "spread the troops evenly" in text_of(en.text)


async def test_phase_lengths_typed_in_minutes_are_kept_in_seconds(
    client: AsyncClient, browser: Browser
) -> None:
    laptop = browser()
    await browse(laptop, "/director/new")
    made = await post_form(
        laptop,
        "/director/new",
        {
            "ruleset": "team_battle",
            "title": "分钟局",
            "present.deployment_seconds": "1",
            "deployment_seconds": "90",
            "deployment_seconds.unit": "60",
            "present.battle_seconds": "1",
            "battle_seconds": "2",
            "battle_seconds.unit": "3600",
        },
    )
    assert made.status_code == 303, made.text[:300]
    game_id = made.headers["location"].split("/")[2]
    created = ok(await client.get(f"/api/v1/games/{game_id}"))
    assert created["title"] == "分钟局"
    async with client.app.state.sessionmaker() as session:  # type: ignore[attr-defined]
        row = await session.get(GameRow, game_id)
        assert row is not None
        settings = row.settings
    assert settings["deployment_seconds"] == 90 * 60
    assert settings["battle_seconds"] == 2 * 3600


async def test_a_refused_create_form_comes_back_with_its_reason_and_what_was_typed(
    client: AsyncClient, browser: Browser
) -> None:
    laptop = browser()
    await browse(laptop, "/director/new")
    refused = await post_form(
        laptop,
        "/director/new",
        {"ruleset": "team_battle", "title": "我的局", "present.slots": "1", "slots": "abc"},
    )
    assert refused.status_code == 303
    again = await browse(laptop, refused.headers["location"])
    assert "填写有误" in alert(again.text), again.text[:2000]
    assert 'value="我的局"' in again.text
    assert 'value="abc"' in again.text or "abc" in again.text
    # Shown once: a reload has no stale error.
    assert alert((await browse(laptop, "/director/new")).text) == ""


# --- item 10: created once; deleting a game ------------------------------------------------
async def test_creating_a_game_redirects_and_a_refresh_creates_nothing(
    client: AsyncClient, browser: Browser
) -> None:
    laptop = browser()
    await browse(laptop, "/director/new")
    made = await post_form(laptop, "/director/new", {"ruleset": "team_battle", "title": "一次"})
    assert made.status_code == 303
    created_page = made.headers["location"]
    assert created_page.endswith("/created")
    shown = await browse(laptop, created_page)
    token = re.search(r'id="director-token"[^>]*>([^<]+)<', shown.text)
    assert token and token.group(1).strip()
    assert 'data-copy="director-token"' in shown.text
    # A refresh of the page is a GET: no second game, and the token is not shown again.
    again = await browse(laptop, created_page)
    assert again.status_code == 200
    assert "director-token" not in again.text
    assert "只显示一次" in text_of(again.text)
    # The browser is signed in to the console, by its own director cookie.
    game_id = created_page.split("/")[2]
    assert laptop.cookies.get(f"fp_d_{game_id}")
    assert not laptop.cookies.get(f"fp_s_{game_id}")
    assert (await browse(laptop, f"/director/{game_id}")).status_code == 200


async def test_a_director_deletes_a_game_from_the_console_after_confirming(
    client: AsyncClient, browser: Browser
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await game.add_player("a1", "A")
    laptop = await director(browser, game)
    unconfirmed = await act(laptop, f"/director/{game.id}/delete")
    assert unconfirmed.headers["location"].startswith(f"/director/{game.id}")
    assert "请先勾选确认框" in alert(await console(laptop, game))
    assert (await game.summary())["status"] == "setup"  # still there

    gone = await act(laptop, f"/director/{game.id}/delete", {"confirm": "1"})
    assert gone.headers["location"] == "/director/new"
    page = await browse(laptop, "/director/new")
    assert "游戏「测试局」已删除。" in notice(page.text)
    problem(await game.get(""), 404, "not_found")
    assert (await browse(laptop, f"/g/{game.id}")).status_code == 404


async def test_the_api_deletes_a_game_in_setup_for_its_director_only(client: AsyncClient) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await game.add_player("a1", "A")
    problem(await game.delete("", None), 401, "unauthorized")
    refused = await game.delete("", "a1")
    assert refused.status_code == 403
    assert refused.headers["content-type"].startswith("application/problem+json")
    deleted = ok(await game.delete("", "director"))
    assert deleted == {"id": game.id, "title": "测试局", "deleted": True, "archived": False}
    problem(await game.get(""), 404, "not_found")
    problem(await game.get("/events", "director"), 404, "not_found")


async def test_a_game_under_way_is_not_deleted_and_a_finished_one_is_archived(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    """API contract: a game in setup is deleted; a finished one archived (hidden from the
    lists, its record kept); one under way is refused and changes nothing."""
    game = await island_game(
        client, clock, ISLANDERS, settings=quiet_overrides(), start_at=local(1, 9)
    )
    refused = problem(await game.delete("", "director"), 409, "game_in_progress")
    assert refused["detail"].startswith("游戏正在进行，不能删除")
    assert (await game.summary())["status"] == "running"
    laptop = await director(browser, game)
    assert "游戏进行中不能删除" in text_of(await console(laptop, game))

    ok(await game.post("/director/actions", "director", {"action": "end_game"}))
    ok(await game.put("/listing", "director", {"listed": True}))  # the lobby lists chosen games
    home = await browse(laptop, "/")
    assert game.id in home.text
    archived = ok(await game.delete("", "director"))
    assert archived == {
        "id": game.id,
        "title": archived["title"],
        "deleted": False,
        "archived": True,
    }
    assert game.id not in (await browse(laptop, "/")).text  # no longer listed
    assert (await game.summary())["status"] == "finished"  # the record is kept
    assert (await browse(laptop, f"/g/{game.id}")).status_code == 200
    ok(await game.get("/verify"))
    page = await console(laptop, game)
    assert "归档游戏（不再列出，记录保留）" in text_of(page)  # the audit log says it


# --- item 9: what "close the phase now" ran; to the next 24:00; confirmations --------------
async def test_the_island_console_says_what_ran_and_runs_to_midnight(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    game = await island_game(
        client, clock, ISLANDERS, settings=quiet_overrides(), start_at=local(1, 9)
    )
    laptop = await director(browser, game)
    page = await console(laptop, game)
    assert "立即运行下一个计时：20:00 的野兽检定" in text_of(page)
    assert "结算到下一个 24:00" in text_of(page)
    tools = text_of(section(page, "tools"))
    assert "把玩家放到某一格" in tools and "Put a player" not in tools  # tool help in Chinese

    await act(laptop, f"/director/{game.id}/advance", {"confirm": "1"})
    page = await console(laptop, game)
    assert notice(page) == "已运行：20:00 的野兽检定。", notice(page)
    assert "第 1 天" in text_of(section(page, "status"))

    await act(laptop, f"/director/{game.id}/advance-to-midnight", {"confirm": "1"})
    page = await console(laptop, game)
    said = notice(page)
    assert said.startswith("已结算到 24:00，依次运行了：21:00 的野兽检定"), said
    assert said.endswith("23:00 的野兽检定、24:00 结算。"), said
    assert "第 2 天" in text_of(section(page, "status"))
    # Shown once: the next look has no stale notice.
    assert notice(await console(laptop, game)) == ""

    en = await console(laptop, game, "en")
    assert "Ran to 24:00: the 21:00 beast check" in text_of(section(en, "audit"))


async def test_irreversible_director_actions_need_the_confirmation_box(
    client: AsyncClient, browser: Browser
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await game.add_player("a1", "A")
    await game.add_player("b1", "B")
    laptop = await director(browser, game)
    page = await console(laptop, game)
    start_form = re.search(r'<form[^>]*action="[^"]*/start".*?</form>', page, re.S)
    assert start_form and 'name="confirm"' in start_form.group(0)
    assert "required" in start_form.group(0)
    # With JavaScript, the button waits for the box too (director pages only).
    script = re.search(r'<script src="(/static/console\.js\?v=\w+)"', page)
    assert script and (await browse(laptop, script.group(1))).status_code == 200
    assert "console.js" not in (await browse(laptop, f"/g/{game.id}")).text

    await act(laptop, f"/director/{game.id}/start")
    page = await console(laptop, game)
    assert "请先勾选确认框" in alert(page)
    assert (await game.summary())["status"] == "setup"

    await act(laptop, f"/director/{game.id}/start", {"confirm": "1"})
    assert notice(await console(laptop, game)) == "游戏已开始。"
    await act(laptop, f"/director/{game.id}/advance")
    assert (await game.view("director"))["phase"] == "deployment"
    await act(laptop, f"/director/{game.id}/advance", {"confirm": "1"})
    assert (await game.view("director"))["phase"] == "command"


async def test_the_api_runs_an_island_to_midnight_and_refuses_a_team_battle(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await island_game(client, clock, ISLANDERS, settings=quiet_overrides())
    ran = ok(await game.post("/advance-to-midnight", "director"))
    kinds = [x["kind"] for x in ran["advanced"]["timers"]]
    assert kinds == ["monster_check"] * 4 + ["midnight"]
    assert (await game.view("director"))["day"] == 2
    battle = await team_battle(client)
    problem(await battle.post("/advance-to-midnight", "director"), 409, "no_midnight")


# --- item 20: each action says what it did -----------------------------------------------
async def test_director_actions_say_what_they_did_once(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    game = await team_battle(client)
    laptop = await director(browser, game)
    await act(laptop, f"/director/{game.id}/extend", {"minutes": "30"})
    page = await console(laptop, game)
    assert notice(page).startswith("截止时间已延长 30 分钟，新截止时间 "), notice(page)
    assert "已完成" not in page
    await act(laptop, f"/director/{game.id}/pause")
    assert notice(await console(laptop, game)) == "游戏已暂停，所有计时停止。"
    assert notice(await console(laptop, game)) == ""
    refused = await act(laptop, f"/director/{game.id}/extend", {"minutes": "0"})
    assert refused.headers["location"].endswith("#controls")
    page = await console(laptop, game)
    assert alert(page) == "延长 1 分钟到 7 天。"
    assert 'name="minutes" min="1" max="10080" value="0"' in page


# --- item 13: the review queue -----------------------------------------------------------
async def test_the_review_queue_approves_all_and_previews_each_post_collapsed(
    client: AsyncClient, browser: Browser
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await game.add_player("a1", "A")
    await game.add_player("b1", "B")
    laptop = await director(browser, game)
    await act(laptop, f"/director/{game.id}/publishing", {"review": "always"})
    await game.start()
    waiting = [p for p in await posts(game) if p["status"] == "awaiting_review"]
    assert len(waiting) >= 2
    page = await console(laptop, game)
    review = section(page, "review")
    assert f"全部批准（{len(waiting)} 帖）" in text_of(review)
    # Bodies are collapsed; the preview is rendered (no Markdown marks), source is there too.
    assert review.count('<details class="post-body">') == len(waiting)
    assert '<details class="post-body" open' not in review
    preview = re.search(
        r'<div class="preview"[^>]*>(.*?)</div>\s*<div translate="no">', review, re.S
    )
    assert preview, review[:3000]
    assert "<strong>" in preview.group(1) and "<li>" in preview.group(1)  # rows as a list
    assert "**" not in text_of(preview.group(1)) and "|---|" not in preview.group(1)

    ids = re.findall(r'name="post_id" value="([^"]+)"', review)
    await act(laptop, f"/director/{game.id}/posts/approve-all", {"post_id": ids})
    page = await console(laptop, game)
    assert notice(page) == f"已批准全部 {len(waiting)} 个待审帖子，按顺序发布。"
    assert all(p["status"] == "published" for p in await posts(game))


async def test_approve_all_leaves_a_post_the_director_has_not_seen(
    client: AsyncClient, browser: Browser
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await game.add_player("a1", "A")
    await game.add_player("b1", "B")
    laptop = await director(browser, game)
    await act(laptop, f"/director/{game.id}/publishing", {"review": "always"})
    await game.start()
    seen = [p["id"] for p in await posts(game)]
    ok(await game.post("/advance", "director"))  # a new post, not on the director's page
    await act(laptop, f"/director/{game.id}/posts/approve-all", {"post_id": seen})
    after = {p["id"]: p["status"] for p in await posts(game)}
    assert all(after[i] == "published" for i in seen)
    assert any(s == "awaiting_review" for i, s in after.items() if i not in seen)


def test_the_markdown_preview_escapes_what_it_renders() -> None:
    from app.web.views import markdown_preview

    shown = str(
        markdown_preview("### 标题\n\n**粗体** <b>x</b> [链接](https://evil.example)\n\n- 一\n- 二")
    )
    assert "<h5>标题</h5>" in shown
    assert "<strong>粗体</strong>" in shown
    assert "&lt;b&gt;x&lt;/b&gt;" in shown
    assert "href" not in shown and "evil.example" not in shown
    assert "<ul><li>一</li><li>二</li></ul>" in shown


# --- item 24: copy buttons ---------------------------------------------------------------
async def test_invite_links_and_tokens_have_copy_buttons(
    client: AsyncClient, browser: Browser
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    laptop = await director(browser, game)
    await act(laptop, f"/director/{game.id}/players", {"name": "张三", "side": "A"})
    page = await console(laptop, game)
    link = re.search(r'id="invite-link"[^>]*>([^<]+)<', page)
    assert link and "/join/" in link.group(1)
    assert 'data-copy="invite-link"' in page
    # Shown once.
    assert 'id="invite-link"' not in await console(laptop, game)


# --- item 35: the director's own cookie --------------------------------------------------
async def test_a_player_link_never_touches_the_directors_session(
    client: AsyncClient, browser: Browser
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    laptop = await director(browser, game)
    cookie = laptop.cookies.get(f"fp_d_{game.id}")
    assert cookie
    for path in (f"/play/{game.id}", f"/g/{game.id}", f"/director/{game.id}"):
        answer = await browse(laptop, path)
        for header in answer.headers.get_list("set-cookie"):
            assert not header.startswith(f"fp_d_{game.id}="), (path, header)
    assert laptop.cookies.get(f"fp_d_{game.id}") == cookie
    assert (await browse(laptop, f"/director/{game.id}")).status_code == 200

    # The same browser may also hold a seat; each role keeps its own session.
    await act(laptop, f"/director/{game.id}/players", {"name": "张三", "side": "A"})
    page = await console(laptop, game)
    invite = re.search(r'id="invite-link"[^>]*>([^<]+)<', page)
    assert invite
    joined = await join(laptop, invite.group(1).strip().split("testserver")[-1])
    assert joined.status_code == 303
    assert laptop.cookies.get(f"fp_s_{game.id}")
    assert laptop.cookies.get(f"fp_d_{game.id}") == cookie
    assert "导演台" in await console(laptop, game)
    # The API reads the player's session, or the director's when the console asks for it
    # (its live stream: ?as=director).
    as_player = ok(await laptop.get(f"/api/v1/games/{game.id}/view"))
    as_director = ok(await laptop.get(f"/api/v1/games/{game.id}/view?as=director"))
    assert as_player["you"]["role"] == "player"
    assert as_director["you"]["role"] == "director"
    assert "stream?as=director" in await console(laptop, game)


async def test_signing_out_of_the_console_is_a_post_and_clears_only_the_directors_cookie(
    client: AsyncClient, browser: Browser
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    laptop = await director(browser, game)
    out = await post_form(laptop, f"/director/{game.id}/logout")
    assert out.status_code == 303
    cleared = [h for h in out.headers.get_list("set-cookie") if h.startswith(f"fp_d_{game.id}=")]
    assert cleared and ("Max-Age=0" in cleared[0] or "expires" in cleared[0].lower())
    assert not any(h.startswith(f"fp_s_{game.id}=") for h in out.headers.get_list("set-cookie"))


async def test_a_phase_length_below_zero_is_refused_with_its_reason(
    client: AsyncClient, browser: Browser
) -> None:
    laptop = browser()
    await browse(laptop, "/director/new")
    form = {
        "ruleset": "team_battle",
        "title": "负数局",
        "present.deployment_seconds": "1",
        "deployment_seconds": "-3",
        "deployment_seconds.unit": "60",
    }
    refused = await post_form(laptop, "/director/new", form)
    assert refused.status_code == 303
    assert refused.headers["location"].startswith("/director/new")
    page = await browse(laptop, refused.headers["location"])
    assert alert(page.text) == "填写有误：部署阶段时长须为大于 0 的数（或留空表示不限时）"
    assert re.search(r'name="deployment_seconds"[^>]*value="-3"', page.text)
    assert 'value="负数局"' in page.text


async def test_ending_an_island_game_from_the_tools_needs_the_confirmation_box(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    game = await island_game(client, clock, ISLANDERS, settings=quiet_overrides())
    laptop = await director(browser, game)
    tools = section(await console(laptop, game), "tools")
    end_form = re.search(
        r'<form[^>]*/tool">(?:(?!</form>).)*value="end_game".*?</form>', tools, re.S
    )
    assert end_form and 'name="confirm"' in end_form.group(0)
    await act(laptop, f"/director/{game.id}/tool", {"action": "end_game"})
    assert "请先勾选确认框" in alert(await console(laptop, game))
    assert (await game.summary())["status"] == "running"
    await act(laptop, f"/director/{game.id}/tool", {"action": "end_game", "confirm": "1"})
    assert notice(await console(laptop, game)) == "已执行：结束游戏。"
    assert (await game.summary())["status"] == "finished"


async def test_the_audit_log_names_a_tools_fields_as_its_form_does(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    laptop = await director(browser, game)
    await act(
        laptop, f"/director/{game.id}/tool", {"action": "set_morale", "side": "B", "morale": "7"}
    )
    zh = text_of(section(await console(laptop, game), "audit"))
    assert "设置士气：乙方、士气 7" in zh, zh
    en = text_of(section(await console(laptop, game, "en"), "audit"))
    assert "Set morale: Side B, Morale 7" in en, en


async def test_a_refused_channel_keeps_its_name_but_never_its_secrets(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    laptop = await director(browser, game)
    secret = "pa55-that-must-never-leak"
    form = {"kind": "misago", "name": "机器人", "config.misago.password": secret}
    refused = await act(laptop, f"/director/{game.id}/channels", form)  # no address: refused
    flash = laptop.cookies.get("fp_flash", path=f"/director/{game.id}") or ""
    assert (
        flash and secret not in base64.urlsafe_b64decode(flash + "=" * (-len(flash) % 4)).decode()
    )
    page = await browse(laptop, refused.headers["location"])
    assert alert(page.text) and secret not in page.text
    assert (
        'id="channel-name" type="text" name="name" maxlength="100" required value="机器人"'
        in page.text
    )

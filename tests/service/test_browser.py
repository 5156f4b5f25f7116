"""The pages in a real browser: a whole Team Battle played by a director and two players
in three browsers, an island day with a hidden move and an assassination, and the other
side's hidden order never reaching a player's page. Live updates arrive over /stream
(no reloads where a player would not reload); deadlines move with the app's clock.

Screenshots of every page visited are saved (see ``tests/service/browser.py``).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import yaml
from playwright.async_api import expect

from app.clock import FakeClock
from app.settings import Settings
from bench.webhook_sink import WebhookSink
from tests.service.browser import (
    DESKTOP,
    PHONE,
    WAIT_MS,
    Shots,
    fits_the_screen,
    launch,
    screenshots_folder,
)
from tests.service.island_helpers import example_settings, local, quiet_overrides
from tests.service.live_server import thread_server
from tests.service.publish_helpers import WEBHOOK_SECRET, webhook_receiver

# What a page shows is awaited as long as an action may take (Playwright's own default for
# `expect` is 5 s: too short for a live update on a machine shared with other test runs).
expect.set_options(timeout=WAIT_MS)


@pytest_asyncio.fixture(scope="module")
async def chromium() -> AsyncIterator[Any]:
    async for browser in launch():
        yield browser


@pytest.fixture
def server(settings: Settings, clock: FakeClock) -> Iterator[str]:
    live = settings.model_copy(
        update={"scheduler_enabled": True, "scheduler_interval_seconds": 0.05}
    )
    with thread_server(live, clock) as base:
        yield base


@pytest.fixture
def publishing_server(settings: Settings, clock: FakeClock) -> Iterator[str]:
    """The app with its deadline loop and its delivery worker running."""
    live = settings.model_copy(
        update={
            "scheduler_enabled": True,
            "scheduler_interval_seconds": 0.05,
            "publish_worker_enabled": True,
            "publish_worker_interval_seconds": 0.1,
        }
    )
    with thread_server(live, clock) as base:
        yield base


@pytest_asyncio.fixture
async def sink() -> AsyncIterator[tuple[WebhookSink, int]]:
    async with webhook_receiver() as running:
        yield running


class Pages:
    """Browser contexts (each its own cookies) whose pages must show no console errors:
    a page breaking the Content Security Policy would log one."""

    def __init__(self, chromium: Any) -> None:
        self.chromium = chromium
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    async def open(self, viewport: dict[str, int] = DESKTOP, locale: str = "zh-CN") -> Any:
        phone = viewport == PHONE
        context = await self.chromium.new_context(
            viewport=viewport, locale=locale, is_mobile=phone, has_touch=phone
        )
        context.set_default_timeout(WAIT_MS)
        self.contexts.append(context)
        page = await context.new_page()
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("response", self._response)
        return page

    def _console(self, message: Any) -> None:
        # A page answered with a 4xx on purpose (a spent invite) logs "Failed to load
        # resource"; failing sub-resources are caught by _response instead.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.errors.append(message.text)

    def _response(self, response: Any) -> None:
        if response.status >= 400 and response.request.resource_type != "document":
            self.errors.append(f"{response.status} {response.url}")

    async def close(self) -> None:
        for context in self.contexts:
            await context.close()


@pytest_asyncio.fixture
async def pages(chromium: Any) -> AsyncIterator[Pages]:
    opened = Pages(chromium)
    yield opened
    await opened.close()


# --- the director's console ----------------------------------------------------------------------
async def create_game(
    d: Any, base: str, shots: Shots, ruleset: str, title: str, **choose: str
) -> str:
    await d.goto(f"{base}/")
    await shots(d, "index")
    await d.click("a.button[href='/director/new']")
    if ruleset != "team_battle":
        await d.click(f"nav.tabs a[href='/director/new?ruleset={ruleset}']")
    await d.fill("#title", title)
    for name, value in choose.items():
        await d.select_option(f"select[name={name}]", value)
    await shots(d, f"director-new-{ruleset}")
    await d.click("form.settings-form button.primary")
    await expect(d.locator("#director-token")).to_have_text(re.compile(r"^fpd_"))
    await shots(d, "director-created")
    await d.click("a.button.primary")
    return str(d.url.rsplit("/", 1)[-1])


async def add_player(d: Any, name: str, side: str | None = None) -> str:
    await d.fill("#pname", name)
    if side:
        await d.select_option("#pside", side)
    await d.click("form.add-player button.primary")
    link = d.locator("code.invite-link")
    await expect(link).to_have_text(re.compile(r"^http://127\.0\.0\.1:\d+/join/"))
    return "/join/" + str(await link.inner_text()).split("/join/", 1)[1]


async def join(page: Any, base: str, invite: str, shots: Shots | None = None) -> None:
    await page.goto(base + invite)
    if shots:
        await shots(page, "join")
    await page.click("form[action^='/join/'] button.primary")
    await expect(page).to_have_url(re.compile(r"/play/"))


async def give_order(
    page: Any,
    order_type: str,
    fill: dict[str, str] | None = None,
    select: dict[str, str] | None = None,
    check: tuple[str, ...] = (),
) -> None:
    details = page.locator(f"details.order-form[data-type={order_type}]")
    await details.locator("summary").click()
    form = details.locator("form")
    for name, value in (fill or {}).items():
        await form.locator(f"[name='{name}']").fill(value)
    for name, value in (select or {}).items():
        await form.locator(f"select[name='{name}']").select_option(value)
    for name in check:
        await form.locator(f"input[name='{name}']").check()
    await form.locator("button[type=submit]").click()
    await expect(page.locator(".alert.ok")).to_be_visible()


async def ready_by_keyboard(page: Any, notice: bool = True) -> None:
    """Reach the ready button with Tab alone, press it with Enter. The page then says
    "marked ready" (``notice``), unless that ended the game (no stale notice there)."""
    await page.locator("body").click(position={"x": 1, "y": 1})
    for _ in range(200):
        await page.keyboard.press("Tab")
        if await page.evaluate(
            "() => document.activeElement && document.activeElement.closest('form.ready-form') !== null"
        ):
            await page.keyboard.press("Enter")
            if notice:
                await expect(page.locator(".alert.ok")).to_be_visible()
            return
    raise AssertionError("the ready button cannot be reached with the keyboard")


async def order_ids(page: Any) -> list[str]:
    actions = await page.eval_on_selector_all(
        "form[action*='/withdraw']", "forms => forms.map(f => f.getAttribute('action'))"
    )
    return [a.split("/")[-2] for a in actions]


# --- Team Battle ---------------------------------------------------------------------------------
async def test_a_team_battle_played_to_a_winner_in_three_browsers(
    server: str, pages: Pages, clock: FakeClock, db_kind: str
) -> None:
    shots = Shots(screenshots_folder(db_kind), "tb")
    d = await pages.open(DESKTOP)
    game = await create_game(d, server, shots, "team_battle", "赤壁之战", dice="high")
    invite_a = await add_player(d, "曹操", "A")
    invite_b = await add_player(d, "周瑜", "B")
    await shots(d, "director-setup")
    await d.check("#confirm-start")  # irreversible: the server wants the box ticked
    await d.click("form[action$='/start'] button")
    await expect(d.locator("#status")).to_contain_text("部署阶段")

    a = await pages.open(PHONE)  # one player on a phone, by keyboard where it matters
    b = await pages.open(DESKTOP)
    await join(a, server, invite_a, shots)
    await join(b, server, invite_b)
    assert "/join/" not in a.url and "/join/" not in b.url

    await give_order(
        a, "deploy", fill={f"troops.{i}": str(n) for i, n in enumerate([26, 1, 1, 1, 1])}
    )
    await shots(a, "play-deployed-phone")
    assert await fits_the_screen(a)
    # B writes the deployment in words (the game's own grammar reads it).
    text = b.locator("details.text-order")
    await text.locator("summary").click()
    await text.locator("textarea[name=text]").fill("部署 6 6 6 6 6")
    await text.locator("button.primary[type=submit]").click()
    await expect(b.locator(".alert.ok")).to_be_visible()
    await expect(b.locator("#orders .order-list")).to_contain_text("部署 6、6、6、6、6")
    # A's deployment is not on B's board, and the spectator sees neither (TB-10).
    await expect(b.locator("tr.side-A td .troops").first).to_have_text("?")
    await shots(d, "director-deployment")

    await ready_by_keyboard(a)
    await b.click("form.ready-form button")
    # The phase closes at once (both ready) and A's page learns it live, without a reload.
    await expect(a.locator("#status")).to_contain_text("统御阶段")
    await expect(a.locator("tr.side-B td .troops").first).to_have_text("6")
    await shots(a, "play-command-phone")
    assert await fits_the_screen(a)

    await give_order(a, "counter", select={"slot": "1"})
    # A pending order can be revised (the same order, another slot).
    revise = a.locator("#orders details.revise")
    await revise.locator("summary").click()
    await revise.locator("select[name=slot]").select_option("2")
    await revise.locator("button[type=submit]").click()
    await expect(a.locator("#orders .order-list")).to_contain_text("第2格")

    # The director pauses: the players see it live, and nothing can be ordered meanwhile.
    await d.reload()
    await d.click("form[action$='/pause'] button")
    await expect(a.locator("#status")).to_contain_text("已暂停")
    await expect(b.locator("#status")).to_contain_text("已暂停")
    await expect(b.locator("form.ready-form")).to_have_count(0)
    await expect(b.locator("details.order-form")).to_have_count(0)
    await shots(b, "play-paused")
    await d.click("form[action$='/resume'] button")
    await d.fill("#minutes", "30")
    await d.click("form[action$='/extend'] button")
    await expect(d.locator("#audit")).to_contain_text("截止时间延长 30 分钟")
    # The countdown moved: the server now counts 24 h 30 min (the page's ticking from there
    # runs on the browser's own clock, so its text may already be seconds lower on a busy machine).
    countdown = a.locator("#status .countdown")
    await expect(countdown).to_have_attribute("data-remaining", str(24 * 3600 + 30 * 60))
    await expect(countdown).to_contain_text(re.compile(r"24:(30:00|29:[0-5]\d)"))
    await shots(d, "director-command")

    # Nobody readies: the command phase closes at its deadline, on the app's clock.
    clock.advance(24 * 3600 + 30 * 60)
    await expect(b.locator("#status")).to_contain_text("战斗阶段")
    await expect(a.locator("#status")).to_contain_text("战斗阶段")

    # B's hidden Hold (TB-43): on B's board as its own mark, nowhere in A's page.
    await give_order(b, "hold", select={"slot": "1"})
    hold_id = (await order_ids(b))[0]
    await expect(b.locator("tr.side-B.own td").first.locator(".mark-own")).to_have_count(1)
    await shots(b, "play-battle-hidden-order")
    await a.reload()
    assert hold_id not in await a.content()
    await expect(a.locator("tr.side-B .mark")).to_have_count(0)

    # The odds preview, from what A knows.
    await a.click("#odds .odds-button")
    await expect(a.locator("#odds .odds-out")).to_contain_text("%")
    await shots(a, "play-odds-phone")
    assert await fits_the_screen(a)
    assert hold_id not in await a.content()

    await d.reload()
    await expect(d.locator("#all-orders")).to_contain_text("死守")  # the director sees it
    await shots(d, "director-battle")

    await b.click("form.ready-form button")
    await ready_by_keyboard(a, notice=False)  # it ends the game
    # Resolution (dice "high"): A's four single units are annihilated and B wins (TB-60).
    for page in (a, b, d):
        await expect(page.locator("#status .winner")).to_contain_text("乙方")
    # The game-over page A's ready led to carries no stale "marked ready" (issue 16 item 20).
    await expect(a.locator(".alert.notice")).to_have_count(0)
    await shots(a, "play-finished-phone")
    await shots(b, "play-finished")
    await shots(d, "director-finished")

    spectator = await pages.open(DESKTOP)
    await spectator.goto(f"{server}/g/{game}")
    await expect(spectator.locator("#status .winner")).to_contain_text("乙方")
    await spectator.click("#seed a.button")
    await expect(spectator.locator("#seed .alert.ok")).to_be_visible()
    await shots(spectator, "spectator-verified")
    english = await pages.open(DESKTOP, locale="en-US")
    await english.goto(f"{server}/g/{game}")
    await expect(english.locator("#status .winner")).to_contain_text("Winner: Side B")
    await shots(english, "spectator-english")
    await english.goto(f"{server}/join/no-such-invite-0000000000")
    await expect(english.locator(".alert.error")).to_contain_text("invalid")
    await shots(english, "invite-invalid")
    assert pages.errors == []


async def test_the_other_sides_hidden_order_never_reaches_a_players_page(
    server: str, pages: Pages, db_kind: str
) -> None:
    shots = Shots(screenshots_folder(db_kind), "hidden")
    d = await pages.open(DESKTOP)
    await create_game(
        d, server, Shots(screenshots_folder(db_kind), "hidden-setup"), "team_battle", "暗战"
    )
    invite_a, invite_b = await add_player(d, "甲一", "A"), await add_player(d, "乙一", "B")
    await d.check("#confirm-start")  # irreversible: the server wants the box ticked
    await d.click("form[action$='/start'] button")
    a, b = await pages.open(PHONE), await pages.open(DESKTOP)
    await join(a, server, invite_a)
    await join(b, server, invite_b)
    await give_order(a, "deploy", fill={f"troops.{i}": "6" for i in range(5)})
    await give_order(
        b, "deploy", fill={f"troops.{i}": str(n) for i, n in enumerate([2, 2, 2, 2, 22])}
    )
    await a.click("form.ready-form button")
    await b.click("form.ready-form button")
    await expect(a.locator("#status")).to_contain_text("统御阶段")
    # Hidden command orders of B (TB-32, TB-33) while A watches live.
    await give_order(b, "counter", select={"slot": "5"})
    secret_ids = await order_ids(b)
    # A acts too, so A's page is fresh and its stream has run past B's orders.
    await give_order(a, "scout", select={"slot": "1"})
    await expect(a.locator("#feed")).to_contain_text("侦察")
    html = await a.content()
    for secret in secret_ids:
        assert secret not in html
    await expect(a.locator("tr.side-B .mark")).to_have_count(0)
    await expect(a.locator("#feed")).not_to_contain_text("反击")
    await shots(a, "player-a-page")
    await shots(b, "player-b-page")
    assert pages.errors == []


# --- the island ----------------------------------------------------------------------------------
def island_scenario(folder: Path) -> Path:
    """The example island, quiet (no encounters, no beast attacks), three players who
    start side by side."""
    settings = example_settings()
    settings.update(quiet_overrides())
    settings["start_positions"] = {"1": [2, 2], "2": [3, 2], "3": [4, 4]}
    path = folder / "quiet-island.yaml"
    path.write_text(
        yaml.safe_dump({"title": "静岛", "settings": settings}, allow_unicode=True),
        encoding="utf-8",
    )
    return path


async def test_an_island_day_with_a_hidden_move_and_an_assassination(
    server: str, pages: Pages, clock: FakeClock, db_kind: str, tmp_path: Path
) -> None:
    shots = Shots(screenshots_folder(db_kind), "island")
    clock.set(local(1, 19))
    d = await pages.open(DESKTOP)
    await d.goto(f"{server}/director/new?ruleset=island")
    await d.set_input_files("#scenario", str(island_scenario(tmp_path)))
    await d.fill("#title", "另一面·静岛")
    await shots(d, "director-new-island")
    await d.click("form.settings-form button.primary")
    await expect(d.locator("#director-token")).to_have_text(re.compile(r"^fpd_"))
    await d.click("a.button.primary")
    game = d.url.rsplit("/", 1)[-1]
    invites = {name: await add_player(d, name) for name in ("阿甲", "阿乙", "阿丙")}
    await d.check("#confirm-start")  # irreversible: the server wants the box ticked
    await d.click("form[action$='/start'] button")
    await expect(d.locator("#status")).to_contain_text("第 1 天")
    await shots(d, "director-day1")

    p1, p2, p3 = await pages.open(PHONE), await pages.open(DESKTOP), await pages.open(DESKTOP)
    await join(p1, server, invites["阿甲"])
    await join(p2, server, invites["阿乙"])
    await join(p3, server, invites["阿丙"])
    await shots(p1, "play-start-phone")
    assert await fits_the_screen(p1)

    # 阿甲 moves right, hidden (IS-10), into 阿乙's cell.
    await give_order(p1, "move", select={"direction": "right"}, check=("hidden",))
    await expect(p1.locator("#stats")).to_contain_text("(3,2)")
    await shots(p1, "play-moved-phone")
    await p2.reload()
    await expect(p2.locator("td.here")).to_contain_text("阿甲")  # seen there afterwards
    await expect(p2.locator("#feed li.ev-moved")).to_have_count(0)  # but never announced
    await p3.reload()
    await expect(p3.locator("#feed li.ev-moved")).to_have_count(0)

    # The director makes 阿甲 strong enough that the assassination is certain (IS-61).
    await d.reload()
    tool = d.locator("details.tool", has=d.locator("input[value=adjust_power]"))
    await tool.locator("summary").click()
    await tool.locator("select[name=player]").select_option(label="阿甲")
    await tool.locator("input[name=delta]").fill("2")
    await tool.locator("button[type=submit]").click()
    await expect(d.locator(".alert.ok")).to_be_visible()

    await give_order(p1, "assassinate", select={"target": await invites_player(p1, "阿乙")})
    (kill_id,) = await order_ids(p1)  # the assassination stands until 24:00
    await shots(p1, "play-assassination-phone")
    await p2.reload()
    html = await p2.content()
    assert kill_id not in html
    await expect(p2.locator("#feed li.ev-order_posted")).to_have_count(0)

    await d.reload()
    await expect(d.locator("#players")).to_contain_text("暗杀")
    await shots(d, "director-before-midnight")

    # 24:00 (IS-40): the deadline runs on the app's clock.
    clock.set(local(1, 24))
    await expect(p2.locator("#stats")).to_contain_text("已死亡")
    await expect(p1.locator("#feed li.ev-night_report")).to_have_count(1)
    await expect(p1.locator("#feed li.ev-night_report")).to_contain_text("成功")
    await shots(p1, "play-night-report-phone")
    await shots(p2, "play-dead")
    spectator = await pages.open(DESKTOP)
    await spectator.goto(f"{server}/g/{game}")
    await expect(spectator.locator("#feed li.ev-day_report").first).to_contain_text("阿乙")
    await expect(spectator.locator("#people .chip.dead")).to_contain_text("阿乙")
    await shots(spectator, "spectator-day2")
    await shots(d, "director-day2")
    assert pages.errors == []


async def invites_player(page: Any, name: str) -> str:
    """The value (player id) of ``name`` in the assassination form's target choice."""
    option = page.locator(
        "details.order-form[data-type=assassinate] select[name=target] option", has_text=name
    )
    return str(await option.get_attribute("value"))


# --- publishing from the console -----------------------------------------------------------------
async def add_channel(d: Any, kind: str, name: str, **config: str) -> None:
    form = d.locator("form.channel-form")
    if not await form.is_visible():
        await d.click("details.add-channel > summary")
    await form.locator("#channel-kind").select_option(kind)
    await form.locator("#channel-name").fill(name)
    for field, value in config.items():
        await form.locator(f"[name='config.{kind}.{field}']").fill(value)
    await form.locator("button[type=submit]").click()
    await expect(d.locator("#channels .channel-list")).to_contain_text(name)


async def test_a_round_result_is_reviewed_edited_approved_and_delivered(
    publishing_server: str,
    pages: Pages,
    db_kind: str,
    sink: tuple[WebhookSink, int],
) -> None:
    server = publishing_server
    receiver, port = sink
    shots = Shots(screenshots_folder(db_kind), "publish")
    d = await pages.open(DESKTOP)
    await create_game(d, server, shots, "team_battle", "赤壁·发帖")
    await d.fill("#pforum", "孟德")
    invite_a = await add_player(d, "曹操", "A")
    await d.fill("#pforum", "公瑾")
    invite_b = await add_player(d, "周瑜", "B")
    await expect(d.locator("#roster input[name=forum_name]").first).to_have_value("孟德")

    # Review every post; a signed webhook and a forum without an API (posted by hand).
    await d.select_option("#review-mode", "always")
    await d.click("form[action$='/publishing'] button[type=submit]")
    await expect(d.locator("#review")).to_contain_text("没有待审的帖子")  # was: review is off
    await add_channel(
        d, "webhook", "机器人", url=f"http://127.0.0.1:{port}/hook", secret=WEBHOOK_SECRET
    )
    await add_channel(d, "manual", "NGA")
    await expect(d.locator("#channels")).to_contain_text("已设置（不再显示）")
    assert WEBHOOK_SECRET not in await d.content()
    await shots(d, "console-channels")

    await d.check("#confirm-start")  # irreversible: the server wants the box ticked
    await d.click("form[action$='/start'] button")
    a, b = await pages.open(PHONE), await pages.open(DESKTOP)
    await join(a, server, invite_a)
    await join(b, server, invite_b)
    await give_order(a, "deploy", fill={f"troops.{i}": "6" for i in range(5)})
    await give_order(b, "deploy", fill={f"troops.{i}": "6" for i in range(5)})
    # The director's console has caught up by itself (the orders table appeared: the page's
    # shape is settled). Both sides ready through the command and battle phases (and a
    # response window, if one opens): the round's result arrives in the queue live.
    await expect(d.locator("#all-orders")).to_contain_text("部署")
    result = d.locator("#review article.post", has=d.locator(".badge", has_text="回合结果"))
    where = a.locator("#status .meta strong")  # "第 1 回合 · 统御阶段" (no countdown in it)
    for _ in range(4):
        before = await where.inner_text()
        if "第 2 回合" in before:
            break
        await a.click("form.ready-form button")
        await expect(a.locator(".alert.ok")).to_be_visible()
        await b.click("form.ready-form button")
        await expect(where).not_to_have_text(before)
    await expect(result).to_have_count(1)
    await expect(d.locator("#status")).to_contain_text("第 2 回合")
    await result.scroll_into_view_if_needed()
    await shots(d, "console-review-queue")

    # Collapsed to its title: opened, a rendered preview, then each format: BBCode and
    # Markdown as source to copy, plain text as text; the tabs are radio buttons, so the
    # keyboard moves between them.
    await result.locator("details.post-body > summary").click()
    await expect(result.locator(".preview")).to_be_visible()
    await result.locator("label.tab", has_text="BBCode").click()
    bbcode = result.locator(".panel-bbcode textarea")
    await expect(bbcode).to_be_visible()
    assert "[list]" in await bbcode.input_value()
    await result.locator("label.tab", has_text="Markdown").click()
    await expect(result.locator(".panel-markdown textarea")).to_be_visible()
    await expect(bbcode).to_be_hidden()
    await result.locator("input.tab-input[value=markdown]").focus()
    await d.keyboard.press("ArrowRight")
    await expect(result.locator(".panel-text .plain")).to_be_visible()
    await shots(d, "console-review-text")

    # Edit the title and the Markdown, then approve.
    await result.locator("details.edit-post > summary").click()
    await result.locator("input[name=title]").fill("赤壁·第一回合战报（导演审定）")
    markdown = result.locator("textarea[name=body_markdown]")
    await markdown.fill(await markdown.input_value() + "\n\n导演按：双方兵力相当。")
    await result.locator("details.edit-post button[type=submit]").click()
    edited = d.locator("#review article.post", has_text="赤壁·第一回合战报（导演审定）")
    await expect(edited).to_have_count(1)
    await edited.locator("form[action$='/approve'] button").click()

    # Delivered: the webhook got it signed, and the console learns it without a reload.
    published = d.locator("#posts article.post", has_text="赤壁·第一回合战报（导演审定）")
    hook = published.locator("li.delivery", has_text="机器人")
    await expect(hook).to_contain_text("已送达")
    bodies = [b for b in receiver.bodies if b["post"]["kind"] == "round_result"]
    assert [b["post"]["title"] for b in bodies] == ["赤壁·第一回合战报（导演审定）"]
    assert bodies[0]["post"]["bodies"]["markdown"].endswith("导演按：双方兵力相当。")
    assert receiver.stats()["bad_signatures"] == 0

    # The forum without an API: copy the BBCode, post it by hand, record the link.
    by_hand = published.locator("li.delivery", has_text="NGA")
    await expect(by_hand).to_contain_text("待手动发布")
    await d.context.grant_permissions(["clipboard-read", "clipboard-write"])
    await by_hand.locator("button.copy").click()
    bbcode_post = await by_hand.locator("textarea").input_value()
    assert "[list]" in bbcode_post
    await d.wait_for_function(  # the copy button put the BBCode on the clipboard
        "(want) => navigator.clipboard.readText().then((text) => text === want)", arg=bbcode_post
    )
    await by_hand.scroll_into_view_if_needed()
    await shots(d, "console-manual-delivery")
    link = "https://bbs.nga.cn/read.php?tid=31415926"
    await by_hand.locator("input[name=url]").fill(link)
    await by_hand.locator("button[type=submit]").click()
    recorded = d.locator("#posts li.delivery", has_text="NGA").locator(f"a[href='{link}']")
    await expect(recorded).to_have_count(1)
    await shots(d, "console-delivered")

    await d.set_viewport_size(PHONE)
    await d.reload()
    await expect(d.locator("#review")).to_be_visible()
    assert await fits_the_screen(d)
    await shots(d, "console-phone")
    assert pages.errors == []

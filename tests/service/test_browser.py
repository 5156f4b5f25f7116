"""The pages in a real browser: a whole Team Battle played by a director and two players
in three browsers, an island day with a hidden move and an assassination, and the other
side's hidden order never reaching a player's page. Live updates arrive over /stream
(no reloads where a player would not reload); deadlines move with the app's clock.

Screenshots of every page visited are saved (see ``tests/service/browser.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.clock import FakeClock
from app.settings import Settings
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


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    yield from launch()


@pytest.fixture
def server(settings: Settings, clock: FakeClock) -> Iterator[str]:
    live = settings.model_copy(
        update={"scheduler_enabled": True, "scheduler_interval_seconds": 0.05}
    )
    with thread_server(live, clock) as base:
        yield base


class Pages:
    """Browser contexts (each its own cookies) whose pages must show no console errors:
    a page breaking the Content Security Policy would log one."""

    def __init__(self, chromium: Any) -> None:
        self.chromium = chromium
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def open(self, viewport: dict[str, int] = DESKTOP, locale: str = "zh-CN") -> Any:
        phone = viewport == PHONE
        context = self.chromium.new_context(
            viewport=viewport, locale=locale, is_mobile=phone, has_touch=phone
        )
        context.set_default_timeout(WAIT_MS)
        self.contexts.append(context)
        page = context.new_page()
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        return page

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(chromium: Any) -> Iterator[Pages]:
    opened = Pages(chromium)
    yield opened
    opened.close()


def expect(locator: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


# --- the director's console ----------------------------------------------------------------------
def create_game(d: Any, base: str, shots: Shots, ruleset: str, title: str, **choose: str) -> str:
    d.goto(f"{base}/")
    shots(d, "index")
    d.click("a.button[href='/director/new']")
    if ruleset != "team_battle":
        d.click(f"nav.tabs a[href='/director/new?ruleset={ruleset}']")
    d.fill("#title", title)
    for name, value in choose.items():
        d.select_option(f"select[name={name}]", value)
    shots(d, f"director-new-{ruleset}")
    d.click("form.settings-form button.primary")
    expect(d.locator("#director-token")).to_have_text(re.compile(r"^fpd_"))
    shots(d, "director-created")
    d.click("a.button.primary")
    return str(d.url.rsplit("/", 1)[-1])


def add_player(d: Any, name: str, side: str | None = None) -> str:
    d.fill("#pname", name)
    if side:
        d.select_option("#pside", side)
    d.click("form.add-player button.primary")
    link = d.locator("code.invite-link")
    expect(link).to_have_text(re.compile(r"^/join/"))
    return str(link.inner_text())


def join(page: Any, base: str, invite: str, shots: Shots | None = None) -> None:
    page.goto(base + invite)
    if shots:
        shots(page, "join")
    page.click("form[action^='/join/'] button.primary")
    expect(page).to_have_url(re.compile(r"/play/"))


def give_order(
    page: Any,
    order_type: str,
    fill: dict[str, str] | None = None,
    select: dict[str, str] | None = None,
    check: tuple[str, ...] = (),
) -> None:
    details = page.locator(f"details.order-form[data-type={order_type}]")
    details.locator("summary").click()
    form = details.locator("form")
    for name, value in (fill or {}).items():
        form.locator(f"[name='{name}']").fill(value)
    for name, value in (select or {}).items():
        form.locator(f"select[name='{name}']").select_option(value)
    for name in check:
        form.locator(f"input[name='{name}']").check()
    form.locator("button[type=submit]").click()
    expect(page.locator(".alert.ok")).to_be_visible()


def ready_by_keyboard(page: Any) -> None:
    """Reach the ready button with Tab alone, press it with Enter."""
    page.locator("body").click(position={"x": 1, "y": 1})
    for _ in range(200):
        page.keyboard.press("Tab")
        if page.evaluate(
            "() => document.activeElement && document.activeElement.closest('form.ready-form') !== null"
        ):
            page.keyboard.press("Enter")
            expect(page.locator(".alert.ok")).to_be_visible()
            return
    raise AssertionError("the ready button cannot be reached with the keyboard")


def order_ids(page: Any) -> list[str]:
    actions = page.eval_on_selector_all(
        "form[action*='/withdraw']", "forms => forms.map(f => f.getAttribute('action'))"
    )
    return [a.split("/")[-2] for a in actions]


# --- Team Battle ---------------------------------------------------------------------------------
def test_a_team_battle_played_to_a_winner_in_three_browsers(
    server: str, pages: Pages, db_kind: str
) -> None:
    shots = Shots(screenshots_folder(db_kind), "tb")
    d = pages.open(DESKTOP)
    game = create_game(d, server, shots, "team_battle", "赤壁之战", dice="high")
    invite_a = add_player(d, "曹操", "A")
    invite_b = add_player(d, "周瑜", "B")
    shots(d, "director-setup")
    d.click("form[action$='/start'] button")
    expect(d.locator("#status")).to_contain_text("部署阶段")

    a = pages.open(PHONE)  # one player on a phone, by keyboard where it matters
    b = pages.open(DESKTOP)
    join(a, server, invite_a, shots)
    join(b, server, invite_b)
    assert "/join/" not in a.url and "/join/" not in b.url

    give_order(a, "deploy", fill={f"troops.{i}": str(n) for i, n in enumerate([26, 1, 1, 1, 1])})
    shots(a, "play-deployed-phone")
    assert fits_the_screen(a)
    give_order(b, "deploy", fill={f"troops.{i}": "6" for i in range(5)})
    # A's deployment is not on B's board, and the spectator sees neither (TB-10).
    expect(b.locator("tr.side-A td .troops").first).to_have_text("?")
    shots(d, "director-deployment")

    ready_by_keyboard(a)
    b.click("form.ready-form button")
    # The phase closes at once (both ready) and A's page learns it live, without a reload.
    expect(a.locator("#status")).to_contain_text("统御阶段")
    expect(a.locator("tr.side-B td .troops").first).to_have_text("6")
    shots(a, "play-command-phone")
    assert fits_the_screen(a)

    give_order(a, "counter", select={"slot": "1"})
    b.click("form.ready-form button")
    ready_by_keyboard(a)
    expect(b.locator("#status")).to_contain_text("战斗阶段")
    expect(a.locator("#status")).to_contain_text("战斗阶段")

    # B's hidden Hold (TB-43): on B's board as its own mark, nowhere in A's page.
    give_order(b, "hold", select={"slot": "1"})
    hold_id = order_ids(b)[0]
    expect(b.locator("tr.side-B.own td").first.locator(".mark-own")).to_have_count(1)
    shots(b, "play-battle-hidden-order")
    a.reload()
    assert hold_id not in a.content()
    expect(a.locator("tr.side-B .mark")).to_have_count(0)

    # The odds preview, from what A knows.
    a.click("#odds .odds-button")
    expect(a.locator("#odds .odds-out")).to_contain_text("%")
    shots(a, "play-odds-phone")
    assert fits_the_screen(a)
    assert hold_id not in a.content()

    d.reload()
    expect(d.locator("#all-orders")).to_contain_text("死守")  # the director sees it
    shots(d, "director-battle")

    b.click("form.ready-form button")
    ready_by_keyboard(a)
    # Resolution (dice "high"): A's four single units are annihilated and B wins (TB-60).
    for page in (a, b, d):
        expect(page.locator("#status .winner")).to_contain_text("乙方")
    shots(a, "play-finished-phone")
    shots(b, "play-finished")
    shots(d, "director-finished")

    spectator = pages.open(DESKTOP)
    spectator.goto(f"{server}/g/{game}")
    expect(spectator.locator("#status .winner")).to_contain_text("乙方")
    spectator.click("#seed a.button")
    expect(spectator.locator("#seed .alert.ok")).to_be_visible()
    shots(spectator, "spectator-verified")
    english = pages.open(DESKTOP, locale="en-US")
    english.goto(f"{server}/g/{game}")
    expect(english.locator("#status .winner")).to_contain_text("Winner: Side B")
    shots(english, "spectator-english")
    english.goto(f"{server}/join/no-such-invite-0000000000")
    expect(english.locator(".alert.error")).to_contain_text("invalid")
    shots(english, "invite-invalid")
    assert pages.errors == []


def test_the_other_sides_hidden_order_never_reaches_a_players_page(
    server: str, pages: Pages, db_kind: str
) -> None:
    shots = Shots(screenshots_folder(db_kind), "hidden")
    d = pages.open(DESKTOP)
    create_game(
        d, server, Shots(screenshots_folder(db_kind), "hidden-setup"), "team_battle", "暗战"
    )
    invite_a, invite_b = add_player(d, "甲一", "A"), add_player(d, "乙一", "B")
    d.click("form[action$='/start'] button")
    a, b = pages.open(PHONE), pages.open(DESKTOP)
    join(a, server, invite_a)
    join(b, server, invite_b)
    give_order(a, "deploy", fill={f"troops.{i}": "6" for i in range(5)})
    give_order(b, "deploy", fill={f"troops.{i}": str(n) for i, n in enumerate([2, 2, 2, 2, 22])})
    a.click("form.ready-form button")
    b.click("form.ready-form button")
    expect(a.locator("#status")).to_contain_text("统御阶段")
    # Hidden command orders of B (TB-32, TB-33) while A watches live.
    give_order(b, "counter", select={"slot": "5"})
    secret_ids = order_ids(b)
    # A acts too, so A's page is fresh and its stream has run past B's orders.
    give_order(a, "scout", select={"slot": "1"})
    expect(a.locator("#feed")).to_contain_text("侦察")
    html = a.content()
    for secret in secret_ids:
        assert secret not in html
    expect(a.locator("tr.side-B .mark")).to_have_count(0)
    expect(a.locator("#feed")).not_to_contain_text("反击")
    shots(a, "player-a-page")
    shots(b, "player-b-page")
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


def test_an_island_day_with_a_hidden_move_and_an_assassination(
    server: str, pages: Pages, clock: FakeClock, db_kind: str, tmp_path: Path
) -> None:
    shots = Shots(screenshots_folder(db_kind), "island")
    clock.set(local(1, 19))
    d = pages.open(DESKTOP)
    d.goto(f"{server}/director/new?ruleset=island")
    d.set_input_files("#scenario", str(island_scenario(tmp_path)))
    d.fill("#title", "另一面·静岛")
    shots(d, "director-new-island")
    d.click("form.settings-form button.primary")
    expect(d.locator("#director-token")).to_have_text(re.compile(r"^fpd_"))
    d.click("a.button.primary")
    game = d.url.rsplit("/", 1)[-1]
    invites = {name: add_player(d, name) for name in ("阿甲", "阿乙", "阿丙")}
    d.click("form[action$='/start'] button")
    expect(d.locator("#status")).to_contain_text("第 1 天")
    shots(d, "director-day1")

    p1, p2, p3 = pages.open(PHONE), pages.open(DESKTOP), pages.open(DESKTOP)
    join(p1, server, invites["阿甲"])
    join(p2, server, invites["阿乙"])
    join(p3, server, invites["阿丙"])
    shots(p1, "play-start-phone")
    assert fits_the_screen(p1)

    # 阿甲 moves right, hidden (IS-10), into 阿乙's cell.
    give_order(p1, "move", select={"direction": "right"}, check=("hidden",))
    expect(p1.locator("#stats")).to_contain_text("(3,2)")
    shots(p1, "play-moved-phone")
    p2.reload()
    expect(p2.locator("td.here")).to_contain_text("阿甲")  # seen there afterwards
    expect(p2.locator("#feed li.ev-moved")).to_have_count(0)  # but never announced
    p3.reload()
    expect(p3.locator("#feed li.ev-moved")).to_have_count(0)

    # The director makes 阿甲 strong enough that the assassination is certain (IS-61).
    d.reload()
    tool = d.locator("details.tool", has=d.locator("input[value=adjust_power]"))
    tool.locator("summary").click()
    tool.locator("select[name=player]").select_option(label="阿甲")
    tool.locator("input[name=delta]").fill("2")
    tool.locator("button[type=submit]").click()
    expect(d.locator(".alert.ok")).to_be_visible()

    give_order(p1, "assassinate", select={"target": invites_player(p1, "阿乙")})
    kill_id = order_ids(p1)[0] if order_ids(p1) else ""
    shots(p1, "play-assassination-phone")
    p2.reload()
    html = p2.content()
    assert kill_id == "" or kill_id not in html
    expect(p2.locator("#feed li.ev-order_posted")).to_have_count(0)

    d.reload()
    expect(d.locator("#players")).to_contain_text("暗杀")
    shots(d, "director-before-midnight")

    # 24:00 (IS-40): the deadline runs on the app's clock.
    clock.set(local(1, 24))
    expect(p2.locator("#stats")).to_contain_text("已死亡")
    expect(p1.locator("#feed li.ev-night_report")).to_have_count(1)
    expect(p1.locator("#feed li.ev-night_report")).to_contain_text("成功")
    shots(p1, "play-night-report-phone")
    shots(p2, "play-dead")
    spectator = pages.open(DESKTOP)
    spectator.goto(f"{server}/g/{game}")
    expect(spectator.locator("#feed li.ev-day_report").first).to_contain_text("阿乙")
    expect(spectator.locator("#people .chip.dead")).to_contain_text("阿乙")
    shots(spectator, "spectator-day2")
    shots(d, "director-day2")
    assert pages.errors == []


def invites_player(page: Any, name: str) -> str:
    """The value (player id) of ``name`` in the assassination form's target choice."""
    option = page.locator(
        "details.order-form[data-type=assassinate] select[name=target] option", has_text=name
    )
    return str(option.get_attribute("value"))

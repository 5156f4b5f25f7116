"""The page matrix's states in the real Chromium at a 390×844 phone viewport (issue 16):
for the director, one player and a spectator in each state, zh and en, a full-page
screenshot a person looks at (``matrix-…`` in ``screenshots_folder``), and nothing wider
than the screen: neither the page nor any table.

The states are the HTTP matrix's (``page_states``); their cookies are put into the browser
context, so no clicking through. One live server (no scheduler: nothing moves) on the
same database, its clock set to the state's time before each visit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import pytest_asyncio

from app.clock import FakeClock
from tests.service.browser import Shots, launch, screenshots_folder
from tests.service.live_server import thread_server
from tests.service.page_states import (  # noqa: F401 - the module's fixtures
    BUILDERS,
    World,
    keep_tables,
    roles_of,
    world_fixture,
)

PHONE_390 = {"width": 390, "height": 844}
LANGS = ("zh", "en")
# role -> the page that role reads in every state
ROLE_PAGES = {"director": "/director/{id}", "p1": "/play/{id}", "spectator": "/g/{id}"}
# The sign-up page (issue 20), in the sign-up states, as a newcomer and as those signed up.
SIGNUP_PAGE = "/g/{id}/signup"
LOBBY = "/"
ROWS = (
    [
        (state, role, ROLE_PAGES[role])
        for state in BUILDERS
        for role in ROLE_PAGES
        if role in roles_of(state)
    ]
    + [
        (state, role, SIGNUP_PAGE)
        for state in BUILDERS
        if "signup_" in state
        for role in ("spectator", "p1", "p3")
        if role in roles_of(state)
    ]
    + [("tb-signup_open", "spectator", LOBBY)]
)  # the home page, listing the game

# ``width``: the phone's; a mobile viewport may widen itself (innerWidth) to fit a wide page.
WIDE = """(width) => {
  const out = [];
  const screen = Math.min(width, window.innerWidth);
  if (document.documentElement.scrollWidth > screen + 1) {
    out.push(`page ${document.documentElement.scrollWidth}px wide`);
  }
  document.querySelectorAll('table').forEach((t, i) => {
    const r = t.getBoundingClientRect();
    if (r.width > 0 && (r.left < -1 || r.right > screen + 1)) {
      const head = (t.querySelector('caption, th') || t).innerText.slice(0, 40);
      out.push(`table ${i + 1} (${head.replace(/\\s+/g, ' ')}) spans ${Math.round(r.left)}..${Math.round(r.right)}px`);
    }
  });
  return out;
}"""


@pytest_asyncio.fixture(scope="module")
async def chromium() -> AsyncIterator[Any]:
    async for browser in launch():
        yield browser


@pytest.fixture(scope="module")
def live_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="module")
def live(world: World, live_clock: FakeClock) -> Iterator[str]:
    with thread_server(world.settings, live_clock) as base:
        yield base


@pytest.fixture(scope="module")
def shots(db_kind: str) -> Shots:
    return Shots(screenshots_folder(db_kind), "matrix")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("state", "role", "where"),
    ROWS,
    ids=[f"{s}-{r}" + {SIGNUP_PAGE: "-signup", LOBBY: "-home"}.get(w, "") for s, r, w in ROWS],
)
async def test_a_state_fits_a_phone(
    world: World,
    chromium: Any,
    live: str,
    live_clock: FakeClock,
    shots: Shots,
    state: str,
    role: str,
    where: str,
    lang: str,
) -> None:
    built = await world.state(state)
    if built.now is not None:
        live_clock.set(built.now)
    context = await chromium.new_context(
        viewport=PHONE_390,
        locale="en-US" if lang == "en" else "zh-CN",
        is_mobile=True,
        has_touch=True,
    )
    try:
        cookies = [
            {"name": name, "value": value, "url": live}
            for name, value in built.cookies[role].items()
        ]
        if cookies:
            await context.add_cookies(cookies)
        page = await context.new_page()
        path = where.format(id=built.game_id)
        answer = await page.goto(live + path, wait_until="load")
        page_name = {SIGNUP_PAGE: "-signup", LOBBY: "-home"}.get(where, "")
        await shots(page, f"{state}-{role}{page_name}-{lang}")
        status = answer.status if answer is not None else 0
        wide = await page.evaluate(WIDE, PHONE_390["width"])
    finally:
        await context.close()
    found = ([f"status {status}"] if status >= 500 else []) + list(wide)
    assert not found, f"{path} — state {state}, role {role}, lang {lang}, 390 px: {found}"

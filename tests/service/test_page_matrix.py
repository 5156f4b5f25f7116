"""The page matrix (issue 16): every page × every state a game passes through × each role ×
zh and en. Each answer must be an HTML page (never JSON, never 5xx) whose visible text
``page_text.problems`` finds clean: no None, no dict repr or Python list, no unfilled
placeholder, no raw code or internal id, and in Chinese no English outside user data, rule
IDs and proper names.

A new page is one line in ``PAGES``; a new state is one line in ``page_states.BUILDERS``
(and here in ``TB_STATES`` / ``IS_STATES`` if it is not ``tb-``/``is-`` prefixed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from httpx import ASGITransport, AsyncClient, Response

from app.clock import FakeClock
from app.main import create_app
from app.web.security import CSRF_COOKIE
from tests.service.page_states import (  # noqa: F401 - the module's fixtures
    BUILDERS,
    ROLES_OF_PLAYERS,
    State,
    World,
    keep_tables,
    world_fixture,
)
from tests.service.page_text import problems

LANGS = ("zh", "en")
EVERY_PLAYER = "players"  # in a row's roles: each player the state has


# --- the pages ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Page:
    """How to ask for a page in a state: method, path, form."""

    path: Callable[[State], str | None]  # None: the page does not exist in this state
    method: str = "GET"
    form: Callable[[State], dict[str, Any]] | None = None


def _join(kind: str) -> Callable[[State], str | None]:
    return lambda s: s.invites.get(kind)


GAME_PAGES: dict[str, Page] = {
    "console": Page(lambda s: f"/director/{s.game_id}"),  # the sign-in page without a session
    "play": Page(lambda s: f"/play/{s.game_id}"),
    "spectator": Page(lambda s: f"/g/{s.game_id}"),
    "verify": Page(lambda s: f"/g/{s.game_id}?verify=1"),
    "join_valid": Page(_join("valid")),
    "join_spent": Page(_join("spent")),
    "odds": Page(
        lambda s: f"/play/{s.game_id}/odds" if s.ruleset == "team_battle" else None,
        "POST",
    ),
    "sign_in_refused": Page(
        lambda s: f"/director/{s.game_id}/login", "POST", lambda s: {"token": "不是口令"}
    ),
}

PLAYERS = (EVERY_PLAYER, "signed-out", "other-game")
ANYONE = ("director", EVERY_PLAYER, "spectator", "signed-out", "other-game")
# page -> who reads it, in every state of both games. One line per page.
GAME_ROWS: dict[str, tuple[str, ...]] = {
    "console": ("director", "spectator", "p1"),
    "play": ("director", "spectator", *PLAYERS),
    "spectator": ANYONE,
    "verify": ("spectator", "director"),
    "join_valid": ("spectator",),
    "join_spent": ("spectator", "p1"),
    "odds": ("p1", "p3", "spectator"),
    "sign_in_refused": ("spectator",),
}

TB_STATES = [name for name in BUILDERS if name.startswith("tb-")]
IS_STATES = [name for name in BUILDERS if name.startswith("is-")]


# Pages outside any game: (page id, method, path, form). One line per page.
PLAIN_PAGES: list[tuple[str, str, str, dict[str, Any] | None]] = [
    ("home", "GET", "/", None),
    ("create_tb", "GET", "/director/new?ruleset=team_battle", None),
    ("create_island", "GET", "/director/new?ruleset=island", None),
    ("created_tb", "POST", "/director/new", {"ruleset": "team_battle", "title": "新的团战"}),
    ("created_island", "POST", "/director/new", {"ruleset": "island", "title": "新的岛"}),
    ("join_unknown", "GET", "/join/not-a-real-code-at-all-xxxxxxxx", None),
    ("error_unknown_game_spectator", "GET", "/g/nosuchgame0000", None),
    ("error_unknown_game_play", "GET", "/play/nosuchgame0000", None),
    ("error_unknown_game_console", "GET", "/director/nosuchgame0000", None),
    ("error_unknown_path", "GET", "/no/such/page", None),
    ("error_unknown_control", "POST", "/director/nosuchgame0000/frobnicate", {}),
]


def _rows() -> list[tuple[str, str, str]]:
    rows: list[tuple[str, str, str]] = []
    for state in TB_STATES + IS_STATES:
        for page, roles in GAME_ROWS.items():
            for role in roles:
                if role == EVERY_PLAYER:
                    rows.extend((page, state, p) for p in ROLES_OF_PLAYERS)
                else:
                    rows.append((page, state, role))
    return rows


ROWS = _rows()


def _report(url: str, state: str, role: str, lang: str, answer: Response, found: list[str]) -> str:
    lines = [f"{answer.request.method} {url} — state {state}, role {role}, lang {lang}:"]
    lines += [f"  - {p}" for p in found]
    return "\n".join(lines)


def _check(answer: Response, lang: str, ids: set[str]) -> list[str]:
    found: list[str] = []
    kind = answer.headers.get("content-type", "")
    if answer.status_code >= 500:
        found.append(f"status {answer.status_code}")
    if not kind.startswith("text/html"):
        found.append(f"not an HTML page: {kind!r}: {answer.text[:160]!r}")
        return found
    return found + problems(answer.text, lang, ids)


async def _ask(http: AsyncClient, method: str, path: str, form: dict[str, Any] | None) -> Response:
    if method == "GET":
        return await http.get(path, follow_redirects=True)
    await http.get("/")  # a CSRF cookie, as any earlier page would have given
    data = {"csrf": http.cookies.get(CSRF_COOKIE, ""), **(form or {})}
    answer = await http.post(path, data=data)
    if answer.status_code in (302, 303):
        answer = await http.get(answer.headers["location"], follow_redirects=True)
    return answer


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("page", "state", "role"), ROWS, ids=[f"{s}-{r}-{p}" for p, s, r in ROWS])
async def test_a_game_page_reads_clean(
    world: World, page: str, state: str, role: str, lang: str
) -> None:
    built = await world.state(state)
    spec = GAME_PAGES[page]
    path = spec.path(built)
    if path is None:
        pytest.skip(f"no {page} page in {state}")
    if role not in built.cookies:
        pytest.skip(f"no {role} in {state}")
    async with built.client(role, lang) as http:
        answer = await _ask(http, spec.method, path, spec.form(built) if spec.form else None)
    found = _check(answer, lang, built.ids)
    found += [f"(state note: {n})" for n in built.notes]
    assert not found, _report(path, state, role, lang, answer, found)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("page", "method", "path", "form"), PLAIN_PAGES, ids=[p[0] for p in PLAIN_PAGES]
)
async def test_a_page_outside_games_reads_clean(
    world: World, page: str, method: str, path: str, form: dict[str, Any] | None, lang: str
) -> None:
    other = await world.state("tb-setup_none")  # an app on the same database
    async with other.client("spectator", lang) as http:
        answer = await _ask(http, method, path, form)
    found = _check(answer, lang, set())
    assert not found, _report(path, page, "spectator", lang, answer, found)


@pytest.mark.parametrize("lang", LANGS)
async def test_a_page_route_that_raises_answers_an_html_page(
    world: World, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug inside a page route (here: the spectator page's service raises) is an HTML
    error page in the reader's language, never JSON."""
    from app.services import pages

    built = await world.state("tb-setup_none")

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(pages, "spectator_page", broken)
    app = create_app(world.settings, FakeClock())
    app.state.engine = world.engine
    app.state.sessionmaker = world.sessionmaker
    transport = ASGITransport(app=app, raise_app_exceptions=False)
    headers = {"Accept-Language": "en" if lang == "en" else "zh-CN"}
    async with AsyncClient(transport=transport, base_url="http://t", headers=headers) as http:
        answer = await http.get(f"/g/{built.game_id}")
    assert answer.status_code == 500
    found = (
        []
        if answer.headers.get("content-type", "").startswith("text/html")
        else [f"not an HTML page: {answer.headers.get('content-type')!r}: {answer.text[:160]!r}"]
    )
    if not found:
        found = problems(answer.text, lang, {built.game_id})
    assert not found, _report(
        f"/g/{built.game_id}", "route raises", "spectator", lang, answer, found
    )

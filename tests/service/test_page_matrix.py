"""The page matrix (issue 16): every page × every state a game passes through × each role ×
zh and en. Each answer must be an HTML page (never JSON, never 5xx) whose visible text
``page_text.problems`` finds clean: no None, no dict repr or Python list, no unfilled
placeholder, no raw code or internal id, and in Chinese no English outside user data, rule
IDs and proper names.

A new page of a game is one line in ``GAME_PAGES`` (its address, who reads it, in which
states); a page outside games one line in ``PLAIN_PAGES``; a new state one line in
``page_states.STATES`` (its builder and the roles with a session in it) — every page row
then runs in it, and the browser matrix shoots it. Names start ``tb-`` or ``is-``.

Run: ``pytest tests/service/test_page_matrix.py [--db postgres]`` (about 30 s each).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from httpx import ASGITransport, AsyncClient, Response

from app.api.security import CSRF_COOKIE
from app.clock import FakeClock
from app.main import create_app
from tests.service.page_states import (  # noqa: F401 - the module's fixtures
    BUILDERS,
    State,
    World,
    keep_tables,
    roles_of,
    world_fixture,
)
from tests.service.page_text import problems

LANGS = ("zh", "en")
EVERY_PLAYER = "players"  # in a row's roles: each player the state has


# --- the pages ---------------------------------------------------------------------------------
PLAYERS = (EVERY_PLAYER, "signed-out", "other-game")
ANYONE = ("director", EVERY_PLAYER, "spectator", "signed-out", "other-game")


@dataclass(frozen=True)
class Page:
    """A page of a game: its address in a state, who reads it, in which states (by name
    prefix or part: "tb-", "setup_some"; empty: all), and how it is asked for."""

    path: Callable[[State], str]
    roles: tuple[str, ...]
    where: tuple[str, ...] = ()
    method: str = "GET"
    form: dict[str, Any] | None = None

    def in_state(self, state: str) -> bool:
        return not self.where or any(w in state for w in self.where)


# One line per page. Roles: "players" is each player with a session in the state.
GAME_PAGES: dict[str, Page] = {
    "console": Page(lambda s: f"/director/{s.game_id}", ("director", "spectator", "p1")),
    "play": Page(lambda s: f"/play/{s.game_id}", ("director", "spectator", *PLAYERS)),
    "spectator": Page(lambda s: f"/g/{s.game_id}", ANYONE),
    "verify": Page(lambda s: f"/g/{s.game_id}?verify=1", ("spectator", "director")),
    "join_valid": Page(lambda s: s.invites["valid"], ("spectator",), ("setup_some",)),
    "join_spent": Page(lambda s: s.invites["spent"], ("spectator", "p1"), ("setup_some",)),
    "odds": Page(lambda s: f"/play/{s.game_id}/odds", ("p1", "p3", "spectator"), ("tb-",), "POST"),
    "odds_dispatch": Page(  # the preview of an empty Dispatch being drafted (item 23)
        lambda s: f"/play/{s.game_id}/odds", ("p1",), ("tb-",), "POST", {"type": "dispatch"}
    ),
    # A refused form: the page that answers it (or the page it redirects to) says why.
    "order_refused": Page(
        lambda s: f"/play/{s.game_id}/orders", ("p1",), (), "POST", {"type": "不存在的指令"}
    ),
    "text_order_refused": Page(
        lambda s: f"/play/{s.game_id}/orders/text", ("p1",), (), "POST", {"text": "啊啊啊啊"}
    ),
    # The chat bots' link-code button: the page it redirects to shows the code once.
    "chat_code": Page(lambda s: f"/play/{s.game_id}/chat/code", ("p1", "p3"), ("tb-chat",), "POST"),
    "director_refused": Page(
        lambda s: f"/director/{s.game_id}/extend", ("director",), (), "POST", {"minutes": "0"}
    ),
    "signup": Page(lambda s: f"/g/{s.game_id}/signup", ANYONE),  # issue 20, in every state
    "signup_refused": Page(  # a look-alike of a name taken: back with the reason
        lambda s: f"/g/{s.game_id}/signup", ("spectator",), ("signup_",), "POST", {"name": "张三"}
    ),
    "sign_in_refused": Page(
        lambda s: f"/director/{s.game_id}/login", ("spectator",), (), "POST", {"token": "不是口令"}
    ),
}

TB_STATES = [name for name in BUILDERS if name.startswith("tb-")]
IS_STATES = [name for name in BUILDERS if name.startswith("is-")]
TOY_STATES = [name for name in BUILDERS if name.startswith("toy-")]  # a registered plug-in


# Pages outside any game: (page id, method, path, form). One line per page.
PLAIN_PAGES: list[tuple[str, str, str, dict[str, Any] | None]] = [
    ("home", "GET", "/", None),
    ("create_tb", "GET", "/director/new?ruleset=team_battle", None),
    ("create_island", "GET", "/director/new?ruleset=island", None),
    ("created_tb", "POST", "/director/new", {"ruleset": "team_battle", "title": "新的团战"}),
    ("created_island", "POST", "/director/new", {"ruleset": "island", "title": "新的岛"}),
    ("create_toy", "GET", "/director/new?ruleset=toy_duel", None),
    ("created_toy", "POST", "/director/new", {"ruleset": "toy_duel", "title": "新的对决"}),
    ("join_unknown", "GET", "/join/not-a-real-code-at-all-xxxxxxxx", None),
    ("account_signed_out", "GET", "/me", None),
    ("account_recover_unknown", "POST", "/me/recover", {"code": "0000-0000-0000-0000"}),
    ("account_open_signed_out", "POST", "/me/open/nosuchgame0000", {"role": "player"}),
    ("error_unknown_game_record", "GET", "/director/nosuchgame0000/record/nosuchplayer0", None),
    ("error_unknown_game_spectator", "GET", "/g/nosuchgame0000", None),
    ("error_unknown_game_play", "GET", "/play/nosuchgame0000", None),
    ("error_unknown_game_console", "GET", "/director/nosuchgame0000", None),
    ("error_unknown_path", "GET", "/no/such/page", None),
    ("error_unknown_control", "POST", "/director/nosuchgame0000/frobnicate", {}),
]


def _rows() -> list[tuple[str, str, str]]:
    rows: list[tuple[str, str, str]] = []
    for state in TB_STATES + IS_STATES + TOY_STATES:
        for page, spec in GAME_PAGES.items():
            if not spec.in_state(state):
                continue
            has = roles_of(state)
            for role in spec.roles:
                if role == EVERY_PLAYER:
                    rows.extend((page, state, p) for p in has if p.startswith("p"))
                elif role in has:
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
    async with built.client(role, lang) as http:
        answer = await _ask(http, spec.method, path, spec.form)
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

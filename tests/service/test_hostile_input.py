"""Hostile input (issue 7): whatever a caller sends, the answer is a clear 4xx
problem+json and nothing changes — on SQLite and on PostgreSQL alike.

Bounds at the boundary (durations a date can hold, finite numbers, text that hides
nothing, ids that cannot exist), scenarios (size, YAML aliases, parsing off the event
loop), idempotency per caller and under concurrent retries, names that cannot pose as
another, ``/verify`` computed once, the admin token's 401.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import socket
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from httpx import AsyncClient, Response
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.api import deps
from app.clock import FakeClock
from app.models import AuditRow, Game, IdempotencyRow, PlayerRow
from app.rules.types import MAX_DURATION_SECONDS
from app.services import games as games_service
from app.services import idempotency
from app.services import verify as verify_service
from app.settings import Settings
from tests.service.helpers import TB_SETTINGS, bearer, create_game, ok, problem, team_battle
from tests.service.island_helpers import example_text, island_game
from tests.service.live_server import thread_server

GAMES = "/api/v1/games"
NAMES = ["ann", "bob", "cat", "dan", "eve", "fay"]
# How long a test waits for the app to reach a point it controls (never a sleep).
WAIT = 30.0


async def _count(sessionmaker: async_sessionmaker[AsyncSession], model: Any) -> int:
    async with sessionmaker() as session:
        return int(await session.scalar(select(func.count()).select_from(model)) or 0)


def _errors(body: dict[str, Any]) -> str:
    return " ".join(body.get("errors") or [body["detail"]])


async def _raw_post(http: AsyncClient, url: str, text: str, token: str | None = None) -> Response:
    """A body as written, for what a JSON encoder will not write (NaN, Infinity)."""
    headers = {"Content-Type": "application/json", **bearer(token)}
    return await http.post(url, content=text.encode(), headers=headers)


# --- 1. bounds ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("command_seconds", 1_000_000_000_000),
        ("command_seconds", 1e308),
        ("deployment_seconds", MAX_DURATION_SECONDS + 1),
        ("response_seconds", 1e12),
    ],
)
async def test_a_phase_longer_than_30_days_is_422_naming_the_setting(
    client: AsyncClient, sessionmaker: async_sessionmaker[AsyncSession], field: str, value: Any
) -> None:
    body = {"ruleset": "team_battle", "title": "x", "settings": {field: value}}
    refused = problem(await client.post(GAMES, json=body), 422, "invalid_settings")
    assert field in _errors(refused)
    assert await _count(sessionmaker, Game) == 0
    # 30 days is the longest a phase may be, and such a game starts.
    game = await create_game(client, "team_battle", {**TB_SETTINGS, field: MAX_DURATION_SECONDS})
    await game.add_player("a1", "A")
    await game.add_player("b1", "B")
    assert (await game.start())["status"] == "running"


@pytest.mark.parametrize("value", [1e308, MAX_DURATION_SECONDS + 1, -1])
async def test_a_grace_period_beyond_30_days_is_422_naming_the_option(
    client: AsyncClient, sessionmaker: async_sessionmaker[AsyncSession], value: float
) -> None:
    options = {"missed_deadline": "pause", "missed_deadline_grace_seconds": value}
    body = {"ruleset": "team_battle", "title": "x", "options": options}
    refused = problem(await client.post(GAMES, json=body), 422, "invalid_settings")
    assert "missed_deadline_grace_seconds" in _errors(refused)
    body = {"ruleset": "team_battle", "options": {"max_extensions_per_deadline": 10**30}}
    refused = problem(await client.post(GAMES, json=body), 422, "invalid_settings")
    assert "max_extensions_per_deadline" in _errors(refused)
    assert await _count(sessionmaker, Game) == 0


@pytest.mark.parametrize("seconds", [MAX_DURATION_SECONDS + 1, 1e308])
async def test_an_extension_beyond_30_days_is_422_and_moves_nothing(
    client: AsyncClient, seconds: float
) -> None:
    game = await team_battle(client)
    before = await game.summary()
    refused = problem(
        await game.post("/deadline", "director", {"seconds": seconds}), 422, "invalid_body"
    )
    assert "seconds" in _errors(refused)
    problem(
        await _raw_post(client, f"{game.url}/deadline", '{"seconds": Infinity}', game.director),
        422,
        "invalid_body",
    )
    assert await game.summary() == before
    extended = ok(await game.post("/deadline", "director", {"seconds": MAX_DURATION_SECONDS}))
    assert extended["deadline"] > before["deadline"]


@pytest.mark.parametrize("morale", ["NaN", "Infinity", "-Infinity", "1e308"])
async def test_director_numbers_are_finite_and_bounded(client: AsyncClient, morale: str) -> None:
    game = await team_battle(client)
    before = (await game.view("director"), ok(await game.get("/audit", "director")))
    text = '{"action": "set_morale", "side": "A", "morale": ' + morale + "}"
    response = await _raw_post(client, f"{game.url}/director/actions", text, game.director)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert (await game.view("director"), ok(await game.get("/audit", "director"))) == before


@pytest.mark.parametrize(
    "title",
    [
        "a\u0000b",  # PostgreSQL cannot store it
        "赤壁\u202e",  # a bidi override
        "赤\u200b壁",  # a zero-width space
        "line\nbreak",
        "x" * 201,
    ],
)
async def test_a_title_that_hides_characters_or_is_too_long_is_422(
    client: AsyncClient, sessionmaker: async_sessionmaker[AsyncSession], title: str
) -> None:
    body = {"ruleset": "team_battle", "title": title}
    refused = problem(await client.post(GAMES, json=body), 422, "invalid_body")
    assert "title" in _errors(refused)
    assert await _count(sessionmaker, Game) == 0


@pytest.mark.parametrize(
    "body",
    [
        {"ruleset": "team\u0000battle"},
        {"ruleset": "team_battle", "timezone": "Asia/\u0000Shanghai"},
        {"ruleset": "team_battle", "timezone": "A" * 65},
        {"ruleset": "team_battle", "settings": {"troops": {"A\u0000": 30, "B": 30}}},
        {"ruleset": "team_battle", "settings": {"no\u0000such": 1}},
        {"ruleset": "team_battle", "options": {"missed_deadline": "pause\u0000"}},
        {"ruleset": "x" * 10_000},
    ],
)
async def test_nul_anywhere_in_a_body_is_a_4xx_not_a_500(
    client: AsyncClient, sessionmaker: async_sessionmaker[AsyncSession], body: dict[str, Any]
) -> None:
    response = await client.post(GAMES, json=body)
    assert 400 <= response.status_code < 500, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert await _count(sessionmaker, Game) == 0


async def test_nul_in_a_path_or_query_is_a_4xx_not_a_500(client: AsyncClient) -> None:
    game = await team_battle(client)
    problem(await client.get(f"{GAMES}/ab%00cd"), 404, "not_found")
    problem(await client.get(f"{GAMES}/ab%00cd/view"), 404, "not_found")
    problem(await game.get("/orders/ab%00cd/history", "a1"), 404, "not_found")
    response = await game.get("/orders?status=%00", "director")
    assert response.status_code == 422, response.text
    response = await game.get("/orders?status=" + "x" * 100, "director")
    assert response.status_code == 422, response.text
    ok(await game.get("/orders?status=pending", "director"))


@pytest.mark.parametrize(
    "path",
    [
        "/ab%00cd",
        "/" + "a" * 65,
        "/%E6%9B%B9%E6%93%8D",  # 曹操
        "/a.b",
        "/ab%20cd/view",
        "/abc/orders/x%00y/history",
        "/abc/players/%E2%80%AE/invite",
    ],
)
async def test_an_id_that_cannot_exist_is_404_without_touching_the_database(
    client: AsyncClient, path: str
) -> None:
    def untouchable() -> None:
        raise AssertionError("the database was asked about an id that cannot exist")

    app = client.app  # type: ignore[attr-defined]
    app.state.sessionmaker = untouchable
    method = client.post if path.endswith("/invite") else client.get
    problem(await method(f"{GAMES}{path}", headers=bearer("fpd_x")), 404, "not_found")


async def test_an_idempotency_key_longer_than_200_characters_is_refused(
    client: AsyncClient, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    game = await create_game(client, "team_battle")
    body = {"name": "a1", "side": "A"}
    for key in ("k" * 201, "bad key", "tab\tkey"):
        response = await game.post("/players", "director", body, headers={"Idempotency-Key": key})
        problem(response, 422, "invalid_idempotency_key")
    assert await _count(sessionmaker, PlayerRow) == 0
    response = await game.post("/players", "director", body, headers={"Idempotency-Key": "k" * 200})
    ok(response, 201)


# --- 2. scenarios ------------------------------------------------------------------------

BILLION_LAUGHS = "\n".join(
    [
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
        "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]",
        "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]",
        "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]",
        "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]",
        "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]",
        "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]",
        "title: *g",
        "settings: {}",
    ]
)


async def test_a_yaml_scenario_with_aliases_is_refused(
    client: AsyncClient, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    body = {"ruleset": "island", "scenario": BILLION_LAUGHS}
    refused = problem(await client.post(GAMES, json=body), 422, "invalid_scenario")
    assert "alias" in refused["detail"].lower() or "别名" in refused["detail"]
    # Even one harmless-looking anchor is refused: the loader takes none.
    small = "title: &t 岛\nsettings: {width: 5}\nsubtitle: *t\n"
    problem(
        await client.post(GAMES, json={"ruleset": "island", "scenario": small}),
        422,
        "invalid_scenario",
    )
    assert await _count(sessionmaker, Game) == 0


@pytest.mark.parametrize(
    "scenario",
    [
        "title: 岛\nsettings:\n  stories:\n" + "    - {id: s, text: '" + "x" * 600_000 + "'}\n",
        json.dumps({"title": "岛", "settings": {"stories": [{"id": "s", "text": "x" * 600_000}]}}),
        {
            "title": "岛",
            "settings": {"stories": [{"id": f"s{i}", "text": "x" * 10_000} for i in range(60)]},
        },
    ],
    ids=["yaml", "json-text", "object"],
)
async def test_a_scenario_beyond_the_size_cap_is_413(
    client: AsyncClient, sessionmaker: async_sessionmaker[AsyncSession], scenario: Any
) -> None:
    refused = problem(
        await client.post(GAMES, json={"ruleset": "island", "scenario": scenario}),
        413,
        "scenario_too_large",
    )
    assert "KiB" in refused["detail"]
    assert await _count(sessionmaker, Game) == 0


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (lambda s: s.replace("title: 另一面 · 示例岛", "title: " + "岛" * 201), "title"),
        (lambda s: s.replace("title: 另一面 · 示例岛", "title: {a: 1}"), "title"),
        (lambda s: s.replace("name: 平原", 'name: "平\\u202e原"'), "name"),
        (lambda s: s.replace("title: 古老的祭坛", 'title: "祭坛\\0"'), "title"),
        (lambda s: s.replace("width: 5", "width: 1e400"), "width"),
        (
            lambda s: s.replace("encounter_chance: 0.05", "encounter_chance: .nan"),
            "encounter_chance",
        ),
        (lambda s: s.replace("settings:", "settings: !!binary aGVsbG8=\nx:"), "scenario"),
        (lambda s: "[" * 5000 + "]" * 5000, "scenario"),
    ],
    ids=["long-title", "title-object", "bidi-name", "nul-title", "huge", "nan", "binary", "deep"],
)
async def test_every_scenario_field_is_checked_like_a_setting(
    client: AsyncClient,
    sessionmaker: async_sessionmaker[AsyncSession],
    edit: Callable[[str], str],
    where: str,
) -> None:
    scenario = edit(example_text())
    response = await client.post(GAMES, json={"ruleset": "island", "scenario": scenario})
    assert response.status_code == 422, response.text
    assert response.json()["code"] in {"invalid_scenario", "invalid_settings"}
    assert where in _errors(response.json())
    assert await _count(sessionmaker, Game) == 0


class _Gate:
    """A function made to wait, in whatever thread calls it, until the test opens the
    gate; it records how often it ran and on which thread."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.entered = threading.Event()
        self.open = threading.Event()
        self.calls = 0
        self.threads: list[int] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        self.threads.append(threading.get_ident())
        self.entered.set()
        assert self.open.wait(WAIT), "the test never opened the gate"
        return self.function(*args, **kwargs)


async def _healthz_while(gate: _Gate, http: AsyncClient) -> None:
    """Wait until ``gate`` is entered, check /healthz answers meanwhile, open the gate."""
    try:
        assert await asyncio.to_thread(gate.entered.wait, WAIT), "the work never started"
        health = await asyncio.wait_for(http.get("/healthz"), WAIT)
        assert health.json() == {"ok": True}
    finally:
        gate.open.set()


async def test_a_scenario_is_parsed_off_the_event_loop(
    client: AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = _Gate(games_service.read_scenario)
    monkeypatch.setattr(games_service, "read_scenario", gate)
    body = {"ruleset": "island", "scenario": example_text()}
    created, _ = await asyncio.gather(client.post(GAMES, json=body), _healthz_while(gate, client))
    assert ok(created, 201)["title"] == "另一面 · 示例岛"
    assert gate.calls == 1 and gate.threads != [threading.get_ident()]


# --- 3. idempotency ----------------------------------------------------------------------


async def test_anonymous_callers_never_share_an_idempotency_scope(
    client: AsyncClient, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    body = {"ruleset": "team_battle", "title": "mine"}
    headers = {"Idempotency-Key": "create-1"}
    for _ in range(2):  # two strangers who picked the same key
        refused = problem(
            await client.post(GAMES, json=body, headers=headers), 422, "idempotency_needs_token"
        )
        assert "director_token" not in refused
    assert await _count(sessionmaker, Game) == 0


async def test_one_key_used_by_two_directors_is_two_requests(client: AsyncClient) -> None:
    one = await create_game(client, "team_battle")
    two = await create_game(client, "team_battle")
    headers = {"Idempotency-Key": "same"}
    first = ok(
        await one.post("/players", "director", {"name": "a1", "side": "A"}, headers=headers), 201
    )
    second = ok(
        await two.post("/players", "director", {"name": "a1", "side": "A"}, headers=headers), 201
    )
    assert first["id"] != second["id"] and first["token"] != second["token"]


async def test_twenty_concurrent_retries_all_get_the_first_answer(
    client: AsyncClient, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    headers = {"Idempotency-Key": "add-a1"}
    body = {"name": "a1", "side": "A"}
    answers = await asyncio.gather(
        *(game.post("/players", "director", body, headers=headers) for _ in range(20))
    )
    assert [a.status_code for a in answers] == [201] * 20, [a.text for a in answers]
    assert len({a.text for a in answers}) == 1
    assert await _count(sessionmaker, PlayerRow) == 1
    # An order too: submitted once, twenty identical answers.
    game.players["a1"] = answers[0].json()
    await game.add_player("b1", "B")
    await game.start()
    order = {"type": "deploy", "troops": [6, 6, 6, 6, 6]}
    headers = {"Idempotency-Key": "deploy-1"}
    answers = await asyncio.gather(
        *(game.post("/orders", "a1", order, headers=headers) for _ in range(20))
    )
    assert [a.status_code for a in answers] == [201] * 20, [a.text for a in answers]
    assert len({a.json()["id"] for a in answers}) == 1
    assert len(ok(await game.get("/orders", "a1"))) == 1


async def test_a_refused_request_leaves_its_key_free_for_a_corrected_retry(
    client: AsyncClient,
) -> None:
    game = await create_game(client, "team_battle")
    headers = {"Idempotency-Key": "add-1"}
    await game.add_player("a1", "A")
    body = {"name": "a1", "side": "A"}
    problem(await game.post("/players", "director", body, headers=headers), 409, "name_taken")
    corrected = {"name": "a2", "side": "A"}
    added = ok(await game.post("/players", "director", corrected, headers=headers), 201)
    again = ok(await game.post("/players", "director", corrected, headers=headers), 201)
    assert again == added
    # The same key with another body is another request: refused, not replayed.
    other = {"name": "a3", "side": "A"}
    response = await game.post("/players", "director", other, headers=headers)
    problem(response, 422, "idempotency_key_reused")


async def _pending_claim(
    sessionmaker: async_sessionmaker[AsyncSession],
    token: str,
    key: str,
    url: str,
    body: bytes,
    at: datetime,
) -> None:
    """A claim left as a request that never finished would leave it."""
    path = f"{url}#{hashlib.sha256(body).hexdigest()[:32]}"
    async with sessionmaker() as session, session.begin():
        session.add(
            IdempotencyRow(
                scope=idempotency.scope_for(token),
                key=key,
                method="POST",
                path=path,
                status_code=idempotency.PENDING,
                body={},
                created_at=at,
            )
        )


async def test_a_claim_still_running_is_a_409_and_a_stale_one_is_taken_over(
    client: AsyncClient,
    clock: FakeClock,
    sessionmaker: async_sessionmaker[AsyncSession],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(idempotency, "WAIT_SECONDS", 0.0)
    game = await create_game(client, "team_battle")
    url = f"{game.url}/players"
    body = json.dumps({"name": "a1", "side": "A"}).encode()
    headers = {"Content-Type": "application/json", "Idempotency-Key": "k1", **bearer(game.director)}
    await _pending_claim(sessionmaker, game.director, "k1", url, body, clock.now())
    busy = await client.post(url, content=body, headers=headers)
    problem(busy, 409, "idempotency_key_in_use")
    assert await _count(sessionmaker, PlayerRow) == 0
    # A claim older than a request can take was left by a process that died: taken over.
    headers["Idempotency-Key"] = "k2"
    old = clock.now() - idempotency.STALE_AFTER - timedelta(seconds=1)
    await _pending_claim(sessionmaker, game.director, "k2", url, body, old)
    added = ok(await client.post(url, content=body, headers=headers), 201)
    assert ok(await client.post(url, content=body, headers=headers), 201) == added
    assert await _count(sessionmaker, PlayerRow) == 1


# --- 4. names and director bodies ---------------------------------------------------------


@pytest.mark.parametrize("name", ["曹操\u200b", "\u202e操曹", " ", "\t\n", "曹\u0000操", "x" * 101])
async def test_a_name_that_hides_characters_is_422(
    client: AsyncClient, sessionmaker: async_sessionmaker[AsyncSession], name: str
) -> None:
    game = await create_game(client, "team_battle")
    refused = problem(
        await game.post("/players", "director", {"name": name, "side": "A"}), 422, "invalid_body"
    )
    assert "name" in _errors(refused)
    assert await _count(sessionmaker, PlayerRow) == 0


async def test_names_are_unique_by_their_normalised_form(client: AsyncClient) -> None:
    game = await create_game(client, "team_battle")
    first = ok(await game.post("/players", "director", {"name": "　曹操  孟德 ", "side": "A"}), 201)
    assert first["name"] == "曹操 孟德"
    for look_alike in ("曹操 孟德", "曹操\u3000孟德", " 曹操\t孟德"):
        body = {"name": look_alike, "side": "B"}
        problem(await game.post("/players", "director", body), 409, "name_taken")
    ok(await game.post("/players", "director", {"name": "ｃａｏ", "side": "A"}), 201)
    problem(
        await game.post("/players", "director", {"name": "cao", "side": "B"}), 409, "name_taken"
    )
    assert [p["name"] for p in (await game.summary())["players"]] == ["曹操 孟德", "cao"]


async def test_director_free_text_is_capped(client: AsyncClient, clock: FakeClock) -> None:
    game = await island_game(client, clock, NAMES)
    before = ok(await game.get("/audit", "director"))
    body = {"action": "announce", "text": "公告" * 10_001}
    refused = problem(await game.post("/director/actions", "director", body), 422, "invalid_action")
    assert "text" in _errors(refused)
    body = {"action": "announce", "text": "公告\u202e"}
    problem(await game.post("/director/actions", "director", body), 422, "invalid_action")
    assert ok(await game.get("/audit", "director")) == before


async def test_director_bodies_with_unknown_or_deeply_nested_fields_are_422(
    client: AsyncClient, clock: FakeClock, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    game = await island_game(client, clock, NAMES)
    audits = await _count(sessionmaker, AuditRow)
    deep: Any = "x"
    for _ in range(900):
        deep = {"x": deep}
    for body in (
        {"action": "announce", "text": "hi", "extra": deep},
        {"action": "resolve_story", "story": "altar", "changes": [{"action": "end_game", "x": 1}]},
        {"action": "announce", "text": "hi", "note": "unknown"},
    ):
        response = await game.post("/director/actions", "director", body)
        assert response.status_code == 422, response.text
    deep_list = (
        '{"action": "announce", "text": "hi", "extra": ' + "[" * 100_000 + "]" * 100_000 + "}"
    )
    response = await _raw_post(client, f"{game.url}/director/actions", deep_list, game.director)
    assert 400 <= response.status_code < 500, response.text
    assert await _count(sessionmaker, AuditRow) == audits


# --- 5. /verify -------------------------------------------------------------------------


async def test_verify_is_computed_once_and_shared_off_the_event_loop(
    client: AsyncClient, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await island_game(client, clock, NAMES)
    ok(await game.post("/director/actions", "director", {"action": "end_game"}))
    gate = _Gate(verify_service.replay)
    monkeypatch.setattr(verify_service, "replay", gate)
    answers, _ = await asyncio.gather(
        asyncio.gather(*(game.get("/verify") for _ in range(20))), _healthz_while(gate, client)
    )
    assert [a.status_code for a in answers] == [200] * 20
    assert len({a.text for a in answers}) == 1 and answers[0].json()["ok"] is True
    assert gate.calls == 1 and gate.threads != [threading.get_ident()]
    ok(await game.get("/verify"))
    assert gate.calls == 1  # remembered for this step count


# --- 6. the admin token -----------------------------------------------------------------


async def test_a_wrong_or_missing_admin_token_is_401(client: AsyncClient) -> None:
    app = client.app  # type: ignore[attr-defined]
    app.state.settings = app.state.settings.model_copy(update={"admin_token": "s3cret-admin"})
    body = {"ruleset": "team_battle", "title": "x"}
    for headers in ({}, bearer("wrong"), bearer("s3cret-admi")):
        problem(await client.post(GAMES, json=body, headers=headers), 401, "admin_required")
    ok(await client.post(GAMES, json=body, headers=bearer("s3cret-admin")), 201)


# --- 7. an unexpected error ------------------------------------------------------------


def _exchange(sock: socket.socket, path: str) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 request on an open connection, and its whole response."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: test\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, "the server closed the connection"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    while len(body) < int(headers["content-length"]):
        chunk = sock.recv(65536)
        assert chunk, "the server closed the connection mid-answer"
        body += chunk
    return int(status_line.split()[1]), headers, body


def test_a_500_leaves_the_connection_usable(
    settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(deps, "load_game", broken)
    with thread_server(settings, clock) as base:
        host, port = base.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=WAIT) as sock:
            status, headers, body = _exchange(sock, f"{GAMES}/abc")
            assert status == 500
            assert headers["content-type"].startswith("application/problem+json")
            assert json.loads(body)["code"] == "internal_error"
            assert headers.get("connection") != "close"
            status, _, body = _exchange(sock, "/healthz")  # the same connection
            assert (status, json.loads(body)) == (200, {"ok": True})

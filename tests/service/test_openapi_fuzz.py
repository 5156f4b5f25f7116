"""Schemathesis against the app: every route answers as its OpenAPI document says.

The document is the contract a generated client relies on, so each answer is checked
against it: no server error, a declared status, the declared content type (errors are
application/problem+json), a body matching the declared schema. The run is derandomized
(a fixed seed) and bounded. It explores past 404/401: first it plays real games through
the API — a team battle and an island game running, one in setup, one finished, checking
those answers too — then sends each generated request, mostly, to one of these games with
one of its tokens (or none), in turn.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.clock import FakeClock
from app.main import create_app
from app.settings import Settings
from tests.service.helpers import TB_SETTINGS
from tests.service.island_helpers import example_text, local

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
SEED = 20261130
# Cases per route, valid and invalid each: well under a minute per database. A deeper run
# by hand: FORUMPLAY_FUZZ_EXAMPLES=500 pytest tests/service/test_openapi_fuzz.py.
MAX_EXAMPLES = int(os.environ.get("FORUMPLAY_FUZZ_EXAMPLES", "40"))
# One case in this many keeps the generated (made-up) game id.
MADE_UP_ID_EVERY = 8


@dataclass
class World:
    """Real games to aim at: (game id, token or None) pairs, and real order ids."""

    schema: Any
    targets: list[tuple[str, str | None]] = field(default_factory=list)
    orders: list[str] = field(default_factory=list)

    def call(
        self, method: str, path: str, token: str | None = None, body: Any = None, **params: str
    ) -> Any:
        """One request, checked like every generated one, that must succeed."""
        operation = self.schema[f"/api/v1{path}"][method]
        if body is None:
            case = operation.Case(path_parameters=params or None)
        else:
            case = operation.Case(path_parameters=params or None, body=body)
        headers = {"Authorization": f"Bearer {token}"} if token else None
        response = case.call_and_validate(headers=headers, checks=CHECKS)
        assert response.status_code < 300, (method, path, response.status_code, response.text)
        return response.json()


def _play(world: World) -> None:
    """Make the games the fuzzing aims at, through the API."""

    def game(ruleset: str, players: list[tuple[str, str | None]], **body: Any) -> list[str]:
        created = world.call("POST", "/games", body={"ruleset": ruleset, **body})
        gid, tokens = created["id"], [created["director_token"]]
        for name, side in players:
            player = world.call(
                "POST",
                "/games/{game_id}/players",
                tokens[0],
                {"name": name, "side": side},
                game_id=gid,
            )
            tokens.append(player["token"])
        world.targets += [(gid, token) for token in (*tokens, None)]
        return [gid, *tokens]

    sides = [("曹操", "A"), ("刘备", "A"), ("周瑜", "B")]
    gid, director, a1, _, b1 = game("team_battle", sides, title="赤壁", settings=TB_SETTINGS)
    world.call("POST", "/games/{game_id}/start", director, game_id=gid)
    for token in (a1, b1):
        body = {"type": "deploy", "troops": [6, 6, 6, 6, 6]}
        order = world.call("POST", "/games/{game_id}/orders", token, body, game_id=gid)
        world.orders.append(order["id"])
    game("team_battle", sides, title="未开局", settings=TB_SETTINGS)

    islanders = [(name, None) for name in ("ann", "bob", "cat", "dan", "eve", "fay")]
    for ends in (False, True):
        gid, director, ann, *_ = game("island", islanders, scenario=example_text())
        world.call("POST", "/games/{game_id}/start", director, game_id=gid)
        body = {"type": "move", "direction": "right", "hidden": True}
        order = world.call("POST", "/games/{game_id}/orders", ann, body, game_id=gid)
        world.orders.append(order["id"])
        if ends:
            body = {"action": "end_game"}
            world.call("POST", "/games/{game_id}/director/actions", director, body, game_id=gid)
            world.call("GET", "/games/{game_id}/verify", game_id=gid)


@pytest.fixture
def app(database_url: str) -> Iterator[Any]:
    # The app runs on schemathesis' own event loop thread, with its own engine.
    app = create_app(
        Settings(database_url=database_url, scheduler_enabled=False, admin_token=None),
        FakeClock(local(1, 21)),  # inside the island's PK window (IS-15)
    )
    try:
        yield app
    finally:
        asgi.shutdown_lifespans()


def test_every_route_answers_as_its_openapi_document_says(app: Any) -> None:
    """Zero failures of schemathesis' server-error, status-code, content-type and
    response-schema checks, on valid and on invalid requests to every route."""
    config = schemathesis.Config.from_dict({"seed": SEED})
    schema = schemathesis.openapi.from_asgi("/openapi.json", app, config=config)
    world = World(schema)
    _play(world)
    failures: dict[str, str] = {}
    # /stream never ends (server-sent events): tests/service/test_stream.py holds it open.
    operations = [
        op
        for op in (r.ok() for r in schema.get_all_operations())
        if not op.path.endswith("/stream")
    ]
    # Deleting a game (its director's token) takes a target away from every later route:
    # it runs last.
    operations.sort(
        key=lambda op: op.method.upper() == "DELETE" and op.path == "/api/v1/games/{game_id}"
    )
    assert len(operations) >= 20
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            _fuzz(operation, mode, world, failures)
    assert not failures, "\n\n".join(f"{key}\n{text}" for key, text in failures.items())


def _fuzz(operation: Any, mode: GenerationMode, world: World, failures: dict[str, str]) -> None:
    turns = itertools.count()

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=MAX_EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        # Failures are collected, not raised, so nothing is shrunk: the time stays bounded.
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        turn = next(turns)
        game, token = world.targets[turn % len(world.targets)]
        params = case.path_parameters
        if params and "game_id" in params and turn % MADE_UP_ID_EVERY:
            params["game_id"] = game
        if params and "order_id" in params and turn % 2:
            params["order_id"] = world.orders[turn // 2 % len(world.orders)]
        headers = {"Authorization": f"Bearer {token}"} if token else None
        try:
            case.call_and_validate(headers=headers, checks=CHECKS)
        except Exception as failure:  # noqa: BLE001 - every failure is listed at the end
            key = f"{operation.label} ({mode}): {str(failure).splitlines()[0]}"
            failures.setdefault(key, f"{case.as_curl_command(headers)}\n{failure}")

    try:
        run()
    except Unsatisfiable:
        # No invalid request exists for a route without inputs (GET /healthz).
        assert mode == GenerationMode.NEGATIVE, operation.label

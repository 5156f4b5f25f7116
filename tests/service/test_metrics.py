"""GET /metrics counts requests by route template, orders by outcome, timers' lateness;
every request answers with an X-Request-ID and leaves one JSON log line."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
from httpx import AsyncClient
from prometheus_client.parser import text_string_to_metric_families

from app import observability
from app.clock import FakeClock
from tests.service.helpers import bearer, ok, problem, team_battle, tick


async def scrape(http: AsyncClient) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    response = await http.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(
    samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str
) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def test_requests_and_orders_show_in_metrics(client: AsyncClient, clock: FakeClock) -> None:
    game = await team_battle(client)
    before = await scrape(client)
    view = "/api/v1/games/{game_id}/view"
    await game.view("a1")
    await game.view("b1")
    await client.get("/api/v1/games/no-such-game/view")
    await game.order("a1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    problem(await game.post("/orders", "a1", {"type": "spy"}), 409, "wrong_phase")
    problem(await game.post("/orders", "a1", {"type": "nonsense"}), 422, "invalid_order")
    await tick(client, clock, 3600)  # the deployment deadline runs
    await client.request("BREW", "/coffee")  # any method, any path: still one series
    await client.request("BREW", "/tea")
    after = await scrape(client)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    # By route template, never by raw path: one series however many games there are.
    assert grew("forumplay_http_requests_total", method="GET", route=view, status="200") == 2
    assert grew("forumplay_http_requests_total", method="GET", route=view, status="404") == 1
    assert not any("no-such-game" in str(labels) for _, labels in after)
    assert not any("BREW" in str(labels) or "/tea" in str(labels) for _, labels in after)
    unmatched = {"method": "OTHER", "route": "(unmatched)"}
    assert (
        grew("forumplay_http_requests_total", **unmatched, status="405")
        + grew("forumplay_http_requests_total", **unmatched, status="404")
        == 2
    )
    assert grew("forumplay_http_request_duration_seconds_count", method="GET", route=view) == 3
    assert grew("forumplay_orders_total", result="accepted", code="") == 1
    assert grew("forumplay_orders_total", result="refused", code="wrong_phase") == 1
    assert grew("forumplay_orders_total", result="refused", code="invalid_order") == 1
    assert grew("forumplay_timer_lateness_seconds_count", kind="phase") == 1
    assert value(after, "forumplay_outbox_depth", status="pending") >= 0
    assert ("forumplay_stream_subscribers", frozenset()) in after


@pytest.fixture
def access_lines() -> Iterator[io.StringIO]:
    """What the request and timer loggers write, formatted as in production."""
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(observability.JsonFormatter())
    loggers = [logging.getLogger("forumplay.access"), logging.getLogger("forumplay.timers")]
    for logger in loggers:
        logger.addHandler(handler)
    level = logging.getLogger("forumplay").level
    logging.getLogger("forumplay").setLevel(logging.INFO)
    yield buffer
    logging.getLogger("forumplay").setLevel(level)
    for logger in loggers:
        logger.removeHandler(handler)


async def test_each_request_and_timer_logs_one_json_line(
    client: AsyncClient, clock: FakeClock, access_lines: io.StringIO
) -> None:
    game = await team_battle(client)
    access_lines.truncate(0)
    access_lines.seek(0)
    traced = {**bearer(game.token("a1")), "X-Request-ID": "trace-42"}
    response = await client.get(f"{game.url}/view", headers=traced)
    assert response.headers["x-request-id"] == "trace-42"
    # Without one, the response is left alone (answers that must look alike still do)
    # and the log line gets an id of its own.
    assert "x-request-id" not in (await game.get("/view", "a1")).headers
    # A header that could forge log fields is neither echoed nor logged.
    forged = await client.get(f"{game.url}/view", headers={"X-Request-ID": 'x" y'})
    assert "x-request-id" not in forged.headers
    await tick(client, clock, 3600)
    lines = [json.loads(line) for line in access_lines.getvalue().splitlines()]
    requests = [line for line in lines if line["msg"] == "request"]
    ids = [line["request_id"] for line in requests]
    assert ids[0] == "trace-42" and len(set(ids)) == 3
    assert all(len(made) == 16 for made in ids[1:])
    first = requests[0]
    assert first["route"] == "/api/v1/games/{game_id}/view"
    assert first["game_id"] == game.id
    assert first["status"] == 200
    assert first["method"] == "GET"
    assert first["duration_ms"] >= 0
    assert first["level"] == "info" and first["ts"]
    timers = [line for line in lines if line["msg"] == "timer"]
    assert [(t["game_id"], t["kind"]) for t in timers] == [(game.id, "phase")]
    assert timers[0]["lateness_s"] == 0
    ok(await client.get("/healthz"))

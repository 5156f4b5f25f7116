"""Helpers for the publishing tests: a webhook sink and a delivery worker wired to it."""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
from httpx import AsyncClient

from app.clock import FakeClock
from app.publish.worker import DeliveryWorker
from app.settings import Settings
from bench.webhook_sink import WebhookSink, serve_in_process
from tests.service.helpers import Game, ok

SINK_URL = "http://127.0.0.1:9/hook"  # never connected to: the sink is a MockTransport
WEBHOOK_SECRET = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"


@dataclass
class Sink:
    """A webhook receiver: records every request; answers ``fail_with`` while it is set."""

    received: list[tuple[httpx.Request, int]] = field(default_factory=list)
    fail_with: int | None = None
    retry_after: str | None = None

    def handler(self, request: httpx.Request) -> httpx.Response:
        status = self.fail_with or 200
        self.received.append((request, status))
        headers = {"Retry-After": self.retry_after} if self.fail_with and self.retry_after else {}
        return httpx.Response(status, headers=headers, json={"ok": status == 200})

    def accepted(self) -> list[dict[str, Any]]:
        """The posts the sink accepted (2xx), in arrival order."""
        return [json.loads(r.content)["post"] for r, status in self.received if status == 200]

    def ids(self) -> Counter[str]:
        """How often each webhook-id was accepted."""
        return Counter(r.headers["webhook-id"] for r, status in self.received if status == 200)


def worker(
    http: AsyncClient, clock: FakeClock, sink: Sink, settings: Settings | None = None
) -> DeliveryWorker:
    app = http.app  # type: ignore[attr-defined]
    client = AsyncClient(transport=httpx.MockTransport(sink.handler))
    return DeliveryWorker(
        app.state.sessionmaker, clock, settings or app.state.settings, http=client
    )


async def webhook_channel(game: Game, name: str = "hook") -> dict[str, Any]:
    body = {"kind": "webhook", "name": name, "config": {"url": SINK_URL, "secret": WEBHOOK_SECRET}}
    return ok(await game.post("/channels", "director", body), 201)  # type: ignore[no-any-return]


async def posts(game: Game, who: str | None = "director", after: int = 0) -> list[dict[str, Any]]:
    return ok(await game.get("/posts", who, params={"after": after}))  # type: ignore[no-any-return]


@contextlib.asynccontextmanager
async def webhook_receiver() -> AsyncIterator[tuple[WebhookSink, int]]:
    """A real signed-webhook receiver on a local port, served in this event loop (it
    checks every signature); yields it and its port."""
    receiver = WebhookSink(WEBHOOK_SECRET)
    server, task, port = await serve_in_process(receiver)
    try:
        yield receiver, port
    finally:
        server.should_exit = True
        with contextlib.suppress(Exception):
            await task

"""Contract-test helpers: a scripted platform behind httpx.MockTransport.

Each test scripts the answers a platform documents (status, JSON, headers) and then
checks what the adapter sent (method, URL, headers, JSON) and what it made of the answers.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from app.publish.channels.base import Outgoing

Answer = httpx.Response | Callable[[httpx.Request], httpx.Response] | Exception


@dataclass
class Platform:
    """Answers requests in order from a script and records every request it saw."""

    answers: list[Answer] = field(default_factory=list)
    requests: list[httpx.Request] = field(default_factory=list)

    def reply(self, *answers: Answer) -> Platform:
        self.answers.extend(answers)
        return self

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if not self.answers:
            raise AssertionError(f"unexpected request: {request.method} {request.url}")
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        if callable(answer):
            return answer(request)
        return answer

    def json(self, index: int) -> Any:
        return json.loads(self.requests[index].content)

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self.handle))


@pytest.fixture
def platform() -> Iterator[Platform]:
    scripted = Platform()
    yield scripted
    assert not scripted.answers, "the adapter stopped before using every scripted answer"


def outgoing(body: str = "第一回合结果\n\n甲方胜。", title: str = "赤壁 · 第一回合") -> Outgoing:
    post = {
        "id": "post-1",
        "seq": 3,
        "kind": "round_result",
        "title": title,
        "bodies": {"bbcode": f"[b]{title}[/b]", "markdown": body, "text": body},
    }
    return Outgoing(
        delivery_id="dlv_0123456789", game_id="game-1", post=post, body=body, title=title
    )


class SleepRecorder:
    """Stands in for asyncio.sleep between the parts of a split post."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)

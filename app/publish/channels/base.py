"""STAND-IN until i8-channels' adapters land on main (same interface; see PUBLISH.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

import httpx
from pydantic import BaseModel


@dataclass(frozen=True)
class Outgoing:
    delivery_id: str
    game_id: str
    post: dict[str, Any]
    body: str
    title: str


@dataclass(frozen=True)
class Sent:
    remote_id: str | None
    remote_url: str | None
    config_updates: dict[str, Any] = field(default_factory=dict)


class RetryableError(Exception):
    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class FinalError(Exception):
    pass


class ChannelAdapter(Protocol):
    kind: ClassVar[str]
    default_format: ClassVar[str]
    config_model: ClassVar[type[BaseModel]]
    secret_fields: ClassVar[tuple[str, ...]]

    async def send(
        self, message: Outgoing, config: dict[str, Any], http: httpx.AsyncClient
    ) -> Sent: ...

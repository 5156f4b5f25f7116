"""``manual``: forums without an API (NGA, S1, Tieba). Nothing is sent: the delivery waits
as ``manual`` until the director pastes the post by hand and records its URL."""

from __future__ import annotations

from typing import Any, ClassVar

import httpx
from pydantic import BaseModel

from app.publish.channels.base import ChannelConfig, FinalError, Outgoing, Sent


class ManualConfig(ChannelConfig):
    pass


class ManualAdapter:
    kind: ClassVar[str] = "manual"
    default_format: ClassVar[str] = "bbcode"  # Discuz!-family forums (NGA, S1)
    config_model: ClassVar[type[BaseModel]] = ManualConfig
    secret_fields: ClassVar[tuple[str, ...]] = ()
    url_fields: ClassVar[tuple[str, ...]] = ()

    async def send(
        self, message: Outgoing, config: dict[str, Any], http: httpx.AsyncClient
    ) -> Sent:
        raise FinalError("manual: this channel is posted by hand; nothing is sent")

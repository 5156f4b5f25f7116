"""One adapter per platform, behind one small interface (``base.ChannelAdapter``).

The delivery worker looks an adapter up by the channel's ``kind`` and calls ``send``; the
API validates a new channel's config with ``validate_config`` (shape, then the private-URL
guard), stores it with ``seal_config`` (secret fields encrypted) and answers with
``redact``. ``make_http_client`` is the one HTTP client the worker should share across all
sends: no cookie jar (sessions are the adapters' business), no redirects, and the
private-address guard on every request unless private URLs are allowed.
"""

from __future__ import annotations

import asyncio
import urllib.request
from collections.abc import AsyncIterator, Callable
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import httpx
from pydantic import ValidationError

from app.errors import AppError
from app.publish import secrets
from app.publish.channels.base import (
    REQUEST_TIMEOUT,
    ChannelAdapter,
    ChannelError,
    FinalError,
    Outgoing,
    RetryableError,
    Sent,
)
from app.publish.channels.discord import DiscordAdapter
from app.publish.channels.discourse import DiscourseAdapter
from app.publish.channels.manual import ManualAdapter
from app.publish.channels.misago import MisagoAdapter, MisagoClient
from app.publish.channels.onebot import OneBotAdapter
from app.publish.channels.telegram import TelegramAdapter
from app.publish.channels.webhook import WebhookAdapter
from app.publish.urls import PrivateAddress, UnresolvableHost, check_channel_url, check_host
from app.settings import Settings

__all__ = [
    "ADAPTERS",
    "REDACTED",
    "ChannelAdapter",
    "ChannelError",
    "FinalError",
    "LanedTransport",
    "Outgoing",
    "RetryableError",
    "Sent",
    "make_http_client",
    "misago_client",
    "open_config",
    "redact",
    "seal_config",
    "validate_config",
]

_MISAGO = MisagoAdapter()
ADAPTERS: dict[str, ChannelAdapter] = {
    adapter.kind: adapter
    for adapter in (
        WebhookAdapter(),
        _MISAGO,
        DiscourseAdapter(),
        DiscordAdapter(),
        TelegramAdapter(),
        OneBotAdapter(),
        ManualAdapter(),
    )
}

REDACTED = "***"


def misago_client(config: dict[str, Any], http: httpx.AsyncClient) -> MisagoClient:
    """The bot's Misago client for a ``misago`` channel's (opened) config, sharing the
    delivery worker's signed-in session: the forum bridge reads the thread with it
    (``read_thread``, ``posts_page``, ``raw``)."""
    return _MISAGO.client(config, http)


def adapter_for(kind: str) -> ChannelAdapter:
    try:
        return ADAPTERS[kind]
    except KeyError:
        kinds = "、".join(ADAPTERS)
        raise AppError(
            422,
            "unknown_channel_kind",
            f"不支持的频道类型「{kind}」。可选：{kinds}。",
            f"Unknown channel kind {kind!r}. Choose one of: {', '.join(ADAPTERS)}.",
        ) from None


def validate_config(kind: str, config: dict[str, Any], allow_private_urls: bool) -> dict[str, Any]:
    """The config as stored (normalised, defaults filled in), or a 422 problem naming
    each bad field. Looks up DNS for URL hosts unless private URLs are allowed, so call it
    off the event loop (``asyncio.to_thread``)."""
    adapter = adapter_for(kind)
    try:
        model = adapter.config_model.model_validate(config)
    except ValidationError as error:
        problems = [
            {
                "field": ".".join(str(part) for part in item["loc"]) or "config",
                "message": item["msg"],
            }
            for item in error.errors(include_url=False, include_context=False)
        ]
        fields = "、".join(problem["field"] for problem in problems)
        raise AppError(
            422,
            "bad_channel_config",
            f"「{kind}」频道的配置有误：{fields}。",
            f"The {kind} channel's config is invalid: "
            + "; ".join(f"{p['field']}: {p['message']}" for p in problems),
            extra={"errors": problems},
        ) from None
    normalised = model.model_dump(mode="json", exclude_none=True)
    if not allow_private_urls:
        for name in adapter.url_fields:
            if isinstance(normalised.get(name), str):
                check_channel_url(name, normalised[name])
    return normalised


def redact(kind: str, config: dict[str, Any]) -> dict[str, Any]:
    """The config as an answer may show it: every secret field replaced by ``***``."""
    hidden = set(adapter_for(kind).secret_fields)
    return {key: REDACTED if key in hidden else value for key, value in config.items()}


def seal_config(
    kind: str, config: dict[str, Any], settings: Settings | None = None
) -> dict[str, Any]:
    """The config as stored: secret fields encrypted with ``SECRET_KEY``."""
    hidden = set(adapter_for(kind).secret_fields)
    return {
        key: secrets.encrypt(value, settings) if key in hidden and isinstance(value, str) else value
        for key, value in config.items()
    }


def open_config(
    kind: str, config: dict[str, Any], settings: Settings | None = None
) -> dict[str, Any]:
    """The stored config with its secret fields decrypted, ready for ``send``."""
    hidden = set(adapter_for(kind).secret_fields)
    return {
        key: secrets.decrypt(value, settings) if key in hidden and isinstance(value, str) else value
        for key, value in config.items()
    }


class _NoCookies(DefaultCookiePolicy):
    def set_ok(self, cookie: Any, request: Any) -> bool:
        return False


async def _guard_private_addresses(request: httpx.Request) -> None:
    """Just before each request: its host must still resolve to public addresses only
    (a name checked when the channel was made may point elsewhere now)."""
    host = request.url.host
    port = request.url.port or (443 if request.url.scheme == "https" else 80)
    from app.publish import urls  # looked up per call: tests replace urls.resolve_host

    try:
        await asyncio.to_thread(check_host, host, port, urls.resolve_host)
    except PrivateAddress as error:
        raise FinalError(
            f"refused: {error.host} resolves to a private address ({error.address}); "
            "set PUBLISH_ALLOW_PRIVATE_URLS=true if that is intended"
        ) from error
    except UnresolvableHost as error:
        raise RetryableError(f"cannot resolve {host}") from error


class _Released(httpx.AsyncByteStream):
    """A response's body, which tells its lane when it is closed (the connection is free)."""

    def __init__(self, stream: httpx.AsyncByteStream, release: Callable[[], None]) -> None:
        self._stream = stream
        self._release: Callable[[], None] | None = release

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._stream:
            yield chunk

    async def aclose(self) -> None:
        try:
            await self._stream.aclose()
        finally:
            release, self._release = self._release, None
            if release is not None:
                release()


class LanedTransport(httpx.AsyncBaseTransport):
    """Connection pools side by side (``lanes`` of ``per_lane`` connections, each kept
    alive), every request to the lane with the fewest in flight.

    As many connections as one pool of ``lanes * per_lane``, at a fraction of the CPU:
    httpcore's pool looks at every connection it holds each time a request starts or ends
    (an expiry check, a readability poll of each idle socket), so through one pool of 100 a
    delivery pass of 100 sends spent a third of the worker's CPU assigning requests to
    connections (bench/README.md, issue 23)."""

    def __init__(self, lanes: int = 20, per_lane: int = 5) -> None:
        limits = httpx.Limits(max_connections=per_lane, max_keepalive_connections=per_lane)
        self._lanes = [httpx.AsyncHTTPTransport(limits=limits) for _ in range(lanes)]
        self._in_flight = [0] * lanes

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        lane = min(range(len(self._lanes)), key=self._in_flight.__getitem__)
        self._in_flight[lane] += 1

        def release() -> None:
            self._in_flight[lane] -= 1

        try:
            response = await self._lanes[lane].handle_async_request(request)
        except BaseException:
            release()
            raise
        assert isinstance(response.stream, httpx.AsyncByteStream)
        return httpx.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_Released(response.stream, release),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        for lane in self._lanes:
            await lane.aclose()


def make_http_client(
    allow_private_urls: bool, transport: httpx.AsyncBaseTransport | None = None
) -> httpx.AsyncClient:
    """The HTTP client to share across every send of a worker (up to 100 connections).

    Its connections are a ``LanedTransport``'s, unless the environment names a proxy
    (``HTTPS_PROXY`` and the like, which httpx honours only with its own transport)."""
    hooks: dict[str, list[Any]] = {"request": [], "response": []}
    if not allow_private_urls:
        hooks["request"].append(_guard_private_addresses)
    if transport is None and not urllib.request.getproxies():
        transport = LanedTransport()
    return httpx.AsyncClient(
        timeout=REQUEST_TIMEOUT,
        follow_redirects=False,
        cookies=CookieJar(policy=_NoCookies()),
        event_hooks=hooks,
        transport=transport,
        limits=httpx.Limits(max_connections=100, max_keepalive_connections=20),
    )

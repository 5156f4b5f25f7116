"""What every channel adapter shares: the message, the result, the two kinds of failure,
the paragraph splitter, and the mapping from an HTTP answer to "retry later" or "give up".

An adapter turns one post into one or more requests to one platform. It never retries by
itself across a failure of its first request (the delivery worker owns retries, backoff and
ordering); it only waits briefly between the parts of a split post, so that a short rate
limit in the middle does not make the worker send the first parts twice.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Protocol

import httpx
from pydantic import BaseModel, ConfigDict, Field

# Every request an adapter makes carries this timeout (the caller's client may have none).
log = logging.getLogger(__name__)

REQUEST_TIMEOUT = httpx.Timeout(20.0, connect=10.0)
USER_AGENT = "forumplay-publisher/1"
# The longest platform text quoted in an error the director reads.
MAX_ERROR_DETAIL = 300
# Between the parts of a split post, a rate limit this short is waited out in place.
MAX_INLINE_WAIT_SECONDS = 5.0
INLINE_RETRIES = 3


@dataclass(frozen=True)
class Outgoing:
    delivery_id: str  # stable per (post, channel): the idempotency key / webhook-id
    game_id: str
    post: dict[str, Any]  # the post as the API shows it (id, seq, kind, title, bodies, ...)
    body: str  # the post's body in this channel's format
    title: str
    # The thread's title from this post on (a stage of the game), or None: a channel that
    # may rename its thread does so, best effort, after the post went out.
    thread_title: str | None = None


@dataclass(frozen=True)
class Sent:
    remote_id: str | None
    remote_url: str | None
    # e.g. {"thread_id": 42} after the first post opened a thread (config had category_id)
    config_updates: dict[str, Any] = field(default_factory=dict)


class ChannelError(Exception):
    # Set when the send failed after changing the channel (it opened the thread, then a
    # later part of a split post failed): the worker saves these all the same, so a
    # retry replies in that thread instead of opening a second one.
    config_updates: dict[str, Any]

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.config_updates = {}


class RetryableError(ChannelError):
    """Network error, 5xx, 429: the same request may succeed later."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class FinalError(ChannelError):
    """A 4xx that will not get better by itself (bad token, no such thread)."""


class ChannelConfig(BaseModel):
    """Base of every adapter's config model: unknown keys are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# A forum's numeric id of a thread, topic, category, group.
RemoteId = Annotated[int, Field(gt=0, le=2**63 - 1)]


class ChannelAdapter(Protocol):
    kind: ClassVar[str]
    default_format: ClassVar[str]  # "markdown" | "bbcode" | "text"
    config_model: ClassVar[type[BaseModel]]  # validates `config`; extra="forbid"
    secret_fields: ClassVar[tuple[str, ...]]  # encrypted at rest, redacted in answers
    url_fields: ClassVar[tuple[str, ...]]  # checked against private addresses

    async def send(
        self, message: Outgoing, config: dict[str, Any], http: httpx.AsyncClient
    ) -> Sent: ...


# --- splitting -------------------------------------------------------------------------


def utf16_length(text: str) -> int:
    """Length in UTF-16 code units (how Telegram counts): astral characters count twice."""
    return len(text.encode("utf-16-le")) // 2


def split_body(text: str, limit: int, length: Callable[[str], int] = len) -> list[str]:
    """Cut ``text`` into parts of at most ``limit`` (as ``length`` counts), in order.

    Cuts fall between paragraphs (blank lines) where possible, then between lines, then
    between characters. Parts are not stripped inside, so joining them with blank lines
    gives back the paragraphs of the original.
    """
    if limit < 1:
        raise ValueError("limit must be positive")
    text = text.strip("\n")
    if length(text) <= limit:
        return [text] if text else []
    parts: list[str] = []
    current = ""
    for paragraph in _pieces(text, "\n\n", limit, length):
        candidate = f"{current}\n\n{paragraph}" if current else paragraph
        if length(candidate) <= limit:
            current = candidate
            continue
        if current:
            parts.append(current)
        current = paragraph
    if current:
        parts.append(current)
    return parts


def _pieces(text: str, separator: str, limit: int, length: Callable[[str], int]) -> list[str]:
    """Split on ``separator``; any piece still too long is split on a finer boundary."""
    out: list[str] = []
    for piece in text.split(separator):
        if not piece.strip():
            continue
        if length(piece) <= limit:
            out.append(piece)
        elif separator == "\n\n":
            out.extend(_join_lines(piece, limit, length))
        else:
            out.extend(_hard_cut(piece, limit, length))
    return out


def _join_lines(paragraph: str, limit: int, length: Callable[[str], int]) -> list[str]:
    out: list[str] = []
    current = ""
    for line in _pieces(paragraph, "\n", limit, length):
        candidate = f"{current}\n{line}" if current else line
        if length(candidate) <= limit:
            current = candidate
        else:
            if current:
                out.append(current)
            current = line
    if current:
        out.append(current)
    return out


def _hard_cut(line: str, limit: int, length: Callable[[str], int]) -> list[str]:
    out: list[str] = []
    current = ""
    for char in line:
        if length(current + char) > limit:
            out.append(current)
            current = char
        else:
            current += char
    if current:
        out.append(current)
    return out


Sleep = Callable[[float], Awaitable[None]]


async def send_parts(
    parts: Sequence[str],
    send_one: Callable[[int, str], Awaitable[Sent]],
    sleep: Sleep = asyncio.sleep,
) -> list[Sent]:
    """Send the parts in order. A failure of the first part goes to the caller as it is
    (nothing was posted yet); after that, a short rate limit is waited out here, because
    a retry by the worker would post the earlier parts a second time."""
    if not parts:
        raise FinalError("the post is empty: nothing to send")
    results: list[Sent] = []
    for index, part in enumerate(parts):
        attempt = 0
        while True:
            try:
                results.append(await send_one(index, part))
                break
            except RetryableError as error:
                wait = error.retry_after if error.retry_after is not None else 1.0
                attempt += 1
                if index == 0 or attempt > INLINE_RETRIES or wait > MAX_INLINE_WAIT_SECONDS:
                    raise
                await sleep(wait)
    return results


# --- HTTP answers ----------------------------------------------------------------------


def retry_after_header(response: httpx.Response, now: datetime | None = None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date), or None."""
    value = response.headers.get("retry-after")
    if not value:
        return None
    seconds = seconds_or_none(value)
    if seconds is not None:
        return seconds
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def seconds_or_none(value: Any) -> float | None:
    """A non-negative finite number of seconds, or None."""
    if isinstance(value, bool):
        return None
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(seconds) or seconds < 0:
        return None
    return seconds


def json_body(response: httpx.Response) -> Any:
    """The response's JSON, or None when it is not JSON."""
    try:
        return response.json()
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
        return None


def as_dict(value: Any) -> dict[str, Any]:
    """``value`` when it is a JSON object, else an empty one (platform answers vary)."""
    return value if isinstance(value, dict) else {}


def short(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= MAX_ERROR_DETAIL else text[: MAX_ERROR_DETAIL - 1] + "…"


def fail_for_status(
    kind: str,
    response: httpx.Response,
    detail: str,
    retry_after: float | None = None,
) -> None:
    """Raise the error an unsuccessful answer means; return when it was a success (2xx).

    429, 408 and 5xx may pass: RetryableError, with the platform's hint (or the
    ``Retry-After`` header). Any other status will not change by itself: FinalError.
    """
    status = response.status_code
    if 200 <= status < 300:
        return
    message = f"{kind}: HTTP {status}" + (f": {short(detail)}" if detail else "")
    if status in (408, 425, 429) or status >= 500:
        hint = retry_after if retry_after is not None else retry_after_header(response)
        raise RetryableError(message, retry_after=hint)
    if 300 <= status < 400:
        location = response.headers.get("location", "")
        raise FinalError(f"{message} (redirected to {short(location)}; fix the URL)")
    raise FinalError(message)


async def request(
    kind: str,
    http: httpx.AsyncClient,
    method: str,
    url: str,
    *,
    secrets: Sequence[str] = (),
    **kwargs: Any,
) -> httpx.Response:
    """One HTTP request with the adapters' timeout; a network failure becomes
    RetryableError, with any secret (a token in the URL) blanked out of its text."""
    headers = {"User-Agent": USER_AGENT, **kwargs.pop("headers", {})}
    try:
        return await http.request(
            method, url, headers=headers, timeout=REQUEST_TIMEOUT, follow_redirects=False, **kwargs
        )
    except httpx.TransportError as error:
        text = f"{kind}: network error: {type(error).__name__}: {error}"
        for secret in secrets:
            if secret:
                text = text.replace(secret, "***")
        raise RetryableError(short(text)) from error


async def best_effort(call: Awaitable[Any], kind: str) -> None:
    """A rename is a courtesy: the post is out, so its failure is logged, never retried."""
    try:
        await call
    except ChannelError as error:
        log.info("%s: the thread keeps its title: %s", kind, error)

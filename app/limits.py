"""Request-body limits: every route accepts at most what it needs, refused before it is read.

Without them a 100 MB JSON body to ``/orders/parse`` (no token needed to send one) was read
and parsed whole (issue 16 item 32). This ASGI middleware looks up the route's cap by
method and path (``body_limit``) and:

- refuses a declared ``Content-Length`` above it at once (413, nothing read);
- counts a body sent without one (chunked) as it arrives and, the moment it passes the
  cap, answers 413 itself and tells the app the client went away: the app stops reading,
  and whatever it would still answer is dropped.

The answer is problem+json, Chinese first (``Accept-Language: en`` for English).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import AppError, prefers_english, problem

KIB = 1024
MIB = 1024 * KIB

# What the routes that take more than the default need; first match wins.
_ROUTE_LIMITS: list[tuple[str, re.Pattern[str], int]] = [
    # A scenario (512 KiB) escaped in JSON, or typed into the create form.
    ("POST", re.compile(r"/api/v1/games"), 4 * MIB),
    ("POST", re.compile(r"/director/new"), 4 * MIB),
    # A post's bodies, 200,000 characters each, in every format.
    ("PATCH", re.compile(r"/api/v1/games/[^/]+/posts/[^/]+"), 4 * MIB),
    ("POST", re.compile(r"/director/[^/]+/posts/[^/]+/edit"), 4 * MIB),
    # A Discourse webhook carries a whole post (raw and cooked).
    ("POST", re.compile(r"/api/v1/games/[^/]+/forum/discourse"), 1 * MIB),
    # Orders and text orders (400 characters) are small, and can be sent without a token.
    ("*", re.compile(r"/api/v1/games/[^/]+/orders(/.*)?"), 64 * KIB),
    ("*", re.compile(r"/play/[^/]+/.*"), 64 * KIB),
]


def body_limit(method: str, path: str, default: int) -> int:
    """The most bytes a request body to ``method path`` may have."""
    for wanted, pattern, limit in _ROUTE_LIMITS:
        if wanted in ("*", method) and pattern.fullmatch(path):
            return limit
    return default


def too_large(limit: int) -> AppError:
    return AppError(
        413,
        "body_too_large",
        f"请求体过大：此地址最多接受 {limit} 字节（{limit // KIB} KiB）。请求未被读取，也未生效。",
        f"The request body is too large: this address accepts at most {limit} bytes "
        f"({limit // KIB} KiB). It was not read and nothing changed.",
        extra={"limit": limit},
    )


class BodyLimit:
    """ASGI middleware: the caps above, and ``default`` for every other route."""

    def __init__(self, app: ASGIApp, default: int | Callable[[], int]) -> None:
        self.app = app
        self.default = default

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        default = self.default() if callable(self.default) else self.default
        limit = body_limit(scope["method"], scope["path"], default)
        headers = Headers(scope=scope)
        declared = headers.get("content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > limit:
            await _refuse(scope, headers, send, limit)
            return
        if "transfer-encoding" not in headers and (declared is None or declared.strip().isdigit()):
            # No body, or one the server reads no further than its declared length: nothing
            # to count (most requests; the wrappers below cost them CPU for nothing). A
            # chunked body is counted even beside a Content-Length, which it overrides.
            await self.app(scope, receive, send)
            return
        received = 0
        refused = False
        started = False

        async def counting_receive() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    refused = True
                    if not started:
                        await _refuse(scope, headers, send, limit)
                    return {"type": "http.disconnect"}  # the app stops reading here
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 is the answer
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, counting_receive, guarded_send)


async def _refuse(scope: Scope, headers: Headers, send: Send, limit: int) -> None:
    english = prefers_english(headers.get("accept-language"))
    body = json.dumps(problem(too_large(limit), english), ensure_ascii=False).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/problem+json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),  # the rest of the body is never read
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


# Sign-in attempts (passkey ceremonies begun, recovery codes tried) per client and window:
# counted in the database, so every replica sees the same count (app/accounts/passkeys.py).
SIGN_IN_ATTEMPTS = 10
SIGN_IN_WINDOW_SECONDS = 60

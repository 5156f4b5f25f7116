"""Metrics (Prometheus, GET /metrics) and structured logs (one JSON line per event).

Every metric object lives here; the code being measured calls one helper on one line
(``timer_ran``, ``delivery_recorded``, ``SCHEDULER_PASS.time()``), so the calls are easy
to keep when that code changes. Requests are measured by ``RequestMiddleware``, a plain
ASGI middleware: a few counters and one log line per request, nothing that reads or
buffers a body.

Logs: the ``forumplay`` loggers write JSON lines to stderr (``configure_logging``), at the
level named by the ``LOG_LEVEL`` environment variable (default INFO; WARNING silences the
per-request and per-timer lines).
"""

from __future__ import annotations

import itertools
import logging
import os
import re
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

# The service's own registry: every app in a process (tests make many) shares these.
REGISTRY = CollectorRegistry(auto_describe=True)

_LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_LATENESS_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0, 3600.0)

REQUESTS = Counter(
    "forumplay_http_requests",
    "HTTP requests answered, by method, route template and status.",
    ("method", "route", "status"),
    registry=REGISTRY,
)
REQUEST_SECONDS = Histogram(
    "forumplay_http_request_duration_seconds",
    "Time to answer an HTTP request (to the end of its body), by method and route template.",
    ("method", "route"),
    buckets=_LATENCY_BUCKETS,
    registry=REGISTRY,
)
ORDERS = Counter(
    "forumplay_orders",
    "Order submissions (POST …/orders): accepted, or refused with the problem's code.",
    ("result", "code"),
    registry=REGISTRY,
)
TIMER_LATENESS = Histogram(
    "forumplay_timer_lateness_seconds",
    "How long after its due time a timer ran, by timer kind.",
    ("kind",),
    buckets=_LATENESS_BUCKETS,
    registry=REGISTRY,
)
SCHEDULER_PASS = Histogram(
    "forumplay_scheduler_pass_seconds",
    "Time one pass of the deadline loop took (claiming and running what was due).",
    buckets=_LATENCY_BUCKETS,
    registry=REGISTRY,
)
OUTBOX_DEPTH = Gauge(
    "forumplay_outbox_depth",
    "Post deliveries not yet done, by status (read from the database at each scrape).",
    ("status",),
    registry=REGISTRY,
)
DELIVERIES = Counter(
    "forumplay_deliveries",
    "Delivery attempts recorded by this process: sent, retry (will be tried again), failed.",
    ("result",),
    registry=REGISTRY,
)
DELIVERY_SECONDS = Histogram(
    "forumplay_delivery_latency_seconds",
    "From a delivery's creation to its post being sent to the channel.",
    buckets=_LATENESS_BUCKETS,
    registry=REGISTRY,
)
STREAM_SUBSCRIBERS = Gauge(
    "forumplay_stream_subscribers",
    "Open event streams (GET …/stream) in this process.",
    registry=REGISTRY,
)

ORDER_ROUTE = "/api/v1/games/{game_id}/orders"
PROBLEM_CODE = "forumplay.problem_code"  # the scope key an error handler leaves its code in
UNMATCHED = "(unmatched)"  # a path no route matched: one label, not one per path
_METHODS = frozenset(("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"))

access_log = logging.getLogger("forumplay.access")
timer_log = logging.getLogger("forumplay.timers")


# --- logs ---------------------------------------------------------------------------


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and the record's
    ``fields`` (``log.info("request", extra={"fields": {...}})``)."""

    _second = -1
    _prefix = ""

    def _timestamp(self, created: float) -> str:
        """RFC 3339 UTC with milliseconds; the part up to the second is made once a second."""
        second = int(created)
        if second != self._second:
            self._second = second
            self._prefix = datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%S")
        return f"{self._prefix}.{int((created - second) * 1000):03d}+00:00"

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": self._timestamp(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return orjson.dumps(line, default=str).decode()


def configure_logging(level: str | None = None) -> None:
    """JSON lines on stderr for every ``forumplay`` logger, at ``LOG_LEVEL``. Idempotent."""
    root = logging.getLogger("forumplay")
    name = (level or os.environ.get("LOG_LEVEL") or "INFO").upper()
    root.setLevel(logging.getLevelName(name) if name in logging.getLevelNamesMapping() else "INFO")
    if not any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        root.addHandler(handler)
    root.propagate = False
    # The JSON lines show none of these: do not look them up for every record.
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False


# --- instrumentation points ---------------------------------------------------------


def timer_ran(kind: str, game_id: str, lateness: timedelta) -> None:
    """The deadline loop ran a timer (``lateness``: how long after its due time)."""
    late = lateness.total_seconds()
    TIMER_LATENESS.labels(kind).observe(max(0.0, late))
    if timer_log.isEnabledFor(logging.INFO):
        fields = {"game_id": game_id, "kind": kind, "lateness_s": round(late, 3)}
        log_fast(timer_log, "timer", fields)


def delivery_recorded(status: str, created_at: datetime, now: datetime) -> None:
    """The delivery worker recorded an attempt: ``sent``, ``pending`` (a retry) or ``failed``."""
    result = "retry" if status == "pending" else status
    DELIVERIES.labels(result).inc()
    if status == "sent":
        DELIVERY_SECONDS.observe(max(0.0, (now - created_at) / timedelta(seconds=1)))


# --- requests -----------------------------------------------------------------------

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _given_request_id(scope: Scope) -> str | None:
    """The caller's ``X-Request-ID``, when it is one we may log and echo as it is."""
    for name, value in scope["headers"]:
        if name == b"x-request-id":
            text = value.decode("latin-1")
            return text if _REQUEST_ID.match(text) else None
    return None


# A request without an id of its own gets this process's random prefix and a count: unique
# within the process, and across processes but by a 1 in 2**32 chance, without a system
# call for random bytes on every request.
_ID_PREFIX = os.urandom(4).hex()
_REQUEST_COUNT = itertools.count(1)


def _made_request_id() -> str:
    return f"{_ID_PREFIX}{next(_REQUEST_COUNT) & 0xFFFFFFFF:08x}"


class RequestMiddleware:
    """Per HTTP request: count it by route template and status, time it, count order
    submissions by outcome, and log one JSON line. A caller's ``X-Request-ID`` is echoed
    and logged; without one (or with one unfit to log) the line gets an id of its own and
    the response is left as it was: two answers that must look alike still do."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        given = _given_request_id(scope)
        status = 500

        async def send_and_see(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                if given is not None:
                    header = (b"x-request-id", given.encode("latin-1"))
                    message["headers"] = [*message.get("headers", ()), header]
            await send(message)

        try:
            await self.app(scope, receive, send_and_see)
        finally:
            request_id = given or _made_request_id()
            self._done(scope, status, time.perf_counter() - started, request_id)

    @staticmethod
    def _done(scope: Scope, status: int, seconds: float, request_id: str) -> None:
        route = scope.get("route")
        template = getattr(route, "path", None) or UNMATCHED
        method = scope["method"]
        if method not in _METHODS:
            method = "OTHER"  # any token is a method to HTTP: keep the series bounded
        counted, timed, order = _series(method, template, status, scope.get(PROBLEM_CODE))
        counted.inc()
        timed.observe(seconds)
        if order is not None:
            order.inc()
        if access_log.isEnabledFor(logging.INFO):
            fields = {
                "request_id": request_id,
                "method": method,
                "route": template,  # never the path: it may hold an invite code
                "game_id": scope.get("path_params", {}).get("game_id"),
                "status": status,
                "duration_ms": round(seconds * 1000, 3),
            }
            log_fast(access_log, "request", fields)


# The labelled children of one (method, route, status, problem code): looked up once, so a
# request costs two dict lookups here instead of the client's label resolution each time.
_SERIES: dict[tuple[str, str, int, str | None], tuple[Any, Any, Any]] = {}


def _series(method: str, template: str, status: int, code: str | None) -> tuple[Any, Any, Any]:
    key = (method, template, status, code)
    found = _SERIES.get(key)
    if found is None:
        order = None
        if template == ORDER_ROUTE and method == "POST":
            if status < 400:
                order = ORDERS.labels("accepted", "")
            else:
                order = ORDERS.labels("refused", code or str(status))
        found = (
            REQUESTS.labels(method, template, str(status)),
            REQUEST_SECONDS.labels(method, template),
            order,
        )
        _SERIES[key] = found
    return found


def log_fast(logger: logging.Logger, message: str, fields: dict[str, Any]) -> None:
    """``logger.info(message, extra={"fields": fields})`` without looking up the caller's
    file and line (a walk up the stack on every call; the JSON lines do not show them)."""
    record = logger.makeRecord(
        logger.name, logging.INFO, "", 0, message, (), None, extra={"fields": fields}
    )
    logger.handle(record)


def metrics_text(subscribers: int, outbox: dict[str, int]) -> tuple[bytes, str]:
    """The Prometheus exposition, with the gauges read at scrape time set first."""
    STREAM_SUBSCRIBERS.set(subscribers)
    for status in ("pending", "sending", "failed"):
        OUTBOX_DEPTH.labels(status).set(outbox.get(status, 0))
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST

"""The app factory. The ASGI app is ``app.main:app``; its lifespan starts the deadline loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import gc_policy, observability
from app.accounts import tokens as account_tokens
from app.api import (
    access,
    accounts,
    archive,
    bots,
    director,
    forum,
    games,
    openapi,
    orders,
    publishing,
    signups,
    stream,
    undo,
)
from app.api.problems import problems
from app.bridge import reader as forum_reader
from app.chat import facts as chat_facts
from app.chat.inbox import ChatInbox
from app.chat.worker import ChatWorker
from app.clock import Clock, SystemClock
from app.db import (
    database_revisions,
    database_unavailable,
    make_engine,
    make_sessionmaker,
    migration_heads,
)
from app.errors import AppError, prefers_english, problem
from app.limits import BodyLimit
from app.live import Hub
from app.publish import outbox
from app.publish.models import DeliveryRow
from app.publish.worker import DeliveryWorker
from app.rules.base import RuleViolation
from app.scheduler import RetryPolicy, scheduler_loop
from app.services.batcher import OrderBatcher
from app.settings import Settings, get_settings
from app.web import routes as web_routes
from app.web.lines import describe_event

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger("forumplay")


class Readiness(BaseModel):
    status: Literal["ready"]
    revisions: list[str] = Field(description="The Alembic revisions the database is at.")


# What a page says instead of the API's wording (a person reads it, not a client).
_PAGE_WORDING = {
    "internal_error": (
        "服务器内部错误，操作未生效。请稍后再试；如果一直出错，请告诉导演。",
        "Internal error; nothing was changed. Try again later, and tell the director if "
        "it keeps happening.",
    ),
    "invalid_body": (
        "地址或表单里的内容有误，操作未生效。",
        "The address or the form held invalid values; nothing was changed.",
    ),
}


def _problem_response(
    request: Request, error: AppError, headers: dict[str, str] | None = None
) -> Response:
    english = prefers_english(request.headers.get("accept-language"))
    request.scope[observability.PROBLEM_CODE] = error.code  # orders refused, by code
    if web_routes.is_page(request):
        # A page is read by a person: an HTML error page in the reader's language, never
        # JSON (the API keeps problem+json).
        if error.code in _PAGE_WORDING:
            zh, en = _PAGE_WORDING[error.code]
            error = AppError(error.status, error.code, zh, en)
        page = web_routes.failure_page(request, error)
        for key, value in (headers or {}).items():
            page.headers[key] = value
        return page
    return JSONResponse(
        problem(error, english), status_code=error.status, media_type=PROBLEM_JSON, headers=headers
    )


# How soon a client may try again when the database is away (a restart takes seconds).
RETRY_AFTER_SECONDS = "2"


def database_unavailable_error() -> AppError:
    return AppError(
        503,
        "database_unavailable",
        "数据库暂时无法访问，请稍后重试；未得到成功答复的请求不算已受理。",
        "The database is unreachable for now; retry later. A request without a "
        "successful answer was not acknowledged.",
    )


class UnexpectedErrors:
    """ASGI middleware: an exception no handler took becomes a problem+json 500 (logged),
    and the connection stays usable. If the answer had already begun, nothing can be
    said any more: the exception goes on and the server closes the connection."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception as error:
            if started:
                raise
            request = Request(scope)
            log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=error)
            failure = AppError(
                500,
                "internal_error",
                "服务器内部错误，操作未生效。",
                "Internal error; nothing was changed.",
            )
            await _problem_response(request, failure)(scope, receive, send)


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    settings = settings or get_settings()
    clock = clock or SystemClock()
    observability.configure_logging()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(
            settings.database_url,
            settings.db_pool_size,
            settings.db_echo,
            pool_overflow=settings.db_pool_overflow,
            connect_timeout=settings.db_connect_timeout_seconds,
            command_timeout=settings.db_command_timeout_seconds,
            pool_timeout=settings.db_pool_timeout_seconds,
        )
        app.state.engine = engine
        app.state.sessionmaker = make_sessionmaker(engine)
        await app.state.hub.start()
        # What exists after start-up lives as long as the process: keep the cyclic garbage
        # collector from walking it again and again (full collections showed as latency).
        collector = gc_policy.serve(settings.gc_full_seconds)
        tasks: list[asyncio.Task[None]] = [] if collector is None else [collector]
        task = None
        if settings.scheduler_enabled:
            task = asyncio.create_task(
                scheduler_loop(
                    app.state.sessionmaker,
                    clock,
                    settings.scheduler_interval_seconds,
                    settings.scheduler_batch,
                    RetryPolicy.from_settings(settings),
                    render_posts=settings.scheduler_renders_posts,
                )
            )
        if task is not None:
            tasks.append(task)
        if settings.publish_worker_enabled:
            worker = DeliveryWorker(app.state.sessionmaker, clock, settings)
            tasks.append(asyncio.create_task(worker.loop()))
            # The chat bots' private messages: the same schedule, their own outbox.
            chat = ChatWorker(app.state.sessionmaker, clock, settings, describe_event)
            tasks.append(asyncio.create_task(chat.loop()))
        try:
            yield
        finally:
            for running in tasks:
                running.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await running
            await app.state.hub.stop()
            await engine.dispose()

    app = FastAPI(
        title="forumplay",
        version="0.1.0",
        description="Director-moderated forum play (论坛戏): hidden orders, durable deadlines, "
        "verifiable dice. Errors are application/problem+json; send Accept-Language: en "
        "for English messages (Chinese is the default).",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.clock = clock
    app.state.hub = Hub(lambda: app.state.sessionmaker, settings.database_url)
    app.state.batcher = OrderBatcher(
        lambda: app.state.sessionmaker,
        clock,
        settings.admin_token,
        max_workers=settings.order_batch_workers,
        spawn_at=settings.order_batch_spawn_at,
    )
    # Reads the games' forum threads; the scheduler hands it due polls (app/bridge).
    app.state.forum_reader = forum_reader.ForumReader(
        lambda: app.state.sessionmaker, clock, settings
    )
    forum_reader.install(app.state.forum_reader)
    # The chat bots' inbound messages: one game's wait for each other in memory.
    app.state.chat_inbox = ChatInbox(
        lambda: app.state.sessionmaker, lambda: app.state.engine, clock, settings
    )
    outbox.DM_BOTS["chat"] = chat_facts.dm_bots  # the opening post names them

    @app.exception_handler(AppError)
    async def app_error(request: Request, error: AppError) -> Response:
        return _problem_response(request, error)

    @app.exception_handler(RuleViolation)
    async def rule_violation(request: Request, violation: RuleViolation) -> Response:
        return _problem_response(request, AppError.from_violation(violation))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> Response:
        problems = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()]
        return _problem_response(
            request,
            AppError(
                422,
                "invalid_body",
                "请求格式有误：" + "；".join(problems),
                "Malformed request: " + "; ".join(problems),
                extra={"errors": problems},
            ),
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 404:
            failure = (
                AppError(404, "not_found", "找不到该页面或游戏。", "No such page or game.")
                if web_routes.is_page(request)
                else AppError(404, "not_found", "没有这个地址。", "No such endpoint.")
            )
        elif error.status_code == 405:
            failure = AppError(
                405, "method_not_allowed", "不支持该请求方法。", "Method not allowed."
            )
        else:
            failure = AppError(
                error.status_code, "http_error", str(error.detail), str(error.detail)
            )
        return _problem_response(request, failure)

    # An unexpected exception is answered here, inside Starlette's ServerErrorMiddleware:
    # that one would answer too, but then re-raise, and the server would drop the
    # keep-alive connection half-open (the client's next request on it was reset).
    app.add_middleware(orders.FastOrders)  # innermost: everything below sees its requests
    app.add_middleware(UnexpectedErrors)
    app.add_middleware(account_tokens.MethodScope)
    account_tokens.install()

    async def database_error(request: Request, error: Exception) -> Response:
        """The database is away (stopped, restarting, unreachable, out of connections):
        a quick 503 the client may retry, not a 500. Anything else is a bug: re-raised
        to the handler of unexpected errors."""
        if not database_unavailable(error):
            raise error
        log.warning("database unavailable on %s %s: %s", request.method, request.url.path, error)
        return _problem_response(
            request, database_unavailable_error(), {"Retry-After": RETRY_AFTER_SECONDS}
        )

    # Connection failures surface as SQLAlchemy errors, or as the driver's OSError /
    # TimeoutError when a connection cannot be opened or an answer does not come.
    app.add_exception_handler(SQLAlchemyError, database_error)
    app.add_exception_handler(OSError, database_error)

    @app.get("/healthz", tags=["ops"])
    async def healthz() -> dict[str, Any]:
        """Liveness: the process answers. It does not touch the database (see /readyz),
        so an outage of the database does not get a healthy process restarted."""
        return {"ok": True}

    @app.get("/readyz", tags=["ops"], response_model=Readiness, responses=problems(503))
    async def readyz(request: Request) -> Any:
        """Readiness: the database answers and its migrations are at the head revision;
        503 (`database_unavailable`, `migrations_pending`) otherwise."""
        heads = migration_heads()
        try:
            async with asyncio.timeout(settings.db_connect_timeout_seconds + 1):
                current = await database_revisions(request.app.state.engine)
        except Exception as error:  # noqa: BLE001 - whatever the cause, not ready
            if not isinstance(error, TimeoutError) and not database_unavailable(error):
                log.exception("readiness check failed")
            return _problem_response(
                request, database_unavailable_error(), {"Retry-After": RETRY_AFTER_SECONDS}
            )
        if current != heads:
            return _problem_response(
                request,
                AppError(
                    503,
                    "migrations_pending",
                    "数据库的迁移版本不是最新，请先运行迁移。",
                    "The database is not migrated to the head revision; run the migrations.",
                    extra={"revisions": sorted(current), "head": sorted(heads)},
                ),
            )
        return {"status": "ready", "revisions": sorted(current)}

    @app.get("/metrics", response_class=Response, include_in_schema=False)  # not JSON
    async def metrics(request: Request) -> Response:
        """Prometheus metrics: requests, orders, timers, the outbox, streams."""
        async with request.app.state.sessionmaker() as session:
            depth = await session.execute(
                select(DeliveryRow.status, func.count())
                .where(DeliveryRow.status.in_(("pending", "sending", "failed")))
                .group_by(DeliveryRow.status)
            )
            outbox = {str(status): int(count) for status, count in depth.all()}
        body, media_type = observability.metrics_text(
            request.app.state.hub.subscriber_count(), outbox
        )
        return Response(body, media_type=media_type)

    # Routes are matched in order: the hot paths first (the repeated reads, then orders).
    app.include_router(games.reads)
    app.include_router(orders.router)
    app.include_router(games.router)
    app.include_router(director.router)
    app.include_router(undo.router)
    app.include_router(publishing.router)
    app.include_router(forum.router)
    app.include_router(bots.router)
    app.include_router(bots.inbound)
    app.include_router(access.router)
    app.include_router(stream.router)
    app.include_router(archive.router)
    app.include_router(signups.router)
    app.include_router(accounts.router)
    app.include_router(web_routes.router)
    app.mount("/static", StaticFiles(directory=web_routes.STATIC), name="static")
    openapi.install(app)
    # Bodies capped per route before they are read (issue 16 item 32); inside the request
    # log, which counts the 413s.
    app.add_middleware(BodyLimit, default=lambda: app.state.settings.max_body_bytes)
    app.add_middleware(observability.RequestMiddleware)
    return app


app = create_app()

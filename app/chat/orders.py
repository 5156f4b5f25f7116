"""A linked player's orders by message: read by the game's own grammar (one or several,
one a line), submitted exactly as ``POST /orders`` takes them (every rule check, receipt
and event the same), answered with the echo, the sealed receipt and what is still open
this phase. Also the list, withdraw and ready commands. Never commits."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.bridge.text import Reading, read_post
from app.chat.words import say
from app.errors import AppError
from app.kit.pages import order_name
from app.models import Game
from app.rules.base import ParsedOrders
from app.rules.registry import get_presentation, get_ruleset
from app.services import orders as order_service
from app.services.auth import Principal


async def read(game: Game, principal: Principal, text: str) -> Reading:
    ruleset = get_ruleset(game.ruleset)
    state = game.state
    if state is None:
        return Reading()

    def parse(line: str) -> ParsedOrders:
        return ruleset.parse_orders(line, ruleset.text_context(state, principal.viewer))

    return await asyncio.to_thread(read_post, text, parse)


def _name(game: Game, order_type: str, lang: str) -> str:
    return order_name(get_presentation(game.ruleset).words, order_type, lang)


async def submit(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    reading: Reading,
    private: bool,
    lang: str,
    now: datetime,
) -> tuple[str, list[str]]:
    """The answer to a message of orders (read already, see :func:`read`), and the ids
    of the orders it made ([] when it made none). ``game`` is locked by the caller."""
    if game.status != "running" or game.state is None:
        return say("not_running", lang, game=game.title), []
    if reading.problem is not None:
        problem = AppError.from_violation(reading.problem)
        return say("refused", lang, message=_message(problem, lang)), []
    if not reading.orders:
        return say("nothing_read", lang), []
    ruleset = get_ruleset(game.ruleset)
    if not private and any(not ruleset.is_public_order(o) for o in reading.orders):
        return say("hidden_in_group", lang), []  # no echo: the group must not read it
    made: list[dict[str, Any]] = []
    try:
        if len(reading.orders) == 1:  # a refusal writes nothing: no savepoint needed
            made.append(
                await order_service.submit_order(session, game, principal, reading.orders[0], now)
            )
        else:  # all of the message, or none of it
            async with session.begin_nested():
                for body in reading.orders:
                    made.append(
                        await order_service.submit_order(session, game, principal, body, now)
                    )
    except AppError as problem:
        if len(reading.orders) > 1:
            await session.refresh(game)
        return say("refused", lang, message=_message(problem, lang)), []
    echo = ("; " if lang == "en" else "；").join(
        reading.echo_en if lang == "en" else reading.echo_zh
    )
    lines = [say("accepted", lang, echo=echo)]
    receipt = next((m["receipt"] for m in reversed(made) if m.get("receipt")), None)
    if private and isinstance(receipt, dict):
        lines.append(say("receipt", lang, receipt=receipt.get("receipt")))
    if private:
        lines.extend(still_open(game, principal, lang, now))
    return "\n".join(lines), [str(m["id"]) for m in made]


def still_open(game: Game, principal: Principal, lang: str, now: datetime) -> list[str]:
    """What the player may still order this phase (the rules' own list), and /ready."""
    if game.state is None:
        return []
    entries = get_ruleset(game.ruleset).available_orders(game.state, principal.viewer, now)
    names = [
        _name(game, str(e["type"]), lang)
        for e in entries
        if isinstance(e, dict) and e.get("allowed", True) and e.get("type")
    ]
    out = (
        [say("available", lang, names=("、" if lang != "en" else ", ").join(names))]
        if names
        else []
    )
    return [*out, say("ready_hint", lang)]


async def pending(session: AsyncSession, game: Game, principal: Principal) -> list[dict[str, Any]]:
    rows = await order_service.list_orders(session, game, principal, "pending")
    return rows


async def status(
    session: AsyncSession, game: Game, principal: Principal, lang: str, now: datetime
) -> str:
    rows = await pending(session, game, principal)
    if not rows:
        lines = [say("status_none", lang)]
    else:
        lines = [
            say("status_line", lang, n=i, name=_name(game, r["type"], lang), status=r["status"])
            for i, r in enumerate(rows, 1)
        ]
    return "\n".join([f"「{game.title}」", *lines, *still_open(game, principal, lang, now)])


async def withdraw(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    argument: str,
    lang: str,
    now: datetime,
) -> str:
    rows = await pending(session, game, principal)
    number = int(argument) if argument.strip().isdigit() else len(rows)
    if not 1 <= number <= len(rows):
        return say("no_such_order", lang, n=argument.strip() or "?")
    try:
        async with session.begin_nested():
            await order_service.withdraw_order(
                session, game, principal, rows[number - 1]["id"], now
            )
    except AppError as problem:
        await session.refresh(game)
        return say("refused", lang, message=_message(problem, lang))
    return say("withdrawn", lang, n=number)


async def ready(
    session: AsyncSession, game: Game, principal: Principal, lang: str, now: datetime
) -> str:
    try:
        async with session.begin_nested():
            await order_service.mark_ready(session, game, principal, now)
    except AppError as problem:
        await session.refresh(game)
        return say("refused", lang, message=_message(problem, lang))
    return say("ready_done", lang)


def _message(problem: AppError, lang: str) -> str:
    return problem.message_en if lang == "en" else problem.message_zh

"""Orders in words: the shell's side. The ruleset reads the text (``parse_orders``, pure);
this module gives it the caller's vocabulary (``text_context``, from what the caller may
see) and turns its answer into the API's: 200 orders + echo, or 422 naming the words.

A text order submitted through ``POST /orders`` is read here and then goes through the
normal submission path, so every rule check, receipt and event is the same as for JSON.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import TypeAdapter, ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import AppError
from app.models import Game
from app.rules.base import JSON, ParsedOrders, RuleViolation
from app.rules.registry import get_ruleset
from app.rules.textorders import OrderText
from app.services.auth import Principal, require_player
from app.services.games import roster, roster_players, ruleset_settings

_TEXT = TypeAdapter(OrderText)


def in_words(body: dict[str, Any]) -> bool:
    """Whether a body is an order in words: it has ``text`` and no ``type`` (an order of a
    game may have a field named ``text`` of its own)."""
    return "text" in body and "type" not in body


def text_of(body: dict[str, Any]) -> str | None:
    """The text of a ``{"text": "..."}`` order body, checked; None for a JSON order."""
    if not in_words(body):
        return None
    if set(body) != {"text"}:
        extra = sorted(k for k in body if k != "text")
        raise AppError(
            422,
            "bad_order",
            f"文字指令只需要 text 字段，多余的字段：{', '.join(extra)}。",
            f"A text order has only 'text'; unexpected fields: {', '.join(extra)}.",
        )
    try:
        return _TEXT.validate_python(body["text"])
    except ValidationError as error:
        detail = "; ".join(str(e["msg"]) for e in error.errors())
        raise AppError(
            422, "bad_order", f"text 字段有误：{detail}", f"Invalid 'text': {detail}"
        ) from None


def read(game: Game, principal: Principal, text: str, state: JSON | None = None) -> ParsedOrders:
    """The ruleset's reading of ``text`` for this caller (422 when it cannot)."""
    ruleset = get_ruleset(game.ruleset)
    current = state if state is not None else game.state
    assert current is not None
    try:
        return ruleset.parse_orders(text, ruleset.text_context(current, principal.viewer))
    except RuleViolation as violation:
        raise AppError.from_violation(violation) from None


async def read_in_thread(
    game: Game, principal: Principal, text: str, state: JSON | None = None
) -> ParsedOrders:
    """``read`` in a worker thread: the event loop keeps serving while words are read."""
    return await asyncio.to_thread(read, game, principal, text, state)


def echo(parsed: ParsedOrders, english: bool) -> str:
    return parsed.echo_en if english else parsed.echo_zh


def one_order(parsed: ParsedOrders) -> JSON:
    """``POST /orders`` takes exactly one order; several (or none) is a 422 that says so."""
    if len(parsed.orders) == 1:
        return parsed.orders[0]
    count = len(parsed.orders)
    raise AppError(
        422,
        "one_order_only",
        f"一次只能提交一条指令，这段文字读出了{count}条：{parsed.echo_zh}。"
        "请分开提交，或用 /orders/parse 查看。",
        f"Submit one order at a time; this text reads as {count}: {parsed.echo_en}. "
        "Send them one by one, or check them with /orders/parse.",
        extra={"orders": parsed.orders},
    )


async def parse(
    session: AsyncSession, game: Game, principal: Principal, text: str, english: bool
) -> dict[str, Any]:
    """``POST /orders/parse``: how a text reads, changing nothing. Before the game starts
    the vocabulary comes from the roster and settings as they would start."""
    require_player(principal)
    state = game.state
    if state is None:
        ruleset = get_ruleset(game.ruleset)
        settings = ruleset_settings(ruleset, game.settings)
        state = ruleset.initial_state(settings, roster_players(await roster(session, game)))
    parsed = await read_in_thread(game, principal, text, state)
    return {"orders": parsed.orders, "echo": echo(parsed, english)}

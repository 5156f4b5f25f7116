"""Forum bridge use cases: read one forum post, link codes (turning reading on is
app/bridge/forums.py).

``process`` reads one revision of one forum post inside the caller's transaction (the game
row locked) and, in that same transaction: records it in ``forum_posts`` (unique per game,
post and revision: a second reader of the same revision fails on the constraint and
changes nothing), submits, revises or withdraws the poster's public orders through the
normal order service (every rule check, receipt and event as for the API), and queues the
bot's reply in the outbox. Like every service it never commits.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from app.bridge import replies
from app.bridge.forums import reading_target, thread_of
from app.bridge.models import ForumBridgeRow, ForumLinkRow, ForumPostRow
from app.bridge.replies import Reply
from app.bridge.signups import read_signup
from app.bridge.text import CODE_ALPHABET, Reading, link_code, own_words, read_post
from app.errors import AppError
from app.models import Game, OrderRow, PlayerRow
from app.publish import outbox
from app.publish import secrets as sealing
from app.rules.base import ParsedOrders
from app.rules.registry import get_ruleset
from app.services import orders as order_service
from app.services.auth import PlayerInfo, Principal, require_player

# Order statuses a forum post may still change (anything else has been executed or voided).
CHANGEABLE = ("pending",)


@dataclass(frozen=True)
class ForumMessage:
    """One revision of one forum post, as either forum gives it."""

    post_id: str
    revision: str  # Misago: its edit count; Discourse: its version; "deleted"
    author: str | None
    raw: str | None  # the text as typed (None once deleted)
    url: str | None = None

    @property
    def deleted(self) -> bool:
        return self.raw is None


# ------------------------------------------------------------------ what the reader keeps


async def seen_revisions(session: AsyncSession, game_id: str) -> set[tuple[str, str]]:
    rows = await session.execute(
        select(ForumPostRow.post_id, ForumPostRow.revision).where(ForumPostRow.game_id == game_id)
    )
    return {(p, r) for p, r in rows}


async def posts_with_orders(session: AsyncSession, game_id: str, thread: str) -> set[str]:
    """The thread's posts whose latest reading gave orders (a deletion withdraws them)."""
    latest = (
        select(ForumPostRow.post_id, func.max(ForumPostRow.id).label("last"))
        .where(ForumPostRow.game_id == game_id, ForumPostRow.thread_id == thread)
        .group_by(ForumPostRow.post_id)
        .subquery()
    )
    rows = await session.scalars(
        select(ForumPostRow.post_id)
        .join(latest, latest.c.last == ForumPostRow.id)
        .where(ForumPostRow.outcome == "orders")
    )
    return set(rows)


def record_baseline(
    session: AsyncSession, game_id: str, thread: str, messages: list[ForumMessage], now: datetime
) -> None:
    """The posts already in the thread when reading starts: seen, never acted on."""
    for message in messages:
        session.add(_row(game_id, thread, message, "ignored", now))


# ------------------------------------------------------------------------- one forum post


async def process(session: AsyncSession, game: Game, message: ForumMessage, now: datetime) -> str:
    """Read one revision of one forum post (the game row locked by the caller); return
    what came of it. A revision read before changes nothing ("seen")."""
    target = await reading_target(session, game.id)
    if target is None:
        return "off"
    bridge, channel, config = target
    already = await session.scalar(
        select(ForumPostRow.id).where(
            ForumPostRow.game_id == game.id,
            ForumPostRow.post_id == message.post_id,
            ForumPostRow.revision == message.revision,
        )
    )
    if already is not None:
        return "seen"
    row = _row(game.id, thread_of(bridge, channel), message, "ignored", now)
    session.add(row)
    await session.flush()  # claim the revision now: a concurrent reader fails here
    earlier = await _earlier_orders(session, game.id, message.post_id)
    if message.deleted:
        return await _deleted(session, game, bridge, row, message, earlier, now)
    bot = str(config.get("username") or config.get("api_username") or "")
    author = message.author or ""
    if not author or _same_name(author, bot):
        return row.outcome
    text = own_words(message.raw or "")
    code = link_code(text)
    if code is not None:
        return await _link(session, game, bridge, row, message, code, now)
    signed = await read_signup(session, game, author, text, now)  # "报名" / "退出"
    if signed is not None:
        row.outcome = signed[0]
        await _reply(session, game, bridge, row, message, signed[1], now)
        return row.outcome
    player = await _player_named(session, game.id, author)
    if player is None:
        return row.outcome  # an unlinked poster: passed over without a word
    row.player_id = player.id
    principal = Principal("player", player=PlayerInfo.of(player))
    reading = await _read(game, principal, text)
    if not reading.said_anything:
        if not earlier:
            return row.outcome  # chatter
        reading = Reading()  # an edit that took the orders out: withdraw them
    return await _act(session, game, bridge, row, message, principal, reading, earlier, now)


def _row(
    game_id: str, thread: str | None, message: ForumMessage, outcome: str, now: datetime
) -> ForumPostRow:
    return ForumPostRow(
        game_id=game_id,
        thread_id=thread,
        post_id=message.post_id,
        revision=message.revision,
        author=(message.author or "")[:200] or None,
        player_id=None,
        outcome=outcome,
        order_ids=[],
        code=None,
        reply_post_id=None,
        at=now,
    )


def _same_name(a: str, b: str) -> bool:
    return a.strip().lstrip("@").casefold() == b.strip().lstrip("@").casefold()


async def _player_named(session: AsyncSession, game_id: str, author: str) -> PlayerRow | None:
    rows = await session.scalars(
        select(PlayerRow).where(PlayerRow.game_id == game_id, PlayerRow.forum_name.is_not(None))
    )
    return next((p for p in rows if p.forum_name and _same_name(p.forum_name, author)), None)


async def _earlier_orders(session: AsyncSession, game_id: str, post_id: str) -> list[OrderRow]:
    """The orders the post's latest earlier reading gave that may still change."""
    last = await session.scalar(
        select(ForumPostRow)
        .where(
            ForumPostRow.game_id == game_id,
            ForumPostRow.post_id == post_id,
            ForumPostRow.outcome.in_(("orders", "withdrawn")),
        )
        .order_by(ForumPostRow.id.desc())
        .limit(1)
    )
    if last is None or last.outcome != "orders" or not last.order_ids:
        return []
    rows = await session.scalars(select(OrderRow).where(OrderRow.id.in_(last.order_ids)))
    by_id = {r.id: r for r in rows}
    found = [by_id[i] for i in last.order_ids if i in by_id]
    return [r for r in found if r.status in CHANGEABLE]


async def _read(game: Game, principal: Principal, text: str) -> Reading:
    """The post read line by line with the game's grammar, off the event loop."""
    ruleset = get_ruleset(game.ruleset)
    state = game.state
    if state is None:
        return Reading()  # not started: nothing can be ordered, nothing is said

    def parse(line: str) -> ParsedOrders:
        return ruleset.parse_orders(line, ruleset.text_context(state, principal.viewer))

    return await asyncio.to_thread(read_post, text, parse)


async def _act(
    session: AsyncSession,
    game: Game,
    bridge: ForumBridgeRow,
    row: ForumPostRow,
    message: ForumMessage,
    principal: Principal,
    reading: Reading,
    earlier: list[OrderRow],
    now: datetime,
) -> str:
    echo = ("；".join(reading.echo_zh), "; ".join(reading.echo_en))
    ruleset = get_ruleset(game.ruleset)
    if reading.problem is not None:
        problem = AppError.from_violation(reading.problem)
        return await _refuse(session, game, bridge, row, message, problem, bool(earlier), now)
    if any(not ruleset.is_public_order(order) for order in reading.orders):
        row.outcome, row.code = "refused", "hidden_order_in_public"
        await _reply(session, game, bridge, row, message, Reply("hidden", {"echo": echo}), now)
        return row.outcome
    try:
        async with session.begin_nested():
            ids = await _apply(session, game, principal, reading.orders, earlier, now)
    except AppError as problem:
        await session.refresh(game)
        return await _refuse(session, game, bridge, row, message, problem, bool(earlier), now)
    row.outcome, row.order_ids = "orders", ids
    if not reading.orders:
        row.outcome = "withdrawn"
        phrase = "withdrawn" if message.deleted else "removed"
        await _reply(session, game, bridge, row, message, Reply(phrase, {}), now)
        return row.outcome
    phrase = "revised" if earlier else "accepted"
    await _reply(session, game, bridge, row, message, Reply(phrase, {"echo": echo}), now)
    return row.outcome


async def _apply(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    bodies: list[dict[str, Any]],
    earlier: list[OrderRow],
    now: datetime,
) -> list[str]:
    """The post's orders become ``bodies``: the earlier ones revised in order, the rest
    submitted, any left over withdrawn."""
    ids: list[str] = []
    for index, body in enumerate(bodies):
        if index < len(earlier):
            old = earlier[index]
            if old.body != body:
                await order_service.revise_order(session, game, principal, old.id, body, now)
            ids.append(old.id)
        else:
            made = await order_service.submit_order(session, game, principal, body, now)
            ids.append(str(made["id"]))
    for old in earlier[len(bodies) :]:
        await order_service.withdraw_order(session, game, principal, old.id, now)
    return ids


async def _refuse(
    session: AsyncSession,
    game: Game,
    bridge: ForumBridgeRow,
    row: ForumPostRow,
    message: ForumMessage,
    problem: AppError,
    edit: bool,
    now: datetime,
) -> str:
    row.outcome, row.code = "refused", problem.code
    fields = {"message": (problem.message_zh, problem.message_en)}
    reply = Reply("edit_refused" if edit else "refused", fields)
    await _reply(session, game, bridge, row, message, reply, now)
    return row.outcome


async def _deleted(
    session: AsyncSession,
    game: Game,
    bridge: ForumBridgeRow,
    row: ForumPostRow,
    message: ForumMessage,
    earlier: list[OrderRow],
    now: datetime,
) -> str:
    """A deleted post withdraws what it ordered (while the rules still allow)."""
    if not earlier:
        return row.outcome
    player = await session.get(PlayerRow, earlier[0].player_id)
    if player is None:
        return row.outcome
    principal = Principal("player", player=PlayerInfo.of(player))
    row.player_id = player.id
    return await _act(session, game, bridge, row, message, principal, Reading(), earlier, now)


async def _link(
    session: AsyncSession,
    game: Game,
    bridge: ForumBridgeRow,
    row: ForumPostRow,
    message: ForumMessage,
    code: str,
    now: datetime,
) -> str:
    """A link code in the thread: the poster's forum account becomes that player's."""
    link = await session.scalar(
        select(ForumLinkRow).where(
            ForumLinkRow.code_hash == _hash(code), ForumLinkRow.game_id == game.id
        )
    )
    author = message.author or ""
    player = None if link is None else await session.get(PlayerRow, link.player_id)
    if link is None or link.used_at is not None or player is None:
        row.outcome, row.code = "refused", "bad_link_code"
        await _reply(session, game, bridge, row, message, Reply("bad_code", {}), now)
        return row.outcome
    link.used_at, link.used_by = now, author[:200]
    others = await session.scalars(
        select(PlayerRow).where(PlayerRow.game_id == game.id, PlayerRow.id != player.id)
    )
    for other in others:  # one forum account speaks for one player
        if other.forum_name and _same_name(other.forum_name, author):
            other.forum_name = None
    player.forum_name = author[:100]
    row.outcome, row.player_id = "linked", player.id
    fields = {"who": (author, author), "name": (player.name, player.name)}
    await _reply(session, game, bridge, row, message, Reply("linked", fields), now)
    return row.outcome


async def _reply(
    session: AsyncSession,
    game: Game,
    bridge: ForumBridgeRow,
    row: ForumPostRow,
    message: ForumMessage,
    reply: Reply,
    now: datetime,
) -> None:
    """The bot's answer, as a post on the bridge's channel only, published at once (an
    answer held for review would come after the deadline it is about)."""

    def write(sync: Session) -> str:
        facts, pub, _ = outbox.load_context(sync, game.id, now)
        draft = replies.draft(reply, message.author or "", message.url, pub.language)
        post = outbox.create_post(
            sync, facts, pub, draft, now, review=False, channel_ids=[bridge.channel_id]
        )
        return post.id

    row.reply_post_id = await session.run_sync(write)


# ----------------------------------------------------------------------------- link codes


def _hash(code: str) -> str:
    return hashlib.sha256(code.upper().encode()).hexdigest()


def new_code() -> str:
    return "FP-" + "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))


async def player_link(
    session: AsyncSession, game: Game, principal: Principal, now: datetime, create: bool = False
) -> dict[str, Any] | None:
    """What the player's page shows about the forum: their linked forum name and a
    one-time code to post in the thread. None: no forum is read. The code is made on the
    first view, with ``create`` (a write: the page reads without the write lock, and asks
    again in a writing transaction when ``"code"`` is None)."""
    player = require_player(principal)
    target = await reading_target(session, game.id)
    if target is None or game.status == "finished":
        return None
    bridge, channel, config = target
    row = await session.get(PlayerRow, player.id)
    link = await session.scalar(
        select(ForumLinkRow)
        .where(ForumLinkRow.player_id == player.id, ForumLinkRow.used_at.is_(None))
        .order_by(ForumLinkRow.id.desc())
        .limit(1)
    )
    code: str | None = None
    if link is None and create:
        code = new_code()
        link = ForumLinkRow(
            game_id=game.id,
            player_id=player.id,
            code_hash=_hash(code),
            code_sealed=sealing.cipher().encrypt(code.encode()).decode(),
            created_at=now,
            used_at=None,
            used_by=None,
        )
        session.add(link)
    elif link is not None:
        code = sealing.cipher().decrypt(link.code_sealed.encode()).decode()
    return {
        "code": code,
        "forum_name": None if row is None else row.forum_name,
        "forum": channel.kind,
        "thread_url": _thread_url(channel.kind, config, thread_of(bridge, channel)),
    }


def _thread_url(kind: str, config: dict[str, Any], thread: str | None) -> str | None:
    base = str(config.get("base_url") or "").rstrip("/")
    if not base or thread is None:
        return None
    return f"{base}/t/{thread}/" if kind == "discourse" else f"{base}/t/-/{thread}/"

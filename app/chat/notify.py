"""Telling each player what is theirs, privately: the reminder before a deadline (only to
those who have not acted), and the private results — the player's own events, the ones
the public does not see, and their own receipt's salt when it is opened — each one
message in the chat outbox (``chat_messages``), unique per (link, event) or (link,
deadline, offset), so a message is queued once however often the pass runs.

Only what the player's own view shows is ever sent: the events are chosen by the same
audience filter as ``GET /events`` for that player, counted in their own numbering.
How an event reads comes from the caller (``Describe``: the web's event lines), so that
this package needs nothing of the pages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from app.chat.models import ChatAccountRow, ChatBotRow, ChatGameRow, ChatLinkRow, ChatMessageRow
from app.chat.words import say
from app.kit.post_parts import RosterEntry
from app.models import EventRow, Game, PlayerRow, Timer
from app.publish.models import PublishingRow
from app.publish.receipts import OPENED
from app.publish.service import progress
from app.publish.timers import DEADLINE_TIMER_KINDS
from app.rules.base import AUDIENCE_PUBLIC, Viewer, event_visible

# (kind, data, lang, ruleset, names, settings) -> one line a player reads.
Describe = Callable[[str, Mapping[str, Any], str, str, Mapping[str, str], Mapping[str, Any]], str]
DEFAULT_REMINDER_SECONDS = (3600,)
NOTIFIED_STATUSES = ("running", "paused", "finished")


def viewer_of(player: PlayerRow) -> Viewer:
    return Viewer(role="player", player_id=player.id, side=player.side)


async def visible_count(session: AsyncSession, game: Game, player: PlayerRow) -> int:
    viewer = viewer_of(player)
    rows = await session.execute(
        select(EventRow.audience).where(EventRow.game_id == game.id).order_by(EventRow.seq)
    )
    return sum(1 for (audience,) in rows if event_visible(audience, None, viewer, finished=False))


def own_events(
    events: list[EventRow], player: PlayerRow, after: int
) -> tuple[list[tuple[int, EventRow]], int]:
    """The player's events after their number ``after``, numbered as GET /events numbers
    them for the player, and the last number."""
    viewer = viewer_of(player)
    number, out = 0, []
    for row in events:
        if not event_visible(row.audience, None, viewer, finished=False):
            continue
        number += 1
        if number > after:
            out.append((number, row))
    return out, number


def message_for(
    row: EventRow,
    player: PlayerRow,
    game: Game,
    lang: str,
    describe: Describe,
    names: dict[str, str],
) -> str | None:
    """What one of the player's events says to them privately; None for a public event
    (the public channel tells it), except their own receipt's salt when it is opened."""
    if AUDIENCE_PUBLIC in row.audience:
        if row.kind != OPENED:
            return None
        mine = [
            r
            for r in row.data.get("receipts", [])
            if isinstance(r, dict) and r.get("owner") in (player.side, player.id)
        ]
        if not mine:
            return None
        line = "; ".join(f"{r.get('key')}: salt {r.get('salt')} → {r.get('receipt')}" for r in mine)
        return say("salt", lang, game=game.title, line=line)
    line = describe(row.kind, row.data, lang, game.ruleset, names, game.settings or {})
    return say("event", lang, game=game.title, line=line)


def _message(
    link: ChatLinkRow, game_id: str, key: str, kind: str, text: str, now: datetime
) -> ChatMessageRow:
    return ChatMessageRow(
        key=key,
        bot_id=link.bot_id,
        chat=link.chat,
        game_id=game_id,
        player_id=link.player_id,
        kind=kind,
        text=text,
        status="pending",
        attempts=0,
        next_attempt_at=now,
        error=None,
        created_at=now,
        sent_at=None,
    )


async def queue(session: AsyncSession, now: datetime, describe: Describe) -> int:
    """Queue every private message now due, in one transaction; returns how many."""
    rows = (
        await session.execute(
            select(ChatLinkRow, PlayerRow, Game, ChatGameRow)
            .join(PlayerRow, PlayerRow.id == ChatLinkRow.player_id)
            .join(Game, Game.id == ChatLinkRow.game_id)
            .join(ChatGameRow, ChatGameRow.game_id == ChatLinkRow.game_id)
            .where(
                ChatLinkRow.notify.is_(True),
                ChatGameRow.dm_notifications.is_(True),
                Game.status.in_(NOTIFIED_STATUSES),
            )
            .order_by(ChatLinkRow.id)
            .with_for_update(of=ChatLinkRow, skip_locked=True)
        )
    ).all()
    if not rows:
        return 0
    live = {
        b.id
        for b in await session.scalars(select(ChatBotRow).where(ChatBotRow.removed_at.is_(None)))
    }
    langs = {(a.bot_id, a.account): a.lang for a in await session.scalars(select(ChatAccountRow))}
    existing = set(
        await session.scalars(
            select(ChatMessageRow.key).where(
                ChatMessageRow.game_id.in_({g.id for _, _, g, _ in rows})
            )
        )
    )
    by_game: dict[str, list[EventRow]] = {}
    names: dict[str, dict[str, str]] = {}
    count = 0
    for link, player, game, chat in rows:
        if link.bot_id not in live or link.bot_id not in chat.bot_ids:
            continue
        lang = langs.get((link.bot_id, link.account), "zh")
        if game.id not in by_game:
            by_game[game.id] = list(
                await session.scalars(
                    select(EventRow).where(EventRow.game_id == game.id).order_by(EventRow.seq)
                )
            )
            names[game.id] = {
                p.id: p.name
                for p in await session.scalars(
                    select(PlayerRow).where(PlayerRow.game_id == game.id)
                )
            }
        found, last = own_events(by_game[game.id], player, link.events_seen)
        for number, event in found:
            key = f"e:{link.id}:{number}"
            text = message_for(event, player, game, lang, describe, names[game.id])
            if text is None or key in existing:
                continue
            session.add(_message(link, game.id, key, "event", text, now))
            existing.add(key)
            count += 1
        link.events_seen = max(link.events_seen, last)
        count += await _reminders(session, link, player, game, lang, now, existing)
    return count


async def _reminders(
    session: AsyncSession,
    link: ChatLinkRow,
    player: PlayerRow,
    game: Game,
    lang: str,
    now: datetime,
    existing: set[str],
) -> int:
    """The reminder before the deadline, to this player only if they have not acted."""
    if game.status != "running":
        return 0
    deadline = await session.scalar(
        select(Timer.due_at)
        .where(
            Timer.game_id == game.id,
            Timer.kind.in_(list(DEADLINE_TIMER_KINDS)),
            Timer.done_at.is_(None),
            Timer.due_at.is_not(None),
        )
        .order_by(Timer.due_at)
        .limit(1)
    )
    if deadline is None or deadline <= now:
        return 0
    pub = await session.get(PublishingRow, game.id)
    offsets = list(pub.reminder_seconds or []) if pub is not None else []
    since = int(pub.phase_step_seq or 0) if pub is not None else 0
    due = [
        int(s)
        for s in offsets or DEFAULT_REMINDER_SECONDS
        if deadline - timedelta(seconds=int(s)) <= now
    ]
    if not due:
        return 0
    key = f"r:{link.id}:{deadline.isoformat()}:{min(due)}"
    if key in existing or any(f"r:{link.id}:{deadline.isoformat()}:{s}" in existing for s in due):
        return 0
    entry = RosterEntry(id=player.id, name=player.name, side=player.side, forum_name=None)

    def acted(sync: Session) -> bool:
        rows = progress(sync, game.id, (entry,), since)
        return any(ordered or ready for _, ordered, ready in rows)

    if await session.run_sync(acted):
        return 0
    text = say("reminder", lang, game=game.title, deadline=_local(deadline, game))
    session.add(_message(link, game.id, key, "reminder", text, now))
    existing.add(key)
    return 1


def _local(moment: datetime, game: Game) -> str:
    from zoneinfo import ZoneInfo

    try:
        zone = ZoneInfo(game.timezone or "UTC")
    except (KeyError, ValueError):
        zone = ZoneInfo("UTC")
    return moment.astimezone(zone).strftime("%m-%d %H:%M")

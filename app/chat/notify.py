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
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
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


async def queue(
    session: AsyncSession, now: datetime, describe: Describe, known: dict[str, int] | None = None
) -> tuple[int, dict[str, int]]:
    """Queue every private message now due, in one transaction. ``known``: the games'
    ``event_seq`` when a pass last looked at their events (a game with none since is not
    read again). Returns how many were queued, and the games' ``event_seq`` now."""
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
        return 0, {}
    known = known or {}
    live = {
        b.id
        for b in await session.scalars(select(ChatBotRow).where(ChatBotRow.removed_at.is_(None)))
    }
    rows = [r for r in rows if r[0].bot_id in live and r[0].bot_id in r[3].bot_ids]
    games = {g.id: g for _, _, g, _ in rows}
    fresh = {gid for gid, g in games.items() if known.get(gid) != g.event_seq}
    accounts = {(r[0].bot_id, r[0].account) for r in rows}
    langs = {
        (a.bot_id, a.account): a.lang
        for a in await session.scalars(
            select(ChatAccountRow).where(ChatAccountRow.account.in_({a for _, a in accounts}))
        )
    }
    events: dict[str, list[EventRow]] = {gid: [] for gid in fresh}
    names: dict[str, dict[str, str]] = {gid: {} for gid in fresh}
    if fresh:
        for event in await session.scalars(
            select(EventRow).where(EventRow.game_id.in_(fresh)).order_by(EventRow.seq)
        ):
            events[event.game_id].append(event)
        for p in await session.scalars(select(PlayerRow).where(PlayerRow.game_id.in_(fresh))):
            names[p.game_id][p.id] = p.name
    due = await _due_reminders(session, games, now)
    count = 0
    for link, player, game, _ in rows:
        lang = langs.get((link.bot_id, link.account), "zh")
        if game.id in fresh:
            found, last = own_events(events[game.id], player, link.events_seen)
            for number, event in found:
                text = message_for(event, player, game, lang, describe, names[game.id])
                if text is not None:
                    session.add(
                        _message(link, game.id, f"e:{link.id}:{number}", "event", text, now)
                    )
                    count += 1
            link.events_seen = max(link.events_seen, last)
        if game.id in due:
            count += await _remind(session, link, player, game, lang, now, due[game.id])
    return count, {gid: g.event_seq for gid, g in games.items()}


@dataclass(frozen=True)
class _Due:
    deadline: datetime
    offset: int  # the earliest offset now due (seconds before the deadline)
    since: int  # the step that opened the phase: who acted since is not reminded


async def _due_reminders(
    session: AsyncSession, games: dict[str, Game], now: datetime
) -> dict[str, _Due]:
    """The running games whose deadline has a reminder due now (one query each kind)."""
    running = [gid for gid, g in games.items() if g.status == "running"]
    if not running:
        return {}
    found = await session.execute(
        select(Timer.game_id, func.min(Timer.due_at))
        .where(
            Timer.game_id.in_(running),
            Timer.kind.in_(list(DEADLINE_TIMER_KINDS)),
            Timer.done_at.is_(None),
            Timer.due_at.is_not(None),
        )
        .group_by(Timer.game_id)
    )
    deadlines: dict[str, datetime | None] = {row[0]: row[1] for row in found.all()}
    pubs = {
        p.game_id: p
        for p in await session.scalars(
            select(PublishingRow).where(PublishingRow.game_id.in_(list(deadlines)))
        )
    }
    out: dict[str, _Due] = {}
    for gid, deadline in deadlines.items():
        if deadline is None or deadline <= now:
            continue
        pub = pubs.get(gid)
        offsets = [int(s) for s in (pub.reminder_seconds if pub is not None else None) or []]
        passed = [
            s for s in offsets or DEFAULT_REMINDER_SECONDS if deadline - timedelta(seconds=s) <= now
        ]
        if passed:
            since = int(pub.phase_step_seq or 0) if pub is not None else 0
            out[gid] = _Due(deadline, min(passed), since)
    return out


async def _remind(
    session: AsyncSession,
    link: ChatLinkRow,
    player: PlayerRow,
    game: Game,
    lang: str,
    now: datetime,
    due: _Due,
) -> int:
    """The reminder before the deadline, to this player only if they have not acted, once
    per (deadline, offset)."""
    key = f"r:{link.id}:{due.deadline.isoformat()}:{due.offset}"
    prefix = f"r:{link.id}:{due.deadline.isoformat()}:"
    already = await session.scalar(
        select(ChatMessageRow.id).where(ChatMessageRow.key.startswith(prefix)).limit(1)
    )
    if already is not None:
        return 0  # one reminder per deadline (a later offset does not repeat it)
    entry = RosterEntry(id=player.id, name=player.name, side=player.side, forum_name=None)

    def acted(sync: Session) -> bool:
        rows = progress(sync, game.id, (entry,), due.since)
        return any(ordered or ready for _, ordered, ready in rows)

    if await session.run_sync(acted):
        return 0
    text = say("reminder", lang, game=game.title, deadline=_local(due.deadline, game))
    session.add(_message(link, game.id, key, "reminder", text, now))
    return 1


def _local(moment: datetime, game: Game) -> str:
    from zoneinfo import ZoneInfo

    try:
        zone = ZoneInfo(game.timezone or "UTC")
    except (KeyError, ValueError):
        zone = ZoneInfo("UTC")
    return moment.astimezone(zone).strftime("%m-%d %H:%M")

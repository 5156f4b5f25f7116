"""The timers of a game's publishing: their kinds, the game's deadline they count down to,
and how they are set, ended and re-aimed (sync SQLAlchemy, inside the step's transaction).

A game's own timers are the ruleset's; some of them are its deadline (a phase's close, a
day's 24:00...), which the director may extend, reminders and tallies count down to and
an all-ready close skips. Which kinds those are is :data:`DEADLINE_TIMER_KINDS`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, overload

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Timer
from app.publish.models import PostRow, PublishingRow
from app.rules.registry import all_rulesets

# Timer kinds the scheduler runs without the ruleset (``app.publish.service``).
AUTO_PUBLISH = "auto_publish"  # key: the post id
REMINDER = "reminder"  # key: the offset in seconds before the deadline
TALLY = "tally"  # key: the offset in seconds before the deadline
SERVICE_TIMER_KINDS = (AUTO_PUBLISH, REMINDER, TALLY)


class _DeadlineKinds(Sequence[str]):
    """The timer kinds that are a game's deadline, over every registered game type: read
    when used, so a game registered at run time counts too."""

    def _kinds(self) -> tuple[str, ...]:
        found: list[str] = []
        for ruleset in all_rulesets().values():
            for kind in ruleset.deadline_timer_kinds:
                if kind not in found:
                    found.append(kind)
        return tuple(found)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._kinds()[index]

    def __len__(self) -> int:
        return len(self._kinds())

    def __iter__(self) -> Iterator[str]:
        return iter(self._kinds())

    def __contains__(self, kind: object) -> bool:
        return kind in self._kinds()

    def __repr__(self) -> str:
        return repr(self._kinds())


DEADLINE_TIMER_KINDS: Sequence[str] = _DeadlineKinds()


@dataclass(frozen=True)
class GameFacts:
    """What publishing needs of a game, read with Core (the caller's ORM object may have
    deferred columns)."""

    id: str
    title: str
    ruleset: str
    timezone: str
    settings: dict[str, Any]
    seed_commitment: str
    status: str
    step_seq: int

    @property
    def paused(self) -> bool:
        return self.status == "paused"


@dataclass(frozen=True)
class Deadline:
    """The game's pending deadline timer (phase close, 24:00)."""

    kind: str
    key: str
    data: dict[str, Any]
    due_at: datetime | None  # None while the game is paused
    remaining_seconds: float | None

    @property
    def phase(self) -> dict[str, Any]:
        """What identifies the phase it closes."""
        return {"kind": self.kind, "key": self.key, "data": self.data}


def deadline_of(timer: Deadline | None, now: datetime) -> datetime | None:
    """When the deadline falls; while paused, when it would fall if resumed now."""
    if timer is None:
        return None
    if timer.due_at is not None:
        return timer.due_at
    return now + timedelta(seconds=timer.remaining_seconds or 0.0)


def set_timer(
    session: Session,
    facts: GameFacts,
    kind: str,
    key: str,
    due_at: datetime,
    data: dict[str, Any],
    now: datetime,
    done: bool = False,
    rows: list[Timer] | None = None,
) -> Timer:
    """Create or replace a service timer of the game (``steps.schedule_timer``, sync).
    While the game is paused it keeps its remaining time, like every clock of the game.
    ``rows``: the game's timers of this kind when the caller has them (a new one joins)."""
    if rows is None:
        row = session.scalars(
            select(Timer).where(Timer.game_id == facts.id, Timer.kind == kind, Timer.key == key)
        ).first()
    else:
        row = next((r for r in rows if r.kind == kind and r.key == key), None)
    if row is None:
        row = Timer(game_id=facts.id, kind=kind, key=key, created_at=now, extensions=0)
        session.add(row)
        if rows is not None:
            rows.append(row)
    row.data = data
    row.done_at = now if done else None
    if facts.paused:
        row.due_at = None
        row.remaining_seconds = max(0.0, (due_at - now).total_seconds())
    else:
        row.due_at = due_at
        row.remaining_seconds = None
    return row


def end_timers(
    session: Session,
    game_id: str,
    kind: str,
    now: datetime,
    keep: Iterable[str] = (),
    rows: Iterable[Timer] | None = None,
) -> None:
    """End the game's pending ``kind`` timers but those in ``keep`` (among ``rows`` when
    the caller has them)."""
    kept = set(keep)
    if rows is None:
        rows = session.scalars(
            select(Timer).where(
                Timer.game_id == game_id, Timer.kind == kind, Timer.done_at.is_(None)
            )
        )
    for row in rows:
        if row.kind == kind and row.done_at is None and row.key not in kept:
            row.done_at = now


def sync_auto_publish(
    session: Session, facts: GameFacts, pub: PublishingRow, now: datetime
) -> None:
    """Every post awaiting review publishes itself ``auto_publish_after_seconds`` after it
    was made (none when unset); a changed setting moves them all."""
    waiting = session.scalars(
        select(PostRow).where(PostRow.game_id == facts.id, PostRow.status == "awaiting_review")
    ).all()
    seconds = pub.auto_publish_after_seconds
    if seconds is None:
        end_timers(session, facts.id, AUTO_PUBLISH, now)
        for post in waiting:
            post.publish_at = None
        return
    for post in waiting:
        post.publish_at = post.created_at + timedelta(seconds=seconds)
        set_timer(session, facts, AUTO_PUBLISH, post.id, max(post.publish_at, now), {}, now)


def counts_down(pub: PublishingRow) -> bool:
    """Whether the game has reminders or tallies (whose timers follow its deadline)."""
    return bool(pub.reminder_seconds or pub.tally_seconds)


def countdown_timers(session: Session, game_ids: Iterable[str]) -> dict[str, list[Timer]]:
    """The reminder and tally timers of these games, in one query."""
    found: dict[str, list[Timer]] = {game_id: [] for game_id in game_ids}
    if found:
        for row in session.scalars(
            select(Timer).where(Timer.game_id.in_(list(found)), Timer.kind.in_((REMINDER, TALLY)))
        ):
            found[row.game_id].append(row)
    return found


def track_phase(
    session: Session,
    facts: GameFacts,
    pub: PublishingRow,
    timer: Deadline | None,
    now: datetime,
    countdown: list[Timer] | None = None,
) -> None:
    """Remember when the current phase opened, and re-aim the reminders. Called after
    anything public happened (a phase opened, a deadline moved, a pause or resume), which
    is every way a deadline changes. ``countdown``: the game's reminder and tally timers
    when the caller has them (``countdown_timers``)."""
    phase = None if timer is None else timer.phase
    if phase != pub.phase:
        pub.phase = phase
        pub.phase_step_seq = facts.step_seq
    # Turning reminders (tallies) off ends their timers then and there.
    if counts_down(pub):
        sync_reminders(session, facts, pub, timer, now, countdown)


def sync_reminders(
    session: Session,
    facts: GameFacts,
    pub: PublishingRow,
    timer: Deadline | None,
    now: datetime,
    countdown: list[Timer] | None = None,
) -> None:
    """The timers of the posts that count down to a deadline: reminders and tallies."""
    if countdown is None:
        countdown = countdown_timers(session, [facts.id])[facts.id]
    sync_offsets(session, facts, pub, timer, now, REMINDER, pub.reminder_seconds, countdown)
    sync_offsets(session, facts, pub, timer, now, TALLY, pub.tally_seconds, countdown)


def sync_offsets(
    session: Session,
    facts: GameFacts,
    pub: PublishingRow,
    timer: Deadline | None,
    now: datetime,
    kind: str,
    seconds: list[Any] | None,
    countdown: list[Timer],
) -> None:
    """One ``kind`` timer per configured offset, due that long before the current deadline.
    Its data names the deadline and the step its phase opened at; an unchanged timer is
    left alone, so a post that already went out does not go out twice, and a deadline
    that moved (extension, new phase, resume) re-aims them all. ``countdown``: the game's
    reminder and tally timers (``countdown_timers``)."""
    offsets = sorted({int(s) for s in seconds or []}, reverse=True)
    deadline = deadline_of(timer, now)
    if deadline is None or not offsets or facts.status == "finished":
        end_timers(session, facts.id, kind, now, rows=countdown)
        return
    end_timers(session, facts.id, kind, now, keep=[str(o) for o in offsets], rows=countdown)
    existing = {row.key: row for row in countdown if row.kind == kind}
    data = {"deadline": deadline.isoformat(), "since_step": pub.phase_step_seq or 0}
    for offset in offsets:
        row = existing.get(str(offset))
        if row is not None and row.data == data:
            continue  # pending as it is, or already sent for this deadline
        due = deadline - timedelta(seconds=offset)
        set_timer(
            session, facts, kind, str(offset), due, data, now, done=due <= now, rows=countdown
        )

"""The transactional outbox: posts and their deliveries are written in the transaction of
the step (or service action) that caused them, so a post exists exactly when its step does.

How it hooks in, and why it costs nothing when nothing is public:

1. ``note_events`` is the one call from ``app.services.steps`` (``persist_steps`` and
   ``append_event``). It remembers, on the session, the first public event of each game in
   this transaction — a dictionary update, only when an event is public at all.
2. When that transaction commits (SQLAlchemy's ``before_commit``, which also runs for a
   savepoint), ``_drain`` reads those events back from the database (so events a rolled-back
   savepoint dropped are not posted), asks the renderer to plan the posts they call for, and
   writes posts, deliveries and timers into the same transaction. A transaction without a
   public event finds nothing noted and returns at once.

The code here is synchronous SQLAlchemy: it runs inside the commit (the asyncio extension
runs sync session code in its greenlet), and the async service calls it through
``session.run_sync``. Rendering is pure (``app.publish.render``): a post is a function of
the public events of one transaction and the game's public facts, never of the state. So
the transaction only plans its posts and stores what they are made of; each format is
rendered when first needed (``app.publish.bodies``), off the step's critical path.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import event, func, or_, select
from sqlalchemy.orm import Session, SessionTransaction

from app.ids import new_id
from app.models import EVENTS, GAMES, TIMERS, PlayerRow
from app.publish import bodies, render
from app.publish.models import ChannelRow, DeliveryRow, PostRow, PublishingRow
from app.publish.timers import (
    AUTO_PUBLISH,
    DEADLINE_TIMER_KINDS,
    Deadline,
    GameFacts,
    countdown_timers,
    counts_down,
    deadline_of,
    set_timer,
    sync_auto_publish,
    track_phase,
)
from app.publish.timers import SERVICE_TIMER_KINDS as SERVICE_TIMER_KINDS  # for its callers
from app.rules.base import AUDIENCE_PUBLIC
from app.settings import get_settings

log = logging.getLogger("forumplay.outbox")

# Channels whose forum turns "@name" into a mention that notifies the player.
MENTION_KINDS = frozenset({"misago", "discourse"})

_NOTED = "forumplay.outbox.noted"


def note_events(session: Any, rows: Iterable[Mapping[str, Any]]) -> None:
    """Remember the games whose public events this transaction wrote (rows as stored:
    ``game_id``, ``seq``, ``audience``…). Cheap: nothing happens for non-public events."""
    noted: dict[str, int] | None = None
    for row in rows:
        if AUDIENCE_PUBLIC in row["audience"]:
            if noted is None:
                noted = session.info.setdefault(_NOTED, {})
            game_id, seq = row["game_id"], row["seq"]
            if seq < noted.get(game_id, seq + 1):
                noted[game_id] = seq


@event.listens_for(Session, "before_commit")
def _drain(session: Session) -> None:
    noted: dict[str, int] | None = session.info.pop(_NOTED, None)
    if not noted:
        return
    session.flush()  # the Core reads below must see this transaction's rows
    publish_batch(session, noted)


@event.listens_for(Session, "after_transaction_end")
def _forget(session: Session, transaction: SessionTransaction) -> None:
    # A transaction that ended without commit (rolled back) must not leave notes behind
    # for the session's next transaction.
    if transaction.parent is None:
        session.info.pop(_NOTED, None)


PublishContext = tuple[GameFacts, PublishingRow, Deadline | None]


def load_context(
    session: Session, game_id: str, now: datetime, events_before: int | None = None
) -> PublishContext:
    """The game's facts, its publishing row (made on first use: see ``publishing_row``)
    and its deadline, in one round trip: this runs inside every step with a public event."""
    before = None if events_before is None else {game_id: events_before}
    return load_contexts(session, {game_id: now}, before)[game_id]


def load_contexts(
    session: Session,
    games: Mapping[str, datetime],
    events_before: Mapping[str, int] | None = None,
) -> dict[str, PublishContext]:
    """``load_context`` for several games (game id -> now) in one round trip, plus one
    per counter for the games that have no publishing row yet."""
    deadline = TIMERS.alias("deadline")
    pending = TIMERS.alias("pending")
    # The game's deadline is its pending deadline timer with the lowest id.
    first_deadline = (
        select(func.min(pending.c.id))
        .where(
            pending.c.game_id == GAMES.c.id,
            pending.c.done_at.is_(None),
            pending.c.kind.in_(tuple(DEADLINE_TIMER_KINDS)),
        )
        .correlate(GAMES)
        .scalar_subquery()
    )
    rows = session.execute(
        select(
            GAMES.c.id,
            GAMES.c.title,
            GAMES.c.ruleset,
            GAMES.c.timezone,
            GAMES.c.settings,
            GAMES.c.seed_commitment,
            GAMES.c.status,
            GAMES.c.step_seq,
            PublishingRow,
            deadline.c.kind,
            deadline.c.key,
            deadline.c.data,
            deadline.c.due_at,
            deadline.c.remaining_seconds,
        )
        .select_from(GAMES)
        .outerjoin(PublishingRow, PublishingRow.game_id == GAMES.c.id)
        .outerjoin(deadline, deadline.c.id == first_deadline)
        .where(GAMES.c.id.in_(list(games)))
    ).all()
    found = {row[0]: row for row in rows}
    missing = {game_id: now for game_id, now in games.items() if found[game_id][8] is None}
    made = _new_publishing_rows(session, missing, events_before) if missing else {}
    contexts: dict[str, PublishContext] = {}
    for game_id in games:
        row = found[game_id]
        timer = None if row[9] is None else Deadline(*row[9:])
        pub = row[8] if row[8] is not None else made[game_id]
        contexts[game_id] = (GameFacts(*row[:8]), pub, timer)
    return contexts


def publishing_row(
    session: Session, game_id: str, now: datetime, events_before: int | None = None
) -> PublishingRow:
    """The game's publishing row, made with the defaults on first use. Its public event
    counter starts from the public events already in the log (before ``events_before``:
    the ones this transaction wrote are about to be counted by the caller)."""
    row = session.get(PublishingRow, game_id)
    if row is not None:
        return row
    before = None if events_before is None else {game_id: events_before}
    return _new_publishing_rows(session, {game_id: now}, before)[game_id]


def _new_publishing_rows(
    session: Session,
    games: Mapping[str, datetime],
    events_before: Mapping[str, int] | None = None,
) -> dict[str, PublishingRow]:
    """New publishing rows (see ``publishing_row``) of games that have none: one query
    per counter for them all."""
    before = events_before or {}
    in_log = [
        (EVENTS.c.game_id == game_id) & (EVENTS.c.seq < before[game_id])
        if game_id in before
        else EVENTS.c.game_id == game_id
        for game_id in games
    ]
    public: dict[str, int] = dict.fromkeys(games, 0)
    for game_id, audience in session.execute(
        select(EVENTS.c.game_id, EVENTS.c.audience).where(or_(*in_log))
    ):
        if AUDIENCE_PUBLIC in audience:
            public[game_id] += 1
    posts = dict(
        session.execute(
            select(PostRow.game_id, func.max(PostRow.seq))
            .where(PostRow.game_id.in_(list(games)))
            .group_by(PostRow.game_id)
        ).all()
    )
    made = {
        game_id: PublishingRow(
            game_id=game_id,
            review="never",
            auto_publish_after_seconds=None,
            language="zh",
            public_event_seq=public[game_id],
            post_seq=posts.get(game_id) or 0,
            reminder_seconds=[],
            tally_seconds=[],
            reminder_channel_id=None,
            updated_at=now,
        )
        for game_id, now in games.items()
    }
    session.add_all(made.values())
    return made


# Who else takes a game's hidden orders, by private message: game ids -> the public handles
# of its bots, read in the post's own transaction. The chat bots register themselves here
# (app.main), so publishing needs no knowledge of them.
DmBots = Callable[[Session, list[str]], Mapping[str, tuple[str, ...]]]
DM_BOTS: dict[str, DmBots] = {}


def game_info(session: Session, facts: GameFacts, language: str) -> render.GameInfo:
    return game_infos(session, [(facts, language)])[facts.id]


def game_infos(
    session: Session, games: Iterable[tuple[GameFacts, str]]
) -> dict[str, render.GameInfo]:
    """``game_info`` of several games (facts, language), their players in one query."""
    wanted = list(games)
    roster: dict[str, list[render.RosterEntry]] = {facts.id: [] for facts, _ in wanted}
    for game_id, player_id, name, side, forum_name in session.execute(
        select(
            PlayerRow.game_id, PlayerRow.id, PlayerRow.name, PlayerRow.side, PlayerRow.forum_name
        )
        .where(PlayerRow.game_id.in_(list(roster)))
        .order_by(PlayerRow.game_id, PlayerRow.ordinal)
    ):
        roster[game_id].append(render.RosterEntry(player_id, name, side, forum_name))
    public_url = get_settings().public_url
    bots: dict[str, tuple[str, ...]] = {}
    for found in DM_BOTS.values():
        bots.update(found(session, list(roster)))
    return {
        facts.id: render.GameInfo(
            id=facts.id,
            title=facts.title,
            ruleset=facts.ruleset,
            timezone=facts.timezone,
            language=language,
            settings=facts.settings,
            roster=tuple(roster[facts.id]),
            seed_commitment=facts.seed_commitment,
            public_url=public_url,
            dm_bots=bots.get(facts.id, ()),
        )
        for facts, language in wanted
    }


def publish_events(session: Session, game_id: str, first_seq: int) -> list[PostRow]:
    """Posts for the game's public events from ``first_seq`` on (this transaction's)."""
    return publish_batch(session, {game_id: first_seq}).get(game_id, [])


def publish_batch(session: Session, noted: Mapping[str, int]) -> dict[str, list[PostRow]]:
    """Posts for the public events of several games (game id -> first seq: this
    transaction's), game by game in id order. The reads are one query per kind for every
    game together, so a scheduler batch closing many games does not cost queries per game.
    """
    pairs = [(EVENTS.c.game_id == g) & (EVENTS.c.seq >= seq) for g, seq in noted.items()]
    if not pairs:
        return {}
    rows = session.execute(
        select(
            EVENTS.c.game_id,
            EVENTS.c.seq,
            EVENTS.c.step_seq,
            EVENTS.c.at,
            EVENTS.c.kind,
            EVENTS.c.data,
            EVENTS.c.audience,
        )
        .where(or_(*pairs))
        .order_by(EVENTS.c.game_id, EVENTS.c.seq)
    ).all()
    public: dict[str, list[Any]] = {}
    for r in rows:
        if AUDIENCE_PUBLIC in r.audience:
            public.setdefault(r.game_id, []).append(r)
    if not public:
        return {}
    games = sorted(public)
    nows = {game_id: public[game_id][-1].at for game_id in games}
    contexts = load_contexts(session, nows, {g: noted[g] for g in games})
    infos = game_infos(session, [(contexts[g][0], contexts[g][1].language) for g in games])
    events: dict[str, list[render.PublicEvent]] = {}
    drafts: dict[str, list[render.PostDraft]] = {}
    for game_id in games:
        _, pub, timer = contexts[game_id]
        now = nows[game_id]
        events[game_id] = [
            render.PublicEvent(seq=pub.public_event_seq + i, at=r.at, kind=r.kind, data=r.data)
            for i, r in enumerate(public[game_id], start=1)
        ]
        try:
            drafts[game_id] = planned(infos[game_id], events[game_id], deadline_of(timer, now))
        except Exception:
            # A builder bug must not stop the game (the step would roll back and its timer
            # be retried forever), nor the others: the step commits without its posts, and
            # the log says why. (A template bug shows later, when the post is rendered:
            # app/publish/bodies.py.)
            log.exception(
                "planning the posts of game %s (events %s…) failed", game_id, noted[game_id]
            )
            drafts[game_id] = []
    channels = channels_of(session, [g for g in games if drafts[g]])
    countdown = countdown_timers(session, [g for g in games if counts_down(contexts[g][1])])
    # Reads above, writes below: the changes go out in one flush at commit.
    made: dict[str, list[PostRow]] = {}
    for game_id in games:
        facts, pub, timer = contexts[game_id]
        now = nows[game_id]
        pub.public_event_seq += len(events[game_id])
        step_seq = next(
            (r.step_seq for r in reversed(public[game_id]) if r.step_seq is not None), None
        )
        last = events[game_id][-1].seq
        made[game_id] = [
            create_post(session, facts, pub, draft, now, step_seq, last, channels=channels[game_id])
            for draft in drafts[game_id]
        ]
        track_phase(session, facts, pub, timer, now, countdown.get(game_id))
        if facts.status == "finished":
            # Finishing stopped every clock of the game; posts still awaiting review keep
            # their auto-publish time.
            sync_auto_publish(session, facts, pub, now)
    return made


def planned(
    game: render.GameInfo, events: list[render.PublicEvent], deadline: datetime | None
) -> list[render.PostDraft]:
    """The posts of one transaction's public events, planned, not rendered: kinds and
    titles, no bodies, and each one's source to render it from when first needed
    (``app.publish.bodies``) — the templates stay out of the step's transaction."""
    return [
        render.PostDraft(
            kind=plan.kind,
            title=plan.title,
            bodies={},
            thread_title=plan.thread_title,
            source=bodies.source_of(game, plan.events, deadline),
        )
        for plan in render.plan_posts(game, events, deadline)
    ]


def create_post(
    session: Session,
    facts: GameFacts,
    pub: PublishingRow,
    draft: render.PostDraft,
    now: datetime,
    step_seq: int | None = None,
    event_seq: int | None = None,
    review: bool = True,
    channel_ids: list[str] | None = None,
    channels: list[ChannelRow] | None = None,
) -> PostRow:
    """A new post; published at once (deliveries made) unless the game reviews posts."""
    pub.post_seq += 1
    held = review and pub.review == "always"
    post = PostRow(
        id=new_id(),
        game_id=facts.id,
        seq=pub.post_seq,
        kind=draft.kind,
        status="awaiting_review" if held else "published",
        title=draft.title,
        thread_title=draft.thread_title,
        bodies=dict(draft.bodies),
        source=draft.source,
        created_at=now,
        publish_at=None,
        published_at=None,
        step_seq=step_seq,
        event_seq=event_seq,
    )
    session.add(post)
    if held:
        if pub.auto_publish_after_seconds is not None:
            post.publish_at = now + timedelta(seconds=pub.auto_publish_after_seconds)
            set_timer(session, facts, AUTO_PUBLISH, post.id, post.publish_at, {}, now)
    else:
        publish_post(session, post, now, channel_ids, channels)
    return post


def active_channels(session: Session, game_id: str) -> list[ChannelRow]:
    """The game's channels, in the order they were added."""
    return channels_of(session, [game_id])[game_id]


def channels_of(session: Session, game_ids: Iterable[str]) -> dict[str, list[ChannelRow]]:
    """``active_channels`` of several games in one query."""
    found: dict[str, list[ChannelRow]] = {game_id: [] for game_id in game_ids}
    if not found:
        return found
    query = select(ChannelRow).where(
        ChannelRow.game_id.in_(list(found)), ChannelRow.removed_at.is_(None)
    )
    for channel in session.scalars(query.order_by(ChannelRow.created_at, ChannelRow.id)):
        found[channel.game_id].append(channel)
    return found


def publish_post(
    session: Session,
    post: PostRow,
    now: datetime,
    channel_ids: list[str] | None = None,
    channels: list[ChannelRow] | None = None,
) -> list[DeliveryRow]:
    """Mark a post published and queue it on the game's channels (``channels`` when the
    caller has them), or on those of them in ``channel_ids``."""
    post.status = "published"
    post.published_at = now
    post.publish_at = now
    if channels is None:
        channels = active_channels(session, post.game_id)
    if channel_ids is not None:
        channels = [c for c in channels if c.id in channel_ids]
    deliveries = [
        DeliveryRow(
            post_id=post.id,
            channel_id=channel.id,
            game_id=post.game_id,
            status="manual" if channel.kind == "manual" else "pending",
            attempts=0,
            next_attempt_at=now,
            created_at=now,
        )
        for channel in channels
    ]
    session.add_all(deliveries)
    return deliveries

"""A post's text, rendered once per format when first needed.

The step that closes a phase only plans its posts (``render.plan_posts``: kinds, titles,
no template) and stores with each one its ``source``: the public events of the post, the
game's public facts and the deadline as they were in that transaction. The text of a
format is rendered from it the first time something needs it — the delivery worker before
sending, the API and the console when they show the post, a withdrawal's edit — and
written back to ``posts.bodies``, so it is rendered once. What is already in ``bodies``
stands: a director's edit of a format is never replaced by a rendering.

A rendering that fails is logged and leaves the format missing (shown empty, not sent):
the post and its source stay, and the next reader or delivery attempt tries again.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from app.publish import render
from app.publish.models import PostRow
from app.publish.render import FORMATS, GameInfo, PublicEvent, RosterEntry

log = logging.getLogger("forumplay.publish")

Bodies = dict[str, str]


def source_of(
    game: GameInfo, events: Sequence[PublicEvent], deadline: datetime | None
) -> dict[str, Any]:
    """What a planned post is rendered from, as JSON."""
    return {
        "game": {
            "id": game.id,
            "title": game.title,
            "ruleset": game.ruleset,
            "timezone": game.timezone,
            "language": game.language,
            "settings": game.settings,
            "roster": [[r.id, r.name, r.side, r.forum_name] for r in game.roster],
            "seed_commitment": game.seed_commitment,
            "public_url": game.public_url,
            "dm_bots": list(game.dm_bots),
        },
        "events": [
            {"seq": e.seq, "at": e.at.isoformat(), "kind": e.kind, "data": e.data} for e in events
        ],
        "deadline": deadline.isoformat() if deadline is not None else None,
    }


def _read_source(
    source: Mapping[str, Any],
) -> tuple[GameInfo, list[PublicEvent], datetime | None]:
    g = source["game"]
    game = GameInfo(
        id=g["id"],
        title=g["title"],
        ruleset=g["ruleset"],
        timezone=g["timezone"],
        language=g["language"],
        settings=g["settings"],
        roster=tuple(RosterEntry(*entry) for entry in g["roster"]),
        seed_commitment=g["seed_commitment"],
        public_url=g["public_url"],
        dm_bots=tuple(g["dm_bots"]),
    )
    events = [
        PublicEvent(
            seq=e["seq"], at=datetime.fromisoformat(e["at"]), kind=e["kind"], data=e["data"]
        )
        for e in source["events"]
    ]
    deadline = source["deadline"]
    return game, events, datetime.fromisoformat(deadline) if deadline else None


def render_source(kind: str, source: Mapping[str, Any], format_name: str) -> str:
    """One format's text of a planned post (the same text ``posts_for_events`` gives)."""
    game, events, deadline = _read_source(source)
    return render.render_group(game, kind, events, deadline, format_name)


def missing(post: PostRow, formats: Iterable[str] = FORMATS) -> list[str]:
    """The formats the post has no text for yet and could render."""
    if post.source is None:
        return []
    return [f for f in formats if f not in post.bodies]


def _rendered(post: PostRow, formats: Iterable[str]) -> Bodies:
    """The missing formats rendered; one that fails is logged and left out."""
    made: Bodies = {}
    assert post.source is not None
    for name in missing(post, formats):
        try:
            made[name] = render_source(post.kind, post.source, name)
        except Exception:
            log.exception("rendering post %s (%s) as %s failed", post.id, post.kind, name)
    return made


def ensure_bodies_sync(
    session: Session,
    posts: Sequence[PostRow],
    formats: Iterable[str] = FORMATS,
    store: bool = True,
) -> dict[str, Bodies]:
    """Each post's bodies (post id -> format -> text), its missing ``formats`` rendered.
    ``store``: write what was rendered back to the post, in the caller's transaction (the
    post's row locked and read again first, so text stored meanwhile — an edit — wins; a
    row another transaction holds is skipped, not waited for: that one is storing or
    editing it, and two delivery workers never wait on each other's posts).
    A read-only transaction passes ``store=False``: the text is shown, not kept."""
    wanted = tuple(formats)
    made = {p.id: _rendered(p, wanted) for p in posts if missing(p, wanted)}
    made = {post_id: texts for post_id, texts in made.items() if texts}
    if made and store:
        current: dict[str, dict[str, Any] | None] = dict(
            session.execute(
                select(PostRow.id, PostRow.bodies)
                .where(PostRow.id.in_(list(made)))
                .with_for_update(skip_locked=True)
            ).all()
        )
        for post in posts:
            if post.id in made and post.id in current:
                post.bodies = {**made[post.id], **(current[post.id] or {})}
                if all(f in post.bodies for f in FORMATS):
                    post.source = None  # rendered for good: off the worker's queue
    shown: dict[str, Bodies] = {}
    for post in posts:
        shown[post.id] = {**made.get(post.id, {}), **post.bodies}
    return shown


def render_pending(session: Session, limit: int, skip: Iterable[str] = ()) -> list[str]:
    """Render and keep every format of the oldest posts not yet rendered (the delivery
    worker's pass, so a post with no delivery — no channel, awaiting review — is rendered
    once too, not at every read). Returns the ids of the ones that failed (logged)."""
    return render_pending_pass(session, limit, skip)[1]


def render_pending_pass(
    session: Session, limit: int, skip: Iterable[str] = ()
) -> tuple[int, list[str]]:
    """``render_pending``, and how many posts it took (``limit``: there may be more)."""
    query = select(PostRow).where(PostRow.source.is_not(None))
    skipped = list(skip)
    if skipped:
        query = query.where(PostRow.id.not_in(skipped))
    posts = session.scalars(
        query.order_by(PostRow.created_at, PostRow.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    ).all()
    if not posts:
        return 0, []
    shown = ensure_bodies_sync(session, posts)
    return len(posts), [p.id for p in posts if any(f not in shown[p.id] for f in FORMATS)]


async def ensure_bodies(
    session: AsyncSession,
    posts: Sequence[PostRow],
    formats: Iterable[str] = FORMATS,
    store: bool = True,
) -> dict[str, Bodies]:
    """``ensure_bodies_sync`` from async code."""
    wanted = tuple(formats)
    if not any(missing(p, wanted) for p in posts):
        return {p.id: dict(p.bodies) for p in posts}
    return await session.run_sync(ensure_bodies_sync, list(posts), wanted, store)


async def text_of(
    session: AsyncSession, post: PostRow, format_name: str, store: bool = True
) -> str:
    """The post's text in one format, rendered (and stored) if it is not yet; "" when it
    cannot be rendered."""
    return (await ensure_bodies(session, [post], [format_name], store))[post.id].get(
        format_name, ""
    )

"""What each web page shows, gathered in one service call per page (the route renders it).

Everything a page shows about game state comes from the same services as the API
(``games.view``, ``games.events``, ``orders.list_orders``…), so a page can never show
more than the API would tell the same caller.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Game, PlayerRow
from app.publish import receipts
from app.publish.bodies import ensure_bodies
from app.publish.models import DeliveryRow, PostRow, PublishingRow
from app.rules.registry import get_ruleset
from app.services import codirectors, publishing, signups
from app.services import director as director_service
from app.services import games as games_service
from app.services import sessions as sessions_service
from app.services.auth import Principal, require_director, require_player
from app.services.signup_models import SignupSettingsRow

FEED_LIMIT = 5000
RECENT_POSTS = 20  # the console lists the newest posts, and every one that needs the director
UNFINISHED = ("pending", "sending", "failed", "manual")


async def public_games(
    session: AsyncSession, now: datetime, limit: int = 100
) -> list[dict[str, Any]]:
    """The lobby: the games whose director chose to list them (by default, while their
    sign-ups are open), newest first, each with what it still needs. Archived games and
    games nobody listed (a rehearsal, a duplicate, one never opened) are not shown."""
    listed = or_(
        SignupSettingsRow.listed.is_(True),
        and_(
            SignupSettingsRow.listed.is_(None),
            SignupSettingsRow.open.is_(True),
            Game.status == "setup",
        ),
    )
    found = (
        await session.execute(
            select(Game, SignupSettingsRow)
            .join(SignupSettingsRow, SignupSettingsRow.game_id == Game.id)
            .where(Game.archived_at.is_(None), Game.sandbox.is_(False), listed)
            .order_by(Game.created_at.desc())
            .limit(limit)
        )
    ).all()
    games = [(g, row) for g, row in found if signups.is_listed(row, g, now)]
    counts = dict(
        (
            await session.execute(
                select(PlayerRow.game_id, func.count())
                .where(PlayerRow.game_id.in_([g.id for g, _ in games]))
                .group_by(PlayerRow.game_id)
            )
        ).all()
    )
    out = []
    for game, row in games:
        ruleset = get_ruleset(game.ruleset)
        open_now = signups.is_open(row, game, now)
        deadline = (await games_service.deadline_info(session, game))["deadline"]
        if open_now and row.closes_at is not None:
            deadline = row.closes_at.isoformat()
        out.append(
            {
                "id": game.id,
                "title": game.title,
                "ruleset": game.ruleset,
                "status": game.status,
                "phase": ruleset.phase(game.state) if game.state is not None else "setup",
                "timezone": game.timezone,
                "created_at": game.created_at,
                "players": int(counts.get(game.id, 0)),
                "signup_open": open_now,
                "needed": await signups.needed(session, game, row) if open_now else 0,
                "deadline": deadline,
            }
        )
    return out


def _names(summary: dict[str, Any]) -> dict[str, str]:
    return {p["id"]: p["name"] for p in summary["players"]}


async def _page(
    session: AsyncSession, game: Game, principal: Principal, now: datetime
) -> dict[str, Any]:
    summary = await games_service.summary(session, game)
    return {
        "summary": summary,
        "view": await games_service.view(session, game, principal),
        "events": await games_service.events(session, game, principal, 0, FEED_LIMIT),
        "names": _names(summary),
        # The game row was read first: events numbered above its counter may have been
        # committed while this page was read, after its view (see ``views.feed``).
        "event_seq": game.event_seq,
        "now": now,
        "settings": game.settings,
    }


async def spectator_page(
    session: AsyncSession, game: Game, principal: Principal, now: datetime
) -> dict[str, Any]:
    page = await _page(session, game, Principal("public"), now)
    page["signup"] = await signup_listing(session, game, now)
    return page


async def signup_listing(session: AsyncSession, game: Game, now: datetime) -> dict[str, Any] | None:
    """The sign-up list a game's pages show while it is in setup (None: no sign-ups)."""
    if game.status != "setup" or await signups.settings_row(session, game.id) is None:
        return None
    return await signups.public_list(session, game, now)


async def player_page(
    session: AsyncSession, game: Game, principal: Principal, now: datetime
) -> dict[str, Any]:
    require_player(principal)
    page = await _page(session, game, principal, now)
    available: list[dict[str, Any]] = []
    if game.state is not None and game.status == "running":
        ruleset = get_ruleset(game.ruleset)
        available = ruleset.available_orders(game.state, principal.viewer, now)
    page["available"] = available
    # The receipt this player's hidden orders would be sealed into if the phase closed
    # now (issue 18): the receipts post in the thread shows the same one after the close.
    page["receipt"] = receipts.current_receipt(
        game.ruleset, game.seed, game.state, principal.actor, game.undos or 0
    )
    return page


async def director_page(
    session: AsyncSession, game: Game, principal: Principal, now: datetime
) -> dict[str, Any]:
    require_director(principal)
    page = await _page(session, game, principal, now)
    roster = await games_service.roster(session, game)
    page["roster"] = [
        {
            "id": p.id,
            "name": p.name,
            "side": p.side,
            "forum_name": getattr(p, "forum_name", None),
        }
        for p in roster
    ]
    page["access"] = await sessions_service.roster_access(session, game)
    page["audit"] = await director_service.audit_log(session, game, principal)
    page["timers"] = await director_service.timers(session, game, principal)
    page["options"] = game.options
    page["publishing"] = await console_publishing(session, game, principal)
    page["signups"] = await console_signups(session, game, principal, now)
    return page


async def console_signups(
    session: AsyncSession, game: Game, principal: Principal, now: datetime
) -> dict[str, Any]:
    """The console's sign-ups part: the settings, every sign-up, the co-directors."""
    row = await signups.settings_row(session, game.id)
    return {
        "settings": None if row is None else signups.settings_json(row),
        "list": await signups.public_list(session, game, now),
        "rows": await signups.director_list(session, game, principal),
        "co_directors": await codirectors.list_all(session, game, principal),
    }


async def console_publishing(
    session: AsyncSession, game: Game, principal: Principal
) -> dict[str, Any]:
    """The console's publishing part: settings, channels, and the posts the director acts
    on — every one awaiting review or with a delivery not yet done, and the newest ones —
    shaped as ``GET /posts`` shapes them. Reads only: a page view must not make the
    publishing row (a step may be making it at the same moment)."""
    require_director(principal)
    pub = await session.get(PublishingRow, game.id)
    if pub is None:  # the defaults ``outbox.publishing_row`` will make on first use
        pub = PublishingRow(
            review="never",
            auto_publish_after_seconds=None,
            language="zh",
            reminder_seconds=[],
            reminder_channel_id=None,
        )
    needing = select(DeliveryRow.post_id).where(
        DeliveryRow.game_id == game.id, DeliveryRow.status.in_(UNFINISHED)
    )
    wanted = (
        await session.scalars(
            select(PostRow.id).where(
                PostRow.game_id == game.id,
                or_(PostRow.status == "awaiting_review", PostRow.id.in_(needing)),
            )
        )
    ).all()
    recent = (
        await session.scalars(
            select(PostRow.id)
            .where(PostRow.game_id == game.id)
            .order_by(PostRow.seq.desc())
            .limit(RECENT_POSTS)
        )
    ).all()
    ids = set(wanted) | set(recent)
    posts = (
        (
            await session.scalars(select(PostRow).where(PostRow.id.in_(ids)).order_by(PostRow.seq))
        ).all()
        if ids
        else []
    )
    by_post: dict[str, list[DeliveryRow]] = {p.id: [] for p in posts}
    if posts:
        for delivery in await session.scalars(
            select(DeliveryRow).where(DeliveryRow.post_id.in_(ids)).order_by(DeliveryRow.id)
        ):
            by_post[delivery.post_id].append(delivery)
    total = await session.scalar(
        select(func.count()).select_from(PostRow).where(PostRow.game_id == game.id)
    )
    # A page is a read: a post not yet rendered is rendered to be shown, not kept.
    shown = await ensure_bodies(session, posts, store=False)
    return {
        "settings": publishing.publishing_json(pub),
        "channels": await publishing.list_channels(session, game, principal),
        "posts": [publishing.post_json(p, by_post[p.id], shown[p.id]) for p in posts],
        "total": int(total or 0),
    }

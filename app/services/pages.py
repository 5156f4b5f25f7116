"""What each web page shows, gathered in one service call per page (the route renders it).

Everything a page shows about game state comes from the same services as the API
(``games.view``, ``games.events``, ``orders.list_orders``…), so a page can never show
more than the API would tell the same caller.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Game, PlayerRow
from app.rules.registry import get_ruleset
from app.services import director as director_service
from app.services import games as games_service
from app.services import sessions as sessions_service
from app.services.auth import Principal, require_director, require_player

FEED_LIMIT = 5000


async def public_games(session: AsyncSession, limit: int = 100) -> list[dict[str, Any]]:
    """The newest games, as anyone may see them."""
    games = (
        await session.scalars(select(Game).order_by(Game.created_at.desc()).limit(limit))
    ).all()
    counts = dict(
        (
            await session.execute(
                select(PlayerRow.game_id, func.count())
                .where(PlayerRow.game_id.in_([g.id for g in games]))
                .group_by(PlayerRow.game_id)
            )
        ).all()
    )
    out = []
    for game in games:
        ruleset = get_ruleset(game.ruleset)
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
        "now": now,
        "settings": game.settings,
    }


async def spectator_page(
    session: AsyncSession, game: Game, principal: Principal, now: datetime
) -> dict[str, Any]:
    return await _page(session, game, Principal("public"), now)


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
    return page

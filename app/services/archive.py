"""A finished game's archive: everything needed to re-verify it with no server.

``build_archive`` reads it from the database (GET /games/{id}/archive, ``forumplay game
export``); ``verify_archive`` re-runs it through the rulesets' engines alone (``forumplay
verify archive.json``) with the same replay core as GET /verify. The archive holds what
the public may see once the game is over: settings, the roster (id, name, side), every
step (orders included: all are revealed at the end) with the state hash it reached, the
public events (those hidden until the end included) and the seed. Steps a director undid
are there too, marked ``"undone": true`` (with who, when, why), and replayed like the rest.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, cast

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import conflict
from app.models import EventRow, Game, StepRow
from app.publish import receipts
from app.rules.base import PUBLIC_VIEWER, Actor, Player, event_visible
from app.services.games import roster
from app.services.safety.history import UNDO_STEP
from app.services.verify import RecordedStep, recorded_step, replay, stored_event

FORMAT = "forumplay-archive/1"


def public_at_end(record: dict[str, Any]) -> bool:
    """The events an archive holds: what the public sees once the game is over."""
    return event_visible(record["audience"], record["reveal_at"], PUBLIC_VIEWER, finished=True)


def _step_json(step: RecordedStep) -> dict[str, Any]:
    return {
        "seq": step.seq,
        "kind": step.kind,
        "actor": {
            "role": step.actor.role,
            "player_id": step.actor.player_id,
            "side": step.actor.side,
        },
        "payload": step.payload,
        "at": step.at.isoformat(),
        "state_hash": step.state_hash,
    }


def _undone_json(row: StepRow) -> dict[str, Any]:
    """An undone step stays in the archive (replayed like any other), marked."""
    if not row.undone:
        return {"undone": False}
    return {
        "undone": True,
        "undone_by": row.undone_by,
        "undone_at": row.undone_at.isoformat() if row.undone_at else None,
        "undone_reason": row.undone_reason,
        "undone_in_step": row.undone_in_step,
    }


async def build_archive(session: AsyncSession, game: Game) -> dict[str, Any]:
    if game.status != "finished":
        raise conflict(
            "game_not_finished",
            "游戏结束后才能导出存档。",
            "The archive is available once the game is finished.",
        )
    players = await roster(session, game)
    steps = (
        await session.scalars(
            select(StepRow).where(StepRow.game_id == game.id).order_by(StepRow.seq)
        )
    ).all()
    events = (
        await session.scalars(
            select(EventRow).where(EventRow.game_id == game.id).order_by(EventRow.seq)
        )
    ).all()
    return {
        "format": FORMAT,
        "game": {
            "id": game.id,
            "ruleset": game.ruleset,
            "title": game.title,
            "timezone": game.timezone,
            "status": game.status,
            "created_at": game.created_at.isoformat(),
            "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        },
        "settings": game.settings,
        "seed": game.seed,
        "seed_commitment": game.seed_commitment,
        "players": [{"id": p.id, "name": p.name, "side": p.side} for p in players],
        "undos": sum(1 for row in steps if row.kind == UNDO_STEP),
        "steps": [{**_step_json(recorded_step(row)), **_undone_json(row)} for row in steps],
        "events": [
            {
                "step": e.step_seq,
                "at": e.at.isoformat(),
                "kind": e.kind,
                "data": e.data,
                "audience": e.audience,
                "reveal_at": e.reveal_at,
            }
            for e in events
            if public_at_end({"audience": e.audience, "reveal_at": e.reveal_at})
        ],
    }


class ArchiveError(ValueError):
    """The file is not a forumplay archive (or is missing what replay needs)."""


def verify_archive(archive: Any) -> dict[str, Any]:
    """Pure: re-run every step of ``archive`` and compare. The answer is GET /verify's, plus
    ``first_bad_step``: the first step whose events or state hash differ (None if none)."""
    if not isinstance(archive, dict) or archive.get("format") != FORMAT:
        raise ArchiveError(f"not a {FORMAT} document")
    try:
        players = [
            Player(id=p["id"], name=p["name"], side=p.get("side")) for p in archive["players"]
        ]
        steps = [
            RecordedStep(
                seq=int(s["seq"]),
                kind=s["kind"],
                actor=Actor(
                    role=cast(Literal["player", "director", "system"], s["actor"]["role"]),
                    player_id=s["actor"].get("player_id"),
                    side=s["actor"].get("side"),
                ),
                payload=s["payload"],
                at=datetime.fromisoformat(s["at"]),
                state_hash=s["state_hash"],
            )
            for s in archive["steps"]
        ]
        stored: dict[int, list[str]] = {}
        published: list[tuple[str, Any]] = []
        for e in archive["events"]:
            if e.get("step") is not None:
                stored.setdefault(int(e["step"]), []).append(
                    stored_event(e["kind"], e["data"], e["audience"], e.get("reveal_at"))
                )
            if e["kind"] in (receipts.SEALED, receipts.OPENED):
                published.append((e["kind"], e["data"]))
        ruleset, seed = archive["game"]["ruleset"], archive["seed"]
        commitment, settings = archive["seed_commitment"], archive["settings"]
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ArchiveError(f"malformed archive: {error!r}") from None
    result = replay(
        ruleset,
        seed,
        commitment,
        settings,
        players,
        steps,
        stored,
        published,
        compared=public_at_end,
    )
    bad = [m["step"] for m in result["mismatches"] if m["step"] in {s.seq for s in steps}]
    result["first_bad_step"] = min(bad) if bad else None
    return {"game_id": archive["game"].get("id"), **result}

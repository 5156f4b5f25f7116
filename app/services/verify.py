"""Replay a game from its revealed seed and recorded steps: do the stored events match?"""

from __future__ import annotations

from typing import Any, Literal, cast

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import AppError, conflict
from app.models import EventRow, Game, StepRow
from app.publish import receipts
from app.rules.base import Actor, Step, seed_commitment
from app.rules.registry import get_ruleset
from app.services.games import roster, roster_players, ruleset_settings
from app.services.steps import apply_step, canonical_json, event_record, json_roundtrip, state_hash


async def verify(session: AsyncSession, game: Game) -> dict[str, Any]:
    if not game.seed_revealed:
        raise conflict(
            "seed_not_revealed",
            "种子尚未公开：游戏结束（或导演公开种子）后才能验证。",
            "The seed is not revealed yet: verification is possible once the game ends.",
        )
    ruleset = get_ruleset(game.ruleset)
    settings = ruleset_settings(ruleset, game.settings)
    players = roster_players(await roster(session, game))
    steps = (
        await session.scalars(
            select(StepRow).where(StepRow.game_id == game.id).order_by(StepRow.seq)
        )
    ).all()
    stored: dict[int, list[str]] = {}
    for event in (
        await session.scalars(
            select(EventRow)
            .where(EventRow.game_id == game.id, EventRow.step_seq.is_not(None))
            .order_by(EventRow.seq)
        )
    ).all():
        assert event.step_seq is not None
        stored.setdefault(event.step_seq, []).append(
            canonical_json(
                {
                    "kind": event.kind,
                    "data": event.data,
                    "audience": event.audience,
                    "reveal_at": event.reveal_at,
                }
            )
        )
    state: dict[str, Any] = json_roundtrip(ruleset.initial_state(settings, players))
    mismatches: list[dict[str, Any]] = []
    closes: list[tuple[int, Any, Any, bool]] = []  # what the receipts are checked against
    for row in steps:
        role = cast(Literal["player", "director", "system"], row.actor_role)
        actor = Actor(role=role, player_id=row.actor_player_id, side=row.actor_side)
        step = Step(id=f"s{row.seq}", kind=row.kind, actor=actor, payload=row.payload)
        try:
            outcome = apply_step(game.ruleset, game.seed, state, step, row.at)
        except AppError as error:
            mismatches.append(
                {"step": row.seq, "problem": f"step rejected on replay: {error.code}"}
            )
            break
        replayed = [canonical_json(event_record(e)) for e in outcome.events]
        if replayed != stored.get(row.seq, []):
            mismatches.append({"step": row.seq, "problem": "events differ"})
        if state_hash(outcome.state) != row.state_hash:
            mismatches.append({"step": row.seq, "problem": "state differs"})
        closes.append((row.seq, state, outcome.events, outcome.finished))
        state = json_roundtrip(outcome.state)  # as the database would give it back
    published = (
        await session.execute(
            select(EventRow.kind, EventRow.data)
            .where(
                EventRow.game_id == game.id,
                EventRow.kind.in_((receipts.SEALED, receipts.OPENED)),
            )
            .order_by(EventRow.seq)
        )
    ).all()
    receipts_checked, receipt_problems = receipts.check_replay(
        game.ruleset, game.seed, closes, [(k, d) for k, d in published]
    )
    mismatches.extend(receipt_problems)
    commitment_ok = seed_commitment(game.seed) == game.seed_commitment
    if not commitment_ok:
        mismatches.insert(0, {"step": 0, "problem": "seed does not match its commitment"})
    return {
        "ok": not mismatches,
        "commitment_ok": commitment_ok,
        "steps": len(steps),
        "events": sum(len(v) for v in stored.values()),
        "receipts": receipts_checked,
        "seed": game.seed,
        "seed_commitment": game.seed_commitment,
        "mismatches": mismatches[:20],
    }

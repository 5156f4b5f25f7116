"""Replay a game from its revealed seed and recorded steps: do the stored events match?"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, NamedTuple, cast

from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.errors import AppError, conflict
from app.models import EventRow, Game, StepRow
from app.publish import receipts
from app.rules.base import Actor, Player, Step, seed_commitment
from app.rules.registry import get_ruleset
from app.services.games import load_game, roster, roster_players, ruleset_settings
from app.services.steps import apply_step, canonical_json, event_record, json_roundtrip, state_hash

# Answers already computed, by (game id, step count): a finished game's record never
# changes, and a game that goes on gets a new step count. Bounded, oldest dropped first.
_CACHE_SIZE = 256
_answers: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
# Computations under way: callers who ask meanwhile share the first one's answer.
_running: dict[tuple[str, int], asyncio.Future[dict[str, Any]]] = {}


def forget(game_id: str) -> None:
    """Drop remembered answers of a game (for a record changed behind the service's back)."""
    for key in [k for k in _answers if k[0] == game_id]:
        del _answers[key]


async def verify(sessionmaker: async_sessionmaker[AsyncSession], game_id: str) -> dict[str, Any]:
    """The verification of a game: computed once per (game, step count) and shared by
    concurrent callers, who hold no database connection while they wait; the replay runs
    in a worker thread, so the server keeps answering meanwhile."""
    while True:
        async with sessionmaker() as session:
            game = await load_game(session, game_id)
            if not game.seed_revealed:
                raise conflict(
                    "seed_not_revealed",
                    "种子尚未公开：游戏结束（或导演公开种子）后才能验证。",
                    "The seed is not revealed yet: verification is possible once the game ends.",
                )
            key = (game.id, game.step_seq)
            if key in _answers:
                _answers.move_to_end(key)
                return _answers[key]
            running = _running.get(key)
            if running is None:
                return await _compute(session, game, key)
        with contextlib.suppress(_LeaderGone):
            return await asyncio.shield(running)


async def _compute(session: AsyncSession, game: Game, key: tuple[str, int]) -> dict[str, Any]:
    future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    _running[key] = future
    try:
        record = await _load(session, game)
        await session.close()  # the replay needs no connection
        answer = await asyncio.to_thread(replay, record)
    except BaseException:
        future.set_exception(_LeaderGone())
        future.exception()  # retrieved: the waiters try again on their own
        raise
    else:
        future.set_result(answer)
        _answers[key] = answer
        if len(_answers) > _CACHE_SIZE:
            _answers.popitem(last=False)
        return answer
    finally:
        del _running[key]


class _LeaderGone(Exception):
    """The caller computing an answer failed or went away: the next caller computes it."""


class _StepRecord(NamedTuple):
    seq: int
    kind: str
    actor_role: str
    actor_player_id: str | None
    actor_side: str | None
    payload: Any
    at: datetime
    state_hash: str


@dataclass(frozen=True)
class _Record:
    """Everything the replay reads, loaded from the database beforehand."""

    ruleset: str
    seed: str
    seed_commitment: str
    settings: BaseModel
    players: list[Player]
    steps: list[_StepRecord]
    stored: dict[int, list[str]]
    published: list[tuple[str, Any]]


async def _load(session: AsyncSession, game: Game) -> _Record:
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
    return _Record(
        ruleset=game.ruleset,
        seed=game.seed,
        seed_commitment=game.seed_commitment,
        settings=settings,
        players=players,
        steps=[
            _StepRecord(
                r.seq,
                r.kind,
                r.actor_role,
                r.actor_player_id,
                r.actor_side,
                r.payload,
                r.at,
                r.state_hash,
            )
            for r in steps
        ],
        stored=stored,
        published=[(k, d) for k, d in published],
    )


def replay(record: _Record) -> dict[str, Any]:
    """Re-run the recorded steps from the seed and compare every event. Pure, blocking."""
    ruleset = get_ruleset(record.ruleset)
    settings, players, steps, stored = (
        record.settings,
        record.players,
        record.steps,
        record.stored,
    )
    state: dict[str, Any] = json_roundtrip(ruleset.initial_state(settings, players))
    mismatches: list[dict[str, Any]] = []
    closes: list[tuple[int, Any, Any, bool]] = []  # what the receipts are checked against
    for row in steps:
        role = cast(Literal["player", "director", "system"], row.actor_role)
        actor = Actor(role=role, player_id=row.actor_player_id, side=row.actor_side)
        step = Step(id=f"s{row.seq}", kind=row.kind, actor=actor, payload=row.payload)
        try:
            outcome = apply_step(record.ruleset, record.seed, state, step, row.at)
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
    receipts_checked, receipt_problems = receipts.check_replay(
        record.ruleset, record.seed, closes, record.published
    )
    mismatches.extend(receipt_problems)
    commitment_ok = seed_commitment(record.seed) == record.seed_commitment
    if not commitment_ok:
        mismatches.insert(0, {"step": 0, "problem": "seed does not match its commitment"})
    return {
        "ok": not mismatches,
        "commitment_ok": commitment_ok,
        "steps": len(steps),
        "events": sum(len(v) for v in stored.values()),
        "receipts": receipts_checked,
        "seed": record.seed,
        "seed_commitment": record.seed_commitment,
        "mismatches": mismatches[:20],
    }

"""Replay a game from its revealed seed and recorded steps: do the stored events match?

``replay`` is the pure core (no database): the rulesets' engines re-run every recorded
step. ``verify`` feeds it from the database (GET /verify); ``app.services.archive`` feeds
it from an archive file (``forumplay verify archive.json``), so both check the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.errors import AppError, conflict, not_found
from app.models import EventRow, Game, StepRow
from app.publish import receipts
from app.rules.base import Player, seed_commitment
from app.rules.registry import get_ruleset
from app.services.games import load_game, roster, roster_players, ruleset_settings
from app.services.safety.history import (
    UNDO_STEP,
    BrokenHistory,
    RecordedStep,
    recorded_step,
    walk,
)
from app.services.steps import canonical_json, event_record, json_roundtrip, state_hash

__all__ = ["RecordedStep", "recorded_step", "replay", "stored_event", "verify"]

# How many mismatches an answer lists (the first ones, in step order).
MAX_MISMATCHES = 20


def stored_event(kind: str, data: Any, audience: Any, reveal_at: str | None) -> str:
    """An event as replay compares it (the fields ``steps.event_record`` keeps)."""
    return canonical_json(
        {"kind": kind, "data": data, "audience": audience, "reveal_at": reveal_at}
    )


def replay(
    ruleset_name: str,
    seed: str,
    commitment: str,
    raw_settings: dict[str, Any],
    players: Sequence[Player],
    steps: Sequence[RecordedStep],
    stored: Mapping[int, Sequence[str]],
    published_receipts: Sequence[tuple[str, Any]],
    compared: Callable[[dict[str, Any]], bool] | None = None,
) -> dict[str, Any]:
    """Pure: re-run ``steps`` from the initial state and compare, step by step, the events
    each produces with ``stored`` (step seq -> ``stored_event`` strings) and the state it
    reaches with the recorded hash; then the receipts. ``compared`` picks which replayed
    events are compared (an archive holds only the public ones); None: all of them.
    Mismatches are listed in step order, so the first one names the first bad step."""
    ruleset = get_ruleset(ruleset_name)
    settings = ruleset_settings(ruleset, raw_settings)
    state: dict[str, Any] = json_roundtrip(ruleset.initial_state(settings, list(players)))
    mismatches: list[dict[str, Any]] = []
    closes: list[tuple[int, Any, Any, bool, int]] = []  # what the receipts are checked against
    walked = walk(ruleset_name, seed, state, steps)
    last = 0  # the last step walked
    while True:
        try:
            item = next(walked, None)
        except AppError as error:
            problem = f"step rejected on replay: {error.code}"
            mismatches.append({"step": _next_step(steps, last), "problem": problem})
            break
        except (BrokenHistory, KeyError, TypeError, ValueError) as error:
            problem = f"undo cannot be replayed: {error}"
            mismatches.append({"step": _next_step(steps, last), "problem": problem})
            break
        if item is None:
            break
        row, outcome = item.row, item.outcome
        last = row.seq
        events = outcome.events if outcome is not None else []
        records = [event_record(e) for e in events]
        replayed = [canonical_json(r) for r in records if compared is None or compared(r)]
        if replayed != list(stored.get(row.seq, [])):
            mismatches.append({"step": row.seq, "problem": "events differ"})
        if state_hash(item.after) != row.state_hash:
            mismatches.append({"step": row.seq, "problem": "state differs"})
        if outcome is not None:
            closes.append(
                (row.seq, item.before.state, outcome.events, outcome.finished, item.generation)
            )
    receipts_checked, receipt_problems = receipts.check_replay(
        ruleset_name, seed, closes, published_receipts
    )
    mismatches.extend(receipt_problems)
    commitment_ok = seed_commitment(seed) == commitment
    if not commitment_ok:
        mismatches.insert(0, {"step": 0, "problem": "seed does not match its commitment"})
    return {
        "ok": not mismatches,
        "commitment_ok": commitment_ok,
        "steps": len(steps),
        "undos": sum(1 for s in steps if s.kind == UNDO_STEP),
        "events": sum(len(v) for v in stored.values()),
        "receipts": receipts_checked,
        "seed": seed,
        "seed_commitment": commitment,
        "mismatches": mismatches[:MAX_MISMATCHES],
    }


def _next_step(steps: Sequence[RecordedStep], last: int) -> int:
    """The step a replay stopped at: the one after the last it walked."""
    later = [s.seq for s in steps if s.seq > last]
    return later[0] if later else last


def require_revealed(game: Game) -> None:
    if not game.seed_revealed:
        raise conflict(
            "seed_not_revealed",
            "种子尚未公开：游戏结束（或导演公开种子）后才能验证。",
            "The seed is not revealed yet: verification is possible once the game ends.",
        )


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
    """GET /verify: computed once per (game, step count) and shared by concurrent callers,
    who hold no database connection while they wait; the replay runs in a worker thread,
    so the server keeps answering meanwhile."""
    while True:
        async with sessionmaker() as session:
            game = await load_game(session, game_id)
            if game.sandbox:  # a director's private sandbox: not there for anyone else
                raise not_found()
            require_revealed(game)
            key = (game.id, game.step_seq)
            if key in _answers:
                _answers.move_to_end(key)
                return _answers[key]
            running = _running.get(key)
            if running is None:
                return await _compute(session, game, key)
        with contextlib.suppress(_LeaderGone):
            return await asyncio.shield(running)


class _LeaderGone(Exception):
    """The caller computing an answer failed or went away: the next caller computes it."""


async def _compute(session: AsyncSession, game: Game, key: tuple[str, int]) -> dict[str, Any]:
    future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    _running[key] = future
    try:
        record = await _record(session, game)
        await session.close()  # the replay needs no connection
        answer = await asyncio.to_thread(replay, *record)
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


async def _record(session: AsyncSession, game: Game) -> tuple[Any, ...]:
    """``replay``'s arguments, read from the database."""
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
            stored_event(event.kind, event.data, event.audience, event.reveal_at)
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
    return (
        game.ruleset,
        game.seed,
        game.seed_commitment,
        game.settings,
        players,
        [recorded_step(row) for row in steps],
        stored,
        [(k, d) for k, d in published],
    )

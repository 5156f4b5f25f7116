"""A game's step log walked from its seed, undos included. Pure: no database.

An undo is a step of the log like any other (kind ``undo``, the director's): it puts the
game back to the state (and the pending deadlines) it had just before step ``from_step``
and marks the steps it takes back. Nothing is deleted, so walking the log re-runs every
roll ever made, the undone ones too, and each undo restores what the walk itself computed
— which is how ``/verify``, the archive and the live undo agree on what "before step N"
was.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, cast

from app.models import StepRow
from app.rules.base import STEP_TIMER, Actor, Outcome, Step, TimerSpec
from app.services.steps import apply_step, json_roundtrip

UNDO_STEP = "undo"  # payload: {"from_step": N, "steps": [...], "reason": "..."}
# A sandbox's first step: the game it was forked from, as it stood (its state and pending
# timers), so the sandbox's own log walks from there. payload: {"from_game", "at_step",
# "state", "timers": [{"kind", "key", "due_at", "data"}]}
FORK_STEP = "fork"

TimerKey = tuple[str, str]


@dataclass(frozen=True, slots=True)
class RecordedStep:
    """One step as recorded: what replay re-runs, and the state hash it must reach."""

    seq: int
    kind: str
    actor: Actor
    payload: dict[str, Any]
    at: datetime
    state_hash: str


@dataclass(slots=True)
class Point:
    """The game just before a step: its state and its pending game timers."""

    state: dict[str, Any]
    timers: dict[TimerKey, TimerSpec] = field(default_factory=dict)


@dataclass(slots=True)
class Walked:
    """One step walked: the game before it, what the rules answered (None for an undo),
    the state after it, and how many undos came before it (the receipts' generation)."""

    row: RecordedStep
    before: Point
    outcome: Outcome | None
    after: dict[str, Any]
    generation: int
    after_timers: dict[TimerKey, TimerSpec] = field(default_factory=dict)


def recorded_step(row: StepRow) -> RecordedStep:
    role = cast(Literal["player", "director", "system"], row.actor_role)
    return RecordedStep(
        seq=row.seq,
        kind=row.kind,
        actor=Actor(role=role, player_id=row.actor_player_id, side=row.actor_side),
        payload=row.payload,
        at=row.at,
        state_hash=row.state_hash,
    )


class BrokenHistory(ValueError):
    """An undo that names a step the log does not hold before it."""


def undo_targets(steps: Sequence[RecordedStep]) -> set[int]:
    """The steps some undo of the log goes back to (their "before" must be kept)."""
    return {int(s.payload["from_step"]) for s in steps if s.kind == UNDO_STEP}


def walk(
    ruleset_name: str,
    seed: str,
    initial: dict[str, Any],
    steps: Sequence[RecordedStep],
    keep: set[int] | None = None,
) -> Iterator[Walked]:
    """Re-run ``steps`` from ``initial`` (as the database gives it back). ``keep``: the
    steps whose "before" an undo needs (default: what the log's own undos need).
    Raises ``AppError`` for a step the rules refuse, ``BrokenHistory`` for a bad undo."""
    wanted = undo_targets(steps) if keep is None else keep | undo_targets(steps)
    saved: dict[int, Point] = {}
    point = Point(initial, {})
    generation = 0
    for row in steps:
        if row.seq in wanted:
            saved[row.seq] = Point(point.state, dict(point.timers))
        if row.kind == UNDO_STEP:
            target = saved.get(int(row.payload["from_step"]))
            if target is None or int(row.payload["from_step"]) >= row.seq:
                raise BrokenHistory(f"step {row.seq} undoes a step it does not follow")
            yield Walked(row, point, None, target.state, generation, dict(target.timers))
            generation += 1
            point = Point(target.state, dict(target.timers))
            continue
        if row.kind == FORK_STEP:
            forked = fork_point(row.payload)
            yield Walked(row, point, None, forked.state, generation, dict(forked.timers))
            point = forked
            continue
        step = Step(id=f"s{row.seq}", kind=row.kind, actor=row.actor, payload=row.payload)
        outcome = apply_step(ruleset_name, seed, point.state, step, row.at)
        timers = dict(point.timers)
        if row.kind == STEP_TIMER:  # the timer ran (a step may schedule it again)
            timers.pop((str(row.payload.get("kind")), str(row.payload.get("key"))), None)
        for spec in outcome.timers:
            timers[(spec.kind, spec.key)] = spec
        for kind, key in outcome.cancel_timers:
            timers.pop((kind, key), None)
        after = json_roundtrip(outcome.state)  # as the database would give it back
        yield Walked(row, point, outcome, after, generation, timers)
        point = Point(after, timers)


def fork_point(payload: dict[str, Any]) -> Point:
    """The game a fork step starts from."""
    timers = {}
    for t in payload.get("timers") or []:
        spec = TimerSpec(
            str(t["kind"]), str(t["key"]), datetime.fromisoformat(t["due_at"]), dict(t["data"])
        )
        timers[(spec.kind, spec.key)] = spec
    return Point(json_roundtrip(payload["state"]), timers)


def timers_json(timers: dict[TimerKey, TimerSpec]) -> list[dict[str, Any]]:
    return [
        {"kind": s.kind, "key": s.key, "due_at": s.due_at.isoformat(), "data": s.data}
        for s in sorted(timers.values(), key=lambda s: (s.due_at, s.kind, s.key))
    ]


def point_after(
    ruleset_name: str,
    seed: str,
    initial: dict[str, Any],
    steps: Sequence[RecordedStep],
    seq: int,
) -> tuple[Point, RecordedStep]:
    """The game just after step ``seq`` (its state and pending timers), and that step."""
    for item in walk(ruleset_name, seed, initial, [s for s in steps if s.seq <= seq]):
        if item.row.seq == seq:
            return Point(item.after, dict(item.after_timers)), item.row
    raise BrokenHistory(f"the log has no step {seq}")


def point_before(
    ruleset_name: str,
    seed: str,
    initial: dict[str, Any],
    steps: Sequence[RecordedStep],
    seq: int,
) -> tuple[Point, list[Walked]]:
    """The game just before step ``seq`` (walking the log up to it), and the steps walked."""
    walked: list[Walked] = []
    for item in walk(ruleset_name, seed, initial, steps, keep={seq}):
        if item.row.seq == seq:
            return item.before, walked
        walked.append(item)
    raise BrokenHistory(f"the log has no step {seq}")

"""A tiny driver for island games in tests: plain datetimes, seeded step RNGs, no sleeping."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from app.rules.base import (
    DIRECTOR,
    SYSTEM,
    Actor,
    Outcome,
    Player,
    RuleViolation,
    Step,
    Viewer,
    step_rng,
)
from app.rules.island import RULESET, IslandSettings

TZ = "Asia/Shanghai"
DAY = date(2024, 6, 1)


def local(h: int, m: int = 0, d: date = DAY, tz: str = TZ) -> datetime:
    """A local wall time in the game's zone, as aware UTC (what the shell passes)."""
    return datetime.combine(d, time(h, m), tzinfo=ZoneInfo(tz)).astimezone(UTC)


def settings(**kw: Any) -> IslandSettings:
    """A quiet 5x5 plain island: no encounters, no monsters, unless asked."""
    base: dict[str, Any] = {
        "width": 5,
        "height": 5,
        "terrains": {"plain": {"encounter_chance": 0.0}},
        "starting_food": 2,
    }
    base.update(kw)
    return IslandSettings.model_validate(base)


class Game:
    def __init__(
        self,
        s: IslandSettings | None = None,
        n: int = 4,
        starts: dict[str, list[int]] | None = None,
        seed: str = "seed",
    ) -> None:
        self.s = s or settings(start_positions=starts or {str(i + 1): [1, 1] for i in range(n)})
        self.roster = [Player(id=f"p{i + 1}", name=f"P{i + 1}") for i in range(n)]
        self.state = RULESET.initial_state(self.s, self.roster)
        self.seed = seed
        self.seq = 0
        self.outcomes: list[Outcome] = []

    def step(self, kind: str, actor: Actor, payload: dict[str, Any], now: datetime) -> Outcome:
        self.seq += 1
        st = Step(id=f"s{self.seq}", kind=kind, actor=actor, payload=payload)
        out = RULESET.apply(self.state, st, step_rng(self.seed, st.id), now)
        undeclared = {e.kind for e in out.events} - RULESET.event_kinds
        assert not undeclared, f"undeclared event kinds {sorted(undeclared)}"
        self.state = out.state
        self.outcomes.append(out)
        return out

    def start(self, now: datetime | None = None) -> Outcome:
        return self.step("start", DIRECTOR, {}, now or local(10))

    def order(
        self, pid: str, body: dict[str, Any], now: datetime | None = None, oid: str | None = None
    ) -> Outcome:
        well_formed(body)
        self.seq_order = getattr(self, "seq_order", 0) + 1
        return self.step(
            "order",
            Actor(role="player", player_id=pid),
            {"order_id": oid or f"o{self.seq_order}", "order": body},
            now or local(12),
        )

    def withdraw(self, pid: str, oid: str, now: datetime | None = None) -> Outcome:
        return self.step(
            "withdraw", Actor(role="player", player_id=pid), {"order_id": oid}, now or local(13)
        )

    def revise(
        self, pid: str, oid: str, body: dict[str, Any], now: datetime | None = None
    ) -> Outcome:
        well_formed(body)
        return self.step(
            "revise",
            Actor(role="player", player_id=pid),
            {"order_id": oid, "order": body},
            now or local(13),
        )

    def director(self, action: str, now: datetime | None = None, **kw: Any) -> Outcome:
        return self.step("director", DIRECTOR, {"action": action, **kw}, now or local(12))

    def timer(
        self, kind: str, key: str, data: dict[str, Any] | None = None, now: datetime | None = None
    ) -> Outcome:
        return self.step(
            "timer", SYSTEM, {"kind": kind, "key": key, "data": data or {}}, now or local(12)
        )

    def midnight(self) -> Outcome:
        return self.timer("midnight", "midnight", now=local(0, 0, _next(self.state["date"])))

    def p(self, pid: str) -> dict[str, Any]:
        player: dict[str, Any] = self.state["players"][pid]
        return player

    def view(self, pid: str) -> dict[str, Any]:
        return RULESET.view(self.state, Viewer(role="player", player_id=pid))


def well_formed(body: dict[str, Any]) -> None:
    """What the shell does before an order reaches the rules (``app/services/bodies.py``):
    a body the order model refuses is a 422 and no step; a field whose value breaks a rule
    (a diagonal move) raises that rule's RuleViolation."""
    problems = RULESET.order_model.problems(body)
    if problems:
        fields = ", ".join(where or "(body)" for where, _ in problems)
        raise RuleViolation(
            "invalid_order",
            None,
            f"指令格式有误：{fields}。",
            f"Malformed order: {fields}.",
            status=422,
            extra={"errors": [f"{where}: {e['msg']}" for where, e in problems]},
        )


def _next(iso: str) -> date:
    from datetime import timedelta

    return date.fromisoformat(iso) + timedelta(days=1)


def events_for(out: Outcome, pid: str) -> list[Any]:
    tag = f"player:{pid}"
    return [e for e in out.events if tag in e.audience or "public" in e.audience]

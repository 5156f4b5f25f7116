"""A tiny referee's desk: build a game, apply steps with step_rng, fake the clock."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from app.rules.base import (
    DIRECTOR,
    SYSTEM,
    Actor,
    Event,
    Outcome,
    Player,
    RuleViolation,
    Step,
    Viewer,
    event_visible,
    step_rng,
)
from app.rules.team_battle import RULESET, TeamBattleSettings

SEED = "team-battle-tests"
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ROSTER = [
    Player("a1", "Alice", "A"),
    Player("a2", "Amy", "A"),
    Player("b1", "Bob", "B"),
]
PLAYER = {"A": Actor("player", "a1", "A"), "B": Actor("player", "b1", "B")}
ORIGINAL_A = [4, 7, 8, 6, 5]
ORIGINAL_B = [6, 6, 7, 5, 6]


class Game:
    """One game driven step by step, as the shell would."""

    def __init__(self, seed: str = SEED, **settings: Any) -> None:
        self.settings = TeamBattleSettings(**settings)
        self.state: dict[str, Any] = RULESET.initial_state(self.settings, ROSTER)
        self.seed = seed
        self.now = T0
        self.seq = 0
        self.events: list[Event] = []
        self.outcomes: list[Outcome] = []
        self.order_seq = 0

    # -- raw steps ------------------------------------------------------------
    def step(self, kind: str, actor: Actor, payload: dict[str, Any] | None = None) -> Outcome:
        self.seq += 1
        step = Step(id=f"s{self.seq}", kind=kind, actor=actor, payload=payload or {})
        before = json.dumps(self.state, sort_keys=True)
        outcome = RULESET.apply(self.state, step, step_rng(self.seed, step.id), self.now)
        assert json.dumps(self.state, sort_keys=True) == before, "apply mutated its input"
        # Round-trip through JSON, as the shell stores it (key order not preserved).
        self.state = json.loads(json.dumps(outcome.state, sort_keys=True))
        for event in outcome.events:
            json.dumps(event.data)
            assert event.kind in RULESET.event_kinds, f"undeclared event kind {event.kind!r}"
        self.events.extend(outcome.events)
        self.outcomes.append(outcome)
        return outcome

    def start(self) -> Outcome:
        return self.step("start", DIRECTOR)

    def order(self, side: str, body: dict[str, Any], actor: Actor | None = None) -> str:
        self.order_seq += 1
        order_id = f"o{self.order_seq}"
        self.step("order", actor or PLAYER[side], {"order_id": order_id, "order": body})
        return order_id

    def revise(self, side: str, order_id: str, body: dict[str, Any]) -> Outcome:
        return self.step("revise", PLAYER[side], {"order_id": order_id, "order": body})

    def withdraw(self, side: str, order_id: str) -> Outcome:
        return self.step("withdraw", PLAYER[side], {"order_id": order_id})

    def ready(self, side: str) -> Outcome:
        return self.step("ready", PLAYER[side])

    def ready_all(self) -> None:
        """Both sides mark ready; stops as soon as the phase closes."""
        phase, round_no = self.state["phase"], self.state["round"]
        for side in ("A", "B"):
            if (self.state["phase"], self.state["round"]) != (phase, round_no):
                return
            if not self.state["sides"][side]["ready"]:
                self.ready(side)

    def director(self, action: str, **payload: Any) -> Outcome:
        return self.step("director", DIRECTOR, {"action": action, **payload})

    def close(self) -> Outcome:
        return self.director("close_phase")

    def timer(self, round_no: int | None = None, phase: str | None = None) -> Outcome:
        data = {
            "round": self.state["round"] if round_no is None else round_no,
            "phase": self.state["phase"] if phase is None else phase,
        }
        return self.step("timer", SYSTEM, {"kind": "phase", "key": "phase", "data": data})

    def rejects(self, side: str, body: dict[str, Any]) -> RuleViolation:
        """Submit an order that must be refused; return the violation, state unchanged."""
        before = json.dumps(self.state, sort_keys=True)
        try:
            self.order(side, body)
        except RuleViolation as violation:
            assert json.dumps(self.state, sort_keys=True) == before
            return violation
        raise AssertionError(f"order {body} was accepted")

    # -- whole phases -----------------------------------------------------------
    def deploy(self, a: list[int] | None = None, b: list[int] | None = None) -> None:
        """Start and deploy; the game is then in round 1's command phase."""
        if self.state["phase"] == "setup":
            self.start()
        self.order("A", {"type": "deploy", "troops": a or ORIGINAL_A})
        self.order("B", {"type": "deploy", "troops": b or ORIGINAL_B})
        self.ready_all()
        assert self.state["phase"] == "command"

    def finish_round(self) -> None:
        """Everyone ready until the next round's command phase (or the end)."""
        round_no = self.state["round"]
        while self.state["phase"] != "finished" and (
            self.state["round"] == round_no or self.state["phase"] != "command"
        ):
            self.ready_all()

    def phase_orders(self, orders: dict[str, list[dict[str, Any]]] | None) -> None:
        for side, bodies in (orders or {}).items():
            for body in bodies:
                self.order(side, body)
        self.ready_all()

    def play_round(
        self,
        command: dict[str, list[dict[str, Any]]] | None = None,
        battle: dict[str, list[dict[str, Any]]] | None = None,
        response: dict[str, list[dict[str, Any]]] | None = None,
    ) -> None:
        """Command, battle and (if it opens) response phase, each closed by 'ready'."""
        assert self.state["phase"] == "command", self.state["phase"]
        self.phase_orders(command)
        assert self.state["phase"] == "battle", self.state["phase"]
        self.phase_orders(battle)
        if self.state["phase"] == "response":
            self.phase_orders(response)
        else:
            assert not response, "no response window opened"

    # -- reading ------------------------------------------------------------------
    def slots(self, side: str) -> list[int]:
        return list(self.state["sides"][side]["slots"])

    def morale(self, side: str) -> float:
        return self.state["sides"][side]["morale"] / 10

    def events_of(self, kind: str) -> list[dict[str, Any]]:
        return [e.data for e in self.events if e.kind == kind]

    def visible_events(self, viewer: Viewer) -> list[Event]:
        finished = self.state["phase"] == "finished"
        return [e for e in self.events if event_visible(e.audience, e.reveal_at, viewer, finished)]

    def view(self, viewer: Viewer) -> dict[str, Any]:
        return RULESET.view(self.state, viewer)

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def viewer(side: str) -> Viewer:
    return Viewer("player", PLAYER[side].player_id, side)

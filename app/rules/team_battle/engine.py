"""Team Battle (团战): the Ruleset that the service shell drives, one Step at a time.

Every ``apply`` works on a fresh copy of the JSON state: it validates first (raising
RuleViolation with nothing changed), then applies the step, closing phases, resolving
rounds and judging victory in the same step where that follows.

Phases: setup → deployment → command → battle → (response, TB-5a) → resolution →
command of the next round … → finished.

This module checks a step and dispatches it; what each order checks and does is in
``orders/`` (by type, ``orders/table.py``), a side's steps in ``steps``, the closing of
phases in ``phases``, a round's resolution in ``rounds``, the director's tools in
``director``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from typing import ClassVar

from pydantic import BaseModel

from app.rules.base import (
    JSON,
    STEP_DIRECTOR,
    STEP_ORDER,
    STEP_READY,
    STEP_REVISE,
    STEP_START,
    STEP_TIMER,
    STEP_WITHDRAW,
    Actor,
    BodyModel,
    Outcome,
    ParsedOrders,
    Player,
    Step,
    TextContext,
    Viewer,
    copy_state,
)
from app.rules.team_battle import steps, text
from app.rules.team_battle.available import available_orders
from app.rules.team_battle.director import DIRECTOR_ACTIONS, apply_director, check_director
from app.rules.team_battle.flow import open_phase
from app.rules.team_battle.kinds import EVENT_KINDS
from app.rules.team_battle.messages import malformed, violation
from app.rules.team_battle.order_types import ORDERS
from app.rules.team_battle.orders.deploy import even_deployment
from app.rules.team_battle.orders.table import RULES
from app.rules.team_battle.rounds import resolution_rules
from app.rules.team_battle.schema import DIRECTOR_ACTION_MODEL, ORDER_MODEL, TeamBattleView
from app.rules.team_battle.settings import TeamBattleSettings
from app.rules.team_battle.state import MORALE_UNIT, SIDES, find_order, round_orders
from app.rules.team_battle.steps import Checked
from app.rules.team_battle.turn import Turn
from app.rules.team_battle.validate import check_order, parse_order
from app.rules.team_battle.view import build_view

__all__ = [
    "DIRECTOR_ACTIONS",
    "TeamBattleRuleset",
    "even_deployment",
    "resolution_rules",
]


class TeamBattleRuleset:
    name: ClassVar[str] = "team_battle"
    settings_model: ClassVar[type[BaseModel]] = TeamBattleSettings
    order_model: ClassVar[BodyModel] = ORDER_MODEL
    director_action_model: ClassVar[BodyModel] = DIRECTOR_ACTION_MODEL
    event_kinds: ClassVar[frozenset[str]] = EVENT_KINDS
    deadline_timer_kinds: ClassVar[tuple[str, ...]] = ("phase",)  # a phase's close
    view_model: ClassVar[type[BaseModel]] = TeamBattleView

    # ----- setup --------------------------------------------------------------------
    def initial_state(self, settings: BaseModel, roster: Sequence[Player]) -> JSON:
        tb = _settings(settings)
        sides: JSON = {}
        for side in SIDES:
            total = tb.troops[side]
            max_morale = total * MORALE_UNIT // 2  # TB-4: morale = total troops / 2
            if tb.whole_morale:
                max_morale -= max_morale % MORALE_UNIT  # TB-4 setting: ⌊total/2⌋
            sides[side] = {
                "total": total,
                "slots": None,
                "morale": max_morale,
                "max_morale": max_morale,
                "ready": False,
                "extra_uses": {"command": 0, "battle": 0},
                "next_extra_uses": {"command": 0, "battle": 0},
                "inspired_round": None,
                "spy_round": None,
                "once_used": [],
                "last_used": {},
            }
        return {
            "ruleset": self.name,
            "settings": tb.model_dump(mode="json"),
            "roster": [{"id": p.id, "name": p.name, "side": p.side} for p in roster],
            "commanders": {"A": None, "B": None},
            "round": 0,
            "phase": "setup",
            "opened_at": None,
            "winner": None,
            "finish_reason": None,
            "sides": sides,
            "orders": [],
            "response": None,
        }

    # Sign-ups (issue 20): a player may ask for a side; the shell balances the sides
    # from those wishes (or draws them from the seed) at the start.
    signup_sides: tuple[str, ...] = tuple(SIDES)

    def roster_range(self, settings: BaseModel) -> tuple[int, int | None]:
        """How many players a game takes, (fewest, most or None): one per side at least."""
        return len(SIDES), None

    def validate_player(
        self, settings: BaseModel, name: str, side: str | None, roster_size: int = 0
    ) -> None:
        if side not in SIDES:
            raise violation("bad_side", "TB-1", status=422)

    def validate_roster(self, settings: BaseModel, roster: Sequence[Player]) -> None:
        for side in SIDES:
            if not any(p.side == side for p in roster):
                raise violation("side_empty", "TB-1", side=side)

    # ----- the step loop -------------------------------------------------------------
    def validate(self, state: JSON, step: Step, now: datetime) -> None:
        self._check(state, step)

    def apply(self, state: JSON, step: Step, rng: random.Random, now: datetime) -> Outcome:
        checked = self._check(state, step)
        turn = Turn(state=copy_state(state), rng=rng, now=now)
        kind = step.kind
        if kind == STEP_START:
            turn.emit("game_started", {"settings": turn.state["settings"]})
            open_phase(turn, "deployment")
        elif kind == STEP_ORDER:
            steps.submit(turn, step.actor, checked)
        elif kind == STEP_REVISE:
            steps.revise(turn, step.actor, checked)
        elif kind == STEP_WITHDRAW:
            steps.withdraw(turn, step.actor, checked)
        elif kind == STEP_READY:
            steps.ready(turn, checked)
        elif kind == STEP_TIMER:
            steps.timer(turn, step.payload)
        elif kind == STEP_DIRECTOR:
            apply_director(turn, step.payload)
        return turn.outcome()

    def view(self, state: JSON, viewer: Viewer) -> JSON:
        return build_view(state, viewer)

    def phase(self, state: JSON) -> str:
        return str(state["phase"])

    def available_orders(self, state: JSON, viewer: Viewer, now: datetime) -> list[JSON]:
        return available_orders(state, viewer)

    def is_finished(self, state: JSON) -> bool:
        return bool(state["phase"] == "finished")

    # ----- orders in words (the grammar and its reader live in text.py) ----------------
    def text_context(self, state: JSON, viewer: Viewer) -> TextContext:
        return text.text_context(state, viewer)

    def parse_orders(self, source: str, context: TextContext) -> ParsedOrders:
        return text.parse_orders(source, context)

    def is_public_order(self, order: JSON) -> bool:
        """TB-6: public orders are read out anyway; hidden ones (and deployments, TB-10)
        must stay secret."""
        found = ORDERS.get(str(order.get("type")))
        return found is not None and found.public

    # ----- validation -----------------------------------------------------------------
    def _check(self, state: JSON, step: Step) -> Checked:
        kind = step.kind
        phase = state["phase"]
        if kind == STEP_TIMER:
            return Checked()
        if kind == STEP_START:
            if step.actor.role not in ("director", "system"):
                raise violation("not_director", None, status=403)
            if phase != "setup":
                raise violation("already_started", None)
            roster = [Player(p["id"], p["name"], p["side"]) for p in state["roster"]]
            self.validate_roster(TeamBattleSettings(), roster)
            return Checked()
        if kind == STEP_DIRECTOR:
            if step.actor.role != "director":
                raise violation("not_director", None, status=403)
            check_director(state, step.payload)
            return Checked()
        if kind not in (STEP_ORDER, STEP_REVISE, STEP_WITHDRAW, STEP_READY):
            raise violation("unsupported_step", None, status=422, kind=kind)

        side = self._acting_side(state, step.actor)
        if phase == "finished":
            raise violation("game_finished", "TB-60")
        if phase == "setup":
            raise violation("not_started", None)
        if kind == STEP_READY:
            return Checked(side=side)

        order_id = step.payload.get("order_id")
        if not isinstance(order_id, str) or not order_id:
            raise malformed("缺少 order_id。", "Missing 'order_id'.")
        if kind == STEP_ORDER:
            if find_order(state, order_id) is not None:
                raise violation("duplicate_order_id", None)
            definition, body = parse_order(step.payload.get("order"))
            others = round_orders(state, side, phase)
            if RULES[definition.type].replaces:
                others = []  # a new deployment replaces the side's previous one
            check_order(state, side, definition, body, others)
            return Checked(side, order_id, definition, body)

        existing = find_order(state, order_id)
        if existing is None or existing["side"] != side:
            # 404 either way: never confirm that the other side's order exists.
            raise violation("not_your_order", None, status=404)
        if (
            existing["status"] != "pending"
            or existing["round"] != state["round"]
            or existing["phase"] != phase
        ):
            raise violation("order_not_pending", None)
        if existing["type"] == "scout" and state["settings"]["scout_locks_on_submit"]:
            raise violation("order_in_effect", "TB-35")
        if kind == STEP_WITHDRAW:
            return Checked(side, order_id)
        definition, body = parse_order(step.payload.get("order"))
        others = [o for o in round_orders(state, side, phase) if o["id"] != order_id]
        if RULES[definition.type].replaces:
            others = []
        check_order(state, side, definition, body, others)
        return Checked(side, order_id, definition, body)

    def _acting_side(self, state: JSON, actor: Actor) -> str:
        """TB-1: a player acts for their side; the director may act for a named side."""
        if actor.role == "director" and actor.side in SIDES:
            return str(actor.side)
        if actor.role != "player" or actor.side not in SIDES:
            raise violation("not_a_player", "TB-1", status=403)
        side = str(actor.side)
        listed = any(p["id"] == actor.player_id and p["side"] == side for p in state["roster"])
        if not listed:
            raise violation("not_a_player", "TB-1", status=403)
        commander = state["commanders"][side]
        if state["settings"]["commander_only"] and commander and commander != actor.player_id:
            raise violation("not_commander", "TB-1", status=403, side=side)
        return side


def _settings(settings: BaseModel) -> TeamBattleSettings:
    if isinstance(settings, TeamBattleSettings):
        return settings
    return TeamBattleSettings.model_validate(settings.model_dump())

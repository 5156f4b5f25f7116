"""Team Battle (团战): the Ruleset that the service shell drives, one Step at a time.

Every ``apply`` works on a fresh copy of the JSON state: it validates first (raising
RuleViolation with nothing changed), then applies the step, closing phases, resolving
rounds and judging victory in the same step where that follows.

Phases: setup → deployment → command → battle → (response, TB-5a) → resolution →
command of the next round … → finished.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel

from app.rules.base import (
    AUDIENCE_DIRECTOR,
    AUDIENCE_PUBLIC,
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
    Event,
    Outcome,
    ParsedOrders,
    Player,
    RuleViolation,
    Step,
    StepContext,
    TextContext,
    TimerSpec,
    Viewer,
    copy_json,
    copy_state,
    side_audience,
)
from app.rules.team_battle import text
from app.rules.team_battle.available import available_orders
from app.rules.team_battle.intel import intel_source, shown_order
from app.rules.team_battle.kinds import EVENT_KINDS
from app.rules.team_battle.messages import malformed, violation
from app.rules.team_battle.orders import ORDERS, OrderDef, shown_type
from app.rules.team_battle.resolve import (
    ResolutionRules,
    SideForces,
    judge_victory,
    resolve_round,
)
from app.rules.team_battle.schema import DIRECTOR_ACTION_MODEL, ORDER_MODEL, TeamBattleView
from app.rules.team_battle.settings import TeamBattleSettings, setting
from app.rules.team_battle.state import (
    MORALE_UNIT,
    SIDES,
    find_order,
    morale_number,
    other,
    round_orders,
)
from app.rules.team_battle.validate import (
    announced_battle_orders,
    check_order,
    extra_retreat_slots,
    meets_morale_gate,
    parse_order,
    pursuit_targets,
)
from app.rules.team_battle.view import build_view

PHASE_TIMER = ("phase", "phase")
OPEN_PHASES = ("deployment", "command", "battle", "response")
DIRECTOR_ACTIONS = ("close_phase", "set_commander", "set_morale", "set_troops")


def _own(side: str) -> tuple[str, ...]:
    return (side_audience(side), AUDIENCE_DIRECTOR)


@dataclass(slots=True)
class _Turn(StepContext):
    """What one step is producing: the new state plus the Outcome's parts."""

    def emit(
        self,
        kind: str,
        data: JSON,
        audience: tuple[str, ...] = (AUDIENCE_PUBLIC,),
        reveal_at: str | None = None,
    ) -> None:
        self.events.append(Event(kind=kind, data=data, audience=audience, reveal_at=reveal_at))


@dataclass(frozen=True, slots=True)
class _Checked:
    """A validated step's parsed payload, so apply does not parse twice."""

    side: str | None = None
    order_id: str | None = None
    definition: OrderDef | None = None
    body: JSON | None = None


class TeamBattleRuleset:
    name: ClassVar[str] = "team_battle"
    settings_model: ClassVar[type[BaseModel]] = TeamBattleSettings
    order_model: ClassVar[BodyModel] = ORDER_MODEL
    director_action_model: ClassVar[BodyModel] = DIRECTOR_ACTION_MODEL
    event_kinds: ClassVar[frozenset[str]] = EVENT_KINDS
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
        turn = _Turn(state=copy_state(state), rng=rng, now=now)
        kind = step.kind
        if kind == STEP_START:
            turn.emit("game_started", {"settings": turn.state["settings"]})
            self._open_phase(turn, "deployment")
        elif kind == STEP_ORDER:
            self._submit(turn, step.actor, checked)
        elif kind == STEP_REVISE:
            self._revise(turn, step.actor, checked)
        elif kind == STEP_WITHDRAW:
            self._withdraw(turn, step.actor, checked)
        elif kind == STEP_READY:
            self._ready(turn, checked)
        elif kind == STEP_TIMER:
            self._timer(turn, step.payload)
        elif kind == STEP_DIRECTOR:
            self._director(turn, step.payload)
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
    def _check(self, state: JSON, step: Step) -> _Checked:
        kind = step.kind
        phase = state["phase"]
        if kind == STEP_TIMER:
            return _Checked()
        if kind == STEP_START:
            if step.actor.role not in ("director", "system"):
                raise violation("not_director", None, status=403)
            if phase != "setup":
                raise violation("already_started", None)
            roster = [Player(p["id"], p["name"], p["side"]) for p in state["roster"]]
            self.validate_roster(TeamBattleSettings(), roster)
            return _Checked()
        if kind == STEP_DIRECTOR:
            if step.actor.role != "director":
                raise violation("not_director", None, status=403)
            self._check_director(state, step.payload)
            return _Checked()
        if kind not in (STEP_ORDER, STEP_REVISE, STEP_WITHDRAW, STEP_READY):
            raise violation("unsupported_step", None, status=422, kind=kind)

        side = self._acting_side(state, step.actor)
        if phase == "finished":
            raise violation("game_finished", "TB-60")
        if phase == "setup":
            raise violation("not_started", None)
        if kind == STEP_READY:
            return _Checked(side=side)

        order_id = step.payload.get("order_id")
        if not isinstance(order_id, str) or not order_id:
            raise malformed("缺少 order_id。", "Missing 'order_id'.")
        if kind == STEP_ORDER:
            if find_order(state, order_id) is not None:
                raise violation("duplicate_order_id", None)
            definition, body = parse_order(step.payload.get("order"))
            others = round_orders(state, side, phase)
            if definition.type == "deploy":
                others = []  # a new deployment replaces the side's previous one
            check_order(state, side, definition, body, others)
            return _Checked(side, order_id, definition, body)

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
            return _Checked(side, order_id)
        definition, body = parse_order(step.payload.get("order"))
        others = [o for o in round_orders(state, side, phase) if o["id"] != order_id]
        if definition.type == "deploy":
            others = []
        check_order(state, side, definition, body, others)
        return _Checked(side, order_id, definition, body)

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

    def _check_director(self, state: JSON, payload: Any) -> None:
        action = payload.get("action")
        if action not in DIRECTOR_ACTIONS:
            raise violation("unknown_action", None, status=422, action=action)

        def bad(zh: str, en: str) -> RuleViolation:
            return violation("bad_action", None, status=422, detail_zh=zh, detail_en=en)

        if action == "close_phase":
            if state["phase"] not in OPEN_PHASES:
                raise violation(
                    "wrong_phase",
                    None,
                    need="进行中的阶段",
                    need_en="an open phase",
                    now=state["phase"],
                    now_en=state["phase"],
                    order="关闭阶段",
                    order_en="Closing a phase",
                )
            return
        side = payload.get("side")
        if side not in SIDES:
            raise violation("bad_side", "TB-1", status=422)
        if action == "set_commander":
            player_id = payload.get("player_id")
            if player_id is None:
                return
            if not any(p["id"] == player_id and p["side"] == side for p in state["roster"]):
                raise violation("unknown_player", "TB-1", status=422)
        elif action == "set_morale":
            morale = payload.get("morale")
            if isinstance(morale, bool) or not isinstance(morale, int | float):
                raise bad("morale 必须是数字。", "'morale' must be a number.")
            if abs(morale * MORALE_UNIT - round(morale * MORALE_UNIT)) > 1e-9:
                raise bad("士气最多保留一位小数。", "Morale has at most one decimal place.")
        elif action == "set_troops":
            if state["sides"][side]["slots"] is None:
                raise bad(
                    "部署公开之前不能修改兵力。", "Troops can be set once deployments are revealed."
                )
            slot, troops = payload.get("slot"), payload.get("troops")
            if not isinstance(slot, int) or isinstance(slot, bool):
                raise bad("slot 必须是整数。", "'slot' must be an integer.")
            if not 1 <= slot <= state["settings"]["slots"]:
                raise violation(
                    "slot_out_of_range",
                    "TB-2",
                    status=422,
                    slots=state["settings"]["slots"],
                    slot=slot,
                )
            if not isinstance(troops, int) or isinstance(troops, bool) or troops < 0:
                raise bad("troops 必须是非负整数。", "'troops' must be an integer ≥ 0.")

    # ----- orders -----------------------------------------------------------------------
    def _submit(self, turn: _Turn, actor: Actor, checked: _Checked) -> None:
        state = turn.state
        side, order_id, definition, body = _unpack(checked)
        if definition.type == "deploy":
            for old in round_orders(state, side, "deployment"):
                turn.order_status[old["id"]] = "replaced"  # the latest deployment counts (TB-10)
            # What no longer counts leaves the state (its history stays in the order log),
            # so the state a step copies, hashes and stores stays small.
            state["orders"] = [o for o in state["orders"] if o["id"] not in turn.order_status]
        order = {
            "id": order_id,
            "side": side,
            "player_id": actor.player_id,
            "type": definition.type,
            "body": body,
            "round": state["round"],
            "phase": state["phase"],
            "status": "pending",
            "announced": False,
            "shown_type": None,
            "revealed": False,
            "changes": [{"action": "submit", "by": _who(actor)}],
        }
        state["orders"].append(order)
        state["sides"][side]["ready"] = False
        turn.order_status[order_id] = "pending"
        turn.emit(
            "order_submitted",
            {
                "order_id": order_id,
                "side": side,
                "by": _who(actor),
                "type": definition.type,
                "body": body,
                "round": state["round"],
                "phase": state["phase"],
            },
            _own(side),
            reveal_at="end",
        )
        self._intel(turn, order, was_visible=False)
        if definition.type == "scout":
            # TB-35: the opponent's orders that already name the slot are shown at once.
            for existing in round_orders(state, other(side), None, ("pending", "resolved")):
                if intel_source(state, existing, side) == "scout":
                    self._emit_intel(turn, existing, side, "scout")

    def _revise(self, turn: _Turn, actor: Actor, checked: _Checked) -> None:
        side, order_id, definition, body = _unpack(checked)
        order = find_order(turn.state, order_id)
        assert order is not None
        was_visible = intel_source(turn.state, order, other(side)) is not None
        order["type"] = definition.type
        order["body"] = body
        order["changes"].append({"action": "revise", "by": _who(actor)})
        turn.state["sides"][side]["ready"] = False
        turn.order_status[order_id] = "pending"
        turn.emit(
            "order_revised",
            {
                "order_id": order_id,
                "side": side,
                "by": _who(actor),
                "type": definition.type,
                "body": body,
            },
            _own(side),
            reveal_at="end",
        )
        self._intel(turn, order, was_visible)

    def _withdraw(self, turn: _Turn, actor: Actor, checked: _Checked) -> None:
        side, order_id = str(checked.side), str(checked.order_id)
        order = find_order(turn.state, order_id)
        assert order is not None
        was_visible = intel_source(turn.state, order, other(side)) is not None
        order["status"] = "withdrawn"
        order["changes"].append({"action": "withdraw", "by": _who(actor)})
        turn.state["sides"][side]["ready"] = False
        turn.order_status[order_id] = "withdrawn"
        turn.emit(
            "order_withdrawn",
            {"order_id": order_id, "side": side, "by": _who(actor), "type": order["type"]},
            _own(side),
            reveal_at="end",
        )
        self._intel(turn, order, was_visible)
        turn.state["orders"] = [o for o in turn.state["orders"] if o["id"] != order_id]

    def _intel(self, turn: _Turn, order: JSON, was_visible: bool) -> None:
        """TB-35 / TB-52: tell a scouting or spying opponent about the change at once."""
        watcher = other(order["side"])
        source = intel_source(turn.state, order, watcher)
        if source is not None or was_visible:
            self._emit_intel(turn, order, watcher, source)

    def _emit_intel(self, turn: _Turn, order: JSON, watcher: str, source: str | None) -> None:
        visible = source is not None and order["status"] != "withdrawn"
        turn.emit(
            "intel",
            {
                "source": source,
                "order_id": order["id"],
                "side": order["side"],
                "status": order["status"] if visible else "gone",
                "order": shown_order(order, truthful=False) if visible else None,
            },
            (side_audience(watcher),),
        )

    def _ready(self, turn: _Turn, checked: _Checked) -> None:
        state = turn.state
        side = str(checked.side)
        state["sides"][side]["ready"] = True
        turn.emit("side_ready", {"side": side, "phase": state["phase"]}, _own(side))
        if state["settings"]["early_close_when_ready"] and all(
            state["sides"][s]["ready"] for s in SIDES
        ):
            self._close_phase(turn)

    def _timer(self, turn: _Turn, payload: Any) -> None:
        state = turn.state
        data = payload.get("data") or {}
        current = (
            payload.get("kind") == "phase"
            and state["phase"] in OPEN_PHASES
            and data.get("round") == state["round"]
            and data.get("phase") == state["phase"]
        )
        if current:
            self._close_phase(turn)  # a stale timer changes nothing and says nothing

    def _director(self, turn: _Turn, payload: Any) -> None:
        state = turn.state
        action = payload["action"]
        if action == "close_phase":
            turn.emit("director_closed_phase", {"round": state["round"], "phase": state["phase"]})
            self._close_phase(turn)
            return
        side = payload["side"]
        own = state["sides"][side]
        if action == "set_commander":
            state["commanders"][side] = payload.get("player_id")
            turn.emit(
                "commander_set", {"side": side, "player_id": payload.get("player_id")}, _own(side)
            )
        elif action == "set_morale":
            before = own["morale"]
            own["morale"] = int(round(payload["morale"] * MORALE_UNIT))
            turn.emit(
                "director_set_morale",
                {
                    "side": side,
                    "before": morale_number(before),
                    "after": morale_number(own["morale"]),
                },
            )
        elif action == "set_troops":
            slot = payload["slot"]
            before = own["slots"][slot - 1]
            own["slots"][slot - 1] = payload["troops"]
            turn.emit(
                "director_set_troops",
                {
                    "side": side,
                    "slot": slot,
                    "before": before,
                    "after": payload["troops"],
                    "slots": list(own["slots"]),
                },
            )

    # ----- phases -----------------------------------------------------------------------
    def _open_phase(self, turn: _Turn, phase: str) -> None:
        state = turn.state
        state["phase"] = phase
        state["opened_at"] = turn.now.isoformat()
        for side in SIDES:
            entitled = phase != "response" or _entitled(state["response"][side])
            state["sides"][side]["ready"] = not entitled
        seconds = state["settings"][f"{phase}_seconds"]
        data = {"round": state["round"], "phase": phase}
        if seconds is None:
            turn.cancel_timers.append(PHASE_TIMER)
        else:
            turn.timers.append(
                TimerSpec(
                    kind="phase",
                    key="phase",
                    due_at=turn.now + timedelta(seconds=seconds),
                    data=data,
                )
            )
        opened: JSON = dict(data)
        if phase == "response":
            opened["entitled"] = copy_json(state["response"])
        turn.emit("phase_opened", opened)

    def _close_phase(self, turn: _Turn) -> None:
        state = turn.state
        phase = state["phase"]
        turn.emit("phase_closed", {"round": state["round"], "phase": phase})
        if phase == "deployment":
            self._close_deployment(turn)
        elif phase == "command":
            self._close_command(turn)
        elif phase == "battle":
            self._close_battle(turn)
        elif phase == "response":
            self._close_response(turn)

    def _recheck(self, turn: _Turn, phase: str) -> list[JSON]:
        """TB-13 Default: each standing order is judged again at close, in submission
        order; one that became illegal is voided and its side told why."""
        state = turn.state
        standing: list[JSON] = []
        for side in SIDES:
            accepted: list[JSON] = []
            for order in round_orders(state, side, phase):
                try:
                    check_order(
                        state, side, ORDERS[order["type"]], order["body"], accepted, at_close=True
                    )
                except RuleViolation as why:
                    order["status"] = "void"
                    turn.order_status[order["id"]] = "void"
                    turn.emit(
                        "order_voided",
                        {
                            "order_id": order["id"],
                            "side": side,
                            "type": order["type"],
                            "code": why.code,
                            "rule": why.rule,
                            "message_zh": why.message_zh,
                            "message_en": why.message_en,
                        },
                        _own(side),
                        reveal_at="end",
                    )
                    continue
                accepted.append(order)
            standing.extend(accepted)
        return standing

    def _stand(self, turn: _Turn, orders: list[JSON]) -> None:
        """Orders that stood at close: resolved, and remembered for TB-14 and once-per-game."""
        state = turn.state
        for order in orders:
            if order["status"] == "pending":
                order["status"] = "resolved"
            turn.order_status[order["id"]] = order["status"]
            definition = ORDERS[order["type"]]
            own = state["sides"][order["side"]]
            if definition.cooldown:
                own["last_used"][order["type"]] = state["round"]
            if definition.once_per_game and order["type"] not in own["once_used"]:
                own["once_used"].append(order["type"])

    def _announce(self, turn: _Turn, orders: list[JSON], phase: str) -> None:
        """TB-6: public orders are announced at the end of their phase — Feint as Gather,
        Feigned Defeat as Retreat (TB-46, TB-48); each side and the director also get
        the truth about its own disguised orders."""
        shown: list[JSON] = []
        for order in orders:
            if not ORDERS[order["type"]].public or order["status"] != "resolved":
                continue
            order["announced"] = True
            order["shown_type"] = shown_type(order["type"])
            shown.append(shown_order(order, truthful=False))
            if order["shown_type"] != order["type"]:
                turn.emit(
                    "disguised_order_announced",
                    {
                        "order_id": order["id"],
                        "side": order["side"],
                        "type": order["type"],
                        "shown_as": order["shown_type"],
                        "body": order["body"],
                    },
                    _own(order["side"]),
                    reveal_at="end",
                )
        turn.emit(
            "orders_announced", {"round": turn.state["round"], "phase": phase, "orders": shown}
        )

    def _close_deployment(self, turn: _Turn) -> None:
        state = turn.state
        settings = state["settings"]
        missing: list[str] = []
        for side in SIDES:
            deploys = round_orders(state, side, "deployment")
            own = state["sides"][side]
            if deploys:
                own["slots"] = list(deploys[-1]["body"]["troops"])
                self._stand(turn, deploys[-1:])
            else:
                missing.append(side)
                own["slots"] = even_deployment(own["total"], settings["slots"])
        turn.emit(
            "deployment_revealed",
            {
                "A": list(state["sides"]["A"]["slots"]),
                "B": list(state["sides"]["B"]["slots"]),
                "defaulted": missing,
                "default_rule": settings["missing_deployment"],
            },
        )
        if missing and settings["missing_deployment"] == "forfeit":
            winner = "draw" if len(missing) == 2 else other(missing[0])
            self._finish(turn, winner, "no_deployment")
            return
        state["round"] = 1
        self._open_phase(turn, "command")

    def _close_command(self, turn: _Turn) -> None:
        state = turn.state
        standing = self._recheck(turn, "command")
        self._stand(turn, standing)
        self._announce(turn, standing, "command")
        moves: dict[str, list[JSON]] = {"A": [], "B": []}
        for order in standing:
            own = state["sides"][order["side"]]
            if order["type"] == "dispatch":
                moves[order["side"]].extend(order["body"]["moves"])
            elif order["type"] == "inspire":
                own["inspired_round"] = state["round"]  # TB-31
            elif order["type"] == "rest":
                own["next_extra_uses"]["command"] += 1  # TB-33
                turn.emit(
                    "extra_use_granted",
                    {"side": order["side"], "phase": "command", "round": state["round"] + 1},
                    _own(order["side"]),
                    reveal_at="end",
                )
        for side in SIDES:
            if moves[side]:
                # TB-30: all of a side's moves are simultaneous, from pre-move troops.
                slots = state["sides"][side]["slots"]
                after = list(slots)
                for move in moves[side]:
                    after[move["from"] - 1] -= move["troops"]
                    after[move["to"] - 1] += move["troops"]
                state["sides"][side]["slots"] = after
                turn.emit(
                    "troops_dispatched",
                    {
                        "side": side,
                        "moves": moves[side],
                        "before": list(slots),
                        "after": list(after),
                    },
                )
        self._open_phase(turn, "battle")

    def _see_through(self, turn: _Turn, standing: list[JSON], targets: list[JSON]) -> None:
        """TB-52a: the opponent's orders of the named type have no effect this round."""
        for seer in standing:
            if seer["type"] != "see_through" or seer["status"] != "resolved":
                continue
            named = seer["body"]["order_type"]
            hit = [
                o
                for o in targets
                if o["side"] != seer["side"]
                and o["type"] == named
                and o["status"] in ("pending", "resolved", "nullified")
            ]
            for order in hit:
                order["status"] = "nullified"
                turn.order_status[order["id"]] = "nullified"
            if hit:
                # TB-6 / TB-52a: See Through took effect, so it is revealed with what it
                # named; the orders it voided never took effect, so the public learns only
                # how many there were. Their own side is told which (TB-6 Default: all is
                # revealed at the end).
                seer["revealed"] = True
                turn.emit(
                    "order_seen_through",
                    {
                        "side": seer["side"],
                        "order_id": seer["id"],
                        "order_type": named,
                        "nullified": len(hit),
                        "rule": "TB-52a",
                    },
                )
                victim = other(seer["side"])
                turn.emit(
                    "orders_nullified",
                    {
                        "side": victim,
                        "by": seer["id"],
                        "orders": [
                            {"order_id": o["id"], "type": o["type"], "body": o["body"]} for o in hit
                        ],
                        "rule": "TB-52a",
                    },
                    _own(victim),
                    reveal_at="end",
                )

    def _close_battle(self, turn: _Turn) -> None:
        state = turn.state
        standing = self._recheck(turn, "battle")
        for order in standing:
            order["status"] = "resolved"
        self._see_through(turn, standing, standing)
        self._stand(turn, standing)
        self._announce(turn, standing, "battle")
        for order in standing:
            if order["status"] != "resolved":
                continue
            own = state["sides"][order["side"]]
            if order["type"] == "battle_rest":
                own["next_extra_uses"]["battle"] += 1  # TB-44
                turn.emit(
                    "extra_use_granted",
                    {"side": order["side"], "phase": "battle", "round": state["round"] + 1},
                    _own(order["side"]),
                    reveal_at="end",
                )
            elif order["type"] == "spy":
                own["spy_round"] = state["round"] + 1  # TB-52
        # TB-5a: open the response window only if a side may respond, judged on
        # public facts alone so that its opening reveals nothing hidden.
        response: JSON = {}
        settings = state["settings"]
        for side in SIDES:
            troops = state["sides"][side]["slots"]
            pursuit = (
                "pursuit" in settings["enabled_orders"]
                and bool(pursuit_targets(state, side))
                and not announced_battle_orders(state, side)
                and meets_morale_gate(state, side, ORDERS["pursuit"].tier)
            )
            retreats = []
            if "retreat" in settings["enabled_orders"]:
                retreats = [s for s in extra_retreat_slots(state, side) if troops[s - 1] > 0]
            response[side] = {"pursuit": pursuit, "retreat_slots": retreats}
        state["response"] = response
        window = setting(settings, "response_window")
        if window and any(_entitled(response[s]) for s in SIDES):
            self._open_phase(turn, "response")
        else:
            self._resolve(turn)

    def _close_response(self, turn: _Turn) -> None:
        standing = self._recheck(turn, "response")
        for order in standing:
            order["status"] = "resolved"
        battle = round_orders(turn.state, None, "battle", ("resolved",))
        self._see_through(turn, battle, standing)
        self._stand(turn, standing)
        self._announce(turn, standing, "response")
        self._resolve(turn)

    # ----- resolution -------------------------------------------------------------------
    def _resolve(self, turn: _Turn) -> None:
        state = turn.state
        settings = state["settings"]
        forces = [self._forces(state, side) for side in SIDES]
        rules = resolution_rules(settings)
        log: list[JSON] = []
        turn.emit(
            "resolution_started",
            {
                "round": state["round"],
                "slots": {s: list(state["sides"][s]["slots"]) for s in SIDES},
                "morale": {s: morale_number(state["sides"][s]["morale"]) for s in SIDES},
            },
        )
        result = resolve_round(forces[0], forces[1], rules, turn.rng, log)
        for index, order_type, slot in result.revealed:
            side = SIDES[index]
            for order in round_orders(state, side, None, ("resolved",)):
                if order["type"] == order_type and order["body"].get("slot") == slot:
                    if not order["revealed"]:
                        order["revealed"] = True
                        turn.emit(
                            "order_revealed",
                            {
                                "order_id": order["id"],
                                "side": side,
                                "type": order_type,
                                "slot": slot,
                                "rule": ORDERS[order_type].rule,
                            },
                        )
        for entry in log:
            kind = entry.pop("kind")
            if kind == "no_damage" and entry["reason"] in _FEIGNED_FACE:
                # TB-48: an unpursued Feigned Defeat is announced as a Retreat and acts
                # like one, so the public log gives the Retreat's reason (TB-6).
                entry["reason"] = _FEIGNED_FACE[entry["reason"]]
            turn.emit(str(kind), entry)
        for index, side in enumerate(SIDES):
            state["sides"][side]["slots"] = result.troops[index]
            state["sides"][side]["morale"] = result.morale[index]
        totals = [sum(result.troops[0]), sum(result.troops[1])]
        turn.emit(
            "round_resolved",
            {
                "round": state["round"],
                "slots": {"A": list(result.troops[0]), "B": list(result.troops[1])},
                "morale": {s: morale_number(result.morale[i]) for i, s in enumerate(SIDES)},
                "penetration": {
                    s: result.penetration[i] / MORALE_UNIT for i, s in enumerate(SIDES)
                },
                "annihilated": {s: result.annihilated[i] for i, s in enumerate(SIDES)},
            },
        )
        winner, reason = judge_victory(
            result.morale,
            totals,
            settings["draw_on_exact_tie"],
            setting(settings, "both_out_of_troops") == "draw",
        )
        if winner is not None:
            self._finish(turn, winner, str(reason))
            return
        state["round"] += 1
        state["response"] = None
        for side in SIDES:
            own = state["sides"][side]
            own["extra_uses"] = own["next_extra_uses"]  # TB-33 / TB-44 take effect
            own["next_extra_uses"] = {"command": 0, "battle": 0}
        self._open_phase(turn, "command")

    def _forces(self, state: JSON, side: str) -> SideForces:
        own = state["sides"][side]
        forces = SideForces.plain(list(own["slots"]), own["morale"], own["max_morale"])
        flags = {
            "retreat": forces.retreat,
            "feigned_defeat": forces.feigned_defeat,
            "pursuit": forces.pursuit,
            "hold": forces.hold,
            "stand_firm": forces.stand_firm,
            "blood_battle": forces.blood_battle,
            "counter": forces.counter,
            "encircle": forces.encircle,
            "first_strike": forces.first_strike,
        }
        for order in round_orders(state, side, None, ("resolved",)):
            order_type = order["type"]
            body = order["body"]
            if order_type in flags:
                flags[order_type][body["slot"] - 1] = True
            elif order_type in ("gather", "surprise"):
                forces.gathers.append(
                    (order_type, body["slot"] - 1, body.get("from_left"), body.get("from_right"))
                )
        return forces

    def _finish(self, turn: _Turn, winner: str, reason: str) -> None:
        """TB-60 and TB-6: the winner, and everything revealed."""
        state = turn.state
        state["phase"] = "finished"
        state["winner"] = winner
        state["finish_reason"] = reason
        state["response"] = None
        for side in SIDES:
            state["sides"][side]["ready"] = False
        turn.cancel_timers.append(PHASE_TIMER)
        turn.finished = True
        turn.emit(
            "game_over",
            {
                "winner": winner,
                "reason": reason,
                "round": state["round"],
                "morale": {s: morale_number(state["sides"][s]["morale"]) for s in SIDES},
                "troops": {s: sum(state["sides"][s]["slots"] or [0]) for s in SIDES},
            },
        )
        turn.emit(
            "orders_revealed",
            {
                "orders": [
                    {
                        "id": o["id"],
                        "side": o["side"],
                        "round": o["round"],
                        "phase": o["phase"],
                        "type": o["type"],
                        "body": o["body"],
                        "status": o["status"],
                    }
                    for o in state["orders"]
                    if o["status"] not in ("withdrawn", "replaced")
                ]
            },
        )


_FEIGNED_FACE = {"own_feigned_defeat": "own_retreat", "facing_feigned_defeat": "facing_retreat"}


def _entitled(response: JSON) -> bool:
    return bool(response["pursuit"] or response["retreat_slots"])


def _unpack(checked: _Checked) -> tuple[str, str, OrderDef, JSON]:
    assert checked.side and checked.order_id and checked.definition and checked.body is not None
    return checked.side, checked.order_id, checked.definition, checked.body


def _who(actor: Actor) -> str:
    return actor.player_id if actor.player_id else actor.role


def _settings(settings: BaseModel) -> TeamBattleSettings:
    if isinstance(settings, TeamBattleSettings):
        return settings
    return TeamBattleSettings.model_validate(settings.model_dump())


def even_deployment(total: int, slots: int) -> list[int]:
    """Missing-deployment default: as even as possible, left slots take the remainder."""
    base, extra = divmod(total, slots)
    return [base + (1 if i < extra else 0) for i in range(slots)]


def resolution_rules(settings: JSON) -> ResolutionRules:
    return ResolutionRules(
        dice=settings["dice"],
        double_band_lower_up=settings["double_band_lower_rounding"] == "up",
        halve_up=settings["halving_rounding"] == "up",
        hold_halves_exactly=settings["hold_halves_exactly"],
        morale_cap=settings["morale_cap"],
        penetration_counts_positive_only=settings["penetration_counts_positive_only"],
        blood_battle_doubles_penetration=settings["blood_battle_doubles_penetration"],
        first_strike_annihilates=settings["first_strike_annihilates"],
        first_strike_before_moves=setting(settings, "first_strike_timing") == "before_moves",
        quarter_up=setting(settings, "quarter_band_rounding") == "up",
        overflow_to_penetration=setting(settings, "damage_overflow") == "penetration",
        halve_before_doubling=setting(settings, "halve_before_doubling"),
        whole_morale=setting(settings, "whole_morale"),
    )

"""The toy duel's rules: two players, a round per phase, a hidden throw and a public shout.

Each round opens with a deadline timer; it closes on that timer, on the director's tool, or
as soon as both players are ready. The throws are sealed until the close: a player and the
director see a throw, nobody else does until the round's result shows both. Rock beats
scissors beats paper beats rock; the same hand twice is a tie broken by the step's seeded
RNG; a lone throw wins. After ``rounds`` rounds the most points win (or it is a draw).
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
    Named,
    Outcome,
    ParsedOrders,
    Player,
    RuleViolation,
    Step,
    StepContext,
    TextContext,
    TimerSpec,
    Viewer,
    copy_state,
    player_audience,
)
from tests.toy import text as toy_text
from tests.toy.schema import (
    BEATS,
    DIRECTOR_ACTION_MODEL,
    HANDS,
    ORDER_MODEL,
    ORDER_TYPES,
    PUBLIC_ORDERS,
    ToySettings,
    ToyView,
)
from tests.toy.words import WORDS

NAME = "toy_duel"
TIMER_KIND = "round"  # the duel's deadline timer: one per round, key "round"
PLAYERS = 2
EVENT_KINDS = frozenset(
    {
        "game_started",
        "round_opened",
        "shouted",
        "throw_given",
        "throw_revised",
        "throw_withdrawn",
        "player_ready",
        "round_closed",
        "director_closed_round",
        "game_over",
    }
)
PHASES = ("setup", "throwing", "finished")


def refuse(code: str, status: int = 409, **fields: Any) -> RuleViolation:
    """A refusal with its words from the catalogue (``error.<code>``)."""
    zh, en = WORDS[f"error.{code}"]
    return RuleViolation(
        code, None, zh.format(**fields), en.format(**fields), status=status, extra=fields
    )


def _own(player_id: str) -> tuple[str, ...]:
    return (player_audience(player_id), AUDIENCE_DIRECTOR)


@dataclass(slots=True)
class _Turn(StepContext):
    def emit(self, kind: str, data: JSON, audience: tuple[str, ...] = (AUDIENCE_PUBLIC,)) -> None:
        assert kind in EVENT_KINDS, kind
        self.events.append(Event(kind=kind, data=data, audience=audience))


class ToyDuelRuleset:
    name: ClassVar[str] = NAME
    settings_model: ClassVar[type[BaseModel]] = ToySettings
    order_model: ClassVar[BodyModel] = ORDER_MODEL
    director_action_model: ClassVar[BodyModel] = DIRECTOR_ACTION_MODEL
    view_model: ClassVar[type[BaseModel]] = ToyView
    # Facts a generic shell could ask instead of naming games (see the report of issue 17).
    event_kinds: ClassVar[frozenset[str]] = EVENT_KINDS
    phases: ClassVar[tuple[str, ...]] = PHASES
    deadline_timer_kinds: ClassVar[tuple[str, ...]] = (TIMER_KIND,)

    # ----- setup ------------------------------------------------------------------------
    def initial_state(self, settings: BaseModel, roster: Sequence[Player]) -> JSON:
        toy = ToySettings.model_validate(settings.model_dump())
        return {
            "ruleset": NAME,
            "settings": toy.model_dump(mode="json"),
            "roster": [{"id": p.id, "name": p.name} for p in roster],
            "round": 0,
            "phase": "setup",
            "scores": {p.id: 0 for p in roster},
            "ready": {p.id: False for p in roster},
            "orders": [],
            "shouts": [],
            "history": [],
            "winner": None,
        }

    def validate_player(
        self, settings: BaseModel, name: str, side: str | None, roster_size: int = 0
    ) -> None:
        if side is not None:
            raise refuse("no_sides", status=422)
        if roster_size >= PLAYERS:
            raise refuse("roster_full")

    def validate_roster(self, settings: BaseModel, roster: Sequence[Player]) -> None:
        if len(roster) != PLAYERS:
            raise refuse("roster_short")

    # ----- the step loop ---------------------------------------------------------------
    def validate(self, state: JSON, step: Step, now: datetime) -> None:
        self._check(state, step)

    def apply(self, state: JSON, step: Step, rng: random.Random, now: datetime) -> Outcome:
        order = self._check(state, step)
        turn = _Turn(state=copy_state(state), rng=rng, now=now)
        kind, actor = step.kind, step.actor
        if kind == STEP_START:
            turn.emit("game_started", {"settings": turn.state["settings"]})
            self._open_round(turn)
        elif kind == STEP_ORDER:
            self._submit(turn, actor, str(step.payload["order_id"]), order or {})
        elif kind == STEP_REVISE:
            self._revise(turn, actor, str(step.payload["order_id"]), order or {})
        elif kind == STEP_WITHDRAW:
            self._withdraw(turn, actor, str(step.payload["order_id"]))
        elif kind == STEP_READY:
            self._ready(turn, str(actor.player_id))
        elif kind == STEP_TIMER:
            data = step.payload.get("data") or {}
            if (
                step.payload.get("kind") == TIMER_KIND
                and turn.state["phase"] == "throwing"
                and data.get("round") == turn.state["round"]
            ):
                self._close_round(turn, "deadline")  # a stale timer changes nothing
        elif kind == STEP_DIRECTOR:
            turn.emit("director_closed_round", {"round": turn.state["round"]})
            self._close_round(turn, "director")
        return turn.outcome()

    def view(self, state: JSON, viewer: Viewer) -> JSON:
        out: JSON = {
            "ruleset": NAME,
            "round": state["round"],
            "rounds": state["settings"]["rounds"],
            "phase": state["phase"],
            "winner": state["winner"],
            "scores": dict(state["scores"]),
            "players": [dict(p) for p in state["roster"]],
            "history": [dict(h) for h in state["history"]],
            "shouts": [dict(s) for s in state["shouts"]],
            "settings": dict(state["settings"]),
        }
        if viewer.role == "director":
            out["orders"] = [dict(o) for o in state["orders"]]
            out["ready"] = dict(state["ready"])
        elif viewer.role == "player" and viewer.player_id in state["ready"]:
            out["orders"] = [dict(o) for o in state["orders"] if o["player_id"] == viewer.player_id]
            out["ready"] = {viewer.player_id: state["ready"][viewer.player_id]}
        return out

    def phase(self, state: JSON) -> str:
        return str(state["phase"])

    def available_orders(self, state: JSON, viewer: Viewer, now: datetime) -> list[JSON]:
        if viewer.role != "player" or viewer.player_id not in state["ready"]:
            return []
        if state["phase"] != "throwing":
            return []
        return [
            {
                "type": kind,
                "public": kind in PUBLIC_ORDERS,
                "allowed": True,
                "code": None,
                "rule": None,
                "message_zh": None,
                "message_en": None,
                "choices": {"hand": list(HANDS)} if kind == "throw" else {},
            }
            for kind in ORDER_TYPES
        ]

    def is_finished(self, state: JSON) -> bool:
        return bool(state["phase"] == "finished")

    def text_context(self, state: JSON, viewer: Viewer) -> TextContext:
        roster = tuple(Named(p["id"], (p["name"],)) for p in state["roster"])
        return TextContext(roster=roster, me=viewer.player_id)

    def is_public_order(self, order: JSON) -> bool:
        return order.get("type") in PUBLIC_ORDERS

    def parse_orders(self, text: str, context: TextContext) -> ParsedOrders:
        return toy_text.parse_orders(text)

    # ----- checks ----------------------------------------------------------------------
    def _check(self, state: JSON, step: Step) -> JSON | None:
        """Refuse a step that may not run now; the order body it carries, if any."""
        kind, actor, phase = step.kind, step.actor, state["phase"]
        if kind == STEP_TIMER:
            return None
        if kind == STEP_START:
            if actor.role not in ("director", "system"):
                raise refuse("not_director", status=403)
            if phase != "setup":
                raise refuse("already_started")
            return None
        if kind == STEP_DIRECTOR:
            if actor.role != "director":
                raise refuse("not_director", status=403)
            if step.payload.get("action") != "close_round":
                raise refuse("unknown_action", status=422)
            self._require_open(phase)
            return None
        if kind not in (STEP_ORDER, STEP_REVISE, STEP_WITHDRAW, STEP_READY):
            raise refuse("unsupported_step", status=422)
        if actor.role != "player" or actor.player_id not in state["ready"]:
            raise refuse("not_a_player", status=403)
        self._require_open(phase)
        if kind == STEP_READY:
            return None
        order_id = step.payload.get("order_id")
        if not isinstance(order_id, str) or not order_id:
            raise refuse("bad_order", status=422)
        existing = next((o for o in state["orders"] if o["id"] == order_id), None)
        if kind == STEP_ORDER:
            if existing is not None or any(s["id"] == order_id for s in state["shouts"]):
                raise refuse("duplicate_order_id")
            return _body(step.payload.get("order"))
        if existing is None or existing["player_id"] != actor.player_id:
            raise refuse("not_your_order", status=404)  # never confirm another's order
        if existing["status"] != "pending" or existing["round"] != state["round"]:
            raise refuse("order_not_pending")
        if kind == STEP_WITHDRAW:
            return None
        body = _body(step.payload.get("order"))
        if body["type"] != "throw":
            raise refuse("bad_order", status=422)
        return body

    @staticmethod
    def _require_open(phase: str) -> None:
        if phase == "finished":
            raise refuse("game_finished")
        if phase == "setup":
            raise refuse("not_started")

    # ----- effects ---------------------------------------------------------------------
    def _submit(self, turn: _Turn, actor: Actor, order_id: str, body: JSON) -> None:
        state, pid = turn.state, str(actor.player_id)
        if body["type"] == "shout":
            shout = {
                "id": order_id,
                "player_id": pid,
                "round": state["round"],
                "taunt": body["taunt"],
            }
            state["shouts"].append(shout)
            turn.order_status[order_id] = "resolved"
            turn.emit("shouted", {**shout, "name": _name(state, pid)})
            return
        for old in state["orders"]:
            if old["player_id"] == pid and old["status"] == "pending":
                turn.order_status[old["id"]] = "replaced"  # the latest throw counts
        state["orders"] = [o for o in state["orders"] if o["id"] not in turn.order_status]
        state["orders"].append(
            {
                "id": order_id,
                "player_id": pid,
                "type": "throw",
                "body": {"type": "throw", "hand": body["hand"]},
                "round": state["round"],
                "status": "pending",
            }
        )
        state["ready"][pid] = False
        turn.order_status[order_id] = "pending"
        data = {"order_id": order_id, "player_id": pid, "name": _name(state, pid)}
        turn.emit("throw_given", {**data, "hand": body["hand"], "round": state["round"]}, _own(pid))

    def _revise(self, turn: _Turn, actor: Actor, order_id: str, body: JSON) -> None:
        state, pid = turn.state, str(actor.player_id)
        order = next(o for o in state["orders"] if o["id"] == order_id)
        order["body"] = {"type": "throw", "hand": body["hand"]}
        state["ready"][pid] = False
        turn.order_status[order_id] = "pending"
        data = {"order_id": order_id, "player_id": pid, "name": _name(state, pid)}
        turn.emit("throw_revised", {**data, "hand": body["hand"]}, _own(pid))

    def _withdraw(self, turn: _Turn, actor: Actor, order_id: str) -> None:
        state, pid = turn.state, str(actor.player_id)
        state["orders"] = [o for o in state["orders"] if o["id"] != order_id]
        state["ready"][pid] = False
        turn.order_status[order_id] = "withdrawn"
        data = {"order_id": order_id, "player_id": pid, "name": _name(state, pid)}
        turn.emit("throw_withdrawn", data, _own(pid))

    def _ready(self, turn: _Turn, pid: str) -> None:
        state = turn.state
        state["ready"][pid] = True
        turn.emit("player_ready", {"player_id": pid, "name": _name(state, pid)}, _own(pid))
        if state["settings"]["early_close_when_ready"] and all(state["ready"].values()):
            self._close_round(turn, "ready")

    def _open_round(self, turn: _Turn) -> None:
        state = turn.state
        state["round"] += 1
        state["phase"] = "throwing"
        state["ready"] = dict.fromkeys(state["ready"], False)
        seconds = state["settings"]["round_seconds"]
        data = {"round": state["round"]}
        if seconds is None:
            turn.cancel_timers.append((TIMER_KIND, "round"))
        else:
            due = turn.now + timedelta(seconds=seconds)
            turn.timers.append(TimerSpec(kind=TIMER_KIND, key="round", due_at=due, data=data))
        turn.emit("round_opened", {**data, "rounds": state["settings"]["rounds"]})

    def _close_round(self, turn: _Turn, by: str) -> None:
        state = turn.state
        pids = [p["id"] for p in state["roster"]]
        throws: dict[str, str | None] = dict.fromkeys(pids)
        for order in state["orders"]:
            if order["status"] == "pending" and order["round"] == state["round"]:
                throws[order["player_id"]] = order["body"]["hand"]
                order["status"] = "resolved"
                turn.order_status[order["id"]] = "resolved"
        winner, tie_broken = _judge(throws, turn.rng)
        if winner is not None:
            state["scores"][winner] += 1
        result = {
            "round": state["round"],
            "by": by,
            "throws": throws,
            "winner": winner,
            "winner_name": _name(state, winner) if winner else None,
            "tie_broken": tie_broken,
            "scores": dict(state["scores"]),
        }
        state["history"].append({k: result[k] for k in ("round", "throws", "winner", "tie_broken")})
        state["orders"] = []  # what was thrown lives on in the history and the order log
        turn.emit("round_closed", result)
        if state["round"] >= state["settings"]["rounds"]:
            self._finish(turn)
        else:
            self._open_round(turn)

    def _finish(self, turn: _Turn) -> None:
        state = turn.state
        scores = state["scores"]
        best = max(scores.values())
        leaders = [pid for pid, n in scores.items() if n == best]
        state["winner"] = leaders[0] if len(leaders) == 1 else "draw"
        state["phase"] = "finished"
        state["ready"] = dict.fromkeys(state["ready"], False)
        turn.cancel_timers.append((TIMER_KIND, "round"))
        turn.finished = True
        name = _name(state, state["winner"]) if state["winner"] != "draw" else None
        turn.emit("game_over", {"winner": state["winner"], "winner_name": name, "scores": scores})


def _body(raw: Any) -> JSON:
    if not ORDER_MODEL.problems(raw) and isinstance(raw, dict):
        return dict(raw)
    raise refuse("bad_order", status=422)


def _judge(throws: dict[str, str | None], rng: random.Random) -> tuple[str | None, bool]:
    """The round's winner (None: nobody scores) and whether a tie was broken by lot."""
    thrown = [(pid, hand) for pid, hand in throws.items() if hand is not None]
    if not thrown:
        return None, False
    if len(thrown) == 1:
        return thrown[0][0], False
    (p1, h1), (p2, h2) = thrown
    if h1 == h2:
        return rng.choice(sorted((p1, p2))), True
    return (p1 if BEATS[h1] == h2 else p2), False


def _name(state: JSON, pid: str | None) -> str:
    return next((p["name"] for p in state["roster"] if p["id"] == pid), str(pid))


RULESET = ToyDuelRuleset()

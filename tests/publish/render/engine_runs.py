"""Real event sequences for the post tests: the pure engines played step by step, as the
shell plays them (step ids, JSON round trips, the per-caller public numbering, the
service events of the same transaction: receipts, the revealed hidden events, the seed).

Nothing here renders: it produces, per step, exactly what the outbox hands the renderer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import BaseModel

from app.publish import receipts
from app.publish.render import GameInfo, PublicEvent, RosterEntry
from app.rules.base import (
    DIRECTOR,
    PUBLIC_VIEWER,
    SYSTEM,
    Actor,
    Event,
    Player,
    RuleViolation,
    Step,
    event_visible,
    seed_commitment,
    step_rng,
)
from app.rules.registry import get_ruleset

DEADLINE_KINDS = ("phase", "midnight")


@dataclass
class Batch:
    """The public events of one step (and its transaction), and the deadline after it."""

    step: int
    kind: str
    events: list[PublicEvent]
    deadline: datetime | None


@dataclass
class Run:
    """One game played through a pure engine, recorded as the shell would record it."""

    ruleset: str
    settings: BaseModel
    roster: list[RosterEntry]
    seed: str
    now: datetime
    title: str = "赤壁"
    language: str = "zh"
    state: dict[str, Any] = field(default_factory=dict)
    batches: list[Batch] = field(default_factory=list)
    all_events: list[tuple[Event, datetime]] = field(default_factory=list)
    seq: int = 0
    public_seq: int = 0
    deadline: datetime | None = None
    unopened: list[dict[str, Any]] = field(default_factory=list)
    order_seq: int = 0
    finished: bool = False

    def __post_init__(self) -> None:
        players = [Player(r.id, r.name, r.side) for r in self.roster]
        rules = get_ruleset(self.ruleset)
        self.state = json.loads(json.dumps(rules.initial_state(self.settings, players)))

    @property
    def timezone(self) -> str:
        return str(getattr(self.settings, "timezone", "Asia/Shanghai"))

    def info(self, language: str | None = None, public_url: str | None = None) -> GameInfo:
        return GameInfo(
            id="g-demo",
            title=self.title,
            ruleset=self.ruleset,
            timezone=self.timezone,
            language=language or self.language,
            settings=self.settings.model_dump(mode="json"),
            roster=tuple(self.roster),
            seed_commitment=seed_commitment(self.seed),
            public_url=public_url,
        )

    # --- playing --------------------------------------------------------------------------
    def step(self, kind: str, actor: Actor, payload: dict[str, Any] | None = None) -> Any:
        self.seq += 1
        step = Step(id=f"s{self.seq}", kind=kind, actor=actor, payload=payload or {})
        rules = get_ruleset(self.ruleset)
        before = self.state
        outcome = rules.apply(before, step, step_rng(self.seed, step.id), self.now)
        self.state = json.loads(json.dumps(outcome.state))
        for spec in outcome.timers:
            if spec.kind in DEADLINE_KINDS:
                self.deadline = spec.due_at
        for timer_kind, _key in outcome.cancel_timers:
            if timer_kind in DEADLINE_KINDS:
                self.deadline = None
        events: list[PublicEvent] = []
        for event in outcome.events:
            self.all_events.append((event, self.now))
            if event_visible(event.audience, event.reveal_at, PUBLIC_VIEWER, finished=False):
                events.append(self._public(event.kind, event.data))
        for svc_kind, data, audience in receipts.step_receipt_events(
            self.ruleset,
            self.seed,
            before,
            outcome.events,
            outcome.finished,
            self.seq,
            self.unopened,
        ):
            if svc_kind == receipts.CONTENTS:
                self.unopened.append(data)
            if "public" in audience:
                events.append(self._public(svc_kind, data))
        if outcome.finished:
            self.finished = True
            self.deadline = None
            hidden = [
                {"at": at.isoformat(), "kind": e.kind, "data": e.data}
                for e, at in self.all_events
                if e.reveal_at == "end"
            ]
            if hidden:
                events.append(self._public("hidden_events_revealed", {"events": hidden}))
            events.append(
                self._public(
                    "seed_revealed",
                    {"seed": self.seed, "seed_commitment": seed_commitment(self.seed)},
                )
            )
        self.batches.append(Batch(self.seq, kind, events, self.deadline))
        return outcome

    def service(self, kind: str, data: dict[str, Any]) -> None:
        """A service event outside any step (pause, resume, an extension)."""
        self.batches.append(Batch(self.seq, kind, [self._public(kind, data)], self.deadline))

    def _public(self, kind: str, data: dict[str, Any]) -> PublicEvent:
        self.public_seq += 1
        return PublicEvent(self.public_seq, self.now, kind, json.loads(json.dumps(data)))

    def order(self, actor: Actor, body: dict[str, Any], may_fail: bool = False) -> str | None:
        """Submit an order; with ``may_fail`` a refused one is skipped (no step recorded)."""
        self.order_seq += 1
        oid = f"o{self.order_seq}"
        try:
            self.step("order", actor, {"order_id": oid, "order": body})
        except RuleViolation:
            if not may_fail:
                raise
            self.seq -= 1
            self.order_seq -= 1
            return None
        return oid

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


# --- Team Battle: a whole game ----------------------------------------------------------------
TB_ROSTER = [
    RosterEntry("pa1", "曹操", "A", "caocao"),
    RosterEntry("pa2", "夏侯惇", "A", None),
    RosterEntry("pb1", "周瑜", "B", "zhouyu"),
    RosterEntry("pb2", "黄盖", "B", "huanggai"),
]
A = Actor("player", "pa1", "A")
B = Actor("player", "pb1", "B")
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def tb_ready_all(run: Run) -> None:
    phase, round_no = run.state["phase"], run.state["round"]
    for actor in (A, B):
        if (run.state["phase"], run.state["round"]) != (phase, round_no):
            return
        if not run.state["sides"][actor.side or ""]["ready"]:
            run.step("ready", actor)


def team_battle_game(
    language: str = "zh",
    deploy_a: list[int] | None = None,
    deploy_b: list[int] | None = None,
    hidden: Callable[[Run, int, str], None] | None = None,
    seed: str = "chibi-208",
) -> Run:
    """A full Team Battle game: deployments, dispatches, hidden orders, a response window,
    rounds until one side breaks. ``hidden(run, round, phase)`` may add hidden orders."""
    from app.rules.team_battle import TeamBattleSettings

    settings = TeamBattleSettings(troops={"A": 30, "B": 30})
    run = Run("team_battle", settings, TB_ROSTER, seed, T0, language=language)
    run.step("start", DIRECTOR)
    run.advance(hours=2)
    run.order(A, {"type": "deploy", "troops": deploy_a or [3, 9, 9, 6, 3]})
    run.order(B, {"type": "deploy", "troops": deploy_b or [6, 6, 6, 6, 6]})
    (hidden or showcase_hidden)(run, 0, "deployment")
    run.advance(hours=1)
    tb_ready_all(run)
    plan: dict[int, dict[str, list[tuple[Actor, dict[str, Any]]]]] = {
        1: {
            "command": [(A, {"type": "dispatch", "moves": [{"from": 1, "to": 2, "troops": 2}]})],
            "battle": [
                (A, {"type": "gather", "slot": 3, "from_left": 1, "from_right": 1}),
                (B, {"type": "retreat", "slot": 5}),
            ],
        },
        2: {
            "command": [(B, {"type": "inspire"})],
            "battle": [(A, {"type": "first_strike", "slot": 2})],
        },
    }
    for round_no in range(1, 12):
        if run.finished:
            break
        for phase in ("command", "battle", "response"):
            if run.finished or run.state["phase"] != phase:
                continue
            run.advance(hours=3)
            for actor, body in plan.get(round_no, {}).get(phase, []):
                run.order(actor, body, may_fail=True)
            (hidden or showcase_hidden)(run, round_no, phase)
            run.advance(hours=1)
            if phase == "battle" and round_no == 1:
                # The deadline passes instead of everyone readying: the timer closes it.
                run.now = run.deadline or run.now
                run.step(
                    "timer",
                    SYSTEM,
                    {"kind": "phase", "key": "phase", "data": {"round": 1, "phase": "battle"}},
                )
            else:
                tb_ready_all(run)
    assert run.finished, "the demo game must end"
    return run


def showcase_hidden(run: Run, round_no: int, phase: str) -> None:
    """The demo game's hidden orders: a Counter, a Hold, a Stand Firm."""
    plan = {
        (1, "command"): (B, {"type": "counter", "slot": 2}),
        (2, "battle"): (B, {"type": "hold", "slot": 4}),
        (3, "command"): (A, {"type": "counter", "slot": 1}),
    }
    if (round_no, phase) in plan:
        who, body = plan[(round_no, phase)]
        run.order(who, body, may_fail=True)


def tb_hidden_orders(choice: int) -> Callable[[Run, int, str], None]:
    """Different hidden orders (or none) for the secrecy tests: never public ones."""

    def play(run: Run, round_no: int, phase: str) -> None:
        options = {
            "command": [
                [],
                [(B, {"type": "counter", "slot": 2})],
                [(B, {"type": "blood_battle", "slot": 4})],
                [(B, {"type": "rest"})],
                [(B, {"type": "scout", "slot": 2})],
            ],
            "battle": [
                [],
                [(B, {"type": "hold", "slot": 1})],
                [(B, {"type": "stand_firm", "slot": 5})],
                [(B, {"type": "spy"})],
                [(B, {"type": "battle_rest"})],
            ],
        }.get(phase, [[]])
        for actor, body in options[(choice + round_no) % len(options)]:
            run.order(actor, body, may_fail=True)  # a refused hidden order is "no order"

    return play


# --- The island: a day with a PK and the 24:00 report -------------------------------------------
IS_ROSTER = [
    RosterEntry("p1", "阿青", None, "aqing"),
    RosterEntry("p2", "白露", None, "bailu"),
    RosterEntry("p3", "[b]秋分[/b]", None, None),
    RosterEntry("p4", "*冬至*", None, "dongzhi_4"),
]
DAY1 = date(2026, 6, 1)


def local(h: int, m: int = 0, d: date = DAY1) -> datetime:
    return datetime.combine(d, time(h, m), tzinfo=ZoneInfo("Asia/Shanghai")).astimezone(UTC)


def actor(pid: str) -> Actor:
    return Actor("player", pid)


def island_day(
    language: str = "zh",
    private: Callable[[Run], None] | None = None,
    seed: str = "island-demo-a",
    assassinate: bool = True,
) -> Run:
    """Day 1 on a quiet island: private moves and explores, a PK at 20:30 that others
    join, an assassination and a guard at 24:00, the report, an announcement, the end."""
    from app.rules.island import IslandSettings

    settings = IslandSettings.model_validate(
        {
            "width": 4,
            "height": 4,
            "terrains": {
                "plain": {
                    "name": "平原",
                    "encounter_chance": 0.0,
                    "explore_table": [{"kind": "nothing", "weight": 1}],
                }
            },
            "start_positions": {"1": [2, 1], "2": [2, 2], "3": [2, 2], "4": [2, 2]},
            "base_vision": 1,
            "starting_food": 2,
        }
    )
    run = Run(
        "island", settings, IS_ROSTER, seed, local(10), title="另一面 · 示例岛", language=language
    )
    run.step("start", DIRECTOR)
    run.now = local(12)
    if private:
        private(run)
    run.now = local(20, 30)
    run.order(actor("p2"), {"type": "pk", "targets": ["p3"]})
    run.now = local(20, 40)
    run.order(actor("p4"), {"type": "pk_join", "challenge": "pk1", "side": "defend"})
    due = next(t for t in run.state["challenges"].values() if t["id"] == "pk1")["due_at"]
    run.now = datetime.fromisoformat(due)
    run.step("timer", SYSTEM, {"kind": "pk", "key": "pk1", "data": {"challenge": "pk1"}})
    run.now = local(23, 0)
    if assassinate and run.state["players"]["p1"]["alive"]:
        target = "p3" if run.state["players"]["p3"]["alive"] else "p4"
        run.order(actor("p1"), {"type": "assassinate", "target": target, "path": ["down"]})
    if run.state["players"]["p2"]["alive"]:
        run.order(actor("p2"), {"type": "guard", "target": "p1"})
    run.now = run.deadline or local(0, 0, DAY1 + timedelta(days=1))
    run.step("timer", SYSTEM, {"kind": "midnight", "key": "midnight", "data": {}})
    run.now += timedelta(hours=9)
    run.step(
        "director",
        DIRECTOR,
        {"action": "announce", "text": "第二天：北边海滩出现了[b]漂流瓶[/b]。"},
    )
    run.service("paused", {})
    run.advance(hours=1)
    run.service("resumed", {})
    later = (run.deadline or run.now) + timedelta(hours=1)
    run.service(
        "deadline_extended",
        {"kind": "midnight", "key": "midnight", "seconds": 3600, "deadline": later.isoformat()},
    )
    run.advance(hours=2)
    run.step("director", DIRECTOR, {"action": "end_game"})
    return run


def island_private(choice: int) -> Callable[[Run], None]:
    """Private actions only (hidden moves, explores, stamina spent): the secrecy tests."""

    def play(run: Run) -> None:
        # Every plan is two steps, so the public steps after them keep their step ids (and
        # with them their dice): only the private facts differ.
        plans: list[list[tuple[str, dict[str, Any] | None]]] = [
            [("p1", None), ("p1", None)],
            [
                ("p1", {"type": "move", "direction": "right", "hidden": True}),
                ("p1", {"type": "move", "direction": "left", "hidden": True}),
            ],
            [("p1", {"type": "explore"}), ("p1", {"type": "explore"})],
            [
                ("p1", {"type": "move", "direction": "down", "hidden": True}),
                ("p1", {"type": "move", "direction": "up"}),
            ],
        ]
        for pid, body in plans[choice % len(plans)]:
            if body is None:
                run.step("ready", actor(pid))
            else:
                run.order(actor(pid), body)

    return play

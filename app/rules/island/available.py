"""What a player may order right now, and why not: the order forms' source of truth.

Island validation is the handlers themselves (a dry run of ``apply`` is an exact
validation, see ``engine.validate``), so availability is asked the same way: each order
is tried with every target the player can see; it is allowed when one of them passes,
and the choices are the targets that pass. Only what the player can see is tried, so
neither the answer nor its reasons say anything about what they cannot.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from app.rules.base import STEP_ORDER, Actor, RuleViolation, Step, Viewer
from app.rules.island.core import (
    DIRECTIONS,
    JSON,
    cell_of,
    sees,
    settings_of,
)
from app.rules.island.messages import violation

Validate = Callable[[JSON, Step, datetime], None]

# Rule of each order, for a refusal that names no rule of its own (nothing to target).
ORDER_RULES = {
    "move": "IS-10",
    "explore": "IS-12",
    "flee": "IS-13",
    "eat": "IS-35",
    "hunt": "IS-14",
    "pk": "IS-15",
    "pk_join": "IS-15",
    "assassinate": "IS-20",
    "guard": "IS-25",
    "give": "IS-36",
    "equip": "IS-37",
}


def _path(start: tuple[int, int], end: tuple[int, int]) -> list[str]:
    """Steps from ``start`` to ``end``, x first (IS-22's "move + assassinate")."""
    steps: list[str] = []
    x, y = start
    while x != end[0]:
        steps.append("right" if end[0] > x else "left")
        x += 1 if end[0] > x else -1
    while y != end[1]:
        steps.append("down" if end[1] > y else "up")
        y += 1 if end[1] > y else -1
    return steps


def available_orders(state: JSON, viewer: Viewer, now: datetime, validate: Validate) -> list[JSON]:
    pid = viewer.player_id
    if viewer.role != "player" or pid not in state["players"] or state["status"] != "running":
        return []
    s = settings_of(state)
    me = state["players"][pid]
    here = cell_of(me)
    actor = Actor(role="player", player_id=pid)

    def refusal(body: JSON) -> RuleViolation | None:
        step = Step(
            id="available",
            kind=STEP_ORDER,
            actor=actor,
            payload={"order_id": "available", "order": body},
        )
        try:
            validate(state, step, now)
        except RuleViolation as why:
            return why
        return None

    seen = [
        q
        for q in (state["players"][i] for i in state["player_order"])
        if q["id"] != pid and q["alive"] and me["alive"] and sees(s, me, cell_of(q))
    ]
    same_cell = [q for q in seen if cell_of(q) == here]
    alive_others = [
        {"id": i, "name": state["players"][i]["name"]}
        for i in state["player_order"]
        if i != pid and i not in {d["player"] for d in state["deaths"] if d["announced"]}
    ]
    monsters = [m for m in state["monsters"].values() if m["count"] > 0 and tuple(m["at"]) == here]
    challenges = [
        (cid, ch)
        for cid, ch in state["challenges"].items()
        if ch["status"] == "open" and tuple(ch["at"]) == here
    ]
    weapons = [
        i
        for i, n in sorted(me["inventory"].items())
        if n > 0 and s.items.get(i) and s.items[i].weapon
    ]
    goods = (["food"] if me["food"] > 0 else []) + sorted(
        i for i, n in me["inventory"].items() if n > 0
    )

    options: dict[str, list[tuple[Any, JSON]]] = {
        "move": [(d, {"type": "move", "direction": d}) for d in DIRECTIONS],
        "explore": [(None, {"type": "explore"})],
        "flee": [(None, {"type": "flee"})],
        "eat": [(None, {"type": "eat", "food": 1})],
        "hunt": [(m["id"], {"type": "hunt", "monster": m["id"]}) for m in monsters],
        "pk": [(q["id"], {"type": "pk", "targets": [q["id"]]}) for q in same_cell],
        "pk_join": [
            ({"challenge": cid, "side": side}, {"type": "pk_join", "challenge": cid, "side": side})
            for cid, _ch in challenges
            for side in ("attack", "defend")
        ],
        "assassinate": [
            (
                {"target": q["id"], "path": _path(here, cell_of(q))},
                {"type": "assassinate", "target": q["id"], "path": _path(here, cell_of(q))},
            )
            for q in seen
        ],
        "guard": [(q["id"], {"type": "guard", "target": q["id"]}) for q in alive_others],
        "give": [
            (q["id"], {"type": "give", "to": q["id"], "item": goods[0], "count": 1})
            for q in same_cell
            if goods
        ],
        "equip": [(w, {"type": "equip", "item": w}) for w in weapons],
    }
    out: list[JSON] = []
    for kind, candidates in options.items():
        passed: list[Any] = []
        first: RuleViolation | None = None
        for choice, body in candidates:
            why = refusal(body)
            if why is None:
                passed.append(choice)
            elif first is None:
                first = why
        entry: JSON = {
            "type": kind,
            "order_rule": ORDER_RULES[kind],
            "allowed": bool(passed),
            "code": None,
            "rule": None,
            "message_zh": None,
            "message_en": None,
            "choices": passed,
        }
        if not passed:
            why = first or violation("no_target", ORDER_RULES[kind])
            entry.update(
                code=why.code, rule=why.rule, message_zh=why.message_zh, message_en=why.message_en
            )
        out.append(entry)
    return out

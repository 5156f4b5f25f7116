"""Team Battle's page parts as plain data: the board, the side's orders, the order widgets
and the odds, for the partials in ``templates/pages`` (see :mod:`app.kit.pages`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.kit.pages import Field, Translate, number_text, order_name, properties, resolve
from app.rules.team_battle.words import WORDS

JSON = dict[str, Any]
SIDES = ("A", "B")


def side_label(side: str | None, t: Translate) -> str:
    """A side's name ("甲方"); anything else as it is."""
    if side in SIDES:
        return t(f"page.side_{side}")
    return side or ""


def _mark(order: Mapping[str, Any], lang: str, kind: str) -> JSON:
    return {"label": order_name(WORDS, str(order["type"]), lang), "kind": kind}


def board(view: Mapping[str, Any], me: str | None, t: Translate, lang: str) -> JSON:
    """Both sides' slots facing each other, the opponent on top for a player."""
    n = int(view["settings"]["slots"])
    round_no = view["round"]
    marks: dict[str, list[list[JSON]]] = {s: [[] for _ in range(n)] for s in SIDES}

    def put(order: Mapping[str, Any], kind: str) -> None:
        slot = order.get("body", {}).get("slot")
        if isinstance(slot, int) and 1 <= slot <= n and order.get("side") in SIDES:
            marks[order["side"]][slot - 1].append(_mark(order, lang, kind))

    for order in view.get("announced", []):
        if order.get("round") == round_no:
            put(order, "public")
    for order in view.get("revealed", []):
        if order.get("round") == round_no:
            put(order, "revealed")
    intel = view.get("intel")
    for order in intel if isinstance(intel, list) else []:
        put(order, "intel")
    for order in view.get("orders", []) or []:
        if order.get("round") == round_no and order["status"] in ("pending", "resolved"):
            if not order.get("announced") and not order.get("revealed"):
                put(order, "own")
    drafts: dict[str, list[int]] = {}
    for order in view.get("orders", []) or []:
        if order["type"] == "deploy" and order["status"] == "pending":
            drafts[order["side"]] = list(order["body"]["troops"])  # the latest counts
    order_sides = [s for s in SIDES if s != me] + ([me] if me in SIDES else [])
    rows = []
    for side in order_sides:
        entry = view["sides"][side]
        slots = entry["slots"]
        draft = slots is None and side in drafts
        if draft:
            slots = drafts[side]  # the deployment only this side (or the director) sees
        morale, top = entry["morale"], entry["max_morale"]
        rows.append(
            {
                "side": side,
                "label": side_label(side, t),
                "own": side == me,
                "cells": [
                    {
                        "troops": slots[i] if slots is not None else None,
                        "empty": slots is not None and slots[i] == 0,
                        "marks": marks[side][i],
                    }
                    for i in range(n)
                ],
                "morale": morale,
                "max_morale": top,
                "meter": max(0.0, float(morale)),
                "low": top * 1 / 3,
                "high": top * 2 / 3,
                "total": entry.get("total_troops"),
                "ready": entry.get("ready"),
                "hidden": slots is None,
                "draft": draft,
            }
        )
    info: list[str] = []
    if me in SIDES:
        own = view["sides"][me]
        uses = own.get("order_uses", {}).get("left_this_phase")
        if uses is not None:
            info.append(t("page.uses_left", n=uses))
        cooling = own.get("cooldown_blocked") or []
        if cooling:
            info.append(
                t(
                    "cooldown_blocked",
                    orders="、".join(order_name(WORDS, c, lang) for c in cooling),
                )
            )
    return {"slots": list(range(1, n + 1)), "rows": rows, "info": info}


def own_orders(view: Mapping[str, Any], me: str | None, t: Translate, lang: str) -> list[JSON]:
    """The viewer's side's orders of this round, newest first (after the end the view
    holds both sides' orders: still only one's own here)."""
    out = []
    for order in reversed(view.get("orders", []) or []):
        if order.get("round") != view["round"] or order.get("side") != me:
            continue
        body = {k: v for k, v in order["body"].items() if k != "type"}
        out.append(
            {
                "id": order["id"],
                "type": order["type"],
                "name": order_name(WORDS, order["type"], lang),
                "body": body_text(body, t, lang),
                "status": t(f"order_status_{order['status']}"),
                "phase": t(f"phase.{order['phase']}"),
                "changeable": order["status"] == "pending" and order["phase"] == view["phase"],
                "revisable": order["type"] != "deploy",  # a new deployment replaces it
            }
        )
    return out


def body_text(body: Mapping[str, Any], t: Translate, lang: str) -> str:
    """An order's content in words: "第2格", "4、7、8、6、5", "从第3格调 4 到第2格"."""
    en = lang == "en"
    parts = []
    for key, value in body.items():
        if value is None:
            continue
        if key == "slot":
            parts.append(t("page.slot_n", n=value))
        elif key == "moves" and isinstance(value, list):
            parts.append(
                ("; " if en else "；").join(
                    f"{m.get('troops')} from slot {m.get('from')} to slot {m.get('to')}"
                    if en
                    else f"从第{m.get('from')}格调 {m.get('troops')} 到第{m.get('to')}格"
                    for m in value
                    if isinstance(m, Mapping)
                )
            )
        elif key == "troops" and isinstance(value, list):
            parts.append((", " if en else "、").join(str(v) for v in value))
        elif key in ("from_left", "from_right"):
            parts.append(f"{t(key)} {value}")
        elif key == "order_type":
            parts.append(order_name(WORDS, str(value), lang))
        elif isinstance(value, str | int | float) and not isinstance(value, bool):
            parts.append(str(value))
    return (", " if en else "，").join(parts)


def order_field(
    name: str,
    prop: Mapping[str, Any],
    root: Mapping[str, Any],
    choices: Mapping[str, Any],
    base: dict[str, Any],
    t: Translate,
    lang: str,
) -> Field | None:
    if name == "slot" and "slot" in choices:
        options = [(str(s), t("page.slot_n", n=s)) for s in choices["slot"]]
        return Field(kind="select", options=options, **base)
    if name == "troops" and "slots" in choices:
        base["help"] = t("page.deploy_total", total=choices["total"])
        return Field(
            kind="list", count=int(choices["slots"]), minimum=1, maximum=choices["total"], **base
        )
    if name == "moves":
        items = resolve(prop.get("items", {}), root)
        sources = [(str(s), t("page.slot_n", n=s)) for s in choices.get("from", [])]
        targets = [(str(s), t("page.slot_n", n=s)) for s in choices.get("to", [])]
        columns = []
        for sub, _sub_schema, _ in properties(items, root):
            if sub == "from":
                columns.append(
                    Field(name="from", label=t("page.from_slot"), kind="select", options=sources)
                )
            elif sub == "to":
                columns.append(
                    Field(name="to", label=t("page.to_slot"), kind="select", options=targets)
                )
            else:
                columns.append(Field(name=sub, label=t("count"), kind="number", minimum=1))
        return Field(kind="rows", count=2, columns=columns, **base)
    if name in ("from_left", "from_right"):
        base["required"] = False
        return Field(
            kind="number",
            minimum=0,
            help=t("all"),
            **{k: v for k, v in base.items() if k != "help"},
        )
    if name == "order_type" and "order_type" in choices:
        options = [(o, order_name(WORDS, o, lang)) for o in choices["order_type"]]
        return Field(kind="select", options=options, **base)
    return None


def _slot_note(slot: Any, t: Translate, lang: str) -> str:
    if not isinstance(slot, int):
        return ""
    label = t("page.slot_n", n=slot)
    return f" ({label})" if lang == "en" else f"（{label}）"


def odds_model(
    result: dict[str, Any] | None, side: str, t: Translate, lang: str
) -> dict[str, Any] | None:
    if result is None:
        return None
    enemy = "B" if side == "A" else "A"
    bars = []
    for s in (side, enemy):
        dist = result["morale"][s]
        bars.append(
            {
                "label": side_label(s, t),
                "now": number_text(result["now"][s]),
                "max": number_text(result["max_morale"][s]),
                "expected": number_text(result["expected_morale"][s]),
                "values": [
                    {"morale": number_text(d["morale"]), "percent": number_text(d["p"] * 100)}
                    for d in dist
                    if d["p"] >= 0.001
                ],
            }
        )
    outcomes = result["outcomes"]
    return {
        "exact": result["exact"],
        "rounds": result["rounds"],
        "ways": result.get("ways", result["rounds"]),
        "bars": bars,
        "outcomes": [
            (t("page.odds_win", side=side_label(side, t)), number_text(outcomes[side] * 100)),
            (t("page.odds_win", side=side_label(enemy, t)), number_text(outcomes[enemy] * 100)),
            (t("draw"), number_text(outcomes["draw"] * 100)),
            (t("page.odds_continue"), number_text(outcomes["continue"] * 100)),
        ],
        "assumed": [
            order_name(WORDS, o["type"], lang) + _slot_note(o.get("slot"), t, lang)
            for o in result["assumed"]["own"]
        ],
        "assumed_enemy": [
            order_name(WORDS, o["type"], lang) + _slot_note(o.get("slot"), t, lang)
            for o in result["assumed"]["enemy"]
        ],
    }

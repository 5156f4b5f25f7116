"""Team Battle's feed lines: the fields of its own events (deployments, dispatches, intel,
rounds) for the ``event.<kind>`` lines of its catalogue (see :meth:`app.kit.pages.Pages.event_line`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.kit.pages import Line, join, number


def _moves(moves: Any, lang: str) -> str:
    """A Dispatch's moves: "从第3格调 4 到第2格" / "4 from slot 3 to slot 2"."""
    return (", " if lang == "en" else "、").join(
        f"{m.get('troops')} from slot {m.get('from')} to slot {m.get('to')}"
        if lang == "en"
        else f"从第{m.get('from')}格调 {m.get('troops')} 到第{m.get('to')}格"
        for m in moves or []
        if isinstance(m, Mapping)
    )


def _paren(text: str, en: bool) -> str:
    return f" ({text})" if en else f"（{text}）"


def event_line(line: Line) -> str | None:
    kind, data, fields, t, en, lang = line.kind, line.data, line.fields, line.t, line.en, line.lang
    side, order = line.side, line.order

    def slot_of(body: Any) -> str:
        if isinstance(body, Mapping) and isinstance(body.get("slot"), int):
            return _paren(t("page.slot_n", n=body["slot"]), en)
        return ""

    if kind == "deployment_revealed":
        for s in line.sides:
            fields[s] = join(data.get(s), lang)
        late = [side(s) for s in data.get("defaulted") or []]
        rule = f"page.missing_deployment.{data.get('default_rule')}"
        if rule not in line.words:
            rule = "page.missing_deployment.even"
        fields["defaulted"] = (line.word(rule, sides=line.sep.join(late)) or "") if late else ""
    elif kind == "orders_announced":
        shown = [
            f"{side(o.get('side'))}{'' if not en else ' '}{order(o.get('type'))}"
            + slot_of(o.get("body"))
            for o in data.get("orders", [])
        ]
        fields["orders"] = ("; " if en else "；").join(shown)
        if not shown:
            return "orders_announced_none"
    elif kind == "troops_dispatched":
        fields["before"] = join(data.get("before"), lang)
        fields["after"] = join(data.get("after"), lang)
        fields["moves"] = _moves(data.get("moves"), lang) or t("none")
    elif kind in ("order_submitted", "order_revised", "order_withdrawn"):
        body = data.get("body")
        if isinstance(body, Mapping) and isinstance(body.get("moves"), list):
            fields["detail"] = _paren(_moves(body["moves"], lang), en)
        elif isinstance(body, Mapping) and isinstance(body.get("troops"), list):
            fields["detail"] = _paren(join(body["troops"], lang), en)
        else:
            fields["detail"] = slot_of(body)
    elif kind == "orders_nullified":
        fields["orders"] = line.sep.join(order(o.get("type")) for o in data.get("orders", []))
    elif kind == "order_seen_through":
        fields["order"] = order(data.get("order_type"))
    elif kind == "round_resolved":
        morale = data.get("morale", {})
        for s in line.sides:
            fields[f"m{s}"] = number(morale.get(s))
    elif kind == "intel":
        face: Mapping[str, Any] = data.get("order") or {}
        fields["order"] = order(face.get("type")) if face else ""
        fields["detail"] = slot_of(face.get("body")) if face else ""
        status = data.get("status")
        if status == "gone":
            return "intel_gone"  # the order seen was withdrawn before the look
        key = f"order_status_{status}"
        said = t(key)
        if said == key:
            return "intel_plain"
        fields["status"] = said
    elif kind == "disguised_order_announced":
        fields["order"], fields["shown"] = order(data.get("type")), order(data.get("shown_as"))
    elif kind == "commander_set":
        fields["name"] = line.name(data.get("player_id"))
    return None

"""The Other Side's feed lines: the fields of its own events (moves, finds, fights, PKs,
hunts, deaths, the night's reports, the director's tools) for the ``event.<kind>`` lines of
its catalogue (see :meth:`app.kit.pages.Pages.event_line`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.kit.pages import Line, cell, fill, number, readable


def _ok(line: Line, success: Any) -> str:
    return line.t("page.succeeded" if success else "page.failed")


def _cause(line: Line, cause: Any) -> str:
    """Why someone died (the director's ruling when the game has no word for it)."""
    return (
        line.word(f"page.cause.{cause}")
        or line.word("page.cause.director")
        or readable(str(cause), line.lang)
    )


def _fight(line: Line, result: Mapping[str, Any]) -> str:
    said = line.word(f"page.fight.{result.get('result')}", food=result.get("food", "?"))
    return said or "?"


def _item(line: Line, value: Any) -> str:
    if value == "food":
        return line.t("page.food")
    entry = line.settings.get("items", {}).get(str(value)) or {}
    return str(entry.get("name") or value)


def _beast(line: Line, value: Any) -> str:
    entry = line.settings.get("monster_kinds", {}).get(str(value)) or {}
    return str(entry.get("name") or value or line.t("page.monster"))


def _losses(line: Line, values: Any) -> str:
    if not isinstance(values, Mapping):
        return ""
    return line.sep.join(
        said for k, v in values.items() if (said := line.word(f"page.loss.{v}", name=line.name(k)))
    )


def _note(line: Line, note: Mapping[str, Any]) -> str:
    """One private note of the night ("你吃了 1 份食物，剩余 2。")."""
    kind = str(note.get("kind"))
    if "zh" in note or "en" in note:
        zh, en = note.get("zh"), note.get("en")
        return str((en if line.en else zh) or zh or en or "")
    if kind == "counter_kill" and (note.get("against") or note.get("by")):
        kind = "counter_kill_against" if note.get("against") else "counter_kill_by"
    pair = line.words.get(f"page.note.{kind}")
    if pair is None:
        return ""
    names = line.names
    other = note.get("by") or note.get("against")
    fields = {
        "target": names.get(str(note.get("target")), "?"),
        "assassins": line.sep.join(names.get(str(a), "?") for a in note.get("assassins", [])),
        "ok": _ok(line, note.get("success")),
        "at": cell(note.get("at")),
        "food_left": note.get("food_left"),
        "hunger": note.get("hunger"),
        "cause": _cause(line, note.get("cause")),
        "monster": str(
            (line.settings.get("monster_kinds", {}).get(str(note.get("monster"))) or {}).get("name")
            or note.get("monster")
        ),
        "fight": _fight(line, note),
        "time": f"{note['time']} " if note.get("time") else "",
        "other": names.get(str(other), "?"),
    }
    return fill(pair, line.lang, **fields)


def _director_report(line: Line) -> str:
    """The director's night: each assassination, the deaths, each player's private notes,
    the stories to resolve (``page.report.*``)."""
    data, name, sep = line.data, line.name, line.sep

    def say(key: str, **fields: Any) -> str:
        return line.word(f"page.report.{key}", **fields) or ""

    parts: list[str] = []
    for a in data.get("assassinations") or []:
        assassins = sep.join(name(x) for x in a.get("assassins") or [])
        ok = _ok(line, a.get("success"))
        text = say("assassination", assassins=assassins, target=name(a.get("target")), ok=ok)
        guarded = [name(x) for x in a.get("guarded") or []]
        if guarded:
            text += say("guarded", names=sep.join(guarded))
        for c in a.get("counter_kills") or []:
            text += say(
                "counter_kill", name=name(c.get("assassin")), ok=_ok(line, c.get("success"))
            )
        parts.append(text)
    if not data.get("assassinations"):
        parts.append(say("no_assassination"))
    deaths = sep.join(d.get("name") or name(d.get("player")) for d in data.get("deaths") or [])
    parts.append(say("dead", names=deaths or line.t("none")))
    notes = data.get("notes") or {}
    for pid, items in notes.items() if isinstance(notes, Mapping) else []:
        said = " ".join(filter(None, (_note(line, n) for n in items or [])))
        if said:
            parts.append(f"{name(pid)}{': ' if line.en else '：'}{said}")
    stories = data.get("story_queue_open") or []
    if stories:
        parts.append(say("stories", n=len(stories)))
    return ("; " if line.en else "；").join(p.rstrip("。. ") for p in parts if p)


def _tool_detail(line: Line, args: Mapping[str, Any]) -> str:
    """What a director action was applied to: "（李四 → (2,3)）", "（张三，绳子 ×1）"."""
    t, name = line.t, line.name
    parts: list[str] = []
    who = args.get("player") or args.get("player_id")
    if who:
        parts.append(name(who))
    if isinstance(args.get("players"), list) and args["players"]:
        parts.append(line.sep.join(name(p) for p in args["players"]))
    if args.get("side") in line.sides:
        parts.append(line.side(args["side"]))
    if isinstance(args.get("to"), list):
        parts.append(f"→ {cell(args['to'])}")
    if args.get("item"):
        parts.append(f"{_item(line, args['item'])} ×{args.get('count', 1)}")
    if isinstance(args.get("delta"), int | float):
        parts.append(f"{number(args['delta']):+}")
    if args.get("cause"):
        parts.append(_cause(line, args["cause"]))
    if isinstance(args.get("forbid"), bool):
        parts.append(t("forbid") if args["forbid"] else t("page.allow"))
    if isinstance(args.get("text"), str) and args["text"]:
        parts.append(args["text"])
    if isinstance(args.get("faction"), str) and args["faction"]:
        parts.append(args["faction"])
    if not parts:
        return ""
    joined = ", ".join(parts) if line.en else "，".join(parts)
    return f" ({joined})" if line.en else f"（{joined}）"


def _moved(line: Line) -> str | None:
    data, fields = line.data, line.fields
    fields["name"] = data.get("name") or line.name(data.get("player"))
    start, end = data.get("from"), data.get("to")
    fields["from_"], fields["to"] = cell(start), cell(end)
    fields["hidden"] = (" (hidden)" if line.en else "（隐藏）") if data.get("hidden") else ""
    if start is None and end is None:
        return "moved_unseen"
    if end is None:
        return "moved_away"  # seen leaving a cell this viewer sees, not where to (IS-55)
    if start is None:
        return "moved_in"
    return None


def _hunt(line: Line) -> str:
    data, fields, name = line.data, line.fields, line.name
    fields["hunters"] = line.who(data.get("hunters"))
    fields["monster"] = _beast(line, data.get("kind"))
    food = data.get("food")
    shares: Mapping[str, Any] = food if isinstance(food, Mapping) else {}
    fields["shares"] = line.sep.join(f"{name(k)} {v}" for k, v in shares.items()) or line.t("none")
    fields["losses"] = _losses(line, data.get("losses")) or line.t("none")
    result = data.get("result")
    return "hunt_won" if result == "won" else "hunt_lost" if result == "lost" else "hunt"


def _explored(line: Line) -> str:
    data, fields = line.data, line.fields
    found = str(data.get("found"))
    fields["item"] = _item(line, data.get("item"))
    encounter = data.get("encounter") or {}
    fields["monster"] = _beast(line, encounter.get("monster"))
    fields["fight"] = _fight(line, encounter)
    return f"explored_{found}" if f"line.explored_{found}" in line.words else "explored"


def _fields(line: Line) -> None:
    """The fields of the events that need no other line than their kind's."""
    kind, data, fields, t, name = line.kind, line.data, line.fields, line.t, line.name
    en = line.en
    if kind == "order_revised":  # an assassination whose target moved
        fields["target"] = name(data.get("target"))
    elif kind == "order_withdrawn" and data.get("refund"):
        fields["detail"] = line.word("line.order_withdrawn.refund", refund=data["refund"]) or ""
    elif kind == "placed":
        fields["at"] = cell(data.get("at"))
        fields["name"] = name(data.get("player"))
    elif kind == "encounter":
        fields["name"] = name(data.get("player"))
        fields["monster"] = _beast(line, data.get("monster"))
        fields["fight"] = _fight(line, data)
    elif kind == "pk_posted":
        fields["names"] = " vs ".join(line.who(data.get(k)) for k in ("attackers", "defenders"))
    elif kind in ("pk_joined", "pk_fled"):
        fields["name"] = data.get("name") or name(data.get("player"))
        fields["side"] = t("page.pk_attack" if data.get("side") == "attack" else "page.pk_defend")
    elif kind == "pk_resolved":
        winner = data.get("winner")
        fields["winner"] = t("page.pk_attack" if winner == "attack" else "page.pk_defend")
        lost = _losses(line, data.get("losses"))
        fields["losses"] = (f" ({lost})" if en else f"（{lost}）") if lost else ""
    elif kind == "gave":
        fields["giver"], fields["to"] = name(data.get("from")), name(data.get("to"))
        fields["item"] = _item(line, data.get("item"))
    elif kind == "order_posted":
        fields["order"] = line.order(str(data.get("type")))
        fields["target"] = name(data.get("target"))
    elif kind == "story_triggered":
        fields["name"] = name(data.get("player"))
        fields["at"] = cell(data.get("at"))
        fields["text"] = data.get("text") or ""
    elif kind == "director_action":
        action = str(data.get("action"))
        fields["action"] = line.word(f"tool.{action}") or readable(action, line.lang)
        fields["detail"] = _tool_detail(line, data.get("args") or {})
    elif kind == "death":
        fields["name"] = data.get("name") or name(data.get("player"))
        fields["cause"] = _cause(line, str(data.get("cause")))
    elif kind == "death_announced":
        fields["name"] = data.get("name") or name(data.get("player"))
    elif kind in ("monster_attack", "night_encounter"):
        fields["monster"] = _beast(line, data.get("monster"))
        fields["fight"] = _fight(line, data)
        fields["at"] = cell(data.get("at"))
        fields["time"] = f"{data['time']} " if data.get("time") else ""
    elif kind == "night_report":
        fields["notes"] = " ".join(filter(None, (_note(line, n) for n in data.get("notes", []))))
    elif kind == "day_report":
        fields["deaths"] = line.sep.join(d.get("name", "?") for d in data.get("deaths", []))
        fields["alive"] = line.sep.join(a.get("name", "?") for a in data.get("alive", []))
        fields["deaths"] = fields["deaths"] or t("none")
        fields["alive"] = fields["alive"] or t("none")
    elif kind == "director_report":
        fields["parts"] = _director_report(line)


_KEYED: dict[str, Callable[[Line], str | None]] = {
    "moved": _moved,
    "hunt": _hunt,
    "explored": _explored,
}


def event_line(line: Line) -> str | None:
    keyed = _KEYED.get(line.kind)
    if keyed is not None:
        return keyed(line)
    _fields(line)
    return None

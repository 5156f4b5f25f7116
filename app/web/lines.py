"""Event lines: each event of the feed as one sentence a forum reader understands, in the
reader's language. Lists read as lists ("4、7、8、6、5"), ids as the names the scenario gives
them, results as words; a game's own ``event.<kind>`` line comes before the shell's."""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from typing import Any

from app.kit.pages import number, readable
from app.kit.words import Words
from app.kit.words import pick as kit_pick
from app.web.messages import (
    game_pages,
    game_translator,
    game_words,
    order_name,
    phase_name,
    pick,
    side_name,
    tool_name,
    translator,
)
from app.web.words import UI
from app.web.words.events import EVENTS, OK


class _Formatter(string.Formatter):
    """A field the event did not carry reads as "?" rather than breaking the line."""

    def get_value(self, key: int | str, args: Any, kwargs: Any) -> Any:
        if isinstance(key, str):
            return kwargs.get(key, "?")
        return super().get_value(key, args, kwargs)


def _cell(value: Any) -> str:
    if isinstance(value, list | tuple) and len(value) == 2:
        return f"({value[0]},{value[1]})"
    return "?" if value is None else str(value)


def _join(values: Any, lang: str) -> str:
    """A list as a reader writes one: "4、7、8" in Chinese, "4, 7, 8" in English."""
    if not isinstance(values, list | tuple):
        return "?" if values is None else str(number(values))
    return ("、" if lang != "en" else ", ").join(str(number(v)) for v in values)


def _moves(moves: Any, lang: str) -> str:
    """A Dispatch's moves: "从第3格调 4 到第2格" / "4 from slot 3 to slot 2"."""
    return (", " if lang == "en" else "、").join(
        f"{m.get('troops')} from slot {m.get('from')} to slot {m.get('to')}"
        if lang == "en"
        else f"从第{m.get('from')}格调 {m.get('troops')} 到第{m.get('to')}格"
        for m in moves or []
        if isinstance(m, Mapping)
    )


def _word(words: Words, key: str, lang: str, **fields: Any) -> str | None:
    """A game's word filled like an event line (a missing field reads "?"); None: none."""
    pair = words.get(key)
    return _say(pair, lang, **fields) if pair else None


def _cause(words: Words, cause: Any, lang: str) -> str:
    """Why someone died, in the game's words (the director's ruling when it has none)."""
    return (
        _word(words, f"page.cause.{cause}", lang)
        or _word(words, "page.cause.director", lang)
        or readable(str(cause), lang)
    )


def _say(pair: tuple[str, str], lang: str, **fields: Any) -> str:
    return _Formatter().vformat(pair[1 if lang == "en" else 0], (), fields)


def describe_event(
    kind: str,
    data: Mapping[str, Any],
    lang: str,
    ruleset: str,
    names: Mapping[str, str],
    settings: Mapping[str, Any] | None = None,
) -> str:
    """One line a reader understands for an event; the data's own text where it has one.

    ``settings`` are the game's (a scenario may name its items, beasts and
    terrains); without them an id reads as itself. A game's own ``event.<kind>`` line in
    its catalogue comes before the shell's."""
    words = game_words(ruleset)
    t = translator(lang, words)
    en = lang == "en"
    world: Mapping[str, Any] = settings or {}
    sep = ", " if en else "、"

    def name(pid: Any) -> str:
        return names.get(str(pid), "?") if pid is not None else "?"

    def who(values: Any) -> str:
        return sep.join(name(p) for p in values or []) or t("none")

    def phase(value: Any) -> str:
        return phase_name(ruleset, value, lang) if isinstance(value, str) else ""

    def order(value: Any) -> str:
        return order_name(ruleset, str(value), lang) if value else ""

    def side(value: Any) -> str:
        return side_name(str(value), lang, ruleset) if value else ""

    def item(value: Any) -> str:
        if value == "food":
            return t("food")
        entry = world.get("items", {}).get(str(value)) or {}
        return str(entry.get("name") or value)

    def beast(value: Any) -> str:
        entry = world.get("monster_kinds", {}).get(str(value)) or {}
        return str(entry.get("name") or value or t("monster"))

    def fight(result: Mapping[str, Any]) -> str:
        said = _word(
            words, f"page.fight.{result.get('result')}", lang, food=result.get("food", "?")
        )
        return said or "?"

    def losses(values: Any) -> str:
        if not isinstance(values, Mapping):
            return ""
        return sep.join(
            said
            for k, v in values.items()
            if (said := _word(words, f"page.loss.{v}", lang, name=name(k)))
        )

    def slot_of(body: Any) -> str:
        if isinstance(body, Mapping) and isinstance(body.get("slot"), int):
            return (
                f"（{t('slot_n', n=body['slot'])}）"
                if not en
                else f" ({t('slot_n', n=body['slot'])})"
            )
        return ""

    fields: dict[str, Any] = {
        k: number(v)
        for k, v in data.items()
        if isinstance(k, str) and not isinstance(v, dict | list) and v is not None
    }
    sides = game_pages(ruleset).sides
    for s in sides:
        fields[f"side_{s}"] = side(s)
    fields["side"] = side(data.get("side"))
    fields["detail"] = ""
    if "phase" in data:
        fields["phase"] = phase(data["phase"])
    if "type" in data:
        fields["order"] = order(data["type"])
    key = kind
    if kind == "game_over":
        if "survivors" in data:
            fields["survivors"] = who(data.get("survivors"))
        winner = data.get("winner")
        fields["result"] = t("draw") if winner == "draw" else t("winner_is", side=side(winner))
    elif kind == "deployment_revealed":
        for s in sides:
            fields[s] = _join(data.get(s), lang)
        late = [side(s) for s in data.get("defaulted") or []]
        rule = f"page.missing_deployment.{data.get('default_rule')}"
        if rule not in words:
            rule = "page.missing_deployment.even"
        fields["defaulted"] = (_word(words, rule, lang, sides=sep.join(late)) or "") if late else ""
    elif kind == "orders_announced":
        shown = [
            f"{side(o.get('side'))}{'' if not en else ' '}{order(o.get('type'))}"
            + slot_of(o.get("body"))
            for o in data.get("orders", [])
        ]
        if not shown:
            key = "orders_announced_none"
        fields["orders"] = ("; " if en else "；").join(shown)
    elif kind == "troops_dispatched":
        fields["before"] = _join(data.get("before"), lang)
        fields["after"] = _join(data.get("after"), lang)
        fields["moves"] = _moves(data.get("moves"), lang) or t("none")
    elif kind in ("order_submitted", "order_revised", "order_withdrawn"):
        body = data.get("body")
        if isinstance(body, Mapping) and isinstance(body.get("moves"), list):
            moved = _moves(body["moves"], lang)
            fields["detail"] = f" ({moved})" if en else f"（{moved}）"
        elif isinstance(body, Mapping) and isinstance(body.get("troops"), list):
            fields["detail"] = (
                f"（{_join(body['troops'], lang)}）"
                if not en
                else f" ({_join(body['troops'], lang)})"
            )
        else:
            fields["detail"] = slot_of(body)
        if kind == "order_revised":
            fields["target"] = name(data.get("target"))
        refund = data.get("refund")
        if refund:
            fields["detail"] = kit_pick(words, f"event.{kind}.refund", lang, refund=refund) or ""
    elif kind == "order_voided":
        fields["why"] = pick(lang, data.get("message_zh"), data.get("message_en"))
    elif kind == "orders_nullified":
        fields["orders"] = sep.join(order(o.get("type")) for o in data.get("orders", []))
    elif kind == "order_seen_through":
        fields["order"] = order(data.get("order_type"))
    elif kind == "round_resolved":
        morale = data.get("morale", {})
        for s in sides:
            fields[f"m{s}"] = number(morale.get(s))
    elif kind == "intel":
        face: Mapping[str, Any] = data.get("order") or {}
        fields["order"] = order(face.get("type")) if face else ""
        fields["detail"] = slot_of(face.get("body")) if face else ""
        status = data.get("status")
        if status == "gone":
            key = "intel_gone"  # the order seen was withdrawn before the look
        elif f"order_status_{status}" in UI:
            fields["status"] = t(f"order_status_{status}")
        else:
            key = "intel_plain"
    elif kind == "disguised_order_announced":
        fields["order"], fields["shown"] = order(data.get("type")), order(data.get("shown_as"))
    elif kind == "commander_set":
        fields["name"] = name(data.get("player_id"))
    elif kind == "player_replaced":
        fields["name"] = data.get("name") or name(data.get("player_id"))
    elif kind == "receipt_contents":
        if "day" in data:
            fields["when"] = t("day_n", n=data.get("day"))
        else:
            fields["when"] = (
                f"{t('round_n', n=data.get('round'))}{' ' if en else ''}{phase(data.get('phase'))}"
            )
        sealed = data.get("sealed") or {}
        fields["contents"] = ("; " if en else "；").join(
            f"{side(owner) if owner in sides else name(owner)}{': ' if en else '：'}"
            + (
                sep.join(_sealed_order(o, ruleset, lang, names) for o in orders)
                if orders
                else t("none")
            )
            for owner, orders in sealed.items()
        ) or t("none")
    elif kind == "placed":
        fields["at"] = _cell(data.get("at"))
        fields["name"] = name(data.get("player"))
    elif kind == "moved":
        fields["name"] = data.get("name") or name(data.get("player"))
        start, end = data.get("from"), data.get("to")
        fields["from_"], fields["to"] = _cell(start), _cell(end)
        fields["hidden"] = (" (hidden)" if en else "（隐藏）") if data.get("hidden") else ""
        if start is None and end is None:
            key = "moved_unseen"
        elif end is None:
            key = "moved_away"  # seen leaving a cell this viewer sees, not where to (IS-55)
        elif start is None:
            key = "moved_in"
    elif kind == "encounter":
        fields["name"] = name(data.get("player"))
        fields["monster"] = beast(data.get("monster"))
        fields["fight"] = fight(data)
    elif kind == "explored":
        found = str(data.get("found"))
        known = f"explored_{found}" in EVENTS or f"event.explored_{found}" in words
        key = f"explored_{found}" if known else "explored"
        fields["item"] = item(data.get("item"))
        encounter = data.get("encounter") or {}
        fields["monster"] = beast(encounter.get("monster"))
        fields["fight"] = fight(encounter)
    elif kind == "pk_posted":
        fields["names"] = " vs ".join(who(data.get(k)) for k in ("attackers", "defenders"))
    elif kind in ("pk_joined", "pk_fled"):
        fields["name"] = data.get("name") or name(data.get("player"))
        fields["side"] = t("pk_attack" if data.get("side") == "attack" else "pk_defend")
    elif kind == "pk_resolved":
        fields["winner"] = t("pk_attack" if data.get("winner") == "attack" else "pk_defend")
        lost = losses(data.get("losses"))
        fields["losses"] = (f" ({lost})" if en else f"（{lost}）") if lost else ""
    elif kind == "hunt":
        won = data.get("result") == "won"
        key = "hunt_won" if won else "hunt_lost" if data.get("result") == "lost" else "hunt"
        fields["hunters"] = who(data.get("hunters"))
        fields["monster"] = beast(data.get("kind"))
        food = data.get("food")
        shares: Mapping[str, Any] = food if isinstance(food, Mapping) else {}
        fields["shares"] = sep.join(f"{name(k)} {v}" for k, v in shares.items()) or t("none")
        fields["losses"] = losses(data.get("losses")) or t("none")
    elif kind == "gave":
        fields["giver"], fields["to"] = name(data.get("from")), name(data.get("to"))
        fields["item"] = item(data.get("item"))
    elif kind == "order_posted":
        fields["order"] = order_name(ruleset, str(data.get("type")), lang)
        fields["target"] = name(data.get("target"))
    elif kind in ("target_moved", "held_move_done") and (data.get("zh") or data.get("en")):
        return pick(lang, data.get("zh"), data.get("en"))  # the engine's own words
    elif kind == "story_triggered":
        fields["name"] = name(data.get("player"))
        fields["at"] = _cell(data.get("at"))
        fields["text"] = data.get("text") or ""
    elif kind == "director_action":
        action = str(data.get("action"))
        fields["action"] = tool_name(ruleset, action, lang)
        fields["detail"] = _tool_detail(
            data.get("args") or {}, lang, words, name, item, side, sides
        )
    elif kind == "death":
        fields["name"] = data.get("name") or name(data.get("player"))
        cause = str(data.get("cause"))
        fields["cause"] = _cause(words, cause, lang)
    elif kind == "death_announced":
        fields["name"] = data.get("name") or name(data.get("player"))
    elif kind in ("monster_attack", "night_encounter"):
        fields["monster"] = beast(data.get("monster"))
        fields["fight"] = fight(data)
        fields["at"] = _cell(data.get("at"))
        fields["time"] = f"{data['time']} " if data.get("time") else ""
    elif kind == "night_report":
        fields["notes"] = " ".join(
            filter(None, (_note(n, lang, words, names, world) for n in data.get("notes", [])))
        )
    elif kind == "day_report":
        fields["deaths"] = sep.join(d.get("name", "?") for d in data.get("deaths", [])) or t("none")
        fields["alive"] = sep.join(a.get("name", "?") for a in data.get("alive", [])) or t("none")
    elif kind == "director_report":
        fields["parts"] = _director_report(data, lang, words, names, world)
    pair = words.get(f"event.{key}") or EVENTS.get(key)
    if pair is None:
        return readable(kind, lang)  # an event without words: never its raw kind
    try:
        return _say(pair, lang, **fields).strip()
    except (IndexError, ValueError):
        return pair[1 if en else 0]


def _sealed_order(o: Mapping[str, Any], ruleset: str, lang: str, names: Mapping[str, str]) -> str:
    """One sealed order as the director reads it: "暗杀 李四", "反击（第2格）"."""
    label = order_name(ruleset, str(o.get("type")), lang)
    if o.get("target"):
        return f"{label} {names.get(str(o['target']), '?')}"
    body = o.get("body")
    if isinstance(body, Mapping) and isinstance(body.get("slot"), int):
        slot = game_translator(lang, ruleset)("slot_n", n=body["slot"])
        return f"{label} ({slot})" if lang == "en" else f"{label}（{slot}）"
    return label


def _tool_detail(
    args: Mapping[str, Any],
    lang: str,
    words: Words,
    name: Callable[[Any], str],
    item: Callable[[Any], str],
    side: Callable[[Any], str],
    sides: tuple[str, ...] = (),
) -> str:
    """What a director action was applied to: "（李四 → (2,3)）", "（张三，绳子 ×1）"."""
    t = translator(lang)
    parts: list[str] = []
    who = args.get("player") or args.get("player_id")
    if who:
        parts.append(name(who))
    if isinstance(args.get("players"), list) and args["players"]:
        parts.append(("、" if lang != "en" else ", ").join(name(p) for p in args["players"]))
    if args.get("side") in sides:
        parts.append(side(args["side"]))
    if isinstance(args.get("to"), list):
        parts.append(f"→ {_cell(args['to'])}")
    if args.get("item"):
        parts.append(f"{item(args['item'])} ×{args.get('count', 1)}")
    if isinstance(args.get("delta"), int | float):
        parts.append(f"{number(args['delta']):+}")
    if args.get("cause"):
        cause = str(args["cause"])
        parts.append(_cause(words, cause, lang))
    if isinstance(args.get("forbid"), bool):
        parts.append(t("forbid") if args["forbid"] else ("allow" if lang == "en" else "允许"))
    if isinstance(args.get("text"), str) and args["text"]:
        parts.append(args["text"])
    if isinstance(args.get("faction"), str) and args["faction"]:
        parts.append(args["faction"])
    if not parts:
        return ""
    joined = ", ".join(parts) if lang == "en" else "，".join(parts)
    return f" ({joined})" if lang == "en" else f"（{joined}）"


def _director_report(
    data: Mapping[str, Any],
    lang: str,
    words: Words,
    names: Mapping[str, str],
    world: Mapping[str, Any],
) -> str:
    """The director's night report: each assassination, the deaths, each player's private
    notes, the stories to resolve, in the game's words (``page.report.*``)."""
    en = lang == "en"
    t = translator(lang)
    sep = ", " if en else "、"

    def name(pid: Any) -> str:
        return names.get(str(pid), "?")

    def say(key: str, **fields: Any) -> str:
        return kit_pick(words, f"page.report.{key}", lang, **fields) or ""

    parts: list[str] = []
    for a in data.get("assassinations") or []:
        ok = OK[bool(a.get("success"))][1 if en else 0]
        assassins = sep.join(name(x) for x in a.get("assassins") or [])
        line = say("assassination", assassins=assassins, target=name(a.get("target")), ok=ok)
        guarded = [name(x) for x in a.get("guarded") or []]
        if guarded:
            line += say("guarded", names=sep.join(guarded))
        for c in a.get("counter_kills") or []:
            c_ok = OK[bool(c.get("success"))][1 if en else 0]
            line += say("counter_kill", name=name(c.get("assassin")), ok=c_ok)
        parts.append(line)
    if not data.get("assassinations"):
        parts.append(say("no_assassination"))
    deaths = sep.join(d.get("name") or name(d.get("player")) for d in data.get("deaths") or [])
    parts.append(say("dead", names=deaths or t("none")))
    notes = data.get("notes") or {}
    for pid, items in notes.items() if isinstance(notes, Mapping) else []:
        said = " ".join(filter(None, (_note(n, lang, words, names, world) for n in items or [])))
        if said:
            parts.append(f"{name(pid)}{': ' if en else '：'}{said}")
    stories = data.get("story_queue_open") or []
    if stories:
        parts.append(say("stories", n=len(stories)))
    return ("; " if en else "；").join(p.rstrip("。. ") for p in parts if p)


def _note(
    note: Mapping[str, Any],
    lang: str,
    words: Words,
    names: Mapping[str, str],
    world: Mapping[str, Any] | None = None,
) -> str:
    kind = str(note.get("kind"))
    if "zh" in note or "en" in note:
        return pick(lang, note.get("zh"), note.get("en"))
    if kind == "counter_kill" and (note.get("against") or note.get("by")):
        kind = "counter_kill_against" if note.get("against") else "counter_kill_by"
    pair = words.get(f"page.note.{kind}")
    if pair is None:
        return ""
    en = lang == "en"
    ok = note.get("success")
    kinds = (world or {}).get("monster_kinds", {})
    monster = str((kinds.get(str(note.get("monster"))) or {}).get("name") or note.get("monster"))
    fight = _word(words, f"page.fight.{note.get('result')}", lang, food=note.get("food", "?"))
    other = note.get("by") or note.get("against")
    fields = {
        "target": names.get(str(note.get("target")), "?"),
        "assassins": ("、" if not en else ", ").join(
            names.get(str(a), "?") for a in note.get("assassins", [])
        ),
        "ok": OK[bool(ok)][1 if en else 0],
        "at": _cell(note.get("at")),
        "food_left": note.get("food_left"),
        "hunger": note.get("hunger"),
        "cause": _cause(words, note.get("cause"), lang),
        "monster": monster,
        "fight": fight or "?",
        "time": f"{note['time']} " if note.get("time") else "",
    }
    fields["other"] = names.get(str(other), "?")
    return _say(pair, lang, **fields)

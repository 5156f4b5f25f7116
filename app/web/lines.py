"""Event lines: each event of the feed as one sentence a forum reader understands, in the
reader's language. Lists read as lists ("4、7、8、6、5"), ids as the names the scenario gives
them, results as words; a game's own ``event.<kind>`` line comes before the shell's."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.kit.pages import Line, fill, number, readable
from app.web.messages import (
    game_pages,
    game_translator,
    game_words,
    order_name,
    phase_name,
    pick,
    side_name,
    translator,
)
from app.web.words.events import EVENTS


def winner_words(
    t: Callable[..., str],
    winner: Any,
    sides: tuple[str, ...],
    side: Callable[[Any], str],
    name: Callable[[str], str | None],
) -> str:
    """Who won, in words (the header and the feed's last line alike): a side by its name,
    a player by theirs, never an id; a winner no one can name is no winner."""
    if winner == "draw":
        return t("draw")
    if winner in sides:
        return t("winner_is", side=side(winner))
    found = name(str(winner)) if winner else None
    return t("winner_is", side=found) if found else t("no_winner")


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
    terrains); without them an id reads as itself. The game fills the fields of its own
    events (``Pages.event_line``); its ``event.<kind>`` line comes before the shell's."""
    words = game_words(ruleset)
    t = translator(lang, words)
    en = lang == "en"
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

    fields: dict[str, Any] = {
        k: number(v)
        for k, v in data.items()
        if isinstance(k, str) and not isinstance(v, dict | list) and v is not None
    }
    pages = game_pages(ruleset)
    sides = pages.sides
    for s in sides:
        fields[f"side_{s}"] = side(s)
    fields["side"] = side(data.get("side"))
    fields["detail"] = ""
    if "phase" in data:
        fields["phase"] = phase(data["phase"])
    if "type" in data:
        fields["order"] = order(data["type"])
    if isinstance(data.get("zh"), str) or isinstance(data.get("en"), str):
        return pick(lang, data.get("zh"), data.get("en"))  # the engine's own words
    line = Line(
        kind=kind,
        data=data,
        lang=lang,
        fields=fields,
        t=t,
        words=words,
        names=names,
        settings=settings or {},
        sides=sides,
        name=name,
        who=who,
        side=side,
        order=order,
        phase=phase,
    )
    key = pages.event_line(line) or kind
    if kind == "game_over":
        if "survivors" in data:
            fields["survivors"] = who(data.get("survivors"))
        fields["result"] = winner_words(t, data.get("winner"), sides, side, names.get)
    elif kind == "order_voided":
        fields["why"] = pick(lang, data.get("message_zh"), data.get("message_en"))
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
    # The game's line for it, the shell's, or at least the event's name.
    pair = words.get(f"line.{key}") or EVENTS.get(key) or words.get(f"event.{key}")
    if pair is None:
        return readable(kind, lang)  # an event without words: never its raw kind
    try:
        return fill(pair, lang, **fields).strip()
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

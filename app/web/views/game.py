"""A game's page frame as plain data: the header, the event feed, the order forms (a game's
own widgets come from its ``Pages``)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any
from zoneinfo import ZoneInfo

from app.kit.pages import readable
from app.kit.words import Words
from app.kit.words import pick as kit_pick
from app.rules.base import JSON
from app.web.forms import Field, properties, rule_of, variants
from app.web.lines import describe_event, winner_words
from app.web.messages import (
    game_pages,
    game_title,
    game_translator,
    game_words,
    order_name,
    phase_name,
    pick,
    side_name,
)
from app.web.views.base import FEED_SHOWN, duration, local_time, remaining


# --- the game's header ------------------------------------------------------------------
def header(page: Mapping[str, Any], lang: str) -> JSON:
    summary, view = page["summary"], page["view"]
    ruleset = summary["ruleset"]
    pages = game_pages(ruleset)
    t = game_translator(lang, ruleset)
    tz = summary["timezone"]
    left = remaining(summary, page["now"])
    phase = view.get("phase") or summary.get("phase")
    bits = pages.header_bits(view, t)
    clock = page["now"].astimezone(ZoneInfo(tz)).strftime("%H:%M")
    window = pages.time_window(view, clock) if summary["status"] == "running" else None
    if window:
        bits.append(t(window))
    elif phase and summary["status"] != "finished":
        bits.append(pages.phase_label(str(phase), t) or phase_name(ruleset, str(phase), lang))
    winner = view.get("winner")
    return {
        "id": summary["id"],
        "title": summary["title"],
        "ruleset": game_title(ruleset, lang),
        "status": summary["status"],
        "status_label": t(f"status_{summary['status']}"),
        "where": " · ".join(bits),
        "deadline": local_time(summary.get("deadline"), tz),
        "remaining": left,
        "remaining_text": duration(left),
        "paused": summary["status"] == "paused",
        "timezone": tz,
        "winner": _winner(winner, pages.sides, page.get("names") or {}, lang, ruleset),
        "seed": summary.get("seed"),
        "seed_commitment": summary["seed_commitment"],
        "receipt": _receipt(page.get("receipt"), lang),
        # A director's safety net (app/services/safety/): undos are counted on every page,
        # and a sandbox says so on every page.
        "undos": summary.get("undos") or 0,
        "undos_text": t("undos_n", n=summary["undos"]) if summary.get("undos") else "",
        "sandbox": bool(summary.get("sandbox")),
        "sandbox_text": t("sandbox_note") if summary.get("sandbox") else "",
    }


def _receipt(found: Any, lang: str) -> JSON | None:
    """The player's current receipt (their page only), and what it is for."""
    if not isinstance(found, Mapping) or not found.get("receipt"):
        return None
    digest = str(found["receipt"])
    note = (
        "If the phase closed now, your hidden orders would be sealed into this receipt; the "
        "receipts post in the thread shows its first 12 digits."
        if lang == "en"
        else "若此刻截止，你的暗令将封存为这份收据；帖子里的收据行显示它的前 12 位。"
    )
    return {"label": "Your receipt" if lang == "en" else "你的收据", "digest": digest, "note": note}


# --- the event feed -----------------------------------------------------------------------
def feed(page: Mapping[str, Any], lang: str) -> JSON:
    """The game's events in the order they happened, oldest first, like a forum thread
    (the box opens scrolled to the newest). On the director's feed, a line only some
    players saw names them first ("致 张三：你吃了 1 份食物…")."""
    events = page["events"]
    tz = page["summary"]["timezone"]
    ruleset = page["summary"]["ruleset"]
    t = game_translator(lang, ruleset)
    names = page["names"]
    settings = page.get("settings") or {}
    sep = ", " if lang == "en" else "、"
    lines = []
    for e in events[-FEED_SHOWN:]:
        audience = e.get("audience", ["public"])
        text = describe_event(e["kind"], e["data"], lang, ruleset, names, settings)
        owners = _owners(audience, names, lang, ruleset)
        if owners and not (len(owners) == 1 and text.startswith(owners[0])):
            text = t("private_to", names=sep.join(owners)) + text  # not "致 张三：张三 …"
        if e.get("undone"):  # taken back by a director's undo: kept, marked
            text = text + t("undone_mark")
        lines.append(
            {
                "seq": e["seq"],
                "at": local_time(e["at"], tz),
                "kind": e["kind"],
                "text": text,
                "private": "public" not in audience,
                "undone": bool(e.get("undone")),
            }
        )
        if e["kind"] == "hidden_events_revealed" and "audience" not in e:  # not the director's
            # At the end, what each side was told alone is shown to all, each line with
            # the side it was for (the revealed events keep their data, not their audience).
            for hidden in e["data"].get("events") or []:
                said = describe_event(
                    str(hidden.get("kind")),
                    hidden.get("data") or {},
                    lang,
                    ruleset,
                    names,
                    settings,
                )
                owner = side_name((hidden.get("data") or {}).get("side"), lang, ruleset)
                if owner and not said.startswith(owner):
                    said = t("private_to", names=owner) + said
                lines.append(
                    {
                        "seq": e["seq"],
                        "at": local_time(hidden.get("at") or e["at"], tz),
                        "kind": str(hidden.get("kind")),
                        "text": said,
                        "private": True,
                    }
                )
    # The live stream resumes after this: never past the game row the page's state and
    # view came from, else an event committed between the page's reads (a deadline
    # extended) would be neither shown nor streamed, and the page would keep the old one.
    after = events[-1]["seq"] if events else 0
    if "event_seq" in page:
        after = min(after, page["event_seq"])
    return {"lines": lines, "after": after}


def _owners(audience: list[str], names: Mapping[str, str], lang: str, ruleset: str) -> list[str]:
    """Whom a private line was for (only the director's events carry their audience)."""
    if "public" in audience:
        return []
    out = []
    for tag in audience:
        role, _, who = tag.partition(":")
        if role == "player":
            out.append(names.get(who, "?"))
        elif role == "side":
            out.append(side_name(who, lang, ruleset))
    return out


# --- order forms ----------------------------------------------------------------------------
def order_forms(
    ruleset: str,
    schema: Mapping[str, Any] | None,
    available: list[Mapping[str, Any]],
    page: Mapping[str, Any],
    lang: str,
) -> list[JSON]:
    """One form per order available in this phase; a refused one says why (rule ID)."""
    members = variants(schema, "type") if schema else {}
    out = []
    for entry in available:
        kind = str(entry["type"])
        member = members.get(kind)
        fields = (
            _order_fields(ruleset, kind, member, schema or {}, entry, page, lang) if member else []
        )
        out.append(
            {
                "type": kind,
                "name": order_name(ruleset, kind, lang),
                "rule": entry.get("order_rule")
                or rule_of(member.get("description") if member else ""),
                "allowed": bool(entry["allowed"]) and member is not None,
                "why": pick(lang, entry.get("message_zh"), entry.get("message_en")),
                "why_rule": entry.get("rule") or "",
                "tags": game_pages(ruleset).order_tags(entry, game_translator(lang, ruleset)),
                "fields": fields,
                "help": (member or {}).get("description", ""),
                "key": hashlib.sha256(
                    json.dumps(entry, sort_keys=True, default=str).encode()
                ).hexdigest()[:12],
            }
        )
    return out


_LABELS = {
    "slot": "slot",
    "troops": "troops",
    "moves": "moves",
    "from_left": "from_left",
    "from_right": "from_right",
    "order_type": "orders",
    "direction": "direction",
    "hidden": "hidden_move",
    "target": "target",
    "targets": "targets",
    "path": "path",
    "follow": "follow",
    "monster": "monster",
    "challenge": "challenge",
    "side": "pk_side",
    "to": "to_player",
    "item": "item",
    "count": "count",
    "food": "food",
    "use_weapon": "use_weapon",
    "player": "player",
    "delta": "delta",
    "text": "text",
    "faction": "faction",
    "morale": "morale",
    "player_id": "commander",
    "queue_id": "story_queue",
    "forbid": "forbid",
    "cause": "cause",
}
# Optional fields a page does not offer (proxies and hunting parties are for the API).
_SKIPPED = {"for", "with", "split", "standing", "changes", "all_idle", "restore", "players"}


def _order_fields(
    ruleset: str,
    kind: str,
    member: Mapping[str, Any],
    root: Mapping[str, Any],
    entry: Mapping[str, Any],
    page: Mapping[str, Any],
    lang: str,
) -> list[Field]:
    pages = game_pages(ruleset)
    t = game_translator(lang, ruleset)
    words = game_words(ruleset)
    choices = entry.get("choices")
    fields: list[Field] = []
    for name, prop, required in properties(member, root):
        if name == "type" or (name in _SKIPPED and not required):
            continue
        label = t(_LABELS[name]) if name in _LABELS else word_or(words, f"field.{name}", lang, name)
        help_text = str(prop.get("description") or "")
        base: dict[str, Any] = {
            "name": name,
            "label": label,
            "required": required,
            "help": help_text,
            "rule": rule_of(help_text),
        }
        field = pages.order_field(kind, name, prop, root, choices, base, page, t, lang)
        if field is None:
            field = _generic(prop, base, [f"order.{kind}.", f"field.{name}."], words, lang)
        fields.append(field)
    return fields


def _winner(
    winner: Any, sides: tuple[str, ...], names: Mapping[str, str], lang: str, ruleset: str
) -> str:
    """Who won, as the header says it: a side by its name, a player by theirs, never an id."""
    if not winner:
        return ""
    t = game_translator(lang, ruleset)
    return winner_words(t, winner, sides, lambda s: side_name(s, lang, ruleset), names.get)


def word_or(words: Words, key: str, lang: str, raw: str) -> str:
    """The game's word for ``key``, else ``raw`` made readable: never a raw identifier."""
    return kit_pick(words, key, lang) or readable(raw, lang)


def _generic(
    prop: Mapping[str, Any], base: dict[str, Any], spaces: list[str], words: Words, lang: str
) -> Field:
    """The plain widget of a field a game draws no widget for; a choice is named by the game's
    ``order.<type>.<value>`` (or ``field.<name>.<value>``) word."""
    kind = prop.get("type")
    if isinstance(prop.get("enum"), list):
        options = []
        for v in prop["enum"]:
            named = (kit_pick(words, space + str(v), lang) for space in spaces)
            options.append((str(v), next((w for w in named if w), None) or readable(str(v), lang)))
        return Field(kind="select", options=options, **base)
    if kind == "boolean":
        return Field(kind="checkbox", **base)
    if kind in ("integer", "number"):
        return Field(
            kind="number",
            minimum=prop.get("minimum"),
            maximum=prop.get("maximum"),
            step="1" if kind == "integer" else "any",
            **base,
        )
    return Field(kind="text", **base)

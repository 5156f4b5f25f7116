"""View models: plain data for the templates, built from what the page services return.

Templates stay dumb: every decision (what to show, which label, which choices a form
offers, how a time reads in the game's zone) is made here, in pure functions.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from markupsafe import Markup, escape
from starlette.datastructures import FormData

from app.rules.base import JSON
from app.web.forms import Field, properties, resolve, rule_of, variants
from app.web.messages import (
    CHANNEL_HELP,
    CHANNEL_KINDS,
    CONFIG_LABELS,
    POST_KINDS,
    describe_event,
    game_pages,
    game_title,
    game_translator,
    game_word,
    order_name,
    phase_name,
    pick,
    setting_label,
    side_name,
    tool_name,
    translator,
)

FEED_SHOWN = 200


# --- time -------------------------------------------------------------------------------
def local_time(value: str | datetime | None, tz: str) -> str:
    """A moment as the game's players read it: in the game's time zone."""
    if value is None:
        return ""
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment.astimezone(ZoneInfo(tz)).strftime("%Y-%m-%d %H:%M")


def remaining(summary: Mapping[str, Any], now: datetime) -> int | None:
    if summary.get("deadline"):
        due = datetime.fromisoformat(summary["deadline"])
        return max(0, int((due - now).total_seconds()))
    left = summary.get("deadline_remaining_seconds")
    return int(left) if left is not None else None


def duration(seconds: int | None) -> str:
    if seconds is None:
        return ""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}"


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
        "winner": (
            t("draw") if winner == "draw" else t("winner_is", side=side_name(winner, lang, ruleset))
        )
        if winner
        else "",
        "seed": summary.get("seed"),
        "seed_commitment": summary["seed_commitment"],
    }


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
        lines.append(
            {
                "seq": e["seq"],
                "at": local_time(e["at"], tz),
                "kind": e["kind"],
                "text": text,
                "private": "public" not in audience,
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
    choices = entry.get("choices")
    fields: list[Field] = []
    for name, prop, required in properties(member, root):
        if name == "type" or (name in _SKIPPED and not required):
            continue
        label = t(_LABELS.get(name, name)) if name in _LABELS else name
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
            field = _generic(prop, base)
        fields.append(field)
    return fields


def _generic(prop: Mapping[str, Any], base: dict[str, Any]) -> Field:
    kind = prop.get("type")
    if isinstance(prop.get("enum"), list):
        return Field(kind="select", options=[(str(v), str(v)) for v in prop["enum"]], **base)
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


# --- the audit log ------------------------------------------------------------------------------
def audit_lines(
    audit: list[Mapping[str, Any]],
    names: Mapping[str, str],
    tz: str,
    lang: str = "zh",
    posts: Mapping[str, str] | None = None,
    channels: Mapping[str, str] | None = None,
    items: Mapping[str, Any] | None = None,
    ruleset: str = "",
) -> list[JSON]:
    """Newest first, each entry one sentence in the reader's language: what the director
    did, with names (players, posts, channels, forum names), never ids or codes.
    ``posts``/``channels``: id -> title/name of those the console still knows."""
    t = game_translator(lang, ruleset)
    posts, channels, items = posts or {}, channels or {}, items or {}
    colon = ": " if lang == "en" else "："

    def player(pid: Any) -> str:
        return names.get(str(pid), t("audit_someone")) if pid else t("audit_someone")

    def post(pid: Any) -> str:
        return posts.get(str(pid)) or t("audit_a_post")

    def line(action: str, data: Mapping[str, Any]) -> str:
        if action == "add_player":
            extra = [side_name(data["side"], lang, ruleset)] if data.get("side") else []
            if data.get("forum_name"):
                extra.append(t("audit_forum_is", name=data["forum_name"]))
            text = t("audit_add_player", name=data.get("name") or player(data.get("player_id")))
            return text + (t("audit_paren", text=t("list_sep").join(extra)) if extra else "")
        if action in ("invite", "revoke_sessions", "replace_player"):
            return t(f"audit_{action}", name=player(data.get("player_id")))
        if action == "set_forum_name":
            if data.get("forum_name"):
                return t(
                    "audit_set_forum_name",
                    name=player(data.get("player_id")),
                    forum=data["forum_name"],
                )
            return t("audit_clear_forum_name", name=player(data.get("player_id")))
        if action == "advance":
            return t("audit_advance", what=ran_text(data, lang))
        if action == "advance_to_midnight":
            return t("audit_advance_to_midnight", what=ran_text(data, lang))
        if action == "extend_deadline":
            minutes = minutes_text(int(data.get("seconds") or 0))
            text = t("audit_extend", n=minutes)
            if data.get("deadline"):
                text += t(
                    "audit_paren", text=t("audit_new_deadline", at=local_time(data["deadline"], tz))
                )
            return text
        if action == "set_publishing":
            bits = []
            if "review" in data:
                bits.append(t("review") + colon + t(f"review_{data['review']}"))
            if "auto_publish_after_seconds" in data:
                secs = data["auto_publish_after_seconds"]
                bits.append(
                    t("auto_publish") + colon + (minutes_text(secs) if secs else t("audit_off"))
                )
            if "language" in data:
                bits.append(t("post_language") + colon + t(f"lang_{data['language']}"))
            return t("audit_set_publishing") + colon + t("list_sep").join(bits)
        if action in ("set_reminders", "set_tally"):
            offsets = data.get("before_seconds") or []
            if not offsets:
                return t(f"audit_{action}_off")
            where = channels.get(str(data.get("channel_id"))) or t("all_channels")
            times = t("list_sep").join(minutes_text(int(x)) for x in offsets)
            return t(f"audit_{action}", times=times, where=where)
        if action == "add_channel":
            kind = pick(lang, *CHANNEL_KINDS.get(str(data.get("kind")), ("", "")))
            return t("audit_add_channel", name=data.get("name") or "", kind=kind)
        if action == "remove_channel":
            return t(
                "audit_remove_channel",
                name=channels.get(str(data.get("channel_id"))) or t("audit_a_channel"),
            )
        if action in (
            "edit_post",
            "approve_post",
            "discard_post",
            "retry_post",
            "post_tally",
            "discard_deliveries",
        ):
            return t(f"audit_{action}", post=post(data.get("post_id")))
        if action == "approve_all":
            return t("audit_approve_all", n=len(data.get("post_ids") or []))
        if action == "mark_posted":
            return t("audit_mark_posted", post=post(data.get("post_id")))
        if action == "set_forum":
            return t("audit_set_forum")
        if action in ("start", "pause", "resume", "archive_game"):
            return t(f"audit_{action}")
        if game_word(ruleset, f"tool.{action}", lang):
            return tool_text(action, data)
        return t("audit_other")

    def tool_text(action: str, data: Mapping[str, Any]) -> str:
        bits = []
        for key, value in data.items():
            if key in ("action", "queue_id", "changes", "story", "players", "restore") or value in (
                None,
                "",
                [],
                {},
            ):
                continue
            label = t(_LABELS[key]) if key in _LABELS else ""
            if key == "side":
                label = ""  # "乙方" / "Side B" says it
            elif key == "to":
                label = t("position")
            if key in ("player", "player_id", "target"):
                shown = player(value)
            elif key == "side":
                shown = side_name(str(value), lang, ruleset)
            elif key == "to" and isinstance(value, list) and len(value) == 2:
                shown = "({},{})".format(*value)
            elif key == "item":
                shown = (items.get(str(value)) or {}).get("name") or (
                    t("food") if value == "food" else t("item")
                )
            elif isinstance(value, bool):
                shown = t("audit_yes") if value else t("audit_no")
            elif isinstance(value, (int, float, str)):
                shown = str(value)
            else:
                continue
            bits.append(f"{label} {shown}" if label else shown)
        name = tool_name(ruleset, action, lang)
        return name + (colon + t("list_sep").join(bits) if bits else "")

    out = []
    for a in reversed(audit):
        payload = a.get("payload") or {}
        out.append(
            {
                "at": local_time(a["at"], tz),
                "actor": t("audit_by_admin")
                if a.get("actor") == "admin"
                else t("audit_by_director"),
                "text": line(str(a["action"]), payload if isinstance(payload, Mapping) else {}),
            }
        )
    return out


def timer_text(timer: Mapping[str, Any], lang: str, ruleset: str = "") -> str:
    """A game timer the director ran, in words: "20:00 的野兽检定", "第 1 回合部署阶段"."""
    t = game_translator(lang, ruleset)
    kind, data = timer.get("kind"), timer.get("data") or {}
    if kind == "monster_check":
        return t("ran_monster_check", time=data.get("time") or timer.get("key") or "")
    if kind == "midnight":
        return t("ran_midnight")
    if kind == "pk":
        return t("ran_pk")
    if kind == "phase" and data.get("phase"):
        phase = phase_name(ruleset, str(data["phase"]), lang)
        if data.get("round"):
            return t("ran_phase", n=data["round"], phase=phase)
        return t("ran_phase_only", phase=phase)
    return t("ran_timer")


def ran_text(advanced: Mapping[str, Any], lang: str) -> str:
    """What an advance ran (``advanced`` as the service answers it, or as it was audited)."""
    t = translator(lang)
    if isinstance(advanced.get("timers"), list):
        done = [timer_text(x, lang) for x in advanced["timers"] if isinstance(x, Mapping)]
        return t("list_sep").join(done) if done else t("ran_nothing")
    if isinstance(advanced.get("timer"), Mapping):
        return timer_text(advanced["timer"], lang)
    return t("ran_close_phase")


# --- director tools -------------------------------------------------------------------------
# Tools that cannot be undone: their forms have a confirmation box the server requires.
IRREVERSIBLE_TOOLS = frozenset({"kill_player", "end_game"})


def tool_forms(
    ruleset: str, schema: Mapping[str, Any] | None, page: Mapping[str, Any], lang: str
) -> list[JSON]:
    """One small form per director action of the ruleset (close_phase is "advance")."""
    t = game_translator(lang, ruleset)
    if not schema:
        return []
    members = variants(schema, "action")
    players = [(p["id"], p["name"]) for p in page.get("roster", [])]
    items = page["settings"].get("items", {})
    out = []
    for action, member in members.items():
        if action in ("close_phase", "resolve_story"):
            continue  # "advance" and the story queue have their own controls
        fields: list[Field] = []
        for name, prop, required in properties(member, schema):
            if name == "action" or (name in _SKIPPED and not required):
                continue
            help_text = str(prop.get("description") or "")
            label = t(_LABELS[name]) if name in _LABELS else name
            if name == "side":
                label = t("side")  # the side the tool acts on, not one joined
            elif name == "to":
                label = t("position")  # the cell a player is put on
            base: dict[str, Any] = {
                "name": name,
                "label": label,
                "required": required,
                "help": "",  # the schema's words are English: the tool's help says it
                "rule": rule_of(help_text),
            }
            if name in ("player", "player_id"):
                options = [("", t("none"))] if not required else []
                field = Field(kind="select", options=options + players, **base)
            elif name == "side":
                field = Field(
                    kind="select",
                    options=[(s, side_name(s, lang, ruleset)) for s in game_pages(ruleset).sides],
                    **base,
                )
            elif name == "item":
                goods = [("food", t("food")), *((k, v.get("name") or k) for k, v in items.items())]
                field = Field(kind="select", options=goods, **base)
            elif name == "to":
                field = Field(kind="list", count=2, minimum=1, **base)
            else:
                field = _generic(prop, base)
            fields.append(field)
        out.append(
            {
                "action": action,
                "name": tool_name(ruleset, action, lang),
                "rule": rule_of(member.get("description")),
                "help": game_word(ruleset, f"tool.{action}.help", lang) or "",
                "fields": fields,
                "confirm": action in IRREVERSIBLE_TOOLS,
            }
        )
    return out


# --- the new-game form ----------------------------------------------------------------------
def is_duration(name: str) -> bool:
    """A phase length: kept in seconds, typed in minutes or hours."""
    return name.endswith("_seconds")


def duration_value(seconds: Any) -> tuple[str, str]:
    """Seconds as the form shows them: (amount, unit in seconds), hours when whole."""
    if seconds is None or seconds == "":
        return "", "3600"
    seconds = float(seconds)
    if seconds % 3600 == 0:
        return f"{seconds / 3600:g}", "3600"
    return f"{seconds / 60:g}", "60"


def durations_in(form: FormData, schema: Mapping[str, Any]) -> FormData:
    """The form with its phase lengths in seconds, as the settings keep them: a browser
    sends ``<name>`` (minutes or hours) and ``<name>.unit`` (60 or 3600); empty is no time
    limit. A length that is not a number above 0 raises ValueError naming the setting."""
    names = [n for n, _, _ in properties(schema, schema) if is_duration(n)]
    items = [(k, v) for k, v in form.multi_items() if k not in names]
    for name in names:
        if f"present.{name}" not in form:
            continue
        raw = str(form.get(name) or "").strip()
        unit = 3600 if str(form.get(f"{name}.unit") or "") == "3600" else 60
        if raw == "":
            items.append((name, "null"))
            continue
        try:
            amount = float(raw)
        except ValueError:
            raise ValueError(name) from None
        if not 0 < amount < float("inf"):
            raise ValueError(name)
        items.append((name, str(round(amount * unit))))
    return FormData(items)


def settings_fields(
    schema: Mapping[str, Any],
    defaults: Mapping[str, Any],
    lang: str,
    typed: Mapping[str, Any] | None = None,
    ruleset: str = "",
) -> tuple[list[Field], list[Field]]:
    """(simple fields, complex fields) of a settings model: every field with its rule ID
    and help in the reader's language, every choice in words; phase lengths in minutes
    or hours; the complex ones (maps, tables) as JSON text areas. ``typed``: what a
    refused form held, shown again instead of the defaults."""
    t = game_translator(lang, ruleset)
    sides = game_pages(ruleset).sides if ruleset else ()
    typed = typed or {}
    refilled = bool(typed)
    simple: list[Field] = []
    complex_: list[Field] = []
    for name, prop, _required in properties(schema, schema):
        if name == "timezone":
            continue  # the form asks for the game's time zone once, for every game
        description = str(prop.get("description") or "")
        label = setting_label(ruleset, name, lang)
        help_text = game_word(ruleset, f"setting.{name}.help", lang) or ""
        base: dict[str, Any] = {
            "name": name,
            "label": label,
            "required": False,
            "help": help_text,
            "rule": rule_of(description),
        }
        default = defaults.get(name)
        current = typed.get(name, default) if refilled else default
        kind = prop.get("type")

        def choice(value: Any, name: str = name) -> str:
            return game_word(ruleset, f"setting.{name}.{value}", lang) or str(value)

        if is_duration(name):
            amount, unit = duration_value(default)
            if refilled and name in typed:
                amount, unit = str(typed[name]), str(typed.get(f"{name}.unit") or unit)
            units = [("60", t("minutes_unit")), ("3600", t("hours_unit"))]
            simple.append(Field(kind="duration", value=(amount, unit), options=units, **base))
        elif isinstance(prop.get("enum"), list):
            options = [(str(v), choice(v)) for v in prop["enum"]]
            simple.append(Field(kind="select", options=options, value=str(current), **base))
        elif kind == "boolean":
            on = name in typed if refilled else bool(default)
            simple.append(Field(kind="checkbox", value=on, **base))
        elif kind in ("integer", "number"):
            simple.append(
                Field(
                    kind="number",
                    value=current,
                    minimum=prop.get("minimum"),
                    maximum=prop.get("maximum"),
                    step="1" if kind == "integer" else "any",
                    **base,
                )
            )
        elif kind == "string":
            simple.append(Field(kind="text", value=current, **base))
        elif (
            kind == "object"
            and isinstance(default, dict)
            and all(isinstance(v, int) for v in default.values())
            and default
        ):
            columns = [
                Field(
                    name=f"{name}.{k}",
                    label=side_name(k, lang, ruleset) if k in sides else k,
                    kind="number",
                    value=typed.get(f"{name}.{k}", v) if refilled else v,
                    minimum=0,
                )
                for k, v in default.items()
            ]
            simple.append(Field(kind="rows", count=1, columns=columns, **base))
        elif kind == "array" and isinstance(
            resolve(prop.get("items", {}), schema).get("enum"), list
        ):
            values = [str(v) for v in resolve(prop["items"], schema)["enum"]]
            if name == "enabled_orders":
                options = [(v, order_name(ruleset, v, lang)) for v in values]
            else:
                options = [(v, choice(v)) for v in values]
            chosen = typed.get(name, []) if refilled else list(default or [])
            chosen = [chosen] if isinstance(chosen, str) else list(chosen)
            simple.append(Field(kind="checkboxes", options=options, value=chosen, **base))
        else:
            text = json.dumps(default, ensure_ascii=False) if default is not None else ""
            complex_.append(
                Field(
                    kind="textarea", value=str(typed.get(name, text)) if refilled else text, **base
                )
            )
    return simple, complex_


# --- publishing: the review queue, posts, channels, settings -----------------------------------
FORMATS = ("bbcode", "markdown", "text")
SOURCE_FORMATS = ("bbcode", "markdown")  # shown as source in a box to copy; text as text
REFRESH_MIN_SECONDS = 2
REFRESH_MAX_SECONDS = 3600


def _seconds_until(value: str | None, now: datetime) -> float | None:
    if not value:
        return None
    return (datetime.fromisoformat(value) - now).total_seconds()


def minutes_text(seconds: int | None) -> str:
    """Seconds as the forms ask for them: minutes, without a needless fraction."""
    if seconds is None:
        return ""
    minutes = seconds / 60
    return str(int(minutes)) if minutes.is_integer() else f"{minutes:g}"


def publishing_console(
    publishing: Mapping[str, Any],
    timers: list[Mapping[str, Any]],
    tz: str,
    now: datetime,
    lang: str,
    channel_schemas: Mapping[str, tuple[Mapping[str, Any], tuple[str, ...]]],
) -> JSON:
    """Everything the console's publishing sections show. ``channel_schemas``: per kind,
    the JSON Schema of its config and its secret fields (the adapters')."""
    t = translator(lang)
    settings = publishing["settings"]
    channels = publishing["channels"]
    names = {c["id"]: c["name"] for c in channels}
    kinds = {c["id"]: c["kind"] for c in channels}
    formats = {c["id"]: c["format"] for c in channels}
    shown_format = channels[0]["format"] if channels else "bbcode"
    queue: list[JSON] = []
    done: list[JSON] = []
    for post in publishing["posts"]:
        entry = _post_entry(post, tz, lang, shown_format, names, kinds, formats)
        (queue if post["status"] == "awaiting_review" else done).append(entry)
    done.reverse()  # newest first; the queue oldest first, in the order to review it
    return {
        "review": settings["review"],
        "settings": {
            "review": settings["review"],
            "auto_minutes": minutes_text(settings["auto_publish_after_seconds"]),
            "language": settings["language"],
        },
        "reminders": {
            "minutes": ", ".join(minutes_text(s) for s in settings["reminders"]["before_seconds"]),
            "channel_id": settings["reminders"]["channel_id"] or "",
        },
        "channels": [_channel_entry(c, lang, channel_schemas) for c in channels],
        "kinds": [
            {
                "kind": kind,
                "label": pick(lang, *CHANNEL_KINDS[kind]),
                "help": marked(pick(lang, *CHANNEL_HELP[kind])),
                "fields": _config_fields(kind, schema, secret, lang),
            }
            for kind, (schema, secret) in channel_schemas.items()
            if kind in CHANNEL_KINDS
        ],
        "queue": queue,
        "posts": done,
        "total": publishing["total"],
        "refresh_in": _refresh_in(publishing["posts"], timers, now),
        "formats": [(f, t(f"format_{f}")) for f in FORMATS],
    }


def _post_entry(
    post: Mapping[str, Any],
    tz: str,
    lang: str,
    shown_format: str,
    names: Mapping[str, str],
    kinds: Mapping[str, str],
    formats: Mapping[str, str],
) -> JSON:
    t = translator(lang)
    bodies = post["bodies"]
    deliveries = []
    for d in post["deliveries"]:
        status = d["status"]
        channel = d["channel_id"]
        fmt = formats.get(channel, "bbcode")
        deliveries.append(
            {
                "id": d["id"],
                "channel": names.get(channel) or t("removed_channel"),
                "kind": pick(lang, *CHANNEL_KINDS.get(kinds.get(channel, ""), ("", ""))),
                "status": status,
                "status_label": t(f"delivery_{status}"),
                "url": d["remote_url"] or "",
                "error": d["error"] or "",
                "attempts": d["attempts"],
                "next": local_time(d["next_attempt_at"], tz) if d["next_attempt_at"] else "",
                # A delivery the director posts by hand: the body in its channel's format.
                "by_hand": status in ("manual", "failed") and channel in names,
                "body": bodies.get(fmt, "") if status in ("manual", "failed") else "",
                "format_label": t(f"body_{fmt}"),
            }
        )
    return {
        "id": post["id"],
        "seq": post["seq"],
        "kind": pick(lang, *POST_KINDS.get(post["kind"], (post["kind"], post["kind"]))),
        "status": post["status"],
        "status_label": t(f"post_status_{post['status']}"),
        "title": post["title"],
        "created": local_time(post["created_at"], tz),
        "publish_at": local_time(post["publish_at"], tz) if post["publish_at"] else "",
        "published": local_time(post["published_at"], tz) if post["published_at"] else "",
        "bodies": [
            {
                "format": f,
                "label": t(f"body_{f}"),
                "text": bodies.get(f, ""),
                "source": f in SOURCE_FORMATS,
                "checked": f == shown_format,
            }
            for f in FORMATS
        ],
        "deliveries": deliveries,
        "failed": any(d["status"] == "failed" for d in post["deliveries"]),
        # As a reader sees it: the Markdown rendered, or else the plain text as text.
        "preview": markdown_preview(bodies["markdown"]) if bodies.get("markdown") else None,
        "preview_text": bodies.get("text", ""),
    }


_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_MD_INLINE = re.compile(r"\*\*(.+?)\*\*|`([^`]*)`|\[([^\]]*)\]\(([^)\s]*)\)|<(https?://[^>\s]+)>")


def _md_inline(text: str) -> Markup:
    """One line of the posts' Markdown as HTML: bold, code, links shown as their text
    (a preview follows no link); every other character escaped."""
    out = Markup("")
    # Backslash escapes first, kept apart from the marks they escape: \x00 + index.
    kept: list[str] = []

    def keep(m: re.Match[str]) -> str:
        kept.append(m.group(1))
        return f"\x00{len(kept) - 1}\x00"

    def back(value: str) -> str:
        return re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m.group(1))], value)

    text = _MD_ESCAPE.sub(keep, text)
    at = 0
    for m in _MD_INLINE.finditer(text):
        out += escape(back(text[at : m.start()]))
        bold, code, label, _url, bare = m.groups()
        if bold is not None:
            out += Markup("<strong>") + _md_inline(back(bold)) + Markup("</strong>")
        elif code is not None:
            out += Markup("<code>") + escape(back(code)) + Markup("</code>")
        elif label is not None:
            out += Markup('<span class="link">') + _md_inline(back(label)) + Markup("</span>")
        else:
            out += Markup('<span class="link">') + escape(back(bare or "")) + Markup("</span>")
        at = m.end()
    return out + escape(back(text[at:]))


def markdown_preview(source: str) -> Markup:
    """A post's Markdown as a reader of Discourse or Misago sees it, for the review
    queue: the blocks the post templates make (headings, paragraphs, lists, tables,
    quotes, code, rules). Everything is escaped; no raw HTML, no link is followed."""
    lines = source.replace("\r\n", "\n").split("\n")
    html: list[Markup] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            i += 1
        elif stripped.startswith("```"):
            block = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                block.append(lines[i])
                i += 1
            i += 1
            html.append(Markup("<pre>") + escape("\n".join(block)) + Markup("</pre>"))
        elif re.fullmatch(r"(-{3,}|\*{3,}|_{3,})", stripped):
            html.append(Markup("<hr>"))
            i += 1
        elif m := re.match(r"(#{1,6})\s+(.*)", stripped):
            level = min(6, len(m.group(1)) + 2)
            html.append(Markup(f"<h{level}>") + _md_inline(m.group(2)) + Markup(f"</h{level}>"))
            i += 1
        elif stripped.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
                    rows.append(cells)
                i += 1
            body = Markup("")
            for n, cells in enumerate(rows):
                tag = "th" if n == 0 else "td"
                body += (
                    Markup("<tr>")
                    + Markup("").join(
                        Markup(f"<{tag}>") + _md_inline(c) + Markup(f"</{tag}>") for c in cells
                    )
                    + Markup("</tr>")
                )
            html.append(
                Markup('<div class="scroll"><table class="list">') + body + Markup("</table></div>")
            )
        elif re.match(r"([-*+]|\d+[.)])\s", stripped):
            numbered = bool(re.match(r"\d", stripped))
            entries = []
            while i < len(lines) and re.match(r"\s*([-*+]|\d+[.)])\s", lines[i]):
                entries.append(re.sub(r"^\s*([-*+]|\d+[.)])\s+", "", lines[i]))
                i += 1
            tag = "ol" if numbered else "ul"
            html.append(
                Markup(f"<{tag}>")
                + Markup("").join(Markup("<li>") + _md_inline(e) + Markup("</li>") for e in entries)
                + Markup(f"</{tag}>")
            )
        elif stripped.startswith(">"):
            quoted = []
            while i < len(lines) and lines[i].strip().startswith(">"):
                quoted.append(_md_inline(lines[i].strip()[1:].lstrip()))
                i += 1
            html.append(
                Markup("<blockquote>") + Markup("<br>").join(quoted) + Markup("</blockquote>")
            )
        else:
            para = []
            while (
                i < len(lines)
                and lines[i].strip()
                and not re.match(r"\s*(#{1,6}\s|```|\||>|[-*+]\s|\d+[.)]\s)", lines[i])
            ):
                para.append(_md_inline(lines[i].strip()))
                i += 1
            if not para:  # a line no rule above took: show it as text
                para.append(_md_inline(stripped))
                i += 1
            html.append(Markup("<p>") + Markup("<br>").join(para) + Markup("</p>"))
    return Markup("").join(html)


def marked(text: str) -> Markup:
    """A help text or label whose `backticked` parts are machine text the director types
    as it is (a key's prefix, a field's name): those in ``<code translate="no">``."""
    parts = text.split("`")
    out = Markup("")
    for i, part in enumerate(parts):
        if i % 2:
            out += Markup('<code translate="no">') + escape(part) + Markup("</code>")
        else:
            out += escape(part)
    return out


def _channel_entry(
    channel: Mapping[str, Any],
    lang: str,
    channel_schemas: Mapping[str, tuple[Mapping[str, Any], tuple[str, ...]]],
) -> JSON:
    """A channel as the list shows it: secrets never (they come back redacted anyway)."""
    t = translator(lang)
    secret = set(channel_schemas.get(channel["kind"], ({}, ()))[1])
    config = [
        (
            marked(pick(lang, *CONFIG_LABELS.get(key, (key, key)))),
            t("secret_set") if key in secret else str(value),
        )
        for key, value in channel["config"].items()
        if value is not None
    ]
    return {
        "id": channel["id"],
        "name": channel["name"],
        "kind": pick(lang, *CHANNEL_KINDS.get(channel["kind"], (channel["kind"],) * 2)),
        "format": t(f"body_{channel['format']}"),
        "config": config,
    }


def _config_fields(
    kind: str, schema: Mapping[str, Any], secret: tuple[str, ...], lang: str
) -> list[Field]:
    """The inputs of one channel kind's config, from its config model's schema. Secrets
    are password inputs, never filled in."""
    fields = []
    for name, prop, required in properties(schema, schema):
        label = marked(pick(lang, *CONFIG_LABELS.get(name, (name, name))))
        numeric = prop.get("type") == "integer"
        fields.append(
            Field(
                name=f"config.{kind}.{name}",
                label=label,
                kind="password" if name in secret else ("number" if numeric else "text"),
                required=required,
                minimum=1 if numeric else None,
                value=None,
            )
        )
    return fields


def _refresh_in(
    posts: list[Mapping[str, Any]], timers: list[Mapping[str, Any]], now: datetime
) -> int | None:
    """When the console should look again by itself: deliveries, auto-publishing and
    reminders change posts without a game event (the stream refreshes the rest)."""
    due: list[float] = []
    blocked: set[str] = set()  # channels held back by a failed delivery (until the director acts)
    for post in posts:
        if post["status"] == "awaiting_review":
            left = _seconds_until(post["publish_at"], now)
            if left is not None:
                due.append(left + 1)
        for d in post["deliveries"]:
            if d["status"] == "failed":
                blocked.add(d["channel_id"])
            if d["channel_id"] in blocked:
                continue
            if d["status"] == "sending":
                due.append(REFRESH_MIN_SECONDS)
            elif d["status"] == "pending":
                left = _seconds_until(d["next_attempt_at"], now)
                due.append(left + 1 if left is not None else REFRESH_MIN_SECONDS)
    for timer in timers:
        if timer.get("kind") == "reminder":
            left = _seconds_until(timer.get("due_at"), now)
            if left is not None:
                due.append(left + 1)
    if not due:
        return None
    return int(max(REFRESH_MIN_SECONDS, min(REFRESH_MAX_SECONDS, min(due))))


# The forum bridge's part of the player's page: the code that links a forum account.
_FORUM_LINK = {
    "title": ("论坛帖子下令", "Orders from the forum thread"),
    "linked": (
        "你的论坛账号：{name}。在帖子里公开发出的公开指令会以你的名义提交，机器人会回帖确认。",
        "Your forum account: {name}. Public orders you post in the thread are submitted as "
        "yours, and the bot answers there.",
    ),
    "how": (
        "在本局的论坛帖子里发一帖「绑定 {code}」，即可把你的论坛账号与本角色绑定（绑定码只能用一次）。",
        "Post “link {code}” in the game's forum thread to link your forum account to this "
        "player (the code works once).",
    ),
    "hidden": (
        "暗令不要发在帖子里：公开发出的暗令不会执行。",
        "Never post hidden orders in the thread: a hidden order posted in public is not executed.",
    ),
    "thread": ("打开帖子", "Open the thread"),
}


def forum_link(link: Mapping[str, Any] | None, lang: str) -> JSON | None:
    """What the player's page says about reading orders from the forum thread."""
    if not link:
        return None

    def say(key: str, **fields: Any) -> str:
        zh, en = _FORUM_LINK[key]
        return pick(lang, zh.format(**fields), en.format(**fields))

    lines = []
    if link.get("forum_name"):
        lines.append(say("linked", name=link["forum_name"]))
    lines.append(say("how", code=link["code"]))
    lines.append(say("hidden"))
    return {
        "title": say("title"),
        "lines": lines,
        "code": link["code"],
        "thread_url": link.get("thread_url"),
        "thread": say("thread"),
    }

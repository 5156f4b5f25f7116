"""The director's console as plain data: the audit log, timers, the director tools and the
new-game form's settings."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from starlette.datastructures import FormData

from app.rules.base import JSON
from app.rules.registry import all_rulesets
from app.web.forms import Field, properties, resolve, rule_of, variants
from app.web.messages import (
    CHANNEL_KINDS,
    game_pages,
    game_translator,
    game_word,
    game_words,
    order_name,
    phase_name,
    pick,
    setting_label,
    side_name,
    tool_name,
    translator,
)
from app.web.views.base import local_time, minutes_text
from app.web.views.game import _LABELS, _SKIPPED, _generic, word_or


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
        if action == "undo":
            return t("audit_undo", reason=str(data.get("reason") or ""))
        if action == "fork":
            return t("audit_fork", step=data.get("at_step", ""))
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
    """A game timer the director ran, in words: "20:00 的野兽检定", "第 1 回合部署阶段" (a
    game names its own timer kinds as ``page.ran_<kind>``)."""
    t = game_translator(lang, ruleset)
    kind, data = timer.get("kind"), timer.get("data") or {}
    when = data.get("time") or timer.get("key") or ""
    own = game_word(ruleset, f"page.ran_{kind}", lang, time=when)  # a game's own timer
    if own:
        return own
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
def irreversible_tool(action: str, ruleset: str = "") -> bool:
    """Whether a director tool cannot be undone (it asks for a confirmation): the game's
    ``Pages.irreversible_tools``; without a game, any game's."""
    games = [ruleset] if ruleset else list(all_rulesets())
    return any(action in game_pages(g).irreversible_tools for g in games)


def tool_forms(
    ruleset: str, schema: Mapping[str, Any] | None, page: Mapping[str, Any], lang: str
) -> list[JSON]:
    """One small form per director action of the ruleset (close_phase is "advance")."""
    t = game_translator(lang, ruleset)
    if not schema:
        return []
    words = game_words(ruleset)
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
            label = (
                t(_LABELS[name]) if name in _LABELS else word_or(words, f"field.{name}", lang, name)
            )
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
                field = _generic(prop, base, [f"tool.{action}.", f"field.{name}."], words, lang)
            fields.append(field)
        out.append(
            {
                "action": action,
                "name": tool_name(ruleset, action, lang),
                "rule": rule_of(member.get("description")),
                "help": game_word(ruleset, f"tool.{action}.help", lang) or "",
                "fields": fields,
                "confirm": irreversible_tool(action, ruleset),
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

"""The console's safety net as plain data: the preview of every irreversible control
("将执行：…"), the undo form with the latest resolutions it would take back, the sandbox."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.rules.base import JSON
from app.web.messages import game_translator, tool_name
from app.web.views.base import local_time
from app.web.views.console import timer_text

MIDNIGHT = "midnight"


def _resolution_text(item: Mapping[str, Any], lang: str, ruleset: str) -> str:
    t = game_translator(lang, ruleset)
    payload = item.get("payload") or {}
    if item.get("kind") == "timer":
        return t("undo_what_timer", what=timer_text(payload, lang, ruleset))
    if item.get("kind") == "director":
        action = str(payload.get("action") or "")
        if action == "close_phase":
            return t("ran_close_phase")
        return t("undo_what_tool", what=tool_name(ruleset, action, lang))
    return t("undo_what_ready")


def safety_view(
    page: Mapping[str, Any],
    game_timers: Sequence[Mapping[str, Any]],
    tools: list[JSON],
    lang: str,
) -> JSON:
    """What the console template needs (the tools get their preview line in place)."""
    summary = page["summary"]
    ruleset, tz = summary["ruleset"], summary["timezone"]
    t = game_translator(lang, ruleset)
    sep = ", " if lang == "en" else "、"
    safety = page.get("safety") or {}
    upto: list[str] = []
    for timer in game_timers:
        upto.append(timer_text(timer, lang, ruleset))
        if timer.get("kind") == MIDNIGHT:
            break
    for tool in tools:
        if tool.get("confirm"):
            tool["preview"] = t("will_do", what=tool["name"])
    recent = [
        t(
            "undo_item",
            n=i,
            what=_resolution_text(item, lang, ruleset),
            at=local_time(item.get("at"), tz),
        )
        for i, item in enumerate(safety.get("recent") or [], start=1)
    ]
    limit, left = safety.get("limit", 0), safety.get("left", 0)
    if limit == 0:
        note = t("undo_disabled_note")
    elif left == 0:
        note = t("undo_none_left", limit=limit)
    else:
        note = t("undo_left", n=left, limit=limit)
    first = recent[0].split(" ", 1)[-1] if recent else ""
    return {
        "advance_preview": t("will_do", what=upto[0] if upto else t("ran_close_phase")),
        "midnight_preview": t("will_do", what=sep.join(upto)),
        "undo": {
            "can": bool(recent) and left > 0 and summary["status"] in ("running", "paused"),
            "recent": recent,
            "count": len(recent),
            "note": note,
            "preview": t("will_undo", what=first) if first else "",
        },
        "sandbox": {
            "is": bool(safety.get("sandbox")),
            "origin": safety.get("forked_from"),
            "at_step": safety.get("forked_at_step"),
            "step": safety.get("step", 0),
        },
    }

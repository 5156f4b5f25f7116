"""The RuleViolation factory (its words are the catalogue's, ``words/errors.py``) and the
texts of the reports events carry (Chinese first, English available)."""

from __future__ import annotations

from typing import Any

from app.rules.base import RuleViolation
from app.rules.island.words.errors import ERRORS

# code -> the HTTP status of the refusal; its words are the catalogue's (``error.<code>``).
STATUS: dict[str, int] = {
    "bad_side": 422,
    "roster_full": 409,
    "bad_roster": 409,
    "unsupported_step": 422,
    "not_running": 409,
    "already_started": 409,
    "bad_order": 422,
    "unknown_order_type": 422,
    "not_found": 404,
    "no_target": 409,
    "dead": 409,
    "not_enough_stamina": 409,
    "off_map": 409,
    "in_pk": 409,
    "flee_forbidden": 409,
    "nothing_to_flee": 409,
    "not_hungry": 409,
    "no_food": 409,
    "more_than_hunger": 409,
    "bad_direction": 422,
    "outside_pk_window": 409,
    "pk_side_full": 409,
    "pk_closed": 409,
    "already_in_pk": 409,
    "self_target": 409,
    "duplicate_order": 409,
    "cannot_change": 409,
    "cannot_withdraw": 409,
    "not_same_cell": 409,
    "no_item": 409,
    "not_weapon": 409,
    "proxy_forbidden": 409,
    "proxy_invalid": 409,
    "unknown_action": 422,
    "bad_action": 422,
    "director_only": 403,
    "story_resolved": 409,
}


def violation(code: str, rule: str | None = None, **fmt: Any) -> RuleViolation:
    status = STATUS[code]
    zh, en = ERRORS[f"error.{code}"]
    return RuleViolation(code, rule, zh.format(**fmt), en.format(**fmt), status=status)


# Report texts used in private/public events (templates render them on the forum).
TEXT: dict[str, tuple[str, str]] = {
    "target_moved": (
        "你的暗杀目标在结算前移动了，你可以更改或撤销（撤销返还体力）。",
        "Your target moved before 24:00: you may change or cancel (cancelling refunds).",
    ),
    "assassinated": ("你在夜里被暗杀身亡。", "You were assassinated in the night."),
    "attempt_failed_on_you": (
        "有人试图暗杀你，但失败了。",
        "Someone tried to assassinate you and failed.",
    ),
    "starved": ("你饿死了。", "You starved to death."),
    "died": ("你死了。", "You died."),
    "held_move": (
        "目标格有人正在剧情/打猎/PK中，移动已挂起。",
        "That cell is busy: your move is held.",
    ),
    "held_move_done": ("挂起的移动已完成。", "Your held move has completed."),
}


def text(key: str, **fmt: Any) -> dict[str, str]:
    zh, en = TEXT[key]
    return {"zh": zh.format(**fmt), "en": en.format(**fmt)}

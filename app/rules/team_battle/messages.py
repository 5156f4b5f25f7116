"""How a refusal or a voided order is raised: its words are the catalogue's
(``words/errors.py``, ``error.<code>``), filled here. Chinese first.

Messages only ever mention the submitting side's own orders and public facts, never the
opponent's hidden information (TB-6; README "Secrets hold").
"""

from __future__ import annotations

from typing import Any

from app.rules.base import RuleViolation
from app.rules.team_battle.kinds import PHASES
from app.rules.team_battle.words.errors import ERRORS
from app.rules.team_battle.words.names import NAMES

# The English phase names as a sentence reads them ("in the deployment phase").
_PHASES_EN_IN_A_SENTENCE: dict[str, str] = {
    "setup": "setup",
    "deployment": "deployment phase",
    "command": "command phase",
    "battle": "battle phase",
    "response": "response window",
    "finished": "end of the game",
}
PHASE_NAMES: dict[str, tuple[str, str]] = {
    phase: (NAMES[f"phase.{phase}"][0], _PHASES_EN_IN_A_SENTENCE[phase]) for phase in PHASES
}


def order_names(order_type: str) -> dict[str, Any]:
    """Format fields naming an order in both languages (an unknown type as itself)."""
    key = f"order.{order_type}"
    zh, en = NAMES[key] if key in NAMES else (order_type, order_type.replace("_", " ").capitalize())
    return {"order": zh, "order_en": en}


# The sides as the rules' original text and every page and post name them (issue 16).
SIDE_NAMES_ZH = {"A": "甲方", "B": "乙方"}


def violation(code: str, rule: str | None, *, status: int = 409, **fields: Any) -> RuleViolation:
    zh, en = ERRORS[f"error.{code}"]
    if "side" in fields:
        fields.setdefault("side_zh", SIDE_NAMES_ZH.get(fields["side"], fields["side"]))
    return RuleViolation(code, rule, zh.format(**fields), en.format(**fields), status=status)


def malformed(detail_zh: str, detail_en: str) -> RuleViolation:
    return violation("bad_order", None, status=422, detail_zh=detail_zh, detail_en=detail_en)

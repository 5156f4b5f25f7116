"""Game-specific request bodies, checked against the game's own ruleset before any step.

The body of ``POST /orders`` or ``POST /director/actions`` depends on the game's ruleset,
which is known only once the game is loaded, so FastAPI cannot check it; this module does,
with the ruleset's :class:`~app.rules.base.BodyModel`. A malformed body is a 422 that names
each field and what is wrong with it, Chinese first, and changes nothing.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import ErrorDetails

from app.errors import AppError
from app.rules.base import Ruleset, RuleViolation

# What a player reads for pydantic's most common error types (the rest fall back to
# pydantic's English message). ``{…}`` are filled from the error's context.
_ZH: dict[str, str] = {
    "missing": "缺少该字段",
    "extra_forbidden": "不允许的字段",
    "int_type": "必须是整数",
    "float_type": "必须是数字",
    "finite_number": "必须是有限的数字",
    "string_type": "必须是字符串",
    "bool_type": "必须是 true 或 false",
    "list_type": "必须是列表",
    "dict_type": "必须是对象",
    "model_type": "必须是对象",
    "model_attributes_type": "必须是对象",
    "literal_error": "必须是以下之一：{expected}",
    "greater_than_equal": "不能小于 {ge}",
    "less_than_equal": "不能大于 {le}",
    "greater_than": "必须大于 {gt}",
    "less_than": "必须小于 {lt}",
    "too_short": "至少需要 {min_length} 项",
    "too_long": "最多 {max_length} 项",
    "string_too_short": "不能为空",
    "string_too_long": "最长 {max_length} 个字符",
    "union_tag_invalid": "未知的类型 {tag}（可选：{expected_tags}）",
    "union_tag_not_found": "缺少 {discriminator} 字段",
}


def check_order(ruleset: Ruleset, body: Any) -> None:
    """422 ``invalid_order`` unless ``body`` is one of the ruleset's orders (or the rule a
    field's value breaks, where the model names one: a diagonal move, IS-10)."""
    try:
        found = ruleset.order_model.problems(body)
    except RuleViolation as violation:
        raise AppError.from_violation(violation) from None
    if found:
        raise _problem(found, "invalid_order", "指令", "order")


def check_director_action(ruleset: Ruleset, body: Any) -> None:
    """422 unless ``body`` is one of the ruleset's director actions: ``unknown_action``
    when its ``action`` names none, else ``invalid_action``."""
    try:
        found = ruleset.director_action_model.problems(body)
    except RuleViolation as violation:
        raise AppError.from_violation(violation) from None
    if found:
        unknown = any(e["type"].startswith("union_tag_") and not e["loc"] for _, e in found)
        code = "unknown_action" if unknown else "invalid_action"
        raise _problem(found, code, "导演操作", "director action")


def _problem(
    found: list[tuple[str, ErrorDetails]], code: str, what_zh: str, what_en: str
) -> AppError:
    zh = "；".join(f"{where}：{_message_zh(e)}" if where else _message_zh(e) for where, e in found)
    en = "; ".join(f"{where}: {_message_en(e)}" if where else _message_en(e) for where, e in found)
    return AppError(
        422,
        code,
        f"{what_zh}格式有误：{zh}。",
        f"Malformed {what_en}: {en}.",
        extra={"errors": [f"{where or '(body)'}: {_message_en(e)}" for where, e in found]},
    )


def _message_en(error: ErrorDetails) -> str:
    return error["msg"].removeprefix("Value error, ")


def _message_zh(error: ErrorDetails) -> str:
    template = _ZH.get(error["type"])
    if template is None:
        return _message_en(error)
    try:
        ctx = {k: str(v).replace("'", "") for k, v in error.get("ctx", {}).items()}
        return template.format(**ctx)
    except (KeyError, IndexError):
        return _message_en(error)

"""Typed errors that carry their HTTP status, rendered as application/problem+json.

Every message a player may read exists in Chinese (first) and English; the language is
chosen from Accept-Language per request.
"""

from __future__ import annotations

from typing import Any

from app.rules.base import RuleViolation


class AppError(Exception):
    def __init__(
        self,
        status: int,
        code: str,
        message_zh: str,
        message_en: str,
        rule: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{code}: {message_en}")
        self.status = status
        self.code = code
        self.message_zh = message_zh
        self.message_en = message_en
        self.rule = rule
        self.extra = extra or {}

    @classmethod
    def from_violation(cls, violation: RuleViolation) -> AppError:
        return cls(
            violation.status,
            violation.code,
            violation.message_zh,
            violation.message_en,
            rule=violation.rule,
            extra=violation.extra,
        )


TITLES: dict[int, tuple[str, str]] = {
    400: ("请求有误", "Bad request"),
    401: ("需要有效的令牌", "Authentication required"),
    403: ("无权执行此操作", "Forbidden"),
    404: ("未找到", "Not found"),
    409: ("与规则或当前阶段冲突", "Conflict with the rules or the current phase"),
    422: ("请求内容格式有误", "Malformed request"),
    429: ("请求过于频繁", "Too many requests"),
    500: ("服务器内部错误", "Internal server error"),
}


def prefers_english(accept_language: str | None) -> bool:
    """Chinese unless the client's first preference is English."""
    if not accept_language:
        return False
    best_lang, best_q = "", -1.0
    for part in accept_language.split(","):
        piece = part.strip()
        if not piece:
            continue
        lang, _, params = piece.partition(";")
        q = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                q = float(params[2:])
            except ValueError:
                q = 0.0
        if q > best_q:
            best_lang, best_q = lang.strip().lower(), q
    return best_lang.startswith("en")


def problem(error: AppError, english: bool) -> dict[str, Any]:
    title_zh, title_en = TITLES.get(error.status, ("错误", "Error"))
    body: dict[str, Any] = {
        "type": f"/problems/{error.code}",
        "title": title_en if english else title_zh,
        "status": error.status,
        "detail": error.message_en if english else error.message_zh,
        "code": error.code,
    }
    if error.rule:
        body["rule"] = error.rule
    body.update(error.extra)
    return body


def not_found(what_zh: str = "游戏", what_en: str = "game") -> AppError:
    return AppError(404, "not_found", f"找不到该{what_zh}。", f"No such {what_en}.")


def unauthorized() -> AppError:
    return AppError(401, "unauthorized", "缺少令牌或令牌无效。", "Missing or invalid token.")


def forbidden(message_zh: str, message_en: str, code: str = "forbidden") -> AppError:
    return AppError(403, code, message_zh, message_en)


def conflict(code: str, message_zh: str, message_en: str, rule: str | None = None) -> AppError:
    return AppError(409, code, message_zh, message_en, rule=rule)

"""The accounts' refusals, Chinese first (``AppError``)."""

from __future__ import annotations

from app.errors import AppError


def not_signed_in() -> AppError:
    return AppError(
        401,
        "not_signed_in",
        "请先用通行密钥登录账户。",
        "Sign in to your account with a passkey first.",
    )


def passkey_failed() -> AppError:
    return AppError(
        400,
        "passkey_failed",
        "通行密钥验证未通过，请重试。",
        "The passkey could not be verified; please try again.",
    )


def ceremony_expired() -> AppError:
    return AppError(
        400,
        "passkey_expired",
        "这次登录或注册已过期，请重新开始。",
        "This sign-in or registration has expired; please start again.",
    )


def recovery_failed() -> AppError:
    return AppError(
        401,
        "recovery_code_invalid",
        "恢复码无效或已被使用。",
        "That recovery code is invalid or has already been used.",
    )


def too_many_attempts(seconds: int) -> AppError:
    return AppError(
        429,
        "too_many_sign_in_attempts",
        f"登录尝试过于频繁，请 {seconds} 秒后再试。",
        f"Too many sign-in attempts; try again in {seconds} seconds.",
    )


def bad_scopes() -> AppError:
    return AppError(
        422,
        "invalid_scopes",
        "令牌权限只能是 read（查看）、play（行动）、direct（主持）中的一项或多项。",
        "A token's scopes are one or more of read, play and direct.",
    )


def scope_forbidden() -> AppError:
    return AppError(
        403,
        "token_scope",
        "这个个人令牌没有做这件事的权限。",
        "This personal token's scopes do not allow this.",
    )


def record_not_shared() -> AppError:
    return AppError(
        404,
        "record_not_shared",
        "这位玩家没有账户，或没有公开其游戏记录。",
        "This player has no account, or does not share their record.",
    )


def name_needed() -> AppError:
    return AppError(
        422, "name_needed", "请填写名字：导演会看到它。", "Please give a name: directors see it."
    )

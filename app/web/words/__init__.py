"""The web shell's own catalogue: the generic words of every page, key -> (zh, en). Words
only one game uses live in that game's catalogue (``app.rules.<game>.words``)."""

from __future__ import annotations

from app.web.words.accounts import ACCOUNT_WORDS
from app.web.words.console import CONSOLE_WORDS
from app.web.words.pages import PAGE_WORDS
from app.web.words.publishing import CHANNEL_HELP, CHANNEL_KINDS, CONFIG_LABELS, POST_KINDS
from app.web.words.safety import SAFETY_WORDS
from app.web.words.signups import SIGNUP_WORDS

UI: dict[str, tuple[str, str]] = {
    **PAGE_WORDS,
    **CONSOLE_WORDS,
    **SAFETY_WORDS,
    **SIGNUP_WORDS,
    **ACCOUNT_WORDS,
}

__all__ = ["CHANNEL_HELP", "CHANNEL_KINDS", "CONFIG_LABELS", "POST_KINDS", "UI"]

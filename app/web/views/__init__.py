"""View models: plain data for the templates, built from what the page services return.

Templates stay dumb: every decision (what to show, which label, which choices a form
offers, how a time reads in the game's zone) is made here, in pure functions; what only a
game knows comes from its ``Pages`` (see :mod:`app.kit.pages`).
"""

from __future__ import annotations

from app.web.views.base import duration, local_time, minutes_text, remaining
from app.web.views.chat import chat_console, chat_link
from app.web.views.console import (
    audit_lines,
    duration_value,
    durations_in,
    irreversible_tool,
    is_duration,
    ran_text,
    settings_fields,
    timer_text,
    tool_forms,
)
from app.web.views.game import FEED_SHOWN, feed, header, order_forms
from app.web.views.publishing import (
    FORMATS,
    SOURCE_FORMATS,
    forum_link,
    markdown_preview,
    marked,
    publishing_console,
)

__all__ = [
    "FEED_SHOWN",
    "FORMATS",
    "SOURCE_FORMATS",
    "audit_lines",
    "chat_console",
    "chat_link",
    "duration",
    "duration_value",
    "durations_in",
    "feed",
    "forum_link",
    "header",
    "irreversible_tool",
    "is_duration",
    "local_time",
    "markdown_preview",
    "marked",
    "minutes_text",
    "order_forms",
    "publishing_console",
    "ran_text",
    "remaining",
    "settings_fields",
    "timer_text",
    "tool_forms",
]

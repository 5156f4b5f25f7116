"""Times as a game's players read them (in the game's zone), and what the view modules share."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

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


def minutes_text(seconds: int | None) -> str:
    """Seconds as the forms ask for them: minutes, without a needless fraction."""
    if seconds is None:
        return ""
    minutes = seconds / 60
    return str(int(minutes)) if minutes.is_integer() else f"{minutes:g}"

"""The page's event feed and where its live stream resumes."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from app.web.views import feed


def _page(event_seqs: list[int], game_event_seq: int | None) -> dict[str, Any]:
    at = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    page: dict[str, Any] = {
        "events": [
            {"seq": s, "at": at, "kind": "game_resumed", "data": {}, "audience": ["public"]}
            for s in event_seqs
        ],
        "summary": {"timezone": "Asia/Shanghai", "ruleset": "team_battle"},
        "names": {},
    }
    if game_event_seq is not None:
        page["event_seq"] = game_event_seq
    return page


def test_the_stream_resumes_after_the_game_row_the_page_was_built_from() -> None:
    """An event committed between the page's reads (its game row first, its events last)
    is in the feed but not in the view: the stream must send it again, so the page
    refreshes instead of keeping an old deadline."""
    assert feed(_page([1, 2, 3], game_event_seq=2), "zh")["after"] == 2
    assert feed(_page([1, 2, 3], game_event_seq=3), "zh")["after"] == 3
    assert feed(_page([], game_event_seq=3), "zh")["after"] == 0
    assert feed(_page([1, 2], game_event_seq=None), "zh")["after"] == 2

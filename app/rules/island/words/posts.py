"""The words of this game's posts: ``post.<...>`` (zh, en)."""

from __future__ import annotations

POSTS: dict[str, tuple[str, str]] = {}

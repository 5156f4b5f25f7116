"""The words of this game's page parts: ``page.<...>`` (zh, en)."""

from __future__ import annotations

PAGES: dict[str, tuple[str, str]] = {}

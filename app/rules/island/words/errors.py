"""Refusals and voided orders: ``error.<code>`` (zh, en)."""

from __future__ import annotations

ERRORS: dict[str, tuple[str, str]] = {}

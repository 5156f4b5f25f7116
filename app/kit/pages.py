"""A game's page parts (owned by the web layer's redesign): protocol and kit defaults."""

from __future__ import annotations

from typing import Protocol


class Pages(Protocol):
    """Placeholder: the page-part protocol is defined here."""

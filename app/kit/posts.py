"""A game's posts (owned by the publishing redesign): protocol and kit defaults."""

from __future__ import annotations

from typing import Protocol


class Posts(Protocol):
    """Placeholder: the post-builder protocol is defined here."""

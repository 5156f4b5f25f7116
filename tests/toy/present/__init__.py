"""The toy duel as people see it: its words, page parts, posts and receipts.

Imports only its own core (``tests.toy``), its words and the kit (``app.kit``). A part whose
kit protocol is not on this branch yet is left to the kit's default (``None``).
"""

from __future__ import annotations

import importlib
from typing import Any

from app.kit import Presentation
from tests.toy.engine import NAME
from tests.toy.words import WORDS


def _part(module: str, name: str) -> Any:
    """``tests.toy.present.<module>.<name>``, or None while the kit cannot take it yet."""
    try:
        return getattr(importlib.import_module(f"{__name__}.{module}"), name)
    except ImportError:
        return None


PRESENTATION = Presentation(
    name=NAME,
    words=WORDS,
    pages=_part("pages", "PAGES"),
    posts=_part("posts", "POSTS"),
    sealer=_part("receipts", "SEALER"),
    facts={"title": WORDS["page.title"]},
)

__all__ = ["PRESENTATION"]

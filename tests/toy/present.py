"""The toy duel as people see it: its words, and (as the kit's protocols land) its page parts,
posts and receipts. Imports only its own core, its words and the kit."""

from __future__ import annotations

from app.kit import Presentation
from tests.toy.engine import NAME
from tests.toy.words import WORDS

PRESENTATION = Presentation(
    name=NAME,
    words=WORDS,
    facts={"title": WORDS["game.title"]},
)

__all__ = ["PRESENTATION"]

"""The toy duel as people see it: its words, page parts, posts and receipts.

Imports only its own core (``tests.toy``), its words and the kit (``app.kit``). A part whose
kit protocol is not on this branch yet is left to the kit's default (``None``).
"""

from __future__ import annotations

from typing import Any

from app.kit import Presentation
from tests.toy.engine import NAME
from tests.toy.words import WORDS

POSTS: Any = None
SEALER: Any = None
PAGES: Any = None
try:
    from tests.toy.present.posts import POSTS
    from tests.toy.present.receipts import SEALER
except ImportError:  # the kit's posts and receipts protocols are not on this branch yet
    pass
try:
    from tests.toy.present.pages import PAGES
except ImportError:  # the kit's page protocol is not on this branch yet
    pass

PRESENTATION = Presentation(
    name=NAME,
    words=WORDS,
    pages=PAGES,
    posts=POSTS,
    sealer=SEALER,
    facts={"title": WORDS["game.title"]},
)

__all__ = ["PRESENTATION"]

"""The Other Side as people see it: its page parts, posts, words and receipts.

Imports only its own rules core, its words and the neutral kit (``app.kit``).
"""

from __future__ import annotations

from app.kit import Presentation
from app.rules.island.present.pages import PAGES
from app.rules.island.present.posts import POSTS
from app.rules.island.present.receipts import SEALER
from app.rules.island.words import WORDS

PRESENTATION = Presentation(name="island", words=WORDS, pages=PAGES, posts=POSTS, sealer=SEALER)

__all__ = ["PRESENTATION"]

"""Team Battle as people see it: its page parts, posts, words and receipts.

Imports only its own rules core, its words and the neutral kit (``app.kit``).
"""

from __future__ import annotations

from app.kit import Presentation
from app.rules.team_battle.present.pages import PAGES
from app.rules.team_battle.present.posts import POSTS
from app.rules.team_battle.present.receipts import SEALER
from app.rules.team_battle.words import WORDS

PRESENTATION = Presentation(
    name="team_battle", words=WORDS, pages=PAGES, posts=POSTS, sealer=SEALER
)

__all__ = ["PRESENTATION"]

"""The Other Side's one catalogue: every word a person reads of this game, key -> (zh, en).

The keys are namespaced as :mod:`app.kit.words` says. Its parts are split by who writes them;
``WORDS`` is all of them, and a test checks it names every order, phase, event, setting and
tool the game declares, in both languages.
"""

from __future__ import annotations

from app.rules.island.words.errors import ERRORS
from app.rules.island.words.names import NAMES
from app.rules.island.words.pages import PAGES
from app.rules.island.words.posts import POSTS

WORDS: dict[str, tuple[str, str]] = {**NAMES, **ERRORS, **PAGES, **POSTS}

__all__ = ["WORDS"]

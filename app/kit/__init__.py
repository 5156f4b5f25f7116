"""The neutral kit between the shell and the games' presentations.

A game is two things: its pure rules core (``app.rules.<game>``, the :class:`~app.rules.base.
Ruleset`) and its presentation (``app.rules.<game>.present``, a :class:`Presentation`): what a
person sees of it — its page parts, its posts, its words and the sealing of its hidden orders
into receipts. The shell (``app.web``, ``app.publish``, ``app.services``, ``app.bridge``,
``app.api``, ``app.cli``) asks the registry (:mod:`app.rules.registry`) for both and never names
a game. A game that leaves a part out gets the kit's default for it, so a new game works (plainly)
before it says anything of its own.

The kit imports nothing of the shell, nothing of any game and nothing of ``app.rules``: what it
reads of an event or an actor it names as a protocol of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.kit.pages import Pages
    from app.kit.posts import Posts
    from app.kit.receipts import Sealer

from app.kit.words import Words


@dataclass(frozen=True)
class Presentation:
    """One game's presentation. ``name`` is its ruleset's name.

    - ``words``: the game's one catalogue, key -> (Chinese, English) (see :mod:`app.kit.words`);
    - ``pages``: its page parts (board or map, stats, order widgets, console tables, odds);
    - ``posts``: its post builders and post templates in the three formats;
    - ``sealer``: which of its hidden orders a phase close seals into receipts.

    ``None`` for a part means the kit's default (see each part's module).
    """

    name: str
    words: Words = field(default_factory=dict)
    pages: Pages | None = None
    posts: Posts | None = None
    sealer: Sealer | None = None
    # Free-form facts the game offers the shell (e.g. its title in both languages).
    facts: Mapping[str, object] = field(default_factory=dict)


__all__ = ["Presentation", "Words"]

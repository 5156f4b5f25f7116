"""Registering the toy duel with the registry for a test, and taking it away after."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from app.rules.registry import register
from tests.toy.engine import RULESET
from tests.toy.present import PRESENTATION


@contextmanager
def toy_registered() -> Iterator[str]:
    """The toy game is a game type while the block runs; its name is what it yields."""
    unregister = register(RULESET, PRESENTATION)
    try:
        yield RULESET.name
    finally:
        unregister()

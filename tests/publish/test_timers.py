"""A game's deadline timers (app/publish/timers.py): the kinds are read from the registered
game types when used, so a game registered at run time has its deadline recognised too."""

from __future__ import annotations

from types import SimpleNamespace

from app.publish.timers import DEADLINE_TIMER_KINDS
from app.rules.registry import register


def test_a_registered_games_declared_deadline_timer_kinds_count() -> None:
    before = tuple(DEADLINE_TIMER_KINDS)
    assert "toy_round_close" not in DEADLINE_TIMER_KINDS
    game = SimpleNamespace(name="deadline_toy", deadline_timer_kinds=("toy_round_close",))
    unregister = register(game)  # type: ignore[arg-type]
    try:
        assert "toy_round_close" in DEADLINE_TIMER_KINDS
        assert tuple(DEADLINE_TIMER_KINDS) == (*before, "toy_round_close")
        assert len(DEADLINE_TIMER_KINDS) == len(before) + 1
    finally:
        unregister()
    assert tuple(DEADLINE_TIMER_KINDS) == before

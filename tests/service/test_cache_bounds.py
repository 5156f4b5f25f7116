"""A server's caches of game data stay within their bounds: count and bytes, for the states,
their text, and the settings, however many games it serves."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from app.models import Game
from app.services import state_cache
from app.services.recent import Recent


def test_the_oldest_go_first_and_the_newest_stays_even_alone_over_the_budget() -> None:
    gone: list[str] = []
    kept: Recent[str, int] = Recent(3, budget=100, evicted=lambda key, _: gone.append(key))
    for i in range(4):
        kept.put(f"k{i}", i, 10)
    assert gone == ["k0"] and len(kept) == 3 and kept.weight == 30
    assert kept.get("k1") == 1  # used: now the newest
    kept.put("k4", 4, 85)
    assert gone == ["k0", "k2", "k3"]  # k1 was used since: it outlives the older two
    assert kept.get("k1") == 1 and kept.weight == 95
    kept.put("k5", 5, 500)  # alone over the budget: what was just written is kept
    assert len(kept) == 1 and kept.get("k5") == 5 and kept.weight == 500
    assert kept.pop("k5") == 5 and kept.weight == 0 and gone[3:] == ["k4", "k1"]  # not "gone"
    nothing: Recent[str, int] = Recent(0)
    nothing.put("k", 1, 1)
    assert nothing.get("k") is None


@pytest.fixture
def small_cache(monkeypatch: pytest.MonkeyPatch) -> Iterator[state_cache.StateCache]:
    held = state_cache.StateCache(size=1000, check=True, budget=50_000)
    monkeypatch.setattr(state_cache, "_cache", held)
    yield held


def _settings(i: int) -> dict[str, Any]:
    return {"scenario": f"s{i}", "zones": [{"name": f"zone {i}-{z}"} for z in range(400)]}


def test_settings_are_held_within_the_byte_budget(small_cache: state_cache.StateCache) -> None:
    """Hundreds of games with 10 KiB of settings each: the settings kept are the newest,
    within the budget, and a game whose settings are held gets them without a read."""
    size = len(orjson.dumps(_settings(0)))
    assert size > 8_000
    for i in range(200):
        settings = _settings(i)
        game = Game(id=f"g{i}", settings_hash=state_cache.settings_hash(settings))
        state_cache.adopt_settings(game, settings, {})
        assert game.settings == settings
    assert small_cache.settings.weight <= 50_000
    assert len(small_cache.settings) == 50_000 // size
    newest = _settings(199)
    assert state_cache.pinned_settings("g199") == {state_cache.settings_hash(newest): newest}
    assert state_cache.pinned_settings("g0") == {}  # long gone: read again when next needed
    again = Game(id="g199", settings_hash=state_cache.settings_hash(newest))
    state_cache.adopt_settings(again, None, state_cache.pinned_settings("g199"))
    assert again.settings == newest


def test_the_text_of_the_states_written_is_held_within_the_byte_budget(
    small_cache: state_cache.StateCache,
) -> None:
    large = {"players": {f"p{i}": {"name": "x" * 40, "hp": i} for i in range(400)}}
    for i in range(20):
        text = state_cache.state_text(f"g{i}", {**large, "turn": i})
        assert orjson.loads(text)["turn"] == i
    assert len(text) > 16_000
    assert 0 < small_cache.pieces.weight <= 50_000
    assert len(small_cache.pieces) == 50_000 // len(text)


def test_settings_orjson_cannot_write_are_held_too(small_cache: state_cache.StateCache) -> None:
    """A director may put any JSON number in the settings, one beyond 64 bits too."""
    settings = {"scenario": "big", "seed_bonus": 2**70}
    game = Game(id="big", settings_hash=state_cache.settings_hash(settings))
    state_cache.adopt_settings(game, settings, {})
    assert game.settings == settings
    assert state_cache.pinned_settings("big") == {game.settings_hash: settings}

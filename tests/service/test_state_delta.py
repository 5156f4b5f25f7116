"""``state_delta``: a state rebuilt from its base and the delta is, text for text, the state
the delta was taken of; and ``state_bytes`` pieced together from what it wrote last time
is, byte for byte, ``serialize_state``'s text."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.services import state_cache, state_delta, state_text
from app.services.state_text import Pieces, serialize_state, state_bytes

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1e-05, 1e-9, 0.0, -0.0, 1.0, 1, True, "Zone-1", "e-5", "3e+7"]),
    st.text(max_size=6),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


def a_state(players: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    return {"settings": {"w": 3}, "players": players, "order": list(players), **extra}


base_states = st.builds(
    a_state,
    st.dictionaries(st.text(min_size=1, max_size=5), values, min_size=0, max_size=60),
    st.dictionaries(st.sampled_from(["day", "log", "seq"]), values, max_size=3),
)


@st.composite
def changes(draw: st.DrawFn, base: dict[str, Any]) -> dict[str, Any]:
    """A step's result: what it did not touch shared with ``base``, the rest changed."""
    new = dict(base)
    players = dict(base["players"])
    for key in draw(st.lists(st.sampled_from(sorted(players) or ["x"]), max_size=5)):
        action = draw(st.sampled_from(["set", "del", "same_copy", "readd"]))
        if action == "set":
            players[key] = draw(values)
        elif action == "del":
            players.pop(key, None)
        elif action == "same_copy" and key in players:
            players[key] = copy.deepcopy(players[key])  # read, copied, not changed
        elif key in players:
            players[key] = players.pop(key)  # moved to the end
    for key in draw(st.lists(st.text(min_size=1, max_size=5), max_size=3)):
        players[key] = draw(values)
    new["players"] = players
    if draw(st.booleans()):
        new["day"] = draw(values)
    if draw(st.booleans()):
        new.pop("order")
        new["order"] = list(players)
    return new


def text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_apply_gives_back_the_state_the_delta_was_taken_of(data: st.DataObject) -> None:
    base = data.draw(base_states)
    before = text(base)
    state = base
    for _ in range(data.draw(st.integers(1, 4))):  # deltas accumulate against one base
        state = data.draw(changes(state))
        delta = state_delta.diff(base, state)
        # The delta survives being stored (JSON) and the rebuild is the very same text.
        stored = json.loads(text(delta))
        assert text(state_delta.apply(base, stored)) == text(state)
    assert text(base) == before  # neither diff nor apply touched the base


def test_strict_sameness_tells_apart_what_json_writes_apart() -> None:
    assert not state_delta.same(1, 1.0) and not state_delta.same(1, True)
    assert not state_delta.same(0.0, -0.0)
    assert not state_delta.same({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert state_delta.same({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]})


def test_an_unchanged_state_has_an_empty_delta_and_a_copy_is_not_a_change() -> None:
    players = {f"p{i}": {"hp": i, "items": [1.5, "x"]} for i in range(40)}
    base = a_state(players, {"day": 1})
    assert state_delta.diff(base, base) == {}
    copied = copy.deepcopy(base)
    assert state_delta.diff(base, copied) == {}
    copied["players"]["p3"]["hp"] = 99
    assert state_delta.diff(base, copied) == {
        "in": {"players": {"set": {"p3": copied["players"]["p3"]}}}
    }


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_pieced_text_is_serialize_state_text(data: st.DataObject) -> None:
    # Piecewise from the first byte (the drawn states are small: they would go whole).
    threshold = data.draw(st.sampled_from([0, state_text.PIECEWISE_TEXT_MIN]))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(state_text, "PIECEWISE_TEXT_MIN", threshold)
        pieces = Pieces()
        state = data.draw(base_states)
        for _ in range(data.draw(st.integers(1, 4))):
            assert state_bytes(state, pieces) == serialize_state(state).encode("utf-8")
            assert pieces.size == len(serialize_state(state).encode("utf-8"))
            state = data.draw(changes(state))


def test_a_piece_json_would_spell_otherwise_is_spelt_as_json_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(state_text, "PIECEWISE_TEXT_MIN", 0)
    players = {f"p{i}": {"x": 1e-05 if i == 3 else i, "name": f"Zone-{i}"} for i in range(40)}
    state = a_state(players, {"big": 2**70, "tiny": 1e-9})
    pieces = Pieces()
    assert state_bytes(state, pieces) == text(state).encode()
    state = {**state, "players": {**players, "p5": {"x": 5e-324}}}
    assert state_bytes(state, pieces) == text(state).encode()


def test_a_small_state_is_encoded_whole_and_a_large_one_keeps_its_pieces() -> None:
    small = a_state({f"p{i}": {"hp": i} for i in range(40)}, {})
    pieces = Pieces()
    state_bytes(small, pieces)  # the first time: piece by piece, its size learnt
    assert state_bytes(small, pieces) == text(small).encode()
    assert pieces.size < state_text.PIECEWISE_TEXT_MIN and pieces.weight == 0
    large = a_state({f"p{i}": {"hp": i, "name": "x" * 40} for i in range(400)}, {})
    pieces = Pieces()
    for _ in range(2):
        assert state_bytes(large, pieces) == text(large).encode()
        assert pieces.size > state_text.PIECEWISE_TEXT_MIN
        assert 0.9 * pieces.size < pieces.weight <= pieces.size  # every player's text held


def test_the_cache_keeps_states_within_its_byte_budget() -> None:
    """Counted in bytes of text: many small states fit where a few large ones do."""
    held = state_cache.StateCache(size=1000, budget=10_000)
    for i in range(20):
        state = {"n": i}
        held.put(f"g{i}", f"h{i}", state, state_cache.Base(f"h{i}", state), 1_000)
    assert held.weight == 10_000
    assert sorted(held.pinned([f"g{i}" for i in range(20)])) == [f"h{i}h{i}" for i in range(10, 20)]
    large = {"n": "large"}
    held.put("big", "hb", large, state_cache.Base("other", {"n": 0}), 4_000)  # and its base
    assert held.weight <= 10_000
    assert "hbother" in held.pinned(["big"]) and len(held.pinned([f"g{i}" for i in range(20)])) == 2
    held.put("big", "hb", large, state_cache.Base("other", {"n": 0}), 4_000)  # again: once
    assert held.weight == 8_000 + 2_000
    held.put("huge", "hh", large, state_cache.Base("hh", large), 50_000)  # alone over it
    assert list(held.pinned(["huge", "big"])) == ["hhhh"] and held.weight == 50_000


row_values = st.recursive(
    st.one_of(
        scalars,
        st.datetimes(timezones=st.sampled_from([None, UTC, timezone(timedelta(hours=8))])),
    ),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


def _iso(value: Any) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(type(value).__name__)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.text(max_size=4), row_values, max_size=5), max_size=4))
def test_a_batch_rows_text_is_json_text(rows: list[dict[str, Any]]) -> None:
    """The rows a batch sends PostgreSQL are stored as written (``json``): orjson's text
    must be json's, datetimes as ``isoformat()``, or json writes them."""
    expected = json.dumps(rows, default=_iso, ensure_ascii=False, separators=(",", ":"))
    assert state_text.rows_text(rows, _iso) == expected


def test_a_delta_padded_to_its_size_class_reads_back_the_same() -> None:
    """SQLite keeps a step's row the same size while the delta stays in its class."""
    for delta in ({"players": {"p1": {"name": "林" * 10}}}, {"log": ["岛" * 3000]}):
        written = serialize_state(delta)
        padded = state_cache.padded_delta(written)
        size = len(padded.encode("utf-8"))
        assert size >= state_cache.DELTA_PAD_MIN_BYTES and size & (size - 1) == 0
        assert size >= len(written.encode("utf-8")) and json.loads(padded) == delta
    small = state_cache.padded_delta(serialize_state({"a": 1}))
    assert len(small) == len(state_cache.padded_delta(serialize_state({"a": 12345})))
    assert state_cache.padded_delta(None) is None

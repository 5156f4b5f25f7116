"""A state as the text stored (and hashed): ``serialize_state``, re-exported by
``app.services.steps``."""

from __future__ import annotations

import hashlib
import itertools
import json
import operator
import re
from typing import Any

import orjson

from app.models import SerializedJSON


def hash_text(text: str) -> str:
    """The SHA-256 of a stored text (a step's ``state_hash``)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def serialize_state(state: Any) -> SerializedJSON:
    """The state as stored: key order kept (the engine's own), so what is read back and
    what replay computes are the same document.

    The text is ``json.dumps(state, ensure_ascii=False, separators=(",", ":"))``, byte for
    byte (the stored steps' hashes are of it). orjson writes the same text ten times
    faster except for what it refuses (an integer beyond 64 bits, a non-string key, a lone
    surrogate, anything not plain JSON) and for floats it spells otherwise (a one-digit
    exponent, ``0.00001`` for ``1e-05``). Those go the slow way, as does any text that
    merely looks like one. (NaN and infinities, which are not JSON and which
    PostgreSQL refuses, would be written ``null``.)"""
    return SerializedJSON(_as_json_writes(state, _ORJSON_STRICT, None))


def rows_text(rows: Any, default: Any) -> str:
    """``json.dumps(rows, default=default, ensure_ascii=False, separators=(",", ":"))``,
    the same text, by orjson where its text is the same (datetimes included: both write
    ``isoformat()``)."""
    return _as_json_writes(rows, _ORJSON_ROWS, default)


def _as_json_writes(value: Any, option: int, default: Any) -> str:
    """``json.dumps(value, default=default, ensure_ascii=False, separators=(",", ":"))``:
    orjson's text where it is the same, json's where orjson refuses ``value`` (a type
    passed through by ``option``, an integer beyond 64 bits, a non-string key…) or could
    spell a float otherwise."""
    try:
        fast = orjson.dumps(value, option=option)
    except TypeError:
        fast = None
    if fast is None or _may_be_spelt_otherwise(fast):
        return json.dumps(value, default=default, ensure_ascii=False, separators=(",", ":"))
    return fast.decode("utf-8")


# Only plain JSON types: a datetime, dataclass or subclass of str/int/dict goes to json.
_ORJSON_STRICT = (
    orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)
_ORJSON_ROWS = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_SUBCLASS
# Where orjson's text could differ from json's: a one-digit exponent (``1e-9``, json
# ``1e-09``) or a float between 1e-5 and 1e-4 (``0.00001``, json ``1e-05``). Each looked
# for only where a plain substring search (at memory speed) finds its start: one
# expression for both runs at a tenth of that speed (3 ms on a 400 KiB state).
_ONE_DIGIT_EXPONENT = re.compile(rb"e[-+][0-9](?![0-9])")


def _may_be_spelt_otherwise(text: bytes) -> bool:
    if (b"e-" in text or b"e+" in text) and _ONE_DIGIT_EXPONENT.search(text):
        return True
    return b".0000" in text


class Pieces:
    """The text of a game's state as last written, piece by piece: each top-level value by
    its identity, and each entry of a large top-level dict (such as the players) by its
    position. A step shares with the state it was given every value it did not touch (no
    one changes a state in place), so only what it changed is encoded again."""

    __slots__ = ("_by_id", "_dicts", "size", "weight")

    def __init__(self) -> None:
        # id(value) -> (value, key, b'"key":text'): the value kept alive so its id stays its
        self._by_id: dict[int, tuple[Any, str, bytes]] = {}
        # top-level key -> its large dict's entries as last written
        self._dicts: dict[str, _Entries] = {}
        self.size = -1  # bytes of the text last written (-1: none yet)
        self.weight = 0  # bytes of text held in the pieces


class _Entries:
    """A large dict's keys, values (kept alive: compared by identity) and each entry's
    ``,"key":text`` (the comma before it included), in the dict's order."""

    __slots__ = ("keys", "values", "texts")

    def __init__(self, keys: list[Any], values: list[Any], texts: list[bytes]) -> None:
        self.keys, self.values, self.texts = keys, values, texts


# A top-level dict with this many entries is encoded entry by entry.
_PIECEWISE_MIN = 32
# A state whose text was shorter than this is encoded whole, in one call, and no pieces
# are kept: for a few KiB that is cheaper than looking each piece up.
PIECEWISE_TEXT_MIN = 16 * 1024


def state_bytes(state: Any, pieces: Pieces | None = None) -> bytes:
    """``serialize_state(state)`` as UTF-8, the same bytes, reusing from ``pieces`` the
    text of every piece that is the very object written last time (and remembering this
    time's pieces there)."""
    if pieces is None or type(state) is not dict or 0 <= pieces.size < PIECEWISE_TEXT_MIN:
        text = serialize_state(state).encode("utf-8")
        if pieces is not None:
            pieces._by_id, pieces._dicts, pieces.size, pieces.weight = {}, {}, len(text), 0
        return text
    kept: dict[int, tuple[Any, str, bytes]] = {}
    dicts: dict[str, _Entries] = {}
    # The text is joined once, from its pieces: each ``+`` of two large texts would copy
    # the whole of it again (into fresh memory: 0.2 ms a copy at 400 KiB).
    out: list[bytes] = []
    weight = 0
    for key, value in state.items():
        out.append(b"," if out else b"{")
        if type(value) is dict and len(value) >= _PIECEWISE_MIN and type(key) is str:
            entries = _entries(pieces._dicts.get(key), value)
            if entries is None:
                return serialize_state(state).encode("utf-8")
            dicts[key] = entries
            texts = entries.texts
            out += (_key(key), b":{", texts[0][1:])
            out += itertools.islice(texts, 1, None)
            out.append(b"}")
            weight += sum(map(len, texts))
        else:
            piece = _piece(pieces, kept, key, value)
            if piece is None:
                return serialize_state(state).encode("utf-8")
            out.append(piece)
    out.append(b"}" if out else b"{}")
    text = b"".join(out)
    weight += sum(len(p[2]) for p in kept.values())
    pieces._by_id, pieces._dicts, pieces.size, pieces.weight = kept, dicts, len(text), weight
    return text


def _entries(before: _Entries | None, value: dict[Any, Any]) -> _Entries | None:
    """The entries of a large dict, each one's text taken from ``before`` where it is the
    same object under the same key; None for a key that is not a string."""
    keys = list(value)
    values = list(value.values())
    if before is not None and keys == before.keys:
        # The usual step: the same keys in the same order, a few values new. Which ones
        # is found at C speed (1,000 players: some microseconds, not a loop of lookups).
        texts = before.texts.copy()
        for i in itertools.compress(
            range(len(values)), map(operator.is_not, values, before.values)
        ):
            text = _entry(keys[i], values[i])
            if text is None:
                return None
            texts[i] = b"," + text
        return _Entries(keys, values, texts)
    known: dict[Any, tuple[Any, bytes]] = {}
    if before is not None:  # keys added, removed or moved: each entry found by its key
        for held_key, held_value, held_text in zip(
            before.keys, before.values, before.texts, strict=True
        ):
            known[held_key] = (held_value, held_text)
    texts = []
    for entry_key, entry_value in zip(keys, values, strict=True):
        held = known.get(entry_key)
        if held is not None and held[0] is entry_value:
            texts.append(held[1])
            continue
        text = _entry(entry_key, entry_value)
        if text is None:
            return None
        texts.append(b"," + text)
    return _Entries(keys, values, texts)


def _key(key: Any) -> bytes:
    if type(key) is not str:
        raise TypeError("not a string key")
    return orjson.dumps(key)


def _slow(key: Any, value: Any) -> bytes:
    return json.dumps({key: value}, ensure_ascii=False, separators=(",", ":"))[1:-1].encode()


def _entry(key: Any, value: Any) -> bytes | None:
    """``"key":text`` as ``serialize_state`` writes it (json's text where orjson's could
    differ); None for a key that is not a string."""
    if type(key) is not str:
        return None
    try:
        fast = orjson.dumps(value, option=_ORJSON_STRICT)
    except TypeError:
        fast = None
    if fast is not None and not _may_be_spelt_otherwise(fast):
        return _key(key) + b":" + fast
    return _slow(key, value)


def _piece(
    pieces: Pieces, kept: dict[int, tuple[Any, str, bytes]], key: Any, value: Any
) -> bytes | None:
    """``"key":text`` of one top-level value, from ``pieces`` when it is the same object
    under the same key, else encoded; None for a key that is not a string (the whole state
    goes the slow way)."""
    if type(key) is not str:
        return None
    held = pieces._by_id.get(id(value))
    if held is not None and held[0] is value and held[1] == key:
        kept[id(value)] = held
        return held[2]
    piece = _entry(key, value)
    if piece is not None and type(value) in (dict, list):  # a scalar: as cheap to encode
        kept[id(value)] = (value, key, piece)
    return piece

"""Copying a state for ``apply`` to change: plain JSON data, deep-copied, the large
top-level dicts value by value when first read. (Re-exported by ``app.rules.base``.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

JSON = dict[str, Any]

__all__ = ["CopiedOnRead", "copy_json", "copy_state", "settled_state"]


# Values shared as they are, not copied (nor a call spent on finding that out).
_SCALARS = frozenset({str, int, float, bool, type(None)})


def copy_json(value: Any) -> Any:
    """A fast deep copy of plain JSON data (dicts, lists, scalars): how ``apply`` leaves
    its input state untouched."""
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALARS else copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in _SCALARS else copy_json(v) for v in value]
    return value


class CopiedOnRead(dict[str, Any]):
    """A top-level dict of a state being applied (``players``, ``orders``…) whose values
    are deep-copied when first read, not all up front: an order that touches two of 1,000
    players copies two. Every way of reading a value goes through ``__getitem__`` (the
    iterating methods copy what they hand out; ``__iter__`` is overridden so that
    ``dict(x)`` and ``{**x}`` read through it too), so the step never changes its input.
    ``Outcome`` turns it back into a plain dict, sharing the values never read with the
    input state (no one changes a state in place once applied)."""

    __slots__ = ("_copied",)

    def __init__(self, source: dict[str, Any]) -> None:
        super().__init__(source)
        self._copied: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        value = dict.__getitem__(self, key)
        if key not in self._copied:
            value = copy_json(value)
            dict.__setitem__(self, key, value)
            self._copied.add(key)
        return value

    def __setitem__(self, key: str, value: Any) -> None:
        dict.__setitem__(self, key, value)
        self._copied.add(key)

    def __delitem__(self, key: str) -> None:
        dict.__delitem__(self, key)
        self._copied.discard(key)

    def __iter__(self) -> Iterator[str]:
        return iter(list(dict.keys(self)))

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, key: str, *default: Any) -> Any:
        if key not in self:
            if default:
                return default[0]
            raise KeyError(key)
        value = self[key]
        del self[key]
        return value

    def popitem(self) -> tuple[str, Any]:
        key = next(reversed(dict.keys(self)))
        return key, self.pop(key)

    def values(self) -> list[Any]:  # type: ignore[override]
        return [self[k] for k in list(dict.keys(self))]

    def items(self) -> list[tuple[str, Any]]:  # type: ignore[override]
        return [(k, self[k]) for k in list(dict.keys(self))]

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def copy(self) -> dict[str, Any]:
        return dict(self.items())

    def __or__(self, other: Any) -> dict[str, Any]:  # type: ignore[override]
        return {**self.copy(), **other}

    def __ior__(self, other: Any) -> CopiedOnRead:  # type: ignore[override]
        self.update(other)
        return self

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (dict, (self.items(),))

    def settled(self) -> dict[str, Any]:
        """A plain dict of the current values (untouched ones are the input's own)."""
        return dict(dict.items(self))


# A top-level dict this large is copied on read; a smaller one copied whole. A top-level
# list this large is copied only if the step reads it (a roster most steps never look at).
_COPY_ON_READ_MIN = 32


def copy_state(state: JSON) -> JSON:
    """A copy of a state for ``apply`` to change, sharing only ``state["settings"]``,
    which rulesets read and never write (it is a game's largest, most copied part).
    Large top-level dicts (a roster's players) copy each value when first read
    (``CopiedOnRead``), large top-level lists when the step first reads them (the state
    itself is then a ``CopiedOnRead``): a step's cost does not grow with what it does not
    touch."""
    out: JSON = {}
    ready: set[str] = set()
    for k, v in state.items():
        if k == "settings":
            out[k] = v
        elif type(v) is dict and len(v) >= _COPY_ON_READ_MIN:
            out[k] = CopiedOnRead(v)
        elif type(v) is list and len(v) >= _COPY_ON_READ_MIN:
            out[k] = v
            continue  # copied when first read
        else:
            out[k] = copy_json(v)
        ready.add(k)
    if len(ready) == len(out):
        return out
    lazy = CopiedOnRead(out)
    lazy._copied |= ready
    return lazy


def settled_state(state: JSON) -> JSON:
    """``state`` as a plain dict, and every ``CopiedOnRead`` at its top level too."""
    if type(state) is CopiedOnRead:
        state = state.settled()
    for k, v in state.items():
        if type(v) is CopiedOnRead:
            state[k] = v.settled()
    return state

"""A state stored as a base and what changed since (``games.state`` + ``games.state_delta``).

A step of a 1,000-player game changes a few players of a 400 KiB state; writing the
whole state every time made an order's cost grow with the roster. So a large state is
written whole only now and then (a *compaction*: the base), and in between each step
writes the difference between the base and its new state: the top-level values that are
not the base's, and, inside a large top-level dict (the players), the entries that are not.

``diff(base, state)`` finds them by identity first (a step shares every value it did not
touch with the state it was given, and a state rebuilt by ``apply`` shares the base's),
then by a strict equality (types and key order count: the result must serialise to the
very text that was hashed). ``apply(base, delta)`` rebuilds the state, sharing the base's
values. Key order is kept: a dict whose keys changed in number or order records them all.

Pure functions of plain JSON data; the shell decides when to compact (``steps``) and
checks each rebuilt state against its hash (``state_cache``).
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]

# A top-level dict with this many entries is diffed entry by entry; a smaller one whole.
LARGE = 32
_MISSING = object()


def same(a: Any, b: Any) -> bool:
    """Equal as JSON text would be: ``1``, ``1.0`` and ``True`` differ, so do key orders."""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict:
        return len(a) == len(b) and list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if kind is list:
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if kind is float:
        return repr(a) == repr(b)  # 0.0 and -0.0 are written apart
    return bool(a == b)


def diff(base: JSON, state: JSON) -> JSON:
    """What ``apply`` needs to turn ``base`` into ``state``: ``{"set": {key: value}}``
    for the changed top-level values, ``{"in": {key: {"set": {...}, "keys": [...]}}}``
    for the changed entries of large dicts, and ``"keys"`` wherever keys were added,
    removed or reordered."""
    top: JSON = {}
    inner: JSON = {}
    for key, value in state.items():
        old = base.get(key, _MISSING)
        if value is old:
            continue
        if type(value) is dict and type(old) is dict and len(old) >= LARGE:
            changed = _diff_entries(old, value)
            if changed is not None:
                inner[key] = changed
        elif old is _MISSING or not same(value, old):
            top[key] = value
    delta: JSON = {}
    if top:
        delta["set"] = top
    if inner:
        delta["in"] = inner
    if list(base) != list(state):
        delta["keys"] = list(state)
    return delta


def _diff_entries(old: JSON, new: JSON) -> JSON | None:
    changed = {}
    for key, value in new.items():
        was = old.get(key, _MISSING)
        if value is not was and (was is _MISSING or not same(value, was)):
            changed[key] = value
    out: JSON = {"set": changed}
    if len(old) != len(new) or list(old) != list(new):
        out["keys"] = list(new)
    elif not changed:
        return None
    return out


def apply(base: JSON, delta: JSON) -> JSON:
    """The state ``diff(base, state)`` was taken of, sharing the base's values."""
    top = delta.get("set", {})
    inner = delta.get("in", {})
    out: JSON = {}
    for key in delta.get("keys", base):
        if key in top:
            out[key] = top[key]
        elif key in inner:
            out[key] = _apply_entries(base[key], inner[key])
        else:
            out[key] = base[key]
    return out


def _apply_entries(old: JSON, change: JSON) -> JSON:
    changed = change["set"]
    if "keys" not in change:
        return {k: changed[k] if k in changed else v for k, v in old.items()}
    return {k: changed[k] if k in changed else old[k] for k in change["keys"]}

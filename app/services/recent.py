"""The most recently used values, bounded by count and by bytes: what each of the
process's caches of game data (states, their text, settings) is kept in."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """At most ``size`` values (0: none kept) and at most ``budget`` bytes of them (None:
    no such bound), each weighed by its caller when put. The least recently used go first;
    the newest stays even when it alone is over the budget (what was just read or written
    is what the next step of that game needs). ``evicted(key, value)`` hears of each value
    pushed out (not of one popped or replaced)."""

    __slots__ = ("size", "budget", "weight", "_items", "_evicted")

    def __init__(
        self,
        size: int,
        budget: int | None = None,
        evicted: Callable[[K, V], None] | None = None,
    ) -> None:
        self.size = size
        self.budget = budget
        self.weight = 0  # bytes held
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._evicted = evicted

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        """The value, now the most recently used; None when not held."""
        found = self._items.get(key)
        if found is None:
            return None
        self._items.move_to_end(key)
        return found[0]

    def pop(self, key: K) -> V | None:
        found = self._items.pop(key, None)
        if found is None:
            return None
        self.weight -= found[1]
        return found[0]

    def put(self, key: K, value: V, weight: int = 0) -> None:
        if self.size <= 0:
            return
        self.pop(key)
        self._items[key] = (value, weight)
        self.weight += weight
        budget = self.budget
        while len(self._items) > self.size or (
            budget is not None and self.weight > budget and len(self._items) > 1
        ):
            gone, (value_gone, weight_gone) = self._items.popitem(last=False)
            self.weight -= weight_gone
            if self._evicted is not None:
                self._evicted(gone, value_gone)

    def clear(self) -> None:
        self._items.clear()
        self.weight = 0

"""The garbage collector's schedule (app/gc_policy.py): what dies young in a cycle is freed
at the next tick, what lives on is frozen (a full collection then walks nothing of it),
and a cycle that dies after it was frozen is freed by the next full collection."""

from __future__ import annotations

import gc
import weakref

from app.gc_policy import Collector


class Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the cyclic collector frees it


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _in_a_generation(obj: object) -> bool:
    """Whether a collection would walk ``obj`` (frozen objects are in no generation)."""
    return any(tracked is obj for tracked in gc.get_objects())


def test_a_tick_frees_the_cycles_that_died_and_freezes_what_lives() -> None:
    clock = Clock()
    collector = Collector(full_every=600, clock=clock)
    dead = Node()
    dead_ref = weakref.ref(dead)
    del dead
    alive = Node()
    assert dead_ref() is not None and _in_a_generation(alive)
    collector.tick()
    assert dead_ref() is None  # freed, not frozen
    assert not _in_a_generation(alive)  # frozen: no collection walks it again


def test_a_cycle_that_dies_frozen_is_freed_by_the_next_full_collection() -> None:
    clock = Clock()
    collector = Collector(full_every=600, clock=clock)
    node = Node()
    ref = weakref.ref(node)
    collector.tick()  # frozen
    del node
    clock.now += 599
    collector.tick()
    assert ref() is not None  # not walked: it waits for the full collection
    clock.now += 1
    collector.tick()
    assert ref() is None
    clock.now += 1
    later = Node()
    later_ref = weakref.ref(later)
    collector.tick()
    del later
    collector.tick()
    assert later_ref() is not None  # the next full collection is 600 s after the last one

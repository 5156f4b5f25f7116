"""The garbage collector's schedule (app/gc_policy.py): while a collector runs, the
interpreter never starts a full collection by itself; the collector's own, once every
``full_every`` seconds, frees the cycles that died after they grew old, and never walks
what was frozen at start-up; young cycles are freed as they always were."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from app import gc_policy
from app.gc_policy import Collector


class Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the cyclic collector frees it


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def full_passes() -> Iterator[list[int]]:
    """The objects each full collection walked (``collected`` + survivors is not exposed:
    the generation's size as the pass starts), for every full pass from now on."""
    walked: list[int] = []

    def probe(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            walked.append(len(gc.get_objects(2)))

    gc.callbacks.append(probe)
    try:
        yield walked
    finally:
        gc.callbacks.remove(probe)


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    saved = gc.get_threshold()
    yield saved
    gc.set_threshold(*saved)


def test_while_a_collector_runs_the_interpreter_starts_no_full_collection(
    full_passes: list[int], thresholds: tuple[int, int, int]
) -> None:
    def promote_many() -> None:
        survivors = []
        for i in range(100_000):  # kept long enough to be promoted, as cached states are
            survivors.append([i])
            if i % 1000 == 0:
                survivors = survivors[-5000:]

    # With the test process's objects frozen, the oldest generation is nearly empty, and
    # promoting objects into it makes CPython's own schedule start full collections...
    gc.collect()
    gc.freeze()
    try:
        gc.collect()
        promote_many()
        assert full_passes != []
        full_passes.clear()
        gc.collect()
    finally:
        gc.unfreeze()
    full_passes.clear()
    # ...and under a collector the same work starts none.
    collector = Collector(full_every=600, clock=Clock())
    collector.start()
    try:
        gc.freeze()
        try:
            gc.collect()
            full_passes.clear()
            promote_many()
        finally:
            gc.unfreeze()
        assert full_passes == []
        young = Node()
        young_ref = weakref.ref(young)
        del young
        made = [[i] for i in range(20_000)]  # the young collections still run...
        assert made
        assert young_ref() is None  # ...and free young cycles
    finally:
        collector.stop()
    assert gc.get_threshold() == thresholds  # the interpreter's own schedule again


def test_the_full_pass_frees_old_cycles_and_never_walks_what_start_up_froze(
    full_passes: list[int], thresholds: tuple[int, int, int]
) -> None:
    clock = Clock()
    start_up = Node()
    start_up_ref = weakref.ref(start_up)
    gc.collect()
    gc.freeze()  # as the app's start-up does
    try:
        frozen = gc.get_freeze_count()
        collector = Collector(full_every=60, clock=clock)
        collector.start()
        try:
            old = Node()
            old_ref = weakref.ref(old)
            gc.collect(1)  # survived the young collections: in the oldest generation now
            del old
            clock.now += 59
            assert not collector.tick()
            gc.collect(1)
            assert old_ref() is not None  # the young collections do not free it
            clock.now += 1
            assert collector.tick()
            assert old_ref() is None  # the collector's pass did
            assert collector.due_in() == 60
            # It walked what came after start-up, not the frozen start-up objects.
            assert full_passes and full_passes[-1] < frozen
            assert gc.get_freeze_count() == frozen
            del start_up
            gc.collect()
            assert start_up_ref() is not None  # frozen: no pass looks at it again
        finally:
            collector.stop()
    finally:
        gc.unfreeze()
        gc.collect()
    assert start_up_ref() is None


def test_two_collectors_side_by_side_keep_the_schedule_until_the_last_one_stops(
    thresholds: tuple[int, int, int],
) -> None:
    first, second = Collector(60), Collector(60)
    first.start()
    second.start()
    first.stop()
    assert gc.get_threshold()[2] == gc_policy.NEVER
    second.stop()
    assert gc.get_threshold() == thresholds


async def test_the_loop_sleeps_until_the_pass_is_due_then_frees_old_cycles(
    thresholds: tuple[int, int, int],
) -> None:
    clock = Clock()
    collector = Collector(full_every=60, clock=clock)
    node = Node()
    ref = weakref.ref(node)
    gc.collect(1)
    del node
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 3:
            assert gc.get_threshold()[2] == gc_policy.NEVER  # held while it runs
            raise asyncio.CancelledError  # the app's shutdown cancels the task
        clock.now += seconds

    with pytest.raises(asyncio.CancelledError):
        await collector.loop(sleep)
    assert slept == [60, 60, 60]
    assert ref() is None
    assert gc.get_threshold() == thresholds


def test_long_lived_objects_are_frozen_only_without_a_collector(
    thresholds: tuple[int, int, int],
) -> None:
    collector = Collector(60)
    collector.start()
    try:
        before = gc.get_freeze_count()
        kept = [Node() for _ in range(100)]
        gc_policy.keep_long_lived()
        assert gc.get_freeze_count() == before  # the collector's pass will reach them
    finally:
        collector.stop()
    try:
        gc_policy.keep_long_lived()
        assert gc.get_freeze_count() >= before + len(kept)
    finally:
        gc.unfreeze()

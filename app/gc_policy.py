"""The cyclic garbage collector, kept off the request path.

Reference counting frees nearly everything the service makes; the cyclic collector is for
the rest. It keeps three generations: young objects are walked often and cheaply, and what
survives two young collections goes to the oldest generation. Left to itself, CPython
walks that oldest generation whole whenever the objects promoted to it since the last
time reach a quarter of those already there. A process keeps up to 4,096 decoded game
states (``state_cache``), and every order replaces one: under ``bench/submit_orders.py``
at 16 clients that made a full collection due about once a second, 30 to 100 ms each in
which no request was answered — the tail (p99) of the order endpoint.

So while a ``Collector`` runs (one per serving process, ``GC_FULL_SECONDS``):

* what exists when the process has started (the imported code, the app: some 200,000
  objects, a 120–190 ms walk on this project's 2-core machine) is frozen for good
  (``gc.freeze()`` in the app's start-up). Nothing walks it again: it lives as long as
  the process (the pools' connections, made later, are not part of it);
* the interpreter's young collections go on as they are: each walks a few thousand
  objects made since the last one, well under a millisecond;
* the interpreter never starts a full collection itself (the oldest generation's
  threshold is out of reach). Once every ``GC_FULL_SECONDS`` (a minute) the collector runs
  one: it walks what survived into the oldest generation since start-up — the cached
  states, the pools' connections, live streams — and frees the reference cycles among it
  that have become garbage, with what they hold. A minute, not longer: a SQLite cursor once
  kept the database's write lock until the collector freed it (app/db.py closes that one
  itself now), and nothing may wait on the collector for long. The interpreter's own
  schedule promised no bound at all: an idle process may not collect for hours.

An earlier version froze the survivors four times a second and unfroze everything for the
minute's pass, which then walked the start-up objects as well: a pause of 120 ms, the
read benchmark's p99 in the seconds around it (bench/README.md). CPython 3.11 cannot
unfreeze a part of what it froze, so the survivors now wait in the oldest generation and
only the start-up objects are frozen.

The thresholds are the process's own: the first running collector sets the oldest
generation's out of reach, the last one to stop puts back what it found (a test process
runs many apps, one after another and side by side).
"""

from __future__ import annotations

import asyncio
import gc
import threading
import time
from collections.abc import Awaitable, Callable

# The oldest generation's threshold while a collector runs: the count it is compared with
# grows by one per young (generation 1) collection, so this is never reached.
NEVER = 1 << 30

_running = 0  # collectors running in this process
_saved: tuple[int, int, int] | None = None  # the thresholds the first one found
_lock = threading.Lock()  # a test's live server runs its app on a thread of its own


def _hold() -> None:
    global _running, _saved
    with _lock:
        if _running == 0:
            _saved = gc.get_threshold()
            young, middle, _ = _saved
            gc.set_threshold(young, middle, NEVER)
        _running += 1


def _release() -> None:
    global _running, _saved
    with _lock:
        _running -= 1
        if _running == 0:
            assert _saved is not None
            gc.set_threshold(*_saved)
            _saved = None


def keep_long_lived() -> None:
    """What exists now will live long (a stream's connection, request and task): keep the
    full collections from walking it again and again. Under a running collector there is
    only its one pass a minute, and what survives gets there by itself; under the
    interpreter's own schedule, freeze it (it is still freed by reference counting, but a
    cycle among it is not freed at all)."""
    if _running == 0:
        gc.freeze()


class Collector:
    def __init__(self, full_every: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._full_every = full_every
        self._clock = clock
        self._last_full = clock()
        self._held = False

    def start(self) -> None:
        """From now on the interpreter starts no full collection by itself."""
        if not self._held:
            self._held = True
            _hold()

    def stop(self) -> None:
        """The interpreter's own schedule again (when no other collector runs)."""
        if self._held:
            self._held = False
            _release()

    def due_in(self) -> float:
        """Seconds until the next full collection is due (0 when it is)."""
        return max(0.0, self._last_full + self._full_every - self._clock())

    def tick(self) -> bool:
        """The full collection, if it is due: whether it ran."""
        if self.due_in() > 0:
            return False
        self._last_full = self._clock()
        gc.collect()
        return True

    async def loop(self, sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.start()
        try:
            while True:
                await sleep(self.due_in())
                self.tick()
        finally:
            self.stop()


def serve(full_every: float) -> asyncio.Task[None] | None:
    """A serving process's collection, from now on (the app's start-up, the delivery
    worker's): freeze what exists — it lives as long as the process — and, unless
    ``full_every`` is 0 (the interpreter's own schedule), run a collector. The task is the
    caller's to cancel when the process stops serving."""
    gc.freeze()
    if full_every <= 0:
        return None
    return asyncio.create_task(Collector(full_every).loop())

"""The cyclic garbage collector, kept off the request path.

Reference counting frees nearly everything the service makes; the cyclic collector is for
the rest. Left to itself it walks every tracked object not frozen whenever the objects
promoted to its oldest generation reach a quarter of those already there. A process keeps
up to 4,096 decoded game states (``state_cache``), and every order replaces one: under
``bench/submit_orders.py`` at 16 clients that made a full collection due about once a
second, 30 to 100 ms each in which no request was answered — the tail (p99) of the
order endpoint.

So four times a second (``GC_FREEZE_SECONDS``) a ``Collector`` collects what is not
frozen — the objects made since its last tick, and only those: a few ms — and then
freezes what survived. The interpreter's own collections then find almost nothing to
walk. (Once a second, a tick took 8 to 14 ms, and the p99 was 28–33 ms against 24–25.)
Under load a process kept the same memory for minutes. What survived a tick and only
later becomes garbage inside a reference cycle (rare: a cycle usually dies young) waits
for the full collection every ``GC_FULL_SECONDS`` (a minute): everything is unfrozen,
collected once, and frozen again. A minute, not longer, because what such a cycle holds
is held as long: a SQLite cursor once kept the database's write lock until the collector
freed it (app/db.py closes that one itself now), and nothing may wait on the collector
for ten minutes. The interpreter's own schedule promised no bound at all: an idle
process may not collect for hours.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable


class Collector:
    def __init__(self, full_every: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._full_every = full_every
        self._clock = clock
        self._last_full = clock()

    def tick(self) -> None:
        """Collect the unfrozen objects (all of them, once every ``full_every`` seconds),
        then freeze the survivors."""
        now = self._clock()
        if now - self._last_full >= self._full_every:
            self._last_full = now
            gc.unfreeze()
        gc.collect()
        gc.freeze()

    async def loop(self, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            self.tick()

"""Scheduler worker processes for the reliability tests.

``python -m tests.service.workers run URL NOW``   run every due timer, print how many ran
``python -m tests.service.workers crash URL NOW`` run one due timer, then SIGKILL itself
                                                  after the game change is written but
                                                  before the transaction commits
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from datetime import datetime
from typing import Any

from app import scheduler
from app.clock import FakeClock
from app.db import make_engine, make_sessionmaker


async def main(mode: str, url: str, now: str) -> None:
    engine = make_engine(url, pool_size=2)
    sessionmaker = make_sessionmaker(engine)
    clock = FakeClock(datetime.fromisoformat(now))
    if mode == "crash":
        original = scheduler.write_timer_steps

        async def write_then_die(session: Any, *args: Any, **kwargs: Any) -> None:
            await original(session, *args, **kwargs)
            await session.flush()  # the new state is in the database, uncommitted
            os.kill(os.getpid(), signal.SIGKILL)

        scheduler.write_timer_steps = write_then_die  # type: ignore[assignment]
    ran = await scheduler.run_due_timers(sessionmaker, clock)
    print(ran, flush=True)
    await engine.dispose()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))

"""The one bounded wait for an outside condition (a subprocess listening, a file written).

Tests never sleep to let time pass; when they must wait for another process, they poll a
condition with a generous deadline (the machine is shared and busy) and fail with what
they were waiting for.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


class WaitTimeout(AssertionError):
    pass


def wait_until(
    condition: Callable[[], T | None],
    *,
    timeout: float,
    what: str,
    interval: float = 0.2,
    give_up: Callable[[], str | None] = lambda: None,
) -> T:
    """Poll ``condition`` until it returns something truthy (returned), or fail after
    ``timeout`` seconds. ``give_up`` may say early why waiting longer is pointless
    (the process died): its text becomes the failure."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        reason = give_up()
        if reason:
            raise WaitTimeout(f"gave up waiting for {what}: {reason}")
        if time.monotonic() >= deadline:
            raise WaitTimeout(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


async def wait_until_async(
    condition: Callable[[], Awaitable[T | None]],
    *,
    timeout: float,
    what: str,
    interval: float = 0.05,
) -> T:
    """:func:`wait_until` for a condition that must be awaited (a request to a server
    running in this process's other thread): the event loop keeps running meanwhile."""
    deadline = time.monotonic() + timeout
    while True:
        result = await condition()
        if result:
            return result
        if time.monotonic() >= deadline:
            raise WaitTimeout(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(interval)

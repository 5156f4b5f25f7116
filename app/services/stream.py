"""The event stream of one caller: the past they may see, then what commits next.

Numbering is the caller's own, exactly as ``GET /events`` gives it (``games.events``):
the director sees the log's numbers, everyone else a dense count of what they may see,
so a resumed stream (``Last-Event-ID``) and a page's ``?after=`` agree with the list.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.live import Batch, Hub, Subscription
from app.models import EventRow, Game
from app.rules.base import Viewer, event_visible
from app.services.auth import Principal

KEEPALIVE_SECONDS = 15.0


@dataclass(slots=True)
class Cursor:
    """Where a caller's stream stands: the log's seq read so far and their own count."""

    viewer: Viewer
    position: int  # the last log seq considered
    count: int  # the caller's own number of the last event sent (director: a log seq)
    auth_epoch: int

    def number(self, seq: int, audience: list[str]) -> int | None:
        """The caller's number for the log's event ``seq``, or None if not theirs."""
        if self.viewer.role == "director":
            self.count = seq
            return seq
        if event_visible(audience, None, self.viewer, finished=False):
            self.count += 1
            return self.count
        return None


def message(number: int, at: str, kind: str, encoded_data: str, audience: Any = None) -> str:
    body = f'{{"seq":{number},"at":{json.dumps(at)},"kind":{json.dumps(kind)},"data":{encoded_data}'
    if audience is not None:
        body += f',"audience":{json.dumps(audience)}'
    return f"id: {number}\ndata: {body}}}\n\n"


async def open_cursor(
    session: AsyncSession, game: Game, principal: Principal, after: int
) -> tuple[Cursor, list[str]]:
    """The caller's cursor and the messages they have not seen yet (numbered > after)."""
    cursor = Cursor(principal.viewer, 0, 0, game.auth_epoch)
    rows = (
        await session.execute(
            select(EventRow.seq, EventRow.at, EventRow.kind, EventRow.data, EventRow.audience)
            .where(EventRow.game_id == game.id)
            .order_by(EventRow.seq)
        )
    ).all()
    director = cursor.viewer.role == "director"
    backlog: list[str] = []
    for row in rows:
        cursor.position = row.seq
        number = cursor.number(row.seq, list(row.audience))
        if number is None or number <= after:
            continue
        encoded = json.dumps(row.data, ensure_ascii=False)
        backlog.append(
            message(
                number, row.at.isoformat(), row.kind, encoded, row.audience if director else None
            )
        )
    return cursor, backlog


def render(batch: Batch, cursor: Cursor) -> str:
    """The SSE text of ``batch`` for ``cursor``, advancing it. Every subscriber with the
    same audience at the same point gets the same text: it is made once per batch."""
    viewer = cursor.viewer
    key = (viewer.role, viewer.side, viewer.player_id, cursor.position, cursor.count)
    done = batch.memo.get(key)
    if done is None:
        director = viewer.role == "director"
        out: list[str] = []
        for row in batch.rows:
            if row.seq <= cursor.position:
                continue  # already sent with the backlog
            cursor.position = row.seq
            number = cursor.number(row.seq, row.audience)
            if number is not None:
                audience = row.audience if director else None
                out.append(message(number, row.at, row.kind, row.encoded_data, audience))
        done = batch.memo[key] = ("".join(out), cursor.position, cursor.count)
    text, cursor.position, cursor.count = done
    return str(text)


async def messages(
    hub: Hub, subscription: Subscription, cursor: Cursor, backlog: list[str]
) -> AsyncIterator[str]:
    """The SSE text of one stream; ends when the game's credentials change (the browser
    reconnects and is checked again) or the client goes away."""
    director = cursor.viewer.role == "director"
    queue = subscription.queue
    try:
        yield "retry: 2000\n: connected\n\n"
        for text in backlog:
            yield text
        while True:
            try:
                async with asyncio.timeout(KEEPALIVE_SECONDS):
                    batch = await queue.get()
            except TimeoutError:
                yield ": keepalive\n\n"
                continue
            if batch.auth_epoch != cursor.auth_epoch and not director:
                return
            text = render(batch, cursor)
            if text:
                yield text
    finally:
        hub.unsubscribe(subscription)

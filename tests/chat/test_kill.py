"""A chat worker killed with SIGKILL mid-send: the message is never lost, and sent again at
most once (when the kill came after it went out, before it was recorded)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from httpx import AsyncClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.chat.models import ChatMessageRow
from app.chat.notify import queue
from app.chat.worker import ChatWorker
from app.clock import FakeClock
from app.settings import Settings
from app.web.lines import describe_event
from tests.chat.platforms import Outbox, TelegramUser, register, telegram_config
from tests.chat.test_inbound import code_for, with_bot
from tests.service.helpers import team_battle

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("when", ["before", "after"])
async def test_a_worker_killed_mid_send_loses_nothing(
    when: str,
    client: AsyncClient,
    settings: Settings,
    clock: FakeClock,
    database_url: str,
    sessionmaker: async_sessionmaker[AsyncSession],
    tmp_path: Path,
) -> None:
    # The killed process runs on the real clock: the message must be due by then.
    clock.set(datetime.now(UTC) - timedelta(seconds=120))
    game = await team_battle(client)
    bot = await register(sessionmaker, settings, clock, "telegram", telegram_config())
    await with_bot(game, bot)
    alice = TelegramUser(client, bot["webhook_path"], user_id=7401)
    await alice.say(f"/start {await code_for(game, 'a1')}")
    clock.advance(60)
    async with sessionmaker() as session, session.begin():
        assert (await queue(session, clock.now(), describe_event))[0] == 1  # the reminder
    log = tmp_path / "sent.jsonl"
    command = [
        sys.executable,
        str(ROOT / "tests" / "chat" / "kill_worker.py"),
        "--database-url",
        database_url,
        "--log",
        str(log),
        "--when",
        when,
    ]
    done = await asyncio.to_thread(
        subprocess.run, command, cwd=ROOT, capture_output=True, env={"PYTHONPATH": str(ROOT)}
    )
    assert done.returncode == -9, done.stderr.decode()[-2000:]
    before = log.read_text().splitlines() if log.exists() else []
    assert len(before) == (1 if when == "after" else 0)
    async with sessionmaker() as session:
        status = await session.scalar(select(ChatMessageRow.status))
    assert status == "sending"  # leased by the dead worker
    outbox = Outbox()
    worker = ChatWorker(
        sessionmaker,
        clock,
        settings,
        describe_event,
        httpx.AsyncClient(transport=outbox.transport()),
    )
    assert await worker.run_once() == 0  # the lease still runs: nobody sends it meanwhile
    clock.set(datetime.now(UTC))
    clock.advance(settings.publish_lease_seconds + 1)
    await worker.drain()
    again = outbox.to("telegram", "7401")
    assert len(again) == 1  # sent once more: never lost
    if before:
        assert json.loads(before[0])["text"] == again[0]  # the duplicate is the same message
    clock.advance(10)
    await worker.drain()
    assert len(outbox.to("telegram", "7401")) == 1
    async with sessionmaker() as session:
        sent = await session.scalar(
            select(func.count()).select_from(ChatMessageRow).where(ChatMessageRow.status == "sent")
        )
    assert sent == 1

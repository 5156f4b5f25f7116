"""Run by ``test_kill.py`` in a process of its own: one chat worker pass against the test
database whose platform, on the first message, records it and then kills this process
with SIGKILL — after the message went out, before the worker could record that it did
(``--when after``), or before it went out (``--when before``)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
from pathlib import Path

import httpx

from app.chat.worker import ChatWorker
from app.clock import SystemClock
from app.db import make_engine, make_sessionmaker
from app.settings import Settings
from app.web.lines import describe_event


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--when", choices=("before", "after"), required=True)
    args = parser.parse_args()
    log = Path(args.log)

    def handle(request: httpx.Request) -> httpx.Response:
        if args.when == "before":
            os.kill(os.getpid(), signal.SIGKILL)
        with log.open("a", encoding="utf-8") as out:
            out.write(json.dumps(json.loads(request.content), ensure_ascii=False) + "\n")
        os.kill(os.getpid(), signal.SIGKILL)
        return httpx.Response(200, json={"ok": True, "result": {"message_id": 1}})

    async def run() -> None:
        settings = Settings(
            database_url=args.database_url,
            publish_allow_private_urls=True,
            scheduler_enabled=False,
            publish_worker_enabled=False,
        )
        engine = make_engine(settings.database_url, pool_size=2)
        http = httpx.AsyncClient(transport=httpx.MockTransport(handle))
        worker = ChatWorker(
            make_sessionmaker(engine), SystemClock(), settings, describe_event, http
        )
        await worker.run_once()

    asyncio.run(run())


if __name__ == "__main__":
    main()

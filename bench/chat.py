"""1,000 hidden orders by private message arriving at once across 100 games, beside the
same 1,000 orders through ``POST /orders`` in the same run.

Run: ``.venv/bin/python bench/chat.py`` (PostgreSQL 15 on 127.0.0.1:5432, trust auth;
``--games``, ``--players``, ``--keep-db``). About a minute.

A fresh database is migrated; 2 × ``--games`` Team Battle games are started through the
service functions, ``--players`` seats each (half a side each); one Telegram bot serves
every game, each seat of the first half of the games linked to its own Telegram account.
Then, in the app (one process, the ASGI transport, the same app and pool for both):

* **chat**: every seat's deployment as a Telegram ``Update`` (secret token header), all at
  once, plus a tenth of them sent a second time (a replay: Telegram retries a webhook it
  thinks failed);
* **api**: the same deployments, in the same words (``{"text": "部署 6 6 6 6 6"}``),
  through ``POST /api/v1/games/{id}/orders`` with the seats' bearer tokens on the other
  half of the games, all at once (run first).

It prints each burst's wall time and p50/p99, the ratio chat/api (target ≤ 1.5), and the
orders found in the database: exactly one per message (0 lost, 0 doubled), and every chat
reply an acceptance carrying its receipt.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from sqlalchemy import func, select  # noqa: E402

from app.chat import bots  # noqa: E402
from app.chat.models import ChatGameRow, ChatLinkRow  # noqa: E402
from app.clock import SystemClock  # noqa: E402
from app.db import make_engine, make_sessionmaker  # noqa: E402
from app.main import create_app  # noqa: E402
from app.models import OrderRow  # noqa: E402
from app.services import games as games_service  # noqa: E402
from app.services.auth import Principal  # noqa: E402
from app.settings import Settings  # noqa: E402
from bench.pgdb import TB_SETTINGS, fresh_database  # noqa: E402

TOKEN = "123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQ"
SECRET = "bench-secret-token-0123456789"
DEPLOYS = ["部署 6 6 6 6 6", "部署 7 5 6 6 6", "部署 4 7 8 6 5", "部署 6 6 7 5 6"]
BODIES = [[6, 6, 6, 6, 6], [7, 5, 6, 6, 6], [4, 7, 8, 6, 5], [6, 6, 7, 5, 6]]


async def setup(url: str, games: int, players: int) -> dict[str, Any]:
    engine = make_engine(url, pool_size=5)
    sessionmaker = make_sessionmaker(engine)
    now = SystemClock().now()
    settings = Settings(database_url=url, publish_allow_private_urls=True)
    director = Principal("director")
    seats: list[dict[str, Any]] = []
    async with sessionmaker() as session, session.begin():
        bot = await bots.add_bot(
            session,
            "telegram",
            "bench",
            {"bot_token": TOKEN, "secret_token": SECRET, "username": "bench_bot"},
            now,
            settings,
        )
    for g in range(2 * games):
        async with sessionmaker() as session, session.begin():
            created = await games_service.create_game(
                session, "team_battle", f"bench {g}", dict(TB_SETTINGS), None, {}, now
            )
            game = await games_service.load_game(session, created["id"])
            made = []
            for p in range(players):
                side = "A" if p % 2 == 0 else "B"
                made.append(
                    await games_service.add_player(session, game, director, f"p{p}", side, now)
                )
            await games_service.start_game(session, game, director, now)
            chat = g < games
            if chat:
                session.add(
                    ChatGameRow(
                        game_id=game.id,
                        bot_ids=[bot["id"]],
                        dm_orders=True,
                        dm_notifications=False,
                        updated_at=now,
                    )
                )
            for p, player in enumerate(made):
                account = str(10_000_000 + g * players + p)
                if chat:
                    session.add(
                        ChatLinkRow(
                            bot_id=bot["id"],
                            account=account,
                            chat=account,
                            game_id=game.id,
                            player_id=player["id"],
                            notify=False,
                            events_seen=0,
                            linked_at=now,
                        )
                    )
                seats.append(
                    {"game": game.id, "token": player["token"], "account": account, "chat": chat}
                )
    await engine.dispose()
    return {"bot": bot, "seats": seats}


def update(n: int, account: str, text: str) -> dict[str, Any]:
    return {
        "update_id": 500_000_000 + n,
        "message": {
            "message_id": n,
            "from": {"id": int(account), "is_bot": False, "first_name": "p"},
            "chat": {"id": int(account), "type": "private"},
            "date": 1764633600,
            "text": text,
        },
    }


async def burst(calls: list[Any]) -> tuple[float, list[float], list[httpx.Response]]:
    times: list[float] = []

    async def timed(call: Any) -> httpx.Response:
        start = time.perf_counter()
        response = await call()
        times.append(time.perf_counter() - start)
        return response

    start = time.perf_counter()
    responses = await asyncio.gather(*(timed(c) for c in calls))
    return time.perf_counter() - start, times, list(responses)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def run(url: str, games: int, players: int) -> int:
    world = await setup(url, games, players)
    settings = Settings(
        database_url=url,
        scheduler_enabled=False,
        publish_worker_enabled=False,
        publish_allow_private_urls=True,
        db_pool_size=20,
    )
    app = create_app(settings, SystemClock())
    engine = make_engine(url, pool_size=20)
    app.state.engine = engine
    app.state.sessionmaker = make_sessionmaker(engine)
    path = world["bot"]["webhook_path"]
    chat_seats = [s for s in world["seats"] if s["chat"]]
    api_seats = [s for s in world["seats"] if not s["chat"]]
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as http:
        headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
        updates = [update(i, s["account"], DEPLOYS[i % 4]) for i, s in enumerate(chat_seats)]
        replays = updates[::10]

        def tg(body: dict[str, Any]) -> Any:
            return lambda: http.post(path, json=body, headers=headers)

        def api(i: int, seat: dict[str, Any], words: bool = True) -> Any:
            body: dict[str, Any] = {"text": DEPLOYS[i % 4]}
            if not words:
                body = {"type": "deploy", "troops": BODIES[i % 4]}
            auth = {"Authorization": f"Bearer {seat['token']}"}
            return lambda: http.post(
                f"/api/v1/games/{seat['game']}/orders", json=body, headers=auth
            )

        # Warm both paths (imports, grammar, pools) on one seat each, not counted.
        api_wall, api_times, api_answers = await burst([api(i, s) for i, s in enumerate(api_seats)])
        chat_wall, chat_times, chat_answers = await burst([tg(u) for u in updates + replays])
    await engine.dispose()
    async with make_sessionmaker(make_engine(url, pool_size=2))() as session:
        by_path = dict(
            (
                await session.execute(
                    select(ChatGameRow.game_id.is_not(None), func.count())
                    .select_from(OrderRow)
                    .outerjoin(ChatGameRow, ChatGameRow.game_id == OrderRow.game_id)
                    .group_by(ChatGameRow.game_id.is_not(None))
                )
            ).all()
        )
    sent = updates + replays
    acked = {
        sent[i]["update_id"]
        for i, r in enumerate(chat_answers)
        if r.status_code == 200 and "收据" in r.json().get("text", "")
    }
    accepted = len(acked)
    api_ok = sum(1 for r in api_answers if r.status_code == 201)
    chat_orders, api_orders = by_path.get(True, 0), by_path.get(False, 0)
    ratio = chat_wall / api_wall
    statuses = Counter(r.status_code for r in chat_answers)
    print(
        f"api : {len(api_seats)} orders in {api_wall:.2f}s  p50 {pct(api_times, 0.5):.0f} ms  "
        f"p99 {pct(api_times, 0.99):.0f} ms  201s {api_ok}  orders stored {api_orders}"
    )
    print(
        f"chat: {len(updates)} DMs (+{len(replays)} replays) in {chat_wall:.2f}s  "
        f"p50 {pct(chat_times, 0.5):.0f} ms  p99 {pct(chat_times, 0.99):.0f} ms  "
        f"receipts {accepted}  orders stored {chat_orders}  statuses {dict(statuses)}"
    )
    # Lost: acknowledged with a receipt, yet not stored. Doubled: more orders stored than
    # distinct updates. An update answered 503 was not acknowledged (Telegram sends it
    # again); the api side's 503s are counted the same way, as not-201s.
    lost = max(0, accepted - chat_orders)
    doubled = max(0, chat_orders - len(updates))
    unacked = len(updates) - accepted
    print(
        f"unacknowledged updates (the platform retries them): {unacked}; api not-201: "
        f"{len(api_seats) - api_ok}"
    )
    print(f"ratio chat/api wall time {ratio:.2f} (target <= 1.5); lost {lost}, doubled {doubled}")
    print(
        f"median api {statistics.median(api_times) * 1000:.0f} ms, "
        f"median chat {statistics.median(chat_times) * 1000:.0f} ms"
    )
    good = ratio <= 1.5 and lost == 0 and doubled == 0 and api_orders == api_ok
    print("PASS" if good else "MISS", "chat/api <= 1.5, 0 lost, 0 doubled")
    return 0 if good else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--keep-db", action="store_true")
    args = parser.parse_args()
    with fresh_database(args.keep_db) as (_, url):
        code = asyncio.run(run(url, args.games, args.players))
    raise SystemExit(code)


if __name__ == "__main__":
    main()

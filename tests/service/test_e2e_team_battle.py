"""A whole Team Battle over HTTP, deadlines driven by a fake clock, then verified."""

from __future__ import annotations

from httpx import AsyncClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import FakeClock
from app.models import EventRow
from app.services import verify as verify_service
from tests.service.helpers import ok, problem, team_battle, tick


async def test_a_full_game_to_a_winner_with_deadlines_then_verify(
    client: AsyncClient, clock: FakeClock, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    # dice "high": every band yields its upper bound, so the arithmetic below is exact.
    game = await team_battle(client, {"dice": "high"})
    commitment = (await game.summary())["seed_commitment"]
    problem(await game.get("/verify"), 409, "seed_not_revealed")

    await game.order("a1", {"type": "deploy", "troops": [26, 1, 1, 1, 1]})
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    assert (await game.view("b1"))["sides"]["A"]["slots"] is None  # TB-10: hidden until both
    await tick(client, clock, 3600)
    view = await game.view("b1")
    assert (view["round"], view["phase"]) == (1, "command")
    assert view["sides"]["A"]["slots"] == [26, 1, 1, 1, 1]

    await tick(client, clock, 3600)  # nobody gives a command order
    assert (await game.view("b1"))["phase"] == "battle"
    before = await game.view("a1")
    hold = await game.order("b1", {"type": "hold", "slot": 1})  # hidden (TB-43)
    assert await game.view("a1") == before
    await tick(client, clock, 3600)  # no Gather or Retreat: no response window (TB-5a)

    final = await game.view("a1")
    assert final["phase"] == "finished"
    assert final["winner"] == "B"
    # Slot 1: 26 vs 6, band (10-20) -> 20, capped at 6; penetration 20-6 = 14, halved by
    # Hold to 7. Slots 2-5: 6 vs 1, band (3-5) -> 5, capped at 1; penetration 4 each,
    # x4 units (TB-24) = 64. Annihilations (TB-53): B loses one unit (-3), A loses four
    # (-12); each side gains 3 per enemy unit annihilated. All at once (TB-60):
    # A: 15 - 64 - 12 + 3 = -58; B: 15 - 7 - 3 + 12 = 17, capped at 15 (TB-5).
    assert final["sides"]["A"]["morale"] == -58
    assert final["sides"]["B"]["morale"] == 15
    assert final["sides"]["A"]["slots"] == [26, 0, 0, 0, 0]
    assert final["sides"]["B"]["slots"] == [0, 6, 6, 6, 6]
    # The Hold took effect, so it is revealed (TB-6), and at the end everything is.
    assert any(o.get("type") == "hold" for o in final["revealed"] + final.get("orders", []))
    orders_b = ok(await game.get("/orders", "b1"))
    assert {o["id"]: o["status"] for o in orders_b}[hold["id"]] != "pending"

    summary = await game.summary()
    assert summary["status"] == "finished"
    assert summary["deadline"] is None
    import hashlib

    assert hashlib.sha256(summary["seed"].encode()).hexdigest() == commitment
    problem(await game.post("/orders", "a1", {"type": "rest"}), 409, "game_finished")

    verified = ok(await game.get("/verify"))
    assert verified["ok"] is True, verified
    assert verified["commitment_ok"] is True
    assert verified["steps"] >= 6

    # Tamper with one stored roll: verification notices.
    async with sessionmaker() as session, session.begin():
        row = (
            await session.scalars(
                select(EventRow)
                .where(EventRow.game_id == game.id, EventRow.step_seq.is_not(None))
                .order_by(EventRow.seq.desc())
            )
        ).first()
        assert row is not None
        row.data = {**row.data, "tampered": True}
    # The record was changed behind the service's back: its remembered answer is stale.
    verify_service.forget(game.id)
    tampered = ok(await game.get("/verify"))
    assert tampered["ok"] is False
    assert tampered["mismatches"][0]["problem"] == "events differ"


async def test_a_game_where_nobody_orders_ends_by_deadlines_alone_and_verifies(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(client)  # random dice
    for _ in range(400):
        if (await game.summary())["status"] == "finished":
            break
        await tick(client, clock, 3600)
    final = await game.view()
    assert final["phase"] == "finished"
    assert final["winner"] in {"A", "B", "draw"}
    assert ok(await game.get("/verify"))["ok"] is True


async def test_ready_sides_play_a_round_without_waiting(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(client, {"dice": "low"})
    await game.order("a1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    for side_player in ("a2", "b1"):
        await game.ready(side_player)
    assert (await game.view("a1"))["phase"] == "command"
    await game.order("a2", {"type": "dispatch", "moves": [{"from": 2, "to": 1, "troops": 5}]})
    await game.ready("a1")
    await game.ready("b1")
    view = await game.view("b1")
    assert view["phase"] == "battle"
    # Dispatch is public and applied when the command phase closes (TB-30).
    assert view["sides"]["A"]["slots"] == [11, 1, 6, 6, 6]
    await game.ready("a1")
    await game.ready("b1")
    view = await game.view("b1")
    assert view["round"] == 2 and view["phase"] == "command"

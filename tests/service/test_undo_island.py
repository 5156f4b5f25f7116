"""Undoing an island 24:00 that the director ran early (with the hidden timers before
it): the night is taken back, its orders are pending again, its receipts superseded; the
correction reaches the channel; posts still awaiting review are discarded; the replay of
every step, the undone ones included, verifies online and offline."""

from __future__ import annotations

from httpx import AsyncClient

from app.clock import FakeClock
from app.services.archive import verify_archive
from tests.service.helpers import ok
from tests.service.island_helpers import director, island_game, local, of_kind, pid, run_at
from tests.service.publish_helpers import Sink, posts, webhook_channel, worker

REASON = "提前跑了 24:00"


async def test_undoing_an_island_midnight_run_early(client: AsyncClient, clock: FakeClock) -> None:
    game = await island_game(
        client,
        clock,
        ["ann", "bob", "cat"],
        {"start_positions": {"ann": [1, 1], "bob": [1, 1], "cat": [5, 5]}},
    )
    await webhook_channel(game)
    sink = Sink()
    deliver = worker(client, clock, sink)
    clock.set(local(1, 21))
    stab = await game.order("ann", {"type": "assassinate", "target": pid(game, "bob")})
    assert stab["receipt"]["key"] == "d1"
    bob_before = await game.view("bob")
    ran = ok(await game.post("/advance-to-midnight", "director"))  # the wrong click
    count = len(ran["advanced"]["timers"])
    assert count >= 1 and ran["advanced"]["timers"][-1]["kind"] == "midnight"
    while await deliver.run_once():
        pass
    delivered = len(sink.accepted())
    assert of_kind(await game.events(), "orders_sealed")  # d1 was sealed

    clock.set(local(1, 21, 5))
    preview = ok(
        await game.post(
            "/undo",
            "director",
            {"steps": count, "reason": REASON},
            params={"dry_run": "true"},
        )
    )
    assert [s["kind"] for s in preview["undo"]["steps"]] == ["timer"] * count
    assert len(sink.accepted()) == delivered  # a preview sends nothing
    done = ok(await game.post("/undo", "director", {"steps": count, "reason": REASON}))
    assert done["undo"]["superseded_receipts"] == ["d1"]
    # Back to the evening of day 1: bob sees what he saw, ann's order is pending again.
    assert (await game.view("bob"))["you"] == bob_before["you"]
    mine = {o["id"]: o["status"] for o in ok(await game.get("/orders", "ann"))}
    assert mine[stab["id"]] == "pending"
    assert stab["id"] not in str(await game.view("bob"))  # hidden orders stay hidden
    # The deadlines came back with the time they had left (the 24:00 three hours away).
    assert done["deadline"] == local(1, 24, 5).isoformat()

    while await deliver.run_once():
        pass
    correction = sink.accepted()[delivered:]
    assert len(correction) == 1 and correction[0]["kind"] == "notice"
    assert "更正：导演撤销了" in correction[0]["bodies"]["bbcode"]
    assert REASON in correction[0]["bodies"]["bbcode"]

    # The night is resolved again when its time comes, from new step ids.
    await run_at(client, clock, local(1, 24, 5))
    public = await game.events()
    assert [e["key"] for e in of_kind(public, "orders_sealed")] == ["d1", "d1~1"]
    await director(game, "end_game")
    verified = ok(await game.get("/verify"))
    assert verified["ok"] is True, verified["mismatches"]
    assert verified["undos"] == 1
    archive = ok(await game.get("/archive"))
    assert sum(1 for s in archive["steps"] if s["undone"]) == count
    offline = verify_archive(archive)
    assert offline["ok"] is True and offline["undos"] == 1


async def test_posts_of_an_undone_step_awaiting_review_are_discarded(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await island_game(client, clock, ["ann", "bob", "cat"])
    ok(await game.put("/publishing", "director", {"review": "always"}))
    clock.set(local(1, 21))
    ran = ok(await game.post("/advance-to-midnight", "director"))
    held = [p for p in await posts(game) if p["status"] == "awaiting_review"]
    assert held
    count = len(ran["advanced"]["timers"])
    done = ok(await game.post("/undo", "director", {"steps": count, "reason": REASON}))
    assert sorted(done["undo"]["posts"]["discarded"]) == sorted(p["seq"] for p in held)
    after = {p["seq"]: p["status"] for p in await posts(game)}
    assert all(after[p["seq"]] == "discarded" for p in held)
    # The correction itself waits for review like any post.
    assert any(
        s == "awaiting_review" for q, s in after.items() if q not in {p["seq"] for p in held}
    )

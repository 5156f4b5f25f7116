"""The delivery worker: signed sends, order per channel, retries with backoff, failures the
director sees and retries, and what a crash between "sent" and "recorded" costs."""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import timedelta
from typing import Any

import pytest
from httpx import AsyncClient

from app.clock import FakeClock
from app.publish.worker import Result
from tests.service.helpers import Game, ok, problem, team_battle
from tests.service.publish_helpers import WEBHOOK_SECRET, Sink, posts, webhook_channel, worker


async def _game_with_posts(client: AsyncClient, closes: int = 1) -> tuple[Game, dict[str, Any]]:
    game = await team_battle(client)
    channel = await webhook_channel(game)
    for _ in range(closes):
        ok(await game.post("/advance", "director"))
    return game, channel


async def queued(game: Game) -> list[dict[str, Any]]:
    """The posts made since the channel was added (the ones it is to receive)."""
    return [p for p in await posts(game) if p["deliveries"]]


def _statuses(items: list[dict[str, Any]]) -> list[str]:
    return [d["status"] for p in items for d in p["deliveries"]]


async def test_posts_reach_the_webhook_signed_and_in_order(
    client: AsyncClient, clock: FakeClock
) -> None:
    game, _ = await _game_with_posts(client, closes=2)
    waiting = await queued(game)
    assert waiting and set(_statuses(waiting)) == {"pending"}
    sink = Sink()
    deliver = worker(client, clock, sink)
    while await deliver.run_once():
        pass
    assert [p["seq"] for p in sink.accepted()] == [p["seq"] for p in waiting]
    assert [p["bodies"] for p in sink.accepted()] == [p["bodies"] for p in waiting]
    for request, _status in sink.received:
        # Standard Webhooks: HMAC-SHA256 of "id.timestamp.body" with the secret's bytes.
        key = base64.b64decode(WEBHOOK_SECRET.removeprefix("whsec_"))
        signed = f"{request.headers['webhook-id']}.{request.headers['webhook-timestamp']}."
        mac = hmac.new(key, signed.encode() + request.content, hashlib.sha256).digest()
        assert f"v1,{base64.b64encode(mac).decode()}" in request.headers["webhook-signature"]
    assert set(_statuses(await queued(game))) == {"sent"}
    assert await deliver.run_once() == 0  # nothing is sent twice


async def test_a_later_post_never_overtakes_an_earlier_one_on_a_channel(
    client: AsyncClient, clock: FakeClock
) -> None:
    game, _ = await _game_with_posts(client, closes=2)
    waiting = await queued(game)
    assert len(waiting) >= 2
    sink = Sink(fail_with=503)
    deliver = worker(client, clock, sink)
    for _ in range(3):  # the first post fails and is retried; nothing later goes meanwhile
        assert await deliver.run_once() == 1
        clock.advance(3600)
    first_id = f"{waiting[0]['id']}."
    assert all(r.headers["webhook-id"].startswith(first_id) for r, _ in sink.received)
    sink.fail_with = None
    while await deliver.run_once():
        clock.advance(1)
    assert [p["seq"] for p in sink.accepted()] == [p["seq"] for p in waiting]


async def test_retries_back_off_and_honour_retry_after(
    client: AsyncClient, clock: FakeClock
) -> None:
    game, _ = await _game_with_posts(client)
    sink = Sink(fail_with=429, retry_after="900")
    deliver = worker(client, clock, sink)
    assert await deliver.run_once() == 1
    first = (await queued(game))[0]["deliveries"][0]
    assert first["status"] == "pending" and first["attempts"] == 1
    assert first["error"]
    due = first["next_attempt_at"]
    assert due >= (clock.now() + timedelta(seconds=900)).isoformat()
    clock.advance(899)
    assert await deliver.run_once() == 0  # not before the platform said
    clock.advance(1)
    assert await deliver.run_once() == 1


def test_backoff_doubles_with_jitter_and_is_capped(client: AsyncClient, clock: FakeClock) -> None:
    deliver = worker(client, clock, Sink())
    base = deliver.settings.publish_retry_base_seconds
    for attempts in range(1, 8):
        full = min(deliver.settings.publish_retry_max_seconds, base * 2 ** (attempts - 1))
        delays = {deliver.backoff(attempts, None) for _ in range(20)}
        assert all(full / 2 <= d <= full for d in delays)
        assert len(delays) > 1  # jittered
    assert deliver.backoff(1, 1e6) == 1e6


async def test_a_failed_delivery_blocks_its_channel_until_retried(
    client: AsyncClient, clock: FakeClock
) -> None:
    game, _ = await _game_with_posts(client, closes=2)
    sink = Sink(fail_with=401)  # a bad secret does not get better: final at once
    deliver = worker(client, clock, sink)
    assert await deliver.run_once() == 1
    listed = await queued(game)
    first = listed[0]
    assert first["deliveries"][0]["status"] == "failed"
    assert "401" in first["deliveries"][0]["error"]
    assert await deliver.run_once() == 0  # the later posts wait behind it
    assert set(_statuses(listed[1:])) == {"pending"}

    problem(await game.post(f"/posts/{listed[1]['id']}/retry", "director"), 409, "nothing_to_retry")
    sink.fail_with = None
    retried = ok(await game.post(f"/posts/{first['id']}/retry", "director"))
    assert retried["deliveries"][0]["status"] == "pending"
    while await deliver.run_once():
        pass
    assert [p["seq"] for p in sink.accepted()] == [p["seq"] for p in listed]
    audit = ok(await game.get("/audit", "director"))
    assert "retry_post" in [a["action"] for a in audit]


async def test_discarding_a_failed_delivery_unblocks_its_channel(
    client: AsyncClient, clock: FakeClock
) -> None:
    game, _ = await _game_with_posts(client, closes=2)
    sink = Sink(fail_with=404)
    deliver = worker(client, clock, sink)
    assert await deliver.run_once() == 1
    first = (await queued(game))[0]
    dropped = ok(await game.post(f"/posts/{first['id']}/discard", "director"))
    assert dropped["status"] == "published"
    assert dropped["deliveries"][0]["status"] == "discarded"
    sink.fail_with = None
    while await deliver.run_once():
        pass
    assert [p["seq"] for p in sink.accepted()] == [p["seq"] for p in (await queued(game))[1:]]


async def test_retryable_errors_end_as_failed_after_the_last_attempt(
    client: AsyncClient, clock: FakeClock
) -> None:
    game, _ = await _game_with_posts(client)
    sink = Sink(fail_with=500)
    deliver = worker(client, clock, sink)
    for _ in range(deliver.settings.publish_max_attempts):
        assert await deliver.run_once() == 1
        clock.advance(deliver.settings.publish_retry_max_seconds)
    failed = (await queued(game))[0]["deliveries"][0]
    assert failed["status"] == "failed"
    assert failed["attempts"] == deliver.settings.publish_max_attempts
    assert await deliver.run_once() == 0


async def test_a_crash_between_sending_and_recording_costs_at_most_one_duplicate(
    client: AsyncClient, clock: FakeClock
) -> None:
    """The worker dies after the forum accepted the posts but before it wrote that down
    (an exception stands for the crash): the lease runs out, the posts go again once,
    and then never again; nothing is lost."""
    game, _ = await _game_with_posts(client, closes=2)
    waiting = await queued(game)
    sink = Sink()
    crashing = worker(client, clock, sink)

    async def die(results: list[Result]) -> None:
        raise SystemExit("killed between send and record")

    crashing.record = die  # type: ignore[method-assign]
    with pytest.raises(SystemExit):
        await crashing.run_once()
    sent_once = sink.ids()
    assert len(sent_once) == 1  # only the first post: the channel keeps its order
    assert set(_statuses(await queued(game))) == {"sending", "pending"}

    restarted = worker(client, clock, sink)
    assert await restarted.run_once() == 0  # the dead worker's lease still holds
    clock.advance(restarted.settings.publish_lease_seconds)
    while await restarted.run_once():
        pass
    clock.advance(restarted.settings.publish_lease_seconds * 10)
    assert await restarted.run_once() == 0
    counts = sink.ids()
    assert len(counts) == len(waiting)  # no loss
    assert sum(counts.values()) == len(waiting) + 1  # exactly one duplicate
    assert max(counts.values()) == 2
    assert set(_statuses(await queued(game))) == {"sent"}

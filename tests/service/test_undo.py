"""A director's undo (app/services/safety/undo.py): the game goes back to before the
undone resolution, the orders it consumed are pending again, and everything is public —
the correction post, the new step id the dice are drawn from, the superseded receipts —
and replayed by /verify and the offline archive check, undone steps included."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from httpx import AsyncClient
from typer.testing import CliRunner

from app.cli import app as cli
from app.clock import FakeClock
from app.services.archive import verify_archive
from tests.service.helpers import Game, ok, problem, team_battle, tick
from tests.service.island_helpers import of_kind
from tests.service.publish_helpers import posts

REASON = "误点了提前结束"


async def undo(game: Game, steps: int = 1, reason: str = REASON, **extra: Any) -> dict[str, Any]:
    body = {"steps": steps, "reason": reason, **extra}
    return ok(await game.post("/undo", "director", body))  # type: ignore[no-any-return]


async def at_command(client: AsyncClient, clock: FakeClock, **kw: Any) -> Game:
    """A team battle in round 1's command phase, a2's dispatch given."""
    game = await team_battle(client, {"dice": "high"}, **kw)
    await game.order("a1", {"type": "deploy", "troops": [10, 5, 5, 5, 5]})
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    await tick(client, clock, 3600)
    assert (await game.view())["phase"] == "command"
    return game


async def test_undoing_a_team_battle_close_puts_the_round_back_in_public(
    client: AsyncClient, clock: FakeClock, tmp_path: Path
) -> None:
    game = await at_command(client, clock)
    order = await game.order(
        "a2", {"type": "dispatch", "moves": [{"from": 2, "to": 1, "troops": 2}]}
    )
    hidden_before = await game.view("b1")
    clock.advance(600)
    deadline_left = 3000.0
    ok(await game.post("/advance", "director"))  # the wrong click: command closes early
    assert (await game.view())["phase"] != "command"
    consumed = {o["id"]: o["status"] for o in ok(await game.get("/orders", "a2"))}
    assert consumed[order["id"]] != "pending"
    closed = await game.events()
    old_keys = [e["key"] for e in of_kind(closed, "orders_sealed")]
    assert "r1-command" in old_keys

    clock.advance(120)
    done = await undo(game)
    assert done["phase"] == "command" and done["dry_run"] is False
    assert done["undo"]["round"] == 1
    assert done["undo"]["superseded_receipts"] == ["r1-command"]
    # The deadline is the time the phase had left when it was closed.
    summary = await game.summary()
    assert summary["deadline"] == (clock.now() + _seconds(deadline_left)).isoformat()
    # The order is pending again, revisable; what b1 sees is what b1 saw before the close.
    again = {o["id"]: o["status"] for o in ok(await game.get("/orders", "a2"))}
    assert again[order["id"]] == "pending"
    assert {s for i, s in again.items() if i != order["id"]} == {"resolved"}  # the deployment
    assert _same_view(await game.view("b1"), hidden_before)
    revised = ok(
        await game.put(
            f"/orders/{order['id']}",
            "a2",
            {"type": "dispatch", "moves": [{"from": 2, "to": 1, "troops": 3}]},
        )
    )
    assert revised["receipt"]["key"] == "r1-command~1"  # a new key: never the undone salt

    # Everyone sees the correction, with the reason and the count.
    public = await game.events()
    correction = of_kind(public, "steps_undone")
    assert len(correction) == 1 and correction[0]["reason"] == REASON
    assert correction[0]["undos"] == 1 and correction[0]["limit"] == 3

    page = await client.get(f"/g/{game.id}")
    assert "导演已撤销 1 次结算" in page.text  # counted on the spectator page
    assert "（已被导演撤销）" in page.text  # the undone close's lines stay, marked
    marked = [e for e in await game.events() if e.get("undone")]
    assert "phase_closed" in {e["kind"] for e in marked}
    assert "steps_undone" not in {e["kind"] for e in marked}

    # The close is made again from a new step id, then the game plays to its end.
    await tick(client, clock, 3000)
    public = await game.events()
    keys = [e["key"] for e in of_kind(public, "orders_sealed")]
    assert "r1-command~1" in keys and keys.count("r1-command") == 1
    steps = [e for e in of_kind(public, "orders_sealed") if e["key"].startswith("r1-command")]
    assert steps[0]["step"] != steps[1]["step"]
    for _ in range(50):
        if (await game.summary())["status"] == "finished":
            break
        await tick(client, clock, 3600)
    verified = ok(await game.get("/verify"))
    assert verified["ok"] is True, verified["mismatches"]
    assert verified["undos"] == 1
    ending = [p for p in await posts(game) if p["kind"] == "game_finished"]
    assert ending and "本局导演共撤销了 1 次结算" in ending[0]["bodies"]["bbcode"]
    archive = ok(await game.get("/archive"))
    assert archive["undos"] == 1
    undone = [s for s in archive["steps"] if s["undone"]]
    assert undone and all(s["undone_reason"] == REASON for s in undone)
    assert any(s["kind"] == "undo" for s in archive["steps"])
    offline = verify_archive(archive)
    assert offline["ok"] is True, offline["mismatches"]
    assert offline["undos"] == 1
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(archive, ensure_ascii=False), encoding="utf-8")
    checked = CliRunner().invoke(cli, ["verify", str(path)])  # forumplay verify FILE
    assert checked.exit_code == 0 and "1 undos" in checked.stdout, checked.output
    # Tampering with an undone step is caught like any other.
    step = undone[0]
    step["state_hash"] = "0" * 64
    assert verify_archive(archive)["first_bad_step"] == step["seq"]


def _seconds(value: float) -> Any:
    from datetime import timedelta

    return timedelta(seconds=value)


def _same_view(now: dict[str, Any], before: dict[str, Any]) -> bool:
    keep = {k: v for k, v in now.items() if k not in ("deadline", "deadline_remaining_seconds")}
    old = {k: v for k, v in before.items() if k not in ("deadline", "deadline_remaining_seconds")}
    return keep == old


async def test_an_undo_needs_a_reason_respects_its_limit_and_a_dry_run_changes_nothing(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await at_command(client, clock, options={"max_undos": 1})
    ok(await game.post("/advance", "director"))
    before = (await game.summary(), await game.view("director"), await game.events("director"))
    problem(
        await game.post("/undo", "director", {"steps": 1, "reason": "  "}), 422, "reason_required"
    )
    problem(await game.post("/undo", "a1", {"steps": 1, "reason": "x"}), 403, "forbidden")
    problem(
        await game.post("/undo", "director", {"steps": 9, "reason": "x"}), 409, "nothing_to_undo"
    )
    preview = ok(
        await game.post(
            "/undo", "director", {"steps": 1, "reason": "试试"}, params={"dry_run": "true"}
        )
    )
    assert preview["dry_run"] is True and preview["undo"]["steps"][0]["kind"] == "timer"
    assert preview["phase"] == before[0]["phase"]
    after = (await game.summary(), await game.view("director"), await game.events("director"))
    assert after == before  # nothing changed

    await undo(game)
    ok(await game.post("/advance", "director"))
    problem(await game.post("/undo", "director", {"steps": 1, "reason": "再来"}), 409, "undo_limit")

    disabled = await at_command(client, clock, options={"max_undos": 0})
    ok(await disabled.post("/advance", "director"))
    problem(
        await disabled.post("/undo", "director", {"steps": 1, "reason": "x"}), 409, "undo_disabled"
    )


async def test_an_undo_replayed_with_its_idempotency_key_is_acted_on_once(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await at_command(client, clock)
    ok(await game.post("/advance", "director"))  # command closes
    ok(await game.post("/advance", "director"))  # and the battle
    body = {"steps": 1, "reason": REASON}
    key = {"Idempotency-Key": "undo-once-1"}
    first = ok(await game.post("/undo", "director", body, headers=key))
    again = ok(await game.post("/undo", "director", body, headers=key))
    assert again == first and first["phase"] == "battle"
    assert (await game.summary())["undos"] == 1  # the retry undid nothing more


async def test_an_undo_while_paused_takes_the_directors_deadline_and_voids_later_orders(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await at_command(client, clock)
    ok(await game.post("/advance", "director"))  # command closes: the battle phase
    assert (await game.view())["phase"] == "battle"
    later = await game.order("b1", {"type": "hold", "slot": 1})  # given for the battle
    ok(await game.post("/pause", "director"))
    done = await undo(game, deadline_seconds=1800)
    assert done["phase"] == "command" and done["status"] == "paused"
    assert done["deadline"] is None and done["deadline_remaining_seconds"] == 1800
    mine = {o["id"]: o["status"] for o in ok(await game.get("/orders", "b1"))}
    assert mine[later["id"]] == "undone"  # its phase was taken back
    history = ok(await game.get(f"/orders/{later['id']}/history", "b1"))
    assert history[-1]["action"] == "undo" and history[-1]["by_role"] == "director"
    ok(await game.post("/resume", "director"))
    assert (await game.summary())["deadline"] == (clock.now() + _seconds(1800)).isoformat()

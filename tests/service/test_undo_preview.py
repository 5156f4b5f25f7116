"""Every irreversible director action shows what it will do before it does it:
``?dry_run=true`` on advance, the run to 24:00, the game's end and a kill (and undo,
tested beside it) answers the preview and changes nothing."""

from __future__ import annotations

from httpx import AsyncClient

from app.clock import FakeClock
from tests.service.helpers import Game, ok
from tests.service.island_helpers import island_game, local, pid, quiet_overrides

DRY = {"dry_run": "true"}


async def everything(game: Game) -> list[bytes]:
    out = [(await game.get(p, "director")).content for p in ("", "/view", "/events", "/timers")]
    out.append((await game.get("/view", "ann")).content)
    out.append((await game.get("/audit", "director")).content)
    return out


async def test_previews_of_irreversible_actions_change_nothing(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await island_game(
        client, clock, ["ann", "bob", "cat"], settings=quiet_overrides(), start_at=local(1, 9)
    )
    before = await everything(game)
    advance = ok(await game.post("/advance", "director", params=DRY))
    assert advance["dry_run"] is True
    assert advance["advanced"]["timer"]["data"]["time"] == "20:00"
    midnight = ok(await game.post("/advance-to-midnight", "director", params=DRY))
    kinds = [t["kind"] for t in midnight["advanced"]["timers"]]
    assert kinds[-1] == "midnight" and len(kinds) >= 2
    end = ok(await game.post("/director/actions", "director", {"action": "end_game"}, params=DRY))
    assert end["dry_run"] is True and end["finishes"] is True
    kill = ok(
        await game.post(
            "/director/actions",
            "director",
            {"action": "kill_player", "player": pid(game, "bob")},
            params=DRY,
        )
    )
    assert kill["dry_run"] is True and kill["events"]
    assert await everything(game) == before  # a preview changes nothing
    assert (await game.summary())["status"] == "running"

    # The real thing does what the preview said.
    ran = ok(await game.post("/advance", "director"))
    assert ran["advanced"] == advance["advanced"] and ran.get("dry_run", False) is False

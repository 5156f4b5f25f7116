"""On a real Misago forum: an undone close's posts, already in the thread, are edited by
the bot to say they were withdrawn (linking the correction), and the correction is the
thread's newest post. Skipped locally when the forum cannot start (tests/conftest.py)."""

from __future__ import annotations

from httpx import AsyncClient

from app.clock import FakeClock
from tests.service.helpers import TB_SETTINGS, create_game, ok, tick
from tests.service.publish_helpers import posts
from tests.service.test_misago_e2e import deliver_all, misago_channel, thread_of
from tests.support.misago import MisagoForum

REASON = "误点了提前结束"


async def test_an_undone_close_is_withdrawn_in_the_misago_thread(
    client: AsyncClient, clock: FakeClock, misago_forum: MisagoForum
) -> None:
    game = await create_game(client, "team_battle", {**TB_SETTINGS, "dice": "high"})
    for name, side in (("a1", "A"), ("b1", "B")):
        await game.add_player(name, side)
    await misago_channel(game, misago_forum)
    await game.start()
    await game.order("a1", {"type": "deploy", "troops": [26, 1, 1, 1, 1]})
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    await tick(client, clock, 3600)
    ok(await game.post("/advance", "director"))  # the command phase closed by mistake
    await deliver_all(client, clock)
    before = await thread_of(game, misago_forum)

    done = ok(await game.post("/undo", "director", {"steps": 1, "reason": REASON}))
    withdrawn = done["undo"]["posts"]["delivered"]
    assert withdrawn  # the close's posts had reached the thread
    await deliver_all(client, clock)
    after = await thread_of(game, misago_forum)
    assert len(after) == len(before) + 1  # the correction, and nothing else new
    assert "更正：导演撤销了" in after[-1] and REASON in after[-1]
    published = await posts(game, None)
    by_seq = {p["seq"]: i for i, p in enumerate(published)}
    for seq in withdrawn:
        raw = after[by_seq[seq]]
        assert raw.startswith("**【已作废】导演撤销了这次结算"), raw[:120]
        assert REASON in raw and "见更正" in raw
        assert before[by_seq[seq]].strip() in raw  # the original text is kept below
    for i, raw in enumerate(after[:-1]):
        if i not in {by_seq[s] for s in withdrawn}:
            assert raw == before[i]  # the others are untouched

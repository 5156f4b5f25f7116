"""The console's safety net, as a director uses it: every irreversible control says what
it will do ("将执行：…"); the wrong click is put right in two clicks (the undo form with a
reason, then its confirmation); a sandbox is forked from the console and marked 沙盘."""

from __future__ import annotations

from httpx import AsyncClient

from app.clock import FakeClock
from tests.service.island_helpers import island_game, local, quiet_overrides
from tests.service.test_web_console_pages import (
    act,
    alert,
    console,
    director,
    notice,
    section,
    text_of,
)
from tests.service.web_helpers import Browser, browse

ISLANDERS = ["ann", "bob", "cat"]


async def test_the_director_undoes_a_wrong_click_from_the_console(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    game = await island_game(
        client, clock, ISLANDERS, settings=quiet_overrides(), start_at=local(1, 9)
    )
    laptop = await director(browser, game)
    page = await console(laptop, game)
    assert "将执行：20:00 的野兽检定" in text_of(section(page, "controls"))
    assert "24:00 结算" in text_of(section(page, "controls"))  # the run to midnight's preview
    assert "还没有可以撤销的结算。" in text_of(section(page, "undo"))

    await act(laptop, f"/director/{game.id}/advance", {"confirm": "1"})  # the wrong click
    page = await console(laptop, game)
    undo = text_of(section(page, "undo"))
    assert "1. 20:00 的野兽检定" in undo and "将撤销：20:00 的野兽检定" in undo
    assert "本局还可撤销 3 次" in undo

    # No reason: refused, nothing changes; the form keeps what was typed.
    await act(laptop, f"/director/{game.id}/undo", {"steps": "1", "reason": "", "confirm": "1"})
    page = await console(laptop, game)
    assert "撤销必须写明原因" in alert(page)
    await act(
        laptop, f"/director/{game.id}/undo", {"steps": "1", "reason": "点错了", "confirm": "1"}
    )
    page = await console(laptop, game)
    assert notice(page) == "已撤销 1 次结算，并已公开更正。", notice(page)
    assert "导演已撤销 1 次结算" in text_of(section(page, "status"))
    assert "将执行：20:00 的野兽检定" in text_of(section(page, "controls"))  # back before it
    assert "撤销结算（原因：点错了）" in text_of(section(page, "audit"))
    spectator = await browse(client, f"/g/{game.id}")
    assert "导演已撤销 1 次结算" in text_of(spectator.text)
    assert "更正：导演撤销了结算，原因：点错了。" in text_of(spectator.text)


async def test_a_sandbox_is_forked_from_the_console_and_marked_on_its_pages(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    game = await island_game(
        client, clock, ISLANDERS, settings=quiet_overrides(), start_at=local(1, 9)
    )
    laptop = await director(browser, game)
    await console(laptop, game)
    answer = await act(laptop, f"/director/{game.id}/fork", {})
    target = answer.headers["location"]
    assert target.startswith("/director/") and target != f"/director/{game.id}"
    page = await browse(laptop, target)
    assert page.status_code == 200
    status = text_of(section(page.text, "status"))
    assert "沙盘" in status and "只有导演能看到" in status
    assert f'href="/director/{game.id}"' in section(page.text, "sandbox")
    assert "丢弃沙盘" in text_of(section(page.text, "danger"))
    sandbox_id = target.rsplit("/", 1)[-1]
    assert (await browse(client, f"/g/{sandbox_id}")).status_code == 404  # nobody else
    # Thrown away from its console.
    gone = await act(laptop, f"/director/{sandbox_id}/delete", {"confirm": "1"})
    assert gone.headers["location"] != target
    assert (await browse(laptop, target)).status_code in (200, 404)

"""Passkeys in a real browser (issue 21): Chromium's virtual authenticator (the DevTools
protocol's ``WebAuthn.addVirtualAuthenticator``, through Playwright's CDP session) runs the
ceremonies the account pages start — register, sign out, sign in, "我的游戏" with the bound
seat, and a second browser profile that signs in with a second passkey and opens the seat.

The server is opened as ``http://localhost:<port>``: the RP ID is the host, and an IP
address cannot be one. Screenshots at 390 px are saved (``tests/service/browser.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import pytest_asyncio
from playwright.async_api import expect

from app.clock import FakeClock
from app.settings import Settings
from tests.service.browser import WAIT_MS, Shots, fits_the_screen, launch, screenshots_folder
from tests.service.live_server import thread_server

expect.set_options(timeout=WAIT_MS)
PHONE_390 = {"width": 390, "height": 844}
AUTHENTICATOR = {
    "options": {
        "protocol": "ctap2",
        "transport": "internal",
        "hasResidentKey": True,
        "hasUserVerification": True,
        "isUserVerified": True,
    }
}


@pytest_asyncio.fixture(scope="module")
async def chromium() -> AsyncIterator[Any]:
    async for browser in launch():
        yield browser


@pytest.fixture
def server(settings: Settings, clock: FakeClock) -> Iterator[str]:
    with thread_server(settings, clock) as base:
        yield base.replace("127.0.0.1", "localhost")


async def _profile(chromium: Any) -> tuple[Any, Any]:
    """A new browser profile with a passkey authenticator of its own: (context, page)."""
    context = await chromium.new_context(viewport=PHONE_390, locale="zh-CN")
    page = await context.new_page()
    cdp = await context.new_cdp_session(page)
    await cdp.send("WebAuthn.enable")
    await cdp.send("WebAuthn.addVirtualAuthenticator", AUTHENTICATOR)
    return context, page


def _game(server: str) -> tuple[str, str]:
    """A team battle with one player: (game id, that player's invite link)."""
    with httpx.Client(base_url=server) as http:
        made = http.post("/api/v1/games", json={"ruleset": "team_battle", "title": "岛上团战"})
        game = made.json()
        auth = {"Authorization": f"Bearer {game['director_token']}"}
        player = http.post(
            f"/api/v1/games/{game['id']}/players", json={"name": "阿安", "side": "A"}, headers=auth
        ).json()
        link = http.post(
            f"/api/v1/games/{game['id']}/players/{player['id']}/invite", headers=auth
        ).json()
    return game["id"], f"{server}{link['url']}"


async def test_passkeys_register_sign_in_and_follow_to_a_second_profile(
    chromium: Any, server: str, db_kind: str
) -> None:
    shots = Shots(screenshots_folder(db_kind), "accounts")
    game_id, invite = _game(server)

    phone, page = await _profile(chromium)
    await page.goto(invite)
    await page.locator("form[method=post] button[type=submit]").first.click()
    await expect(page).to_have_url(f"{server}/play/{game_id}")
    await page.goto(f"{server}/")
    mine = page.locator("#my-games")
    await expect(mine).to_contain_text("我的游戏")
    await expect(mine.locator(f'a[href="/play/{game_id}"]')).to_contain_text("岛上团战")
    await shots(page, "home-my-games")

    # Register: a name, the passkey, the recovery codes shown once.
    await page.goto(f"{server}/me")
    await shots(page, "sign-in")
    await page.fill("#passkey-register input[name=name]", "阿安")
    await page.click("#passkey-register button[type=submit]")
    await expect(page.locator("#recovery-once")).to_be_visible()
    codes = await page.locator("#recovery-list li").all_inner_texts()
    assert len(codes) == 8 and len(set(codes)) == 8
    await shots(page, "recovery-codes")
    await page.click("#recovery-once a")
    await expect(page.locator("h1")).to_contain_text("阿安")
    await expect(page.locator("#my-games")).to_contain_text("岛上团战")
    assert await fits_the_screen(page)
    await shots(page, "account")

    # Sign out, then in again with the same passkey.
    await page.click("form[action='/me/signout'] button")
    await expect(page.locator("#passkey-login")).to_be_visible()
    await page.click("#passkey-login")
    await expect(page.locator("h1")).to_contain_text("阿安")

    # A second profile (a new phone): a recovery code, then a passkey of its own.
    laptop, second = await _profile(chromium)
    await second.goto(f"{server}/me")
    await second.fill("form[action='/me/recover'] input[name=code]", codes[0])
    await second.click("form[action='/me/recover'] button")
    await expect(second.locator("h1")).to_contain_text("阿安")
    await second.click("#passkey-add")
    await expect(second.locator("#passkeys li")).to_have_count(2)
    await second.click("form[action='/me/signout'] button")
    await second.click("#passkey-login")
    await expect(second.locator("h1")).to_contain_text("阿安")
    seat = second.locator(f"form[action='/me/open/{game_id}'] button")
    await expect(seat).to_be_visible()
    await shots(second, "second-profile-account")
    await seat.click()
    await expect(second).to_have_url(f"{server}/play/{game_id}")
    await second.goto(f"{server}/")
    await expect(second.locator(f'#my-games a[href="/play/{game_id}"]')).to_be_visible()
    assert await fits_the_screen(second)
    await shots(second, "second-profile-home")
    await phone.close()
    await laptop.close()

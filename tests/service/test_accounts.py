"""Accounts (issue 21): "我的游戏" from a browser's own sessions, passkey accounts that gather
seats and follow a person to a new device, recovery codes, sessions rotated at sign-in,
origin and RP ID checked, sign-in attempts limited, and deleting an account.

The passkeys here are software authenticators (``passkey_helpers.SoftPasskey``); the same
ceremonies run in Chromium with its virtual authenticator in ``test_accounts_browser.py``."""

from __future__ import annotations

import re

import pytest
from httpx import ASGITransport, AsyncClient
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.accounts.passkeys import relying_party
from app.accounts.service import ACCOUNT_COOKIE
from app.clock import FakeClock
from app.limits import SIGN_IN_ATTEMPTS, SIGN_IN_WINDOW_SECONDS
from app.main import create_app
from app.settings import Settings
from app.web.messages import LANG_COOKIE
from tests.service.helpers import TB_SETTINGS, bearer, create_game, ok, problem, team_battle
from tests.service.page_text import problems
from tests.service.passkey_helpers import AccountBrowser, SoftPasskey
from tests.service.test_web_sessions import invite
from tests.service.web_helpers import Browser, browse, join, post_form


async def test_my_games_lists_this_browsers_seats_without_an_account(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    phone, desk, stranger = browser(), browser(), browser()
    await join(phone, await invite(game, "a1"))
    await browse(desk, f"/director/{game.id}")
    await post_form(desk, f"/director/{game.id}/login", {"token": game.director})

    home = await browse(phone, "/")
    assert "我的游戏" in home.text and f'href="/play/{game.id}"' in home.text
    assert ok(await phone.get("/api/v1/me/games")) == [
        {
            "game_id": game.id,
            "title": "测试局",
            "role": "player",
            "status": "running",
            "player_name": "a1",
        }
    ]
    desk_games = ok(await desk.get("/api/v1/me/games"))
    assert [(g["game_id"], g["role"]) for g in desk_games] == [(game.id, "director")]
    assert f'href="/director/{game.id}"' in (await browse(desk, "/")).text
    assert ok(await stranger.get("/api/v1/me/games")) == []
    assert "这个浏览器还没有加入任何游戏" in (await browse(stranger, "/")).text


async def test_a_passkey_account_gathers_seats_and_follows_to_a_new_device(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    other = await team_battle(client)
    phone = AccountBrowser(browser())
    await join(phone.http, await invite(game, "a1"))
    passkey = SoftPasskey()

    made = await phone.register("Ann", passkey)
    body = ok(made, 201)
    assert body["account"]["name"] == "Ann" and len(body["recovery_codes"]) == 8
    cookie = next(h for h in made.headers.get_list("set-cookie") if h.startswith(ACCOUNT_COOKIE))
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    assert [(g["game_id"], g["role"]) for g in await phone.my_games()] == [(game.id, "player")]

    # An invite redeemed while signed in joins the account too.
    await join(phone.http, await invite(other, "b1"))
    assert {g["game_id"] for g in await phone.my_games()} == {game.id, other.id}

    # A new device: nothing there, until the same person signs in.
    laptop = AccountBrowser(browser())
    assert await laptop.my_games() == []
    ok(await laptop.sign_in(passkey))
    assert {(g["game_id"], g["player_name"]) for g in await laptop.my_games()} == {
        (game.id, "a1"),
        (other.id, "b1"),
    }
    home = await browse(laptop.http, "/")
    assert f'action="/me/open/{game.id}"' in home.text
    opened = await post_form(laptop.http, f"/me/open/{game.id}", {"role": "player"})
    assert (opened.status_code, opened.headers["location"]) == (303, f"/play/{game.id}")
    assert (await browse(laptop.http, f"/play/{game.id}")).status_code == 200
    # The per-game credentials keep working as before.
    assert ok(await game.get("/view", "a1"))["phase"]


async def test_sign_in_rotates_the_session_and_sign_out_ends_it(
    client: AsyncClient, browser: Browser
) -> None:
    passkey = SoftPasskey()
    phone = AccountBrowser(browser())
    ok(await phone.register("Ann", passkey), 201)
    first = phone.http.cookies.get(ACCOUNT_COOKIE)
    ok(await phone.sign_in(passkey))
    second = phone.http.cookies.get(ACCOUNT_COOKIE)
    assert first and second and first != second
    thief = browser()
    thief.cookies.set(ACCOUNT_COOKIE, str(first))
    problem(await thief.get("/api/v1/me"), 401, "not_signed_in")
    assert ok(await phone.http.get("/api/v1/me"))["name"] == "Ann"
    assert ok(await phone.post("/accounts/signout")) == {"done": True}
    again = browser()
    again.cookies.set(ACCOUNT_COOKIE, str(second))
    problem(await again.get("/api/v1/me"), 401, "not_signed_in")


async def test_several_passkeys_sign_in_to_one_account(
    client: AsyncClient, browser: Browser
) -> None:
    phone_key, laptop_key = SoftPasskey(), SoftPasskey()
    phone = AccountBrowser(browser())
    account = ok(await phone.register("Ann", phone_key), 201)["account"]
    added = ok(await phone.register("", laptop_key), 201)  # signed in: another passkey
    assert added["account"]["id"] == account["id"] and "recovery_codes" not in added
    assert len(ok(await phone.http.get("/api/v1/me"))["passkeys"]) == 2
    laptop = AccountBrowser(browser())
    assert ok(await laptop.sign_in(laptop_key))["account"]["id"] == account["id"]


async def test_the_origin_the_rp_id_and_the_challenge_are_checked(
    client: AsyncClient, browser: Browser
) -> None:
    passkey = SoftPasskey()
    phone = AccountBrowser(browser())
    for wrong in ({"origin": "http://evil.example"}, {"rp_id": "evil.example"}):
        begun = ok(await phone.post("/accounts/passkeys/register/begin", {"name": "Ann"}))
        made = await phone.post(
            "/accounts/passkeys/register/finish", passkey.create(begun, **wrong)
        )
        problem(made, 400, "passkey_failed")
    problem(await phone.http.get("/api/v1/me"), 401, "not_signed_in")

    ok(await phone.register("Ann", passkey), 201)
    laptop = AccountBrowser(browser())
    begun = ok(await laptop.post("/accounts/passkeys/login/begin"))
    problem(
        await laptop.post(
            "/accounts/passkeys/login/finish", passkey.get(begun, origin="http://evil.example")
        ),
        400,
        "passkey_failed",
    )
    answer = passkey.get(ok(await laptop.post("/accounts/passkeys/login/begin")))
    ok(await laptop.post("/accounts/passkeys/login/finish", answer))
    # A signed answer is spent once: replayed, it signs nobody in.
    replay = AccountBrowser(browser())
    problem(await replay.post("/accounts/passkeys/login/finish", answer), 400, "passkey_expired")
    # Without the CSRF token no ceremony starts.
    problem(await browser().post("/api/v1/accounts/passkeys/login/begin"), 403, "csrf_failed")


async def test_sign_in_attempts_are_rate_limited(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    phone = AccountBrowser(browser())
    for _ in range(SIGN_IN_ATTEMPTS):
        ok(await phone.post("/accounts/passkeys/login/begin"))
    refused = problem(
        await phone.post("/accounts/passkeys/login/begin"), 429, "too_many_sign_in_attempts"
    )
    assert "登录尝试过于频繁" in refused["detail"]
    problem(await phone.post("/accounts/recovery", {"code": "x"}), 429, "too_many_sign_in_attempts")
    clock.advance(SIGN_IN_WINDOW_SECONDS + 1)
    ok(await phone.post("/accounts/passkeys/login/begin"))


async def test_a_recovery_code_signs_in_once(client: AsyncClient, browser: Browser) -> None:
    phone = AccountBrowser(browser())
    codes = ok(await phone.register("Ann", SoftPasskey()), 201)["recovery_codes"]
    new_phone = browser()
    await browse(new_phone, "/me")
    used = await post_form(new_phone, "/me/recover", {"code": codes[0].upper()})
    assert (used.status_code, used.headers["location"]) == (303, "/me")
    page = await browse(new_phone, "/me")
    assert "Ann" in page.text and "还剩 7 个未用的恢复码" in page.text
    again = browser()
    await browse(again, "/me")
    spent = await post_form(again, "/me/recover", {"code": codes[0]})
    assert spent.status_code == 401 and "恢复码无效或已被使用" in spent.text


async def test_a_deleted_account_leaves_its_seats_as_plain_seats(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    passkey = SoftPasskey()
    phone = AccountBrowser(browser())
    await join(phone.http, await invite(game, "a1"))
    ok(await phone.register("Ann", passkey), 201)
    token = ok(await phone.post("/me/tokens", {"name": "bot", "scopes": ["play"]}), 201)["token"]
    await browse(phone.http, "/me")
    deleted = await post_form(phone.http, "/me/delete", {"confirm": "1"})
    assert (deleted.status_code, deleted.headers["location"]) == (303, "/")
    problem(await phone.http.get("/api/v1/me"), 401, "not_signed_in")
    problem(await client.get(f"{game.url}/view", headers=bearer(token)), 401, "unauthorized")
    assert ok(await game.get("/view", "a1"))["phase"]  # the seat is still played
    assert [g["role"] for g in await phone.my_games()] == ["player"]  # its session too
    laptop = AccountBrowser(browser())
    problem(await laptop.sign_in(passkey), 400, "passkey_failed")


async def test_signing_in_binds_the_seats_this_browser_holds(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    passkey = SoftPasskey()
    ok(await AccountBrowser(browser()).register("Ann", passkey), 201)
    desk = AccountBrowser(browser())
    await browse(desk.http, f"/director/{game.id}")
    await post_form(desk.http, f"/director/{game.id}/login", {"token": game.director})
    assert ok(await desk.sign_in(passkey))["bound"] == 1
    phone = AccountBrowser(browser())
    ok(await phone.sign_in(passkey))
    assert [(g["game_id"], g["role"]) for g in await phone.my_games()] == [(game.id, "director")]
    opened = await post_form(phone.http, f"/me/open/{game.id}", {"role": "director"})
    assert opened.headers["location"] == f"/director/{game.id}"
    assert "导演" in (await browse(phone.http, f"/director/{game.id}")).text


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_the_account_pages_read_clean_signed_in(
    client: AsyncClient, browser: Browser, lang: str
) -> None:
    """The page matrix's checks on the pages only a signed-in account sees: no None, no
    raw ids or codes, no English in the Chinese page; a new token and codes shown once."""
    game = await team_battle(client)
    phone = AccountBrowser(browser())
    phone.http.cookies.set(LANG_COOKIE, lang)
    await join(phone.http, await invite(game, "a1"))
    ok(await phone.register("Ann", SoftPasskey()), 201)
    await browse(phone.http, "/me")
    made = await post_form(phone.http, "/me/tokens", {"name": "bot", "scopes": ["read", "play"]})
    assert made.status_code == 303
    shown = await browse(phone.http, "/me")
    token = re.search(r"fpa_[A-Za-z0-9_-]+", shown.text)
    assert token is not None
    assert token.group(0) not in (await browse(phone.http, "/me")).text  # shown once
    await post_form(phone.http, "/me/recovery-codes")
    codes_page = await browse(phone.http, "/me")
    assert len(re.findall(r"<li><code>[0-9a-f-]{19}</code></li>", codes_page.text)) == 8
    for page in (shown, codes_page, await browse(phone.http, "/")):
        assert page.status_code == 200
        found = problems(page.text, lang, {game.id, game.players["a1"]["id"]})
        assert not found, found


def test_the_relying_party_is_the_public_url_else_the_request_host() -> None:
    rp = relying_party("https://play.example.org/forum", "http://10.0.0.5:8000/")
    assert (rp.id, rp.origin) == ("play.example.org", "https://play.example.org")
    rp = relying_party(None, "http://localhost:8123/")
    assert (rp.id, rp.origin) == ("localhost", "http://localhost:8123")


async def test_behind_public_url_only_its_origin_registers(
    settings: Settings,
    clock: FakeClock,
    engine: AsyncEngine,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> None:
    app = create_app(settings.model_copy(update={"public_url": "https://play.example.org"}), clock)
    app.state.engine, app.state.sessionmaker = engine, sessionmaker
    transport = ASGITransport(app=app, raise_app_exceptions=False)
    async with AsyncClient(transport=transport, base_url="http://test") as http:
        phone = AccountBrowser(http)
        problem(await phone.register("Ann", SoftPasskey()), 400, "passkey_failed")  # http://test
        ok(await phone.register("Ann", SoftPasskey(origin="https://play.example.org")), 201)


async def test_a_seat_taken_on_the_sign_up_page_while_signed_in_is_the_accounts(
    client: AsyncClient, browser: Browser
) -> None:
    """Issue 20 meets issue 21: a player signed in with a passkey signs up on the page; the
    seat is bound to the account, so another device signed in finds it in 我的游戏."""
    game = await create_game(client, "team_battle", TB_SETTINGS)
    ok(await game.put("/signup", "director", {"open": True, "max_players": 3}))
    passkey = SoftPasskey()
    phone = AccountBrowser(browser())
    ok(await phone.register("小明", passkey), 201)
    await browse(phone.http, f"/g/{game.id}/signup")
    taken = await post_form(phone.http, f"/g/{game.id}/signup", {"name": "小明"})
    assert taken.headers["location"] == f"/play/{game.id}"
    laptop = AccountBrowser(browser())
    ok(await laptop.sign_in(passkey))
    assert [(g["game_id"], g["role"]) for g in await laptop.my_games()] == [(game.id, "player")]


async def test_a_co_directors_console_is_in_my_games_and_goes_with_the_revocation(
    client: AsyncClient, browser: Browser
) -> None:
    """Issue 21 item 1 with issue 20's co-directors: a co-director's console session is
    listed as 副导演 in 我的游戏, follows the account to another device, and is gone from
    both once the director revokes the co-director."""
    game = await team_battle(client)
    helper = ok(await game.post("/directors", "director", {"name": "小助手"}), 201)
    passkey = SoftPasskey()
    laptop = AccountBrowser(browser())
    await browse(laptop.http, f"/director/{game.id}")
    await post_form(laptop.http, f"/director/{game.id}/login", {"token": helper["token"]})
    ok(await laptop.register("小助手", passkey), 201)
    assert [(g["game_id"], g["role"]) for g in await laptop.my_games()] == [
        (game.id, "co_director")
    ]
    assert "副导演" in (await browse(laptop.http, "/")).text
    phone = AccountBrowser(browser())
    ok(await phone.sign_in(passkey))
    opened = await post_form(phone.http, f"/me/open/{game.id}", {"role": "co_director"})
    assert opened.headers["location"] == f"/director/{game.id}"
    console = await browse(phone.http, f"/director/{game.id}")
    assert console.status_code == 200 and 'id="audit"' in console.text  # the console, as them
    ok(await game.delete(f"/directors/{helper['id']}", "director"))
    assert await phone.my_games() == []
    assert await laptop.my_games() == []

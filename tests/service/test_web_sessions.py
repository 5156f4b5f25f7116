"""Invites, browser sessions, CSRF, replacing a player, and the pages' security headers."""

from __future__ import annotations

import re

import pytest
from httpx import AsyncClient

from app.api.security import CSRF_COOKIE, session_cookie_name
from app.services import auth
from tests.service.helpers import Game, bearer, ok, problem, team_battle
from tests.service.web_helpers import Browser, browse, join, post_form, session_cookie


async def invite(game: Game, who: str) -> str:
    pid = game.players[who]["id"]
    body = ok(await game.post(f"/players/{pid}/invite", "director"), 201)
    assert re.fullmatch(r"/join/[A-Za-z0-9_-]{20,}", body["url"]), body
    return str(body["url"])


async def test_an_invite_is_spent_only_by_its_confirm_button(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    url = await invite(game, "a1")
    phone = browser()

    # A link preview (GET) shows the confirm button and spends nothing, sets no session.
    page = await browse(phone, url)
    assert page.status_code == 200
    assert 'method="post"' in page.text and "a1" in page.text
    assert session_cookie(page, game.id) is None
    assert (await browse(browser(), url)).status_code == 200  # still valid

    joined = await join(phone, url)
    assert joined.status_code == 303
    assert joined.headers["location"] == f"/play/{game.id}"
    cookie = session_cookie(joined, game.id)
    assert cookie is not None
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    assert "secure" not in cookie.lower()  # plain HTTP here; Secure under HTTPS
    assert url.split("/")[-1] not in (await browse(phone, f"/play/{game.id}")).text

    # Spent: a second confirmation (from anyone) sets no cookie and goes back to the link's
    # own page (post/redirect/get: Back never offers to resend), which says it is spent.
    late = browser()
    again = await join(late, url)
    assert again.status_code == 303 and again.headers["location"] == url
    assert session_cookie(again, game.id) is None
    spent = await browse(late, url)
    assert spent.status_code == 404 and "text/html" in spent.headers["content-type"]
    assert "邀请链接无效或已被使用" in spent.text
    unknown = await join(browser(), "/join/not-a-real-code-at-all-xxxxxxxx")
    assert unknown.status_code == 303 and session_cookie(unknown, game.id) is None


async def test_a_new_invite_revokes_the_unused_one(client: AsyncClient, browser: Browser) -> None:
    game = await team_battle(client)
    first = await invite(game, "a1")
    second = await invite(game, "a1")
    assert (await join(browser(), first)).headers["location"] == first  # spent: its own page
    assert (await join(browser(), second)).headers["location"] == f"/play/{game.id}"


async def test_only_the_director_makes_invites(client: AsyncClient) -> None:
    game = await team_battle(client)
    pid = game.players["a1"]["id"]
    problem(await game.post(f"/players/{pid}/invite", "b1"), 403, "forbidden")
    problem(await game.post(f"/players/{pid}/invite"), 401, "unauthorized")
    problem(await game.post("/players/nobody/invite", "director"), 404, "not_found")


async def test_the_player_page_needs_a_session(client: AsyncClient, browser: Browser) -> None:
    game = await team_battle(client)
    # No session: a page that says so and how to get in, not silently the spectator page.
    stranger = await browse(browser(), f"/play/{game.id}")
    assert stranger.status_code == 200
    assert "新的邀请链接" in stranger.text and "b1" not in stranger.text

    phone = browser()
    await join(phone, await invite(game, "b1"))
    page = await browse(phone, f"/play/{game.id}")
    assert page.status_code == 200
    assert "b1" in page.text

    # A forged cookie is nobody: told the sign-in has ended; a GET clears no cookie.
    forged = browser()
    forged.cookies.set(session_cookie_name(game.id), "fps_forged")
    answer = await browse(forged, f"/play/{game.id}")
    assert answer.status_code == 200 and "登录已经失效" in answer.text
    assert session_cookie(answer, game.id) is None


async def test_cookie_changes_need_the_csrf_token(client: AsyncClient, browser: Browser) -> None:
    game = await team_battle(client)
    phone = browser()
    await join(phone, await invite(game, "a1"))
    order = {"type": "deploy", "troops": [6, 6, 6, 6, 6]}

    # The API with the cookie alone (a cross-site request could do that): refused.
    refused = await phone.post(f"/api/v1/games/{game.id}/orders", json=order)
    problem(refused, 403, "csrf_failed")
    wrong = await phone.post(
        f"/api/v1/games/{game.id}/orders", json=order, headers={"X-CSRF-Token": "guess"}
    )
    problem(wrong, 403, "csrf_failed")
    assert (await game.view("a1"))["orders"] == []

    # With the token the page carries, the same request is the player's own.
    token = phone.cookies.get(CSRF_COOKIE)
    accepted = await phone.post(
        f"/api/v1/games/{game.id}/orders", json=order, headers={"X-CSRF-Token": token or ""}
    )
    assert accepted.status_code == 201, accepted.text
    # Reading needs no token.
    assert (await phone.get(f"/api/v1/games/{game.id}/view")).json()["you"]["name"] == "a1"

    # A form post without the token changes nothing either.
    ready = await post_form(phone, f"/play/{game.id}/ready", csrf="")
    assert ready.status_code == 403
    assert (await game.view("a1"))["sides"]["A"]["ready"] is False


async def test_replacing_a_player_ends_the_old_token_and_sessions(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    old_phone = browser()
    await join(old_phone, await invite(game, "a1"))
    # The old player acts (the token is now remembered by this process)…
    first = await game.order("a1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    pid = game.players["a1"]["id"]

    replaced = ok(await game.post(f"/players/{pid}/replace", "director"))
    assert replaced["id"] == pid and replaced["url"].startswith("/join/")

    # …and is refused after: by token, by session, on the page.
    problem(await game.get("/view", "a1"), 401, "unauthorized")
    old_api = await old_phone.get(f"/api/v1/games/{game.id}/view")
    problem(old_api, 401, "unauthorized")
    signed_out = await browse(old_phone, f"/play/{game.id}")
    assert signed_out.status_code == 200 and "登录已经失效" in signed_out.text

    # The new player takes the seat with its history.
    game.players["a1"]["token"] = replaced["token"]
    view = await game.view("a1")
    assert [o["id"] for o in view["orders"]] == [first["id"]]
    new_phone = browser()
    assert (await join(new_phone, replaced["url"])).status_code == 303
    assert (await browse(new_phone, f"/play/{game.id}")).status_code == 200
    audit = ok(await game.get("/audit", "director"))
    assert any(a["action"] == "replace_player" for a in audit)


async def test_a_token_remembered_by_another_replica_is_checked_again(
    client: AsyncClient,
) -> None:
    """A replica that remembered the old token before the replacement (its own memory,
    which this process's replacement cannot clear) must not trust it: the game's epoch
    moved, so the token is looked up again and refused."""
    game = await team_battle(client)
    old_token = game.token("a1")
    assert old_token is not None
    await game.view("a1")
    key = (game.id, auth.hash_token(old_token))
    remembered = auth._players[key]
    pid = game.players["a1"]["id"]
    ok(await game.post(f"/players/{pid}/replace", "director"))
    auth._players[key] = remembered  # as another process still has it
    problem(await client.get(f"{game.url}/view", headers=bearer(old_token)), 401, "unauthorized")
    assert key not in auth._players


async def test_the_director_signs_a_player_out_everywhere(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    url = await invite(game, "b1")
    phone, tablet = browser(), browser()
    await join(phone, url)
    await join(tablet, await invite(game, "b1"))
    pid = game.players["b1"]["id"]
    revoked = ok(await game.post(f"/players/{pid}/revoke-sessions", "director"))
    assert revoked["revoked_sessions"] == 2
    for device in (phone, tablet):
        page = await browse(device, f"/play/{game.id}")
        assert page.status_code == 200 and "登录已经失效" in page.text
    # The token itself still works: revoking sessions is not replacing the player.
    assert (await game.view("b1"))["you"]["name"] == "b1"


async def test_the_director_console_takes_the_token_once(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    laptop = browser()
    login = await browse(laptop, f"/director/{game.id}")
    assert login.status_code == 200 and 'type="password"' in login.text
    wrong = await post_form(laptop, f"/director/{game.id}/login", {"token": "fpd_wrong"})
    assert wrong.status_code == 303  # back to the sign-in page, with the reason (once)
    again = await browse(laptop, wrong.headers["location"])
    assert 'class="alert error"' in again.text and 'type="password"' in again.text
    assert 'class="alert error"' not in (await browse(laptop, f"/director/{game.id}")).text
    signed = await post_form(laptop, f"/director/{game.id}/login", {"token": game.director})
    assert signed.status_code == 303
    console = await browse(laptop, f"/director/{game.id}")
    assert console.status_code == 200
    assert game.director not in console.text
    for name in ("a1", "a2", "b1"):
        assert name in console.text
    # A player's session is not the director's.
    phone = browser()
    await join(phone, await invite(game, "a1"))
    assert 'type="password"' in (await browse(phone, f"/director/{game.id}")).text


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)
INLINE_STYLE = re.compile(r"\sstyle\s*=", re.I)


@pytest.mark.parametrize("lang", ["zh-CN", "en"])
async def test_every_page_has_a_strict_csp_and_no_inline_code(
    client: AsyncClient, browser: Browser, lang: str
) -> None:
    game = await team_battle(client)
    phone, laptop = browser(), browser()
    await join(phone, await invite(game, "a1"))
    await post_form(laptop, f"/director/{game.id}/login", {"token": game.director})
    pages = [
        (browser(), "/"),
        (browser(), f"/g/{game.id}"),
        (browser(), "/director/new"),
        (browser(), "/director/new?ruleset=island"),
        (browser(), f"/director/{game.id}"),
        (browser(), "/join/unknown-code-xxxxxxxxxxxxxxxx"),
        (browser(), await invite(game, "b1")),
        (phone, f"/play/{game.id}"),
        (laptop, f"/director/{game.id}"),
    ]
    for http, path in pages:
        page = await http.get(path, headers={"Accept-Language": lang})
        assert "text/html" in page.headers["content-type"], path
        csp = page.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, path
        assert "style-src 'self'" in csp
        assert not INLINE_SCRIPT.search(page.text), path
        assert not INLINE_HANDLER.search(page.text), path
        assert not INLINE_STYLE.search(page.text), path
        expected = 'lang="en"' if lang == "en" else 'lang="zh-CN"'
        assert expected in page.text, path

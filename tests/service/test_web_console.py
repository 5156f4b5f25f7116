"""The director's console for publishing: the review queue, deliveries, channels, settings,
reminders and forum names — as a browser posts its forms (cookie + CSRF), checked against
what the API then answers (the console and the API share the services)."""

from __future__ import annotations

import html
import re
from typing import Any

from httpx import AsyncClient, Response

from app.clock import FakeClock
from tests.service.helpers import TB_SETTINGS, Game, create_game, ok, team_battle
from tests.service.publish_helpers import SINK_URL, WEBHOOK_SECRET, Sink, posts, worker
from tests.service.web_helpers import Browser, browse, post_form


async def director(browser: Browser, game: Game) -> AsyncClient:
    """A browser signed in to the game's console."""
    laptop = browser()
    await browse(laptop, f"/director/{game.id}")
    signed = await post_form(laptop, f"/director/{game.id}/login", {"token": game.director})
    assert signed.status_code == 303
    return laptop


async def console(laptop: AsyncClient, game: Game, lang: str = "zh-CN") -> str:
    page = await browse(laptop, f"/director/{game.id}", headers={"Accept-Language": lang})
    assert page.status_code == 200, page.text[:300]
    return page.text


def section(page: str, section_id: str) -> str:
    """The HTML of one section of a page (sections do not nest)."""
    found = re.search(rf'<section[^>]*id="{section_id}".*?</section>', page, re.S)
    assert found, section_id
    return found.group(0)


def done(answer: Response, anchor: str = "") -> None:
    assert answer.status_code == 303, answer.text[:500]
    assert answer.headers["location"].endswith(anchor)


async def refused(laptop: AsyncClient, answer: Response, game: Game, lang: str = "zh-CN") -> str:
    """A refused console form: redirected back to the console, whose next GET shows the
    reason (once); the page's HTML."""
    assert answer.status_code == 303, answer.text[:500]
    assert answer.headers["location"].startswith(f"/director/{game.id}")
    page = await console(laptop, game, lang)
    assert 'class="alert error"' in page, page[:2000]
    return page


async def publishing(game: Game) -> dict[str, Any]:
    return ok(await game.get("/publishing", "director"))  # type: ignore[no-any-return]


async def reviewed_game(client: AsyncClient, browser: Browser) -> tuple[Game, AsyncClient]:
    """A team battle in setup whose director reviews every post (set on the console)."""
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await game.add_player("a1", "A")
    await game.add_player("b1", "B")
    laptop = await director(browser, game)
    done(await post_form(laptop, f"/director/{game.id}/publishing", {"review": "always"}))
    return game, laptop


async def held_post(
    client: AsyncClient, browser: Browser
) -> tuple[Game, AsyncClient, dict[str, Any]]:
    """A started game whose first post (the start; the phase opened follows) awaits review."""
    game, laptop = await reviewed_game(client, browser)
    await game.start()
    return game, laptop, (await posts(game))[0]


async def test_a_post_is_reviewed_edited_approved_and_delivered_from_the_console(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    game, laptop = await reviewed_game(client, browser)
    added = await post_form(
        laptop,
        f"/director/{game.id}/channels",
        {
            "kind": "webhook",
            "name": "机器人",
            "config.webhook.url": SINK_URL,
            "config.webhook.secret": WEBHOOK_SECRET,
        },
    )
    done(added, "#channels")
    await game.start()

    page = await console(laptop, game)
    queue = section(page, "review")
    held = (await posts(game))[0]  # the game's start; the phase opened follows
    assert held["status"] == "awaiting_review"
    assert html.escape(held["title"]) in queue
    # Each format: BBCode and Markdown as source to copy, plain text as text.
    assert html.escape(held["bodies"]["bbcode"]) in queue
    assert html.escape(held["bodies"]["markdown"]) in queue
    assert f'<div class="plain" id="src-{held["id"]}-text">' in queue
    assert queue.count(f'name="fmt-{held["id"]}"') == 3
    assert "机器人" in section(page, "channels")
    assert WEBHOOK_SECRET not in page  # secrets are never shown back

    # Edit the title and the Markdown body (a browser sends CRLF line breaks).
    markdown = "**开战！**\r\n\r\n各位请部署。"
    edited = await post_form(
        laptop,
        f"/director/{game.id}/posts/{held['id']}/edit",
        {
            "title": "赤壁：开战",
            "body_bbcode": held["bodies"]["bbcode"],
            "body_markdown": markdown,
            "body_text": held["bodies"]["text"],
        },
    )
    done(edited, f"#post-{held['id']}")
    post = (await posts(game))[0]
    assert post["title"] == "赤壁：开战"
    assert post["bodies"]["markdown"] == "**开战！**\n\n各位请部署。"
    assert post["status"] == "awaiting_review" and post["deliveries"] == []

    for waiting in await posts(game):
        path = f"/director/{game.id}/posts/{waiting['id']}/approve"
        done(await post_form(laptop, path), "#review")
    assert {p["status"] for p in await posts(game)} == {"published"}
    page = await console(laptop, game)
    assert "没有待审的帖子" in section(page, "review")
    assert "等待发送" in section(page, "posts")
    assert 'data-refresh-in="' in page  # the page looks again for the delivery by itself

    sink = Sink()
    while await worker(client, clock, sink).run_once():  # one at a time, in order
        pass
    sent, _phase = sink.accepted()
    assert sent["title"] == "赤壁：开战"
    assert sent["bodies"]["markdown"] == "**开战！**\n\n各位请部署。"
    page = await console(laptop, game)
    assert "已送达" in section(page, "posts")
    assert "data-refresh-in" not in page  # nothing left in flight

    audit = ok(await game.get("/audit", "director"))
    actions = [a["action"] for a in audit]
    for action in ("set_publishing", "add_channel", "edit_post", "approve_post"):
        assert action in actions


async def test_a_discarded_post_is_never_published(client: AsyncClient, browser: Browser) -> None:
    game, laptop, held = await held_post(client, browser)
    path = f"/director/{game.id}/posts/{held['id']}/discard"
    done(await post_form(laptop, path, {"confirm": "1"}), "#review")
    post = (await posts(game))[0]
    assert post["status"] == "discarded"
    assert held["id"] not in {p["id"] for p in await posts(game, None)}
    # Approving it now is refused, on the console, in the reader's language.
    again = await post_form(laptop, f"/director/{game.id}/posts/{held['id']}/approve")
    assert "帖子已被弃用" in await refused(laptop, again, game)
    again = await post_form(laptop, f"/director/{game.id}/posts/{held['id']}/approve")
    assert "The post was discarded." in await refused(laptop, again, game, "en")


async def test_an_edit_the_api_would_refuse_is_refused_and_changes_nothing(
    client: AsyncClient, browser: Browser
) -> None:
    game, laptop, held = await held_post(client, browser)
    for title in ("", "x" * 201, "隐\u200b藏"):
        answer = await post_form(
            laptop, f"/director/{game.id}/posts/{held['id']}/edit", {"title": title}
        )
        page = await refused(laptop, answer, game)
        assert "填写有误" in page, title
        assert f'value="{html.escape(title)}"' in page  # what was typed is kept
    post = (await posts(game))[0]
    assert post["title"] == held["title"]


async def test_a_manual_channel_is_copied_by_hand_and_its_link_recorded(
    client: AsyncClient, browser: Browser
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await game.add_player("a1", "A")
    await game.add_player("b1", "B")
    laptop = await director(browser, game)
    done(
        await post_form(laptop, f"/director/{game.id}/channels", {"kind": "manual", "name": "NGA"}),
        "#channels",
    )
    await game.start()  # review "never": published at once, waiting for the director's hand
    post = (await posts(game))[0]
    (delivery,) = post["deliveries"]
    assert delivery["status"] == "manual"

    shown = section(await console(laptop, game), "posts")
    assert "待手动发布" in shown
    box = re.search(rf'<textarea id="copy-{delivery["id"]}"[^>]*>(.*?)</textarea>', shown, re.S)
    assert box and html.unescape(box.group(1)) == post["bodies"]["bbcode"]  # BBCode to copy
    assert f'data-copy="copy-{delivery["id"]}"' in shown

    path = f"/director/{game.id}/posts/{post['id']}/deliveries/{delivery['id']}/posted"
    answer = await post_form(laptop, path, {"url": "javascript:alert(1)"})
    assert 'value="javascript:alert(1)"' in await refused(laptop, answer, game)
    assert (await posts(game))[0]["deliveries"][0]["status"] == "manual"

    link = "https://bbs.nga.cn/read.php?tid=123456"
    done(await post_form(laptop, path, {"url": link}), "#posts")
    post = (await posts(game))[0]
    assert post["deliveries"][0]["status"] == "sent"
    assert post["deliveries"][0]["remote_url"] == link
    shown = section(await console(laptop, game), "posts")
    assert f'href="{html.escape(link)}"' in shown
    assert f'id="copy-{delivery["id"]}"' not in shown


async def test_a_failed_delivery_shows_its_error_and_is_sent_again(
    client: AsyncClient, browser: Browser, clock: FakeClock
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await game.add_player("a1", "A")
    await game.add_player("b1", "B")
    laptop = await director(browser, game)
    body = {"kind": "webhook", "name": "hook", "config.webhook.url": SINK_URL}
    body["config.webhook.secret"] = WEBHOOK_SECRET
    done(await post_form(laptop, f"/director/{game.id}/channels", body))
    await game.start()
    sink = Sink(fail_with=403)  # a refusal that will not get better by itself
    assert await worker(client, clock, sink).run_once() == 1  # the next waits behind it
    post = (await posts(game))[0]
    assert post["deliveries"][0]["status"] == "failed"

    shown = section(await console(laptop, game), "posts")
    assert "发送失败" in shown
    assert post["deliveries"][0]["error"] in html.unescape(shown)
    assert "data-refresh-in" not in shown  # the channel waits for the director: no polling
    assert f'action="/director/{game.id}/posts/{post["id"]}/retry"' in shown

    sink.fail_with = None
    done(await post_form(laptop, f"/director/{game.id}/posts/{post['id']}/retry"), "#posts")
    while await worker(client, clock, sink).run_once():
        pass
    assert {p["deliveries"][0]["status"] for p in await posts(game)} == {"sent"}
    assert [p["title"] for p in sink.accepted()] == [p["title"] for p in await posts(game)]
    assert "发送失败" not in section(await console(laptop, game), "posts")


async def test_channel_secrets_are_written_once_and_never_shown(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    laptop = await director(browser, game)
    page = await console(laptop, game)
    # Every kind has its fields; secret ones are password inputs.
    for name in (
        "config.webhook.secret",
        "config.misago.password",
        "config.discourse.api_key",
        "config.discord.webhook_url",
        "config.telegram.bot_token",
        "config.onebot.access_token",
    ):
        assert re.search(rf'name="{re.escape(name)}" type="password"', page), name
    password = "s3cret-pa55word"
    form = {
        "kind": "misago",
        "name": "论坛",
        "config.misago.base_url": "http://127.0.0.1:8123",
        "config.misago.username": "bot",
        "config.misago.password": password,
        "config.misago.thread_id": "42",
        "config.misago.follow_title": "false",  # the box left unticked: its hidden "false"
        "config.webhook.url": "http://ignored.example/",  # another kind's fields are ignored
    }
    # A yes/no setting is a box, ticked as its default says.
    assert re.search(r'name="config\.misago\.follow_title" value="true" checked', page)
    done(await post_form(laptop, f"/director/{game.id}/channels", form), "#channels")
    (channel,) = ok(await game.get("/channels", "director"))
    assert channel["config"] == {
        "base_url": "http://127.0.0.1:8123",
        "username": "bot",
        "password": "***",
        "thread_id": 42,
        "follow_title": False,
    }
    page = await console(laptop, game)
    assert password not in page
    assert "已设置（不再显示）" in section(page, "channels")

    bad = await post_form(laptop, f"/director/{game.id}/channels", {"kind": "misago", "name": "x"})
    assert "配置有误" in await refused(laptop, bad, game)
    assert len(ok(await game.get("/channels", "director"))) == 1

    path = f"/director/{game.id}/channels/{channel['id']}/remove"
    await refused(laptop, await post_form(laptop, path), game)  # not confirmed
    assert len(ok(await game.get("/channels", "director"))) == 1
    done(await post_form(laptop, path, {"confirm": "1"}), "#channels")
    assert ok(await game.get("/channels", "director")) == []


async def test_publishing_settings_and_reminders_are_set_from_the_console(
    client: AsyncClient, browser: Browser
) -> None:
    game = await team_battle(client)
    laptop = await director(browser, game)
    form = {"review": "always", "auto_minutes": "30", "language": "en"}
    done(await post_form(laptop, f"/director/{game.id}/publishing", form), "#publishing-settings")
    settings = await publishing(game)
    assert settings["review"] == "always"
    assert settings["auto_publish_after_seconds"] == 1800
    assert settings["language"] == "en"
    page = section(await console(laptop, game), "publishing-settings")
    assert 'value="30"' in page and '<option value="en" selected>' in page

    body = {"kind": "manual", "name": "S1"}
    done(await post_form(laptop, f"/director/{game.id}/channels", body))
    (channel,) = ok(await game.get("/channels", "director"))
    reminders = {"minutes": "120，30", "channel_id": channel["id"]}
    done(await post_form(laptop, f"/director/{game.id}/reminders", reminders))
    assert (await publishing(game))["reminders"] == {
        "before_seconds": [7200, 1800],
        "channel_id": channel["id"],
    }
    page = section(await console(laptop, game), "publishing-settings")
    assert 'value="120, 30"' in page

    for minutes in ("abc", "0", str(31 * 24 * 60)):
        answer = await post_form(laptop, f"/director/{game.id}/reminders", {"minutes": minutes})
        assert f'value="{minutes}"' in section(
            await refused(laptop, answer, game), "publishing-settings"
        )
    assert (await publishing(game))["reminders"]["before_seconds"] == [7200, 1800]

    done(await post_form(laptop, f"/director/{game.id}/reminders", {"minutes": ""}))
    assert (await publishing(game))["reminders"]["before_seconds"] == []
    done(await post_form(laptop, f"/director/{game.id}/publishing", {"review": "never"}))
    assert (await publishing(game))["auto_publish_after_seconds"] is None


async def test_forum_names_are_given_on_adding_and_edited_on_the_roster(
    client: AsyncClient, browser: Browser
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    laptop = await director(browser, game)
    added = await post_form(
        laptop,
        f"/director/{game.id}/players",
        {"name": "曹操", "side": "A", "forum_name": "孟德@NGA"},
    )
    done(added, "#roster")
    assert "/join/" in await console(laptop, game)  # the invite link, shown once
    summary = await game.summary()
    (player,) = summary["players"]
    roster = section(await console(laptop, game), "roster")
    assert 'value="孟德@NGA"' in roster

    path = f"/director/{game.id}/players/{player['id']}/forum-name"
    done(await post_form(laptop, path, {"forum_name": "阿瞒"}), "#roster")
    assert 'value="阿瞒"' in section(await console(laptop, game), "roster")
    answer = await post_form(laptop, path, {"forum_name": "阿\u202e瞒"})
    assert "不可见字符" in await refused(laptop, answer, game)
    done(await post_form(laptop, path, {"forum_name": ""}))
    assert 'value="阿瞒"' not in section(await console(laptop, game), "roster")
    audit = [a["action"] for a in ok(await game.get("/audit", "director"))]
    assert audit.count("set_forum_name") == 2


async def test_console_forms_need_the_csrf_token_and_the_director(
    client: AsyncClient, browser: Browser
) -> None:
    game, laptop, held = await held_post(client, browser)
    forged = await post_form(
        laptop, f"/director/{game.id}/posts/{held['id']}/approve", csrf="not-the-token"
    )
    assert forged.status_code == 403
    stranger = browser()
    await browse(stranger, f"/director/{game.id}")
    anonymous = await post_form(stranger, f"/director/{game.id}/posts/{held['id']}/approve")
    assert anonymous.status_code == 303  # back to the console, which asks to sign in
    page = await browse(stranger, anonymous.headers["location"])
    assert "导演登录" in page.text and "令牌无效" in page.text
    assert (await posts(game))[0]["status"] == "awaiting_review"


async def test_the_console_reads_in_english(client: AsyncClient, browser: Browser) -> None:
    game, laptop = await reviewed_game(client, browser)
    await game.start()
    page = await console(laptop, game, "en")
    assert "Posts awaiting review" in page
    assert "Approve and publish" in page
    assert "Add a channel" in page

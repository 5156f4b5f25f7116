"""misago, for real: a local Misago 0.39.6 (tests/support/misago.py) takes the bot's posts,
and reading them back through Misago's own API gives what was sent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import httpx
import pytest_asyncio

from app.publish.channels import ADAPTERS, make_http_client, misago_client
from app.publish.channels.misago import MisagoAdapter, MisagoClient
from tests.publish.channels.conftest import outgoing
from tests.support.misago import MisagoForum

ROUND_RESULT = """## 第一回合 · 战果

| 阵位 | 甲方兵力 | 乙方兵力 | 伤害 |
|---|---|---|---|
| 1号位 | 6 → 4 | 5 → 2 | 3 |
| 2号位 | 7 → 7 | 6 → 0 | 6（穿透） |

甲方士气 +1（击溃 2 号位）。乙方士气 −1。"""


@pytest_asyncio.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with make_http_client(allow_private_urls=True) as client:  # the forum is local
        yield client


def bot_reader(forum: MisagoForum, adapter: MisagoAdapter, http: httpx.AsyncClient) -> MisagoClient:
    return adapter.client(forum.channel_config(thread_id=1), http)


async def test_the_bridge_reads_with_the_same_session_the_worker_posts_with(
    misago_forum: MisagoForum, http: httpx.AsyncClient
) -> None:
    config = misago_forum.channel_config()
    sent = await ADAPTERS["misago"].send(
        outgoing("赤壁之战开局帖。", "赤壁之战 · 读帖"), config, http
    )
    reader = misago_client({**config, **sent.config_updates}, http)
    [post] = await reader.read_thread(sent.config_updates["thread_id"])
    assert (post.raw, post.author, str(post.id)) == ("赤壁之战开局帖。", "bot", sent.remote_id)


async def open_thread(
    forum: MisagoForum, adapter: MisagoAdapter, http: httpx.AsyncClient, body: str, title: str
) -> tuple[int, Any]:
    sent = await adapter.send(outgoing(body, title), forum.channel_config(), http)
    return int(sent.config_updates["thread_id"]), sent


async def test_opens_a_thread_replies_edits_and_reads_back_what_was_sent(
    misago_forum: MisagoForum, http: httpx.AsyncClient
) -> None:
    adapter = MisagoAdapter()
    opening = "赤壁之战开局。\n\n名单：曹操（甲）、周瑜（乙）。"
    thread_id, first = await open_thread(misago_forum, adapter, http, opening, "赤壁之战 · 开局")
    assert first.remote_url and first.remote_url.startswith(misago_forum.base_url)

    # the worker merges config_updates: later posts reply in the same thread
    config = {**misago_forum.channel_config(), **first.config_updates}
    reply = await adapter.send(outgoing("部署阶段开始，截止 21:00。"), config, http)
    bot = bot_reader(misago_forum, adapter, http)
    await bot.edit(thread_id, int(reply.remote_id or 0), "部署阶段开始，截止 22:00（已延长）。")

    posts = await bot.read_thread(thread_id)
    assert [post.raw for post in posts] == [opening, "部署阶段开始，截止 22:00（已延长）。"]
    assert [post.id for post in posts] == [int(first.remote_id or 0), int(reply.remote_id or 0)]
    assert {post.author for post in posts} == {"bot"}
    assert [post.edits for post in posts] == [0, 1]
    assert posts[1].url == reply.remote_url
    assert "22:00" in (posts[1].html or "")


async def test_the_thread_is_renamed_as_the_game_moves_on(
    misago_forum: MisagoForum, http: httpx.AsyncClient
) -> None:
    """A stage's post renames the thread the bot opened; a post that is only news does not;
    with follow_title off the title stays."""
    adapter = MisagoAdapter()
    thread_id, first = await open_thread(
        misago_forum, adapter, http, "赤壁之战开局。", "【开局】赤壁"
    )
    config = {**misago_forum.channel_config(), **first.config_updates}
    stage = replace(outgoing("第2回合统御阶段开始。"), thread_title="【第2回合·统御阶段】赤壁")
    await adapter.send(stage, config, http)
    bot = bot_reader(misago_forum, adapter, http)
    assert (await bot.thread(thread_id))["title"] == "【第2回合·统御阶段】赤壁"
    await adapter.send(outgoing("第2回合的收据。"), config, http)  # no thread_title: news only
    assert (await bot.thread(thread_id))["title"] == "【第2回合·统御阶段】赤壁"
    still = replace(outgoing("赤壁之战终局。"), thread_title="【终局】赤壁")
    await adapter.send(still, {**config, "follow_title": False}, http)
    assert (await bot.thread(thread_id))["title"] == "【第2回合·统御阶段】赤壁"


async def test_a_chinese_markdown_table_renders_as_a_table(
    misago_forum: MisagoForum, http: httpx.AsyncClient
) -> None:
    adapter = MisagoAdapter()
    thread_id, _ = await open_thread(
        misago_forum, adapter, http, ROUND_RESULT, "赤壁之战 · 第一回合"
    )
    [post] = await bot_reader(misago_forum, adapter, http).read_thread(thread_id)
    assert post.raw == ROUND_RESULT
    html = post.html or ""
    assert "<table>" in html and "<th>甲方兵力</th>" in html
    assert "<td>6（穿透）</td>" in html and "|" not in html
    assert "<h2>第一回合 · 战果</h2>" in html


async def test_reads_every_post_of_a_thread_across_pages(
    misago_forum: MisagoForum, http: httpx.AsyncClient
) -> None:
    """18 posts a page, the last of a page repeated first on the next: none lost or doubled."""
    adapter = MisagoAdapter()
    thread_id, _ = await open_thread(
        misago_forum, adapter, http, "第0帖：开局", "分页测试 · 三十帖"
    )
    config = misago_forum.channel_config(thread_id=thread_id)
    for number in range(1, 30):
        await adapter.send(outgoing(f"第{number}帖：回合结果"), config, http)
    bot = bot_reader(misago_forum, adapter, http)
    _, next_page = await bot.posts_page(thread_id, 1)
    assert next_page == 2  # the thread really has more than one page
    posts = await bot.read_thread(thread_id, with_raw=False)
    assert [post.html for post in posts] == [
        f"<p>第{number}帖：{'开局' if number == 0 else '回合结果'}</p>" for number in range(30)
    ]


async def test_players_posts_are_read_with_their_author_and_edits(
    misago_forum: MisagoForum, http: httpx.AsyncClient
) -> None:
    """What the forum bridge will need: who wrote what, as typed, and whether it changed."""
    adapter = MisagoAdapter()
    thread_id, _ = await open_thread(
        misago_forum, adapter, http, "指令阶段开始。", "赤壁之战 · 指令"
    )
    player = misago_forum.players[0]
    as_player = MisagoClient(misago_forum.base_url, player.username, player.password, http)
    posted = await as_player.reply(thread_id, "调兵 3→2 4人")
    await as_player.reply(thread_id, "[quote]调兵 3→2 4人[/quote]\n\n同意")
    await as_player.edit(thread_id, posted["id"], "调兵 3→2 5人")

    posts = await bot_reader(misago_forum, adapter, http).read_thread(thread_id)
    by_player = [post for post in posts if post.author == player.username]
    assert [post.raw for post in by_player] == [
        "调兵 3→2 5人",
        "[quote]调兵 3→2 4人[/quote]\n\n同意",
    ]
    assert [post.edits for post in by_player] == [1, 0]
    assert {post.author_id for post in by_player} == {player.user_id}
    assert "<blockquote" in (by_player[1].html or "")


async def test_hostile_names_and_announcements_stay_text_in_misago(
    misago_forum: MisagoForum, http: httpx.AsyncClient
) -> None:
    """Issue 16 items 34, 36, on Misago's own parser (Python-Markdown, then an autolinker
    and mentions over the HTML's text): a roster of hostile names and a many-line
    announcement open no link, mention, list, heading or code, and read as typed."""
    import html as html_lib
    import re
    import unicodedata
    from dataclasses import replace

    from app.publish.render import PublicEvent, RosterEntry, posts_for_events
    from tests.publish.render.engine_runs import island_day, team_battle_game
    from tests.publish.render.test_hostile_links import ANNOUNCEMENT, AT, LINKS

    names = [*LINKS, f"@{misago_forum.players[0].username}"]  # a user who exists
    run = team_battle_game()
    roster = tuple(
        RosterEntry(f"h{i}", n, "A" if i % 2 == 0 else "B", None) for i, n in enumerate(names)
    )
    started = posts_for_events(replace(run.info(), roster=roster), run.batches[0].events, None)
    notice = PublicEvent(1, AT, "announcement", {"text": ANNOUNCEMENT, "day": 1})
    (announced,) = posts_for_events(island_day().info(), [notice], None)
    adapter = MisagoAdapter()
    body = started[0].bodies["markdown"] + "\n\n" + announced.bodies["markdown"]
    thread_id, _ = await open_thread(misago_forum, adapter, http, body, "赤壁 · 名单")
    [post] = await bot_reader(misago_forum, adapter, http).read_thread(thread_id)
    page = post.html or ""
    assert "<a " not in page and "<li>甲方：" in page, page  # the roster, one line a side
    (quoted,) = re.findall(r"<blockquote>(.*?)</blockquote>", page, re.S)[-1:]
    assert set(re.findall(r"<([a-z0-9]+)", quoted)) <= {"p", "br"}, quoted
    seen = unicodedata.normalize("NFKC", html_lib.unescape(re.sub(r"<[^>]+>", "", page)))
    for name in names:
        assert name in seen, name
    for line in ANNOUNCEMENT.split("\n"):
        assert line.strip() in seen, line

"""Names, titles and announcements people typed render as text on every platform (issue 16
items 34 and 36): no link, spoiler, emphasis, mention, heading or list of their own — not in
BBCode (Discuz!/NGA/phpBB), not in Markdown (Discourse's CommonMark, Misago's
Python-Markdown), not in the text format as Discord, Telegram and QQ read it — and no
autolinker finds a bare "www.evil.example" in them. They still read as typed (compared as
the service compares names: NFKC), and no post holds an invisible character."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from app.publish.render import FORMATS, PublicEvent, RosterEntry, posts_for_events, tally_post
from tests.publish.render.engine_runs import island_day, team_battle_game
from tests.publish.render.html_preview import RENDERERS, visible_text

LINKS = [
    "www.evil.example",
    "http://evil.example",
    "evil.example/path",
    "mail@evil.example",
    "[x](https://evil.example)",
    "||spoiler||",
    "*bold*",
    "__under__",
    "~~gone~~",
    "@everyone",
    "#tag",
    "/start",
    "<b>x</b>",
    ":smile:",
]
TITLE = "www.evil.example ||赤壁||"
ANNOUNCEMENT = "\n".join(
    [
        "第一行 www.evil.example",
        "- 列表",
        "===",
        "# 标题",
        "> 引用",
        "1. 编号",
        "2) 编号",
        "```",
        "+ 加号",
        "  - 缩进",
        "-# 小字",
        "* 星号",
    ]
)
AT = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

# What autolinks a bare address: Misago's own pattern (misago/markup/links.py, run on the
# HTML's text after Markdown), and the www./scheme forms QQ, Telegram, Discord, Discourse's
# linkify and Discuz!/phpBB all find.
MISAGO_URL = re.compile(
    r"(https?://)?(www\.)?(\w+((-|_)\w+)?\.)?\w+((_|-|\w)+)?(\.[a-z][a-z]+)"
    r"(:[1-9][0-9]+)?([^\s<>\[\]\(\);:]+)?"
)
AUTOLINKS = [MISAGO_URL, re.compile(r"(?i)www\."), re.compile(r"(?i)[a-z]+://")]


def hostile_posts() -> list[tuple[str, str, str]]:
    """(kind, format, body) of a roster, a tally and an announcement with hostile text."""
    run = team_battle_game()
    roster = tuple(
        RosterEntry(f"h{i}", name, "A" if i % 2 == 0 else "B", None) for i, name in enumerate(LINKS)
    )
    info = replace(run.info(), roster=roster, title=TITLE)
    posts = posts_for_events(info, run.batches[0].events, None)
    posts.append(tally_post(info, [(e, True, False) for e in roster], None))
    island = replace(island_day().info(), title=TITLE)
    notice = PublicEvent(1, AT, "announcement", {"text": ANNOUNCEMENT, "day": 1})
    posts += posts_for_events(island, [notice], None)
    return [(p.kind, f, p.bodies[f]) for p in posts for f in FORMATS]


POSTS = hostile_posts()


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_autolinker_finds_a_link_in_typed_text(fmt: str) -> None:
    for kind, name, body in POSTS:
        if name != fmt:
            continue
        page = RENDERERS[fmt](body)
        assert "<a " not in page and "[url" not in body, (kind, body)
        text = visible_text_raw(page)
        for pattern in AUTOLINKS:
            assert pattern.search(text) is None, (kind, pattern.pattern, pattern.search(text))


@pytest.mark.parametrize("fmt", FORMATS)
def test_typed_text_still_reads_as_typed(fmt: str) -> None:
    seen = "\n".join(visible_text(RENDERERS[f](b)) for _, f, b in POSTS if f == fmt)
    for name in [*LINKS, TITLE]:
        assert name in seen, name
    for line in ANNOUNCEMENT.split("\n"):
        assert line.strip() in seen, line


def test_no_post_holds_an_invisible_character() -> None:
    """The input rules refuse them; a name copied from a post must be accepted back."""
    for kind, fmt, body in POSTS:
        hidden = [c for c in body if unicodedata.category(c) == "Cf"]
        assert not hidden, (kind, fmt, hidden)


def test_the_text_format_keeps_no_discord_or_chat_markup() -> None:
    """Discord reads the text format as Markdown; Telegram and QQ link, mention and tag."""
    for kind, fmt, body in POSTS:
        if fmt != "text":
            continue
        for raw in ("](https://", "||", "*bold*", "__", "~~", "@everyone", "#tag", " /start"):
            assert raw not in body, (kind, raw)
        for line in body.split("\n"):
            assert not re.match(r"\s*(#|>|-#|[-+*] )", line), (kind, line)


def test_every_line_of_an_announcement_is_text_in_markdown() -> None:
    """Issue 16 item 36: not only the first line — lists, headings, underlines, quotes and
    fences on later lines stay text inside the one quote."""
    for fmt in ("markdown", "bbcode"):
        (body,) = [b for k, f, b in POSTS if f == fmt and k == "notice"]
        page = RENDERERS[fmt](body)
        (quoted,) = re.findall(r"<blockquote>(.*?)</blockquote>", page, re.S)
        tags = set(re.findall(r"<([a-z0-9]+)", quoted))
        assert tags <= {"p", "br", "strong"}, (fmt, tags, quoted)
        assert "<strong>" not in quoted.replace("<strong></strong>", "")


def visible_text_raw(page: str) -> str:
    """What the platform's autolinker sees: the text, not normalised."""
    import html

    return html.unescape(re.sub(r"<[^>]+>", " ", page))

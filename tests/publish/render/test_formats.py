"""Names and titles people typed cannot break a post's markup, in any format: rendered the
way forums render them, they read exactly as typed and open no tag, link or mention."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta

import pytest

from app.publish.formats import FORMATTERS, display_width
from app.publish.render import FORMATS, RosterEntry, posts_for_events, reminder_post, tally_post
from tests.publish.render.engine_runs import TB_ROSTER, team_battle_game
from tests.publish.render.html_preview import RENDERERS, visible_text

HOSTILE = [
    "[b]粗体[/b]",
    "*斜体* _x_",
    "a|b",
    "<script>alert(1)</script>",
    "[url=https://evil.example]点我[/url]",
    "`code`",
    "# 标题",
    "1. 列表",
    "> 引用",
    ":smile:",
    "@everyone",
]
TITLE = "[color=red]赤壁[/color] **之战** <i>"
RUN = team_battle_game()


def hostile_game(benign: bool = False) -> tuple[object, list[str]]:
    """The demo game with hostile names and title (or plain ones, for comparison)."""
    names = [f"玩家{i}" for i in range(len(HOSTILE))] if benign else HOSTILE
    roster = tuple(
        RosterEntry(f"h{i}", name, "A" if i % 2 == 0 else "B", None) for i, name in enumerate(names)
    )
    info = replace(RUN.info(), roster=roster, title="赤壁" if benign else TITLE)
    return info, names


def pages(fmt: str, benign: bool = False) -> list[tuple[str, str]]:
    info, _ = hostile_game(benign)
    posts = posts_for_events(info, RUN.batches[0].events, RUN.batches[0].deadline)  # the roster
    entries = list(info.roster)  # type: ignore[attr-defined]
    posts.append(reminder_post(info, entries, RUN.now, mentions=False))  # type: ignore[arg-type]
    posts.append(tally_post(info, [(e, True, False) for e in entries], None))  # type: ignore[arg-type]
    return [(p.kind, RENDERERS[fmt](p.bodies[fmt])) for p in posts]


def tags(page: str) -> list[str]:
    # An empty [b][/b] is how BBCode keeps a typed "[b]" from being a tag: it shows nothing.
    return re.findall(r"</?[a-z0-9]+", page.replace("<strong></strong>", ""))


@pytest.mark.parametrize("fmt", FORMATS)
def test_hostile_names_read_as_typed_and_open_no_markup(fmt: str) -> None:
    hostile, plain = pages(fmt), pages(fmt, benign=True)
    for (kind, page), (_, benign_page) in zip(hostile, plain, strict=True):
        seen = visible_text(page)
        assert TITLE in seen, kind
        if kind != "phase_opened":  # the others list every player
            for name in HOSTILE:
                assert name in seen, (kind, name)
        # The same HTML structure as with plain names: no name opened or closed a tag.
        assert tags(page) == tags(benign_page), kind
        assert 'href="https://evil' not in page


def test_markdown_tables_are_lines_a_pipe_cannot_split() -> None:
    """Misago gives table cells no padding: a Markdown table is a list, one row an item,
    and a name with "|" stays inside its row."""
    info, _ = hostile_game()
    post = posts_for_events(info, RUN.batches[0].events, None)[0]
    page = RENDERERS["markdown"](post.bodies["markdown"])
    assert "<table>" not in page and "<li>" in page
    assert "a|b" in visible_text(page)


def test_markdown_and_text_tables_read_one_line_per_row() -> None:
    headers = ["号位", "甲方", "乙方"]
    rows = [["1号位", "4→3", "6→6（甲损1）"], ["2号位", "5→5", "6→0"]]
    md = str(FORMATTERS["markdown"].table(headers, rows))
    assert md.split("\n") == [
        "- **1号位**：甲方 4→3｜乙方 6→6（甲损1）",
        "- **2号位**：甲方 5→5｜乙方 6→0",
    ]
    text = str(FORMATTERS["text"].table(headers, rows))
    assert text.split("\n")[0] == "1号位：甲方 4→3｜乙方 6→6（甲损1）"
    two = str(FORMATTERS["text"].table(["Setting", "Value"], [["Slots", "5"]]))
    assert two == "Slots: 5"


def test_mentions_only_where_asked() -> None:
    info = RUN.info()
    waiting = [TB_ROSTER[0], TB_ROSTER[2]]
    with_mentions = reminder_post(info, waiting, RUN.now, mentions=True)
    without = reminder_post(info, waiting, RUN.now, mentions=False)
    assert "@caocao" in with_mentions.bodies["markdown"]
    assert "@zhouyu" in with_mentions.bodies["text"]
    assert "@" not in without.bodies["markdown"] and "@" not in without.bodies["bbcode"]
    everyone = replace(TB_ROSTER[0], name="@everyone", forum_name=None)
    text = reminder_post(info, [everyone], RUN.now, mentions=False).bodies["text"]
    assert "@everyone" not in text and "everyone" in text


def test_a_reminder_names_the_character_then_mentions_the_player_and_says_the_time_left() -> None:
    info = RUN.info()
    before = RUN.now - timedelta(hours=2)
    post = reminder_post(info, [TB_ROSTER[2]], RUN.now, mentions=True, now=before)
    text = post.bodies["text"]
    assert "周瑜（@zhouyu）" in text and "还剩 2小时" in text and "北京时间" in text
    assert "（（" not in text and "Asia/Shanghai" not in text


def test_text_tables_never_align_columns_with_spaces() -> None:
    """A chat bubble has no monospace font: no column is padded with spaces."""
    table = str(
        FORMATTERS["text"].table(["玩家", "x"], [["曹操", "1"], ["Bob", "22"], ["夏侯惇", "3"]])
    )
    assert table.split("\n") == ["曹操：1", "Bob：22", "夏侯惇：3"]
    assert "  " not in table and display_width(max(table.split("\n"), key=len)) < 20


def test_english_posts_use_the_english_catalogue() -> None:
    info = RUN.info(language="en")
    posts = posts_for_events(info, RUN.batches[0].events, RUN.batches[0].deadline)
    body = posts[0].bodies["text"]
    assert "Roster" in body and "Settings" in body and "阵容" not in body
    assert posts[0].title == "[Start] 赤壁"

"""Names and titles people typed cannot break a post's markup, in any format: rendered the
way forums render them, they read exactly as typed and open no tag, link or mention."""

from __future__ import annotations

import re
from dataclasses import replace

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


def test_markdown_table_cells_hold_a_pipe() -> None:
    # Team Battle's posts list players in lines now; a table of typed names, as any game's
    # post may hold one, still keeps every cell whole.
    md = FORMATTERS["markdown"]
    body = md.table(["#", "名"], [[i, md.esc(name)] for i, name in enumerate(HOSTILE)])
    page = RENDERERS["markdown"](str(body))
    roster_table = re.findall(r"<table>.*?</table>", page, re.S)[0]
    rows = re.findall(r"<tr>.*?</tr>", roster_table, re.S)
    assert all(len(re.findall(r"<t[dh]>", r)) == 2 for r in rows)  # a|b did not split a cell


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


def test_text_tables_align_by_display_width() -> None:
    """Chinese characters take two columns: every cell of a column starts at the same
    column in a monospaced CJK font."""
    table = str(
        FORMATTERS["text"].table(["玩家", "x"], [["曹操", "1"], ["Bob", "22"], ["夏侯惇", "3"]])
    )
    lines = [line for line in table.split("\n") if not line.startswith("-")]
    starts = set()
    for line in lines:
        cell = re.split(r"\s{2,}", line)[1]
        starts.add(display_width(line[: line.rindex(cell)]))
    assert len(starts) == 1


def test_english_posts_use_the_english_catalogue() -> None:
    info = RUN.info(language="en")
    posts = posts_for_events(info, RUN.batches[0].events, RUN.batches[0].deadline)
    body = posts[0].bodies["text"]
    assert "Roster" in body and "Settings" in body and "阵容" not in body
    assert posts[0].title == "[Start] 赤壁"

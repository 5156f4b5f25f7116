"""The page matrix's visible-text checker, on small snippets: each rule both ways."""

from __future__ import annotations

import pytest

from tests.service.page_text import game_codes, problems, visible_text


def kinds(html: str, lang: str = "zh", ids: tuple[str, ...] = ()) -> list[str]:
    return [p.split(":")[0] for p in problems(html, lang, ids)]


def test_visible_text_skips_scripts_styles_templates_and_translate_no() -> None:
    html = (
        "<title>标题</title><style>p{color:red}</style><script>var x = None;</script>"
        '<template><p>模板</p></template><p>看得见<span translate="no">机器 None</span>的</p>'
        '<div translate="no"><p>里面 <b>也</b> 不算</p></div><p>之后</p>'
    )
    text = visible_text(html)
    assert "标题" in text and "看得见" in text and "的" in text and "之后" in text
    assert "None" not in text and "color" not in text and "模板" not in text
    assert "也" not in text and "不算" not in text


def test_visible_attributes_count_and_hidden_inputs_do_not() -> None:
    html = (
        '<input placeholder="占位 None"><img alt="{name}"><a title="[1, 2]" href="#">链接</a>'
        '<button aria-label="{\'a\': 1}">按</button><input type="submit" value="add_player">'
        '<input type="hidden" name="x" value="None"><input type="text" value="None">'
    )
    assert sorted(kinds(html, "en")) == sorted(
        ["None", "unfilled placeholder", "Python list", "dict repr", "raw code"]
    )


def test_option_text_counts() -> None:
    assert kinds("<select><option>after_moves</option></select>", "en") == ["raw code"]
    assert kinds("<select><option>移动之后</option></select>", "en") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("李四 从 (2,2) 移动到 None。", ["None"]),
        ("没有空值", []),
        ("Nonexistent", []),  # not the word None (en)
        ("{'player_id': 'x', 'forum_name': 'y'}", ["dict repr", "raw code"]),
        ('{"timer": 1}', ["dict repr"]),
        ("参数 {}", ["dict repr"]),
        ("集合 {1, 2}", []),
        ("甲 [4, 7, 8, 6, 5]", ["Python list"]),
        ("['a', 'b']", ["Python list"]),
        ("第 [3] 条", []),
        ("胜算 15 → 15.0", ["a whole number as a float"]),
        ("士气 12.5，版本 v1.0，1.0.2，胜率 100.0%", []),
        ("调动 {n}", ["unfilled placeholder"]),
        ("Move {n}", ["unfilled placeholder"]),
        ("调动 3 支", []),
    ],
)
def test_python_reprs_and_placeholders(text: str, expected: list[str]) -> None:
    assert kinds(f"<p>{text}</p>", "en") == expected


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<title>论坛戏 · 论坛戏</title>", ["a repeated part 论坛戏"]),
        ("<p>Day 2 · Day</p>", ["a repeated part Day"]),
        ("<title>页面测试局 · 论坛戏</title>", []),
        ("<p>第 1 天 · 白天</p>", []),
        ("<p>Day 2 · Night</p>", []),
        ("<p>Round 1 · Command phase</p>", []),
        (
            "<p>" + "回执：第1回合·统御阶段 · A方 盐 …… 第1回合·统御阶段 · B方 盐 ……" * 2 + "</p>",
            [],
        ),
    ],
)
def test_a_header_that_repeats_itself(html: str, expected: list[str]) -> None:
    assert [p.split(" '")[0] + " " + p.split("'")[1] for p in problems(html, "en")] == expected


def test_the_codes_come_from_the_code() -> None:
    codes = game_codes()
    # An order type, an event kind, a setting's name, an audit action, a timer kind.
    for code in ("blood_battle", "deployment_revealed", "deployment_seconds", "approve_post"):
        assert code in codes, code
    assert "monster_check" in codes and "lower_morale_loses" in codes


def test_raw_codes_are_reported_and_plain_words_are_not_in_english() -> None:
    assert kinds("<p>Action: add_player</p>", "en") == ["raw code"]
    assert kinds("<p>Choose after_moves</p>", "en") == ["raw code"]
    assert kinds("<p>Scout the enemy, then deploy.</p>", "en") == []
    assert kinds("<p>add-player</p>", "en") == []


def test_internal_ids_are_reported_unless_marked_as_machine_text() -> None:
    ids = ("FyBa1234xyz",)
    assert kinds("<p>玩家 FyBa1234xyz 加入</p>", "zh", ids) == ["internal id"]
    assert kinds('<p>编号 <code translate="no">FyBa1234xyz</code></p>', "zh", ids) == []
    assert kinds("<p>玩家 张三 加入</p>", "zh", ids) == []


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("探索结果：food。", ["English on a Chinese page (raw codes"]),
        ("TB-2: how many parallel lanes", ["English on a Chinese page"]),
        ("规则 TB-12 与 IS-3", []),
        ("用 BBCode 或 Markdown 发到 Misago、Discord、Telegram、QQ", []),
        ("时间为 UTC，摘要 SHA-256，OneBot v11", []),
        ("时区 Asia/Shanghai", []),
        ("按 Standard Webhooks 签名", []),
        ("点 Submit", ["English on a Chinese page"]),
    ],
)
def test_latin_words_on_a_chinese_page(text: str, english: list[str]) -> None:
    assert kinds(f"<p>{text}</p>", "zh") == english


def test_the_english_of_one_text_is_one_problem_naming_its_words() -> None:
    (found,) = problems("<p>Island width in cells (IS-10).</p>", "zh")
    assert "'Island width in cells'" in found and "raw codes" not in found
    (lone,) = problems("<p>探索结果：food。</p>", "zh")
    assert "raw codes: food" in lone


def test_a_placeholder_on_a_chinese_page_is_one_problem() -> None:
    assert kinds("<p>调动 {n}</p>", "zh") == ["unfilled placeholder"]


def test_english_pages_may_hold_english_and_chinese_pages_user_data() -> None:
    assert kinds("<p>TB-2: number of parallel slots per side</p>", "en") == []
    assert kinds('<p>玩家 <span translate="no">Alice</span> 加入</p>', "zh") == []
    assert kinds("<p>玩家 Alice 加入</p>", "zh") == ["English on a Chinese page"]


def test_each_problem_quotes_its_text() -> None:
    (found,) = problems("<p>李四 从 (2,2) 移动到 None。</p>", "zh")
    assert "'None'" in found and "移动到 None" in found


def test_an_english_label_with_a_chinese_colon_is_reported_only_in_english() -> None:
    assert kinds("<p>Forum name：孟德</p>", "en") == ["a Chinese colon in English"]
    assert kinds("<p>Forum name: 孟德</p>", "en") == []
    assert kinds("<p>论坛名：孟德</p>", "zh") == []
    assert kinds("<p>海滩：平原</p>", "en") == []  # Chinese data on an English page

"""Long posts are cut at the platform's limit between paragraphs, and nothing is lost."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.publish.channels.base import split_body, utf16_length


def words(parts: list[str]) -> list[str]:
    return "\n".join(parts).split()


def test_a_short_body_is_one_part() -> None:
    assert split_body("甲方胜。\n\n乙方败。", 2000) == ["甲方胜。\n\n乙方败。"]


def test_cuts_fall_between_paragraphs() -> None:
    paragraphs = [f"第{i}段" + "字" * 600 for i in range(5)]  # 603 characters each
    parts = split_body("\n\n".join(paragraphs), 2000)
    assert [part.count("\n\n") + 1 for part in parts] == [3, 2]  # as many as fit
    # every paragraph arrives whole, in order, none cut in two
    assert [p for part in parts for p in part.split("\n\n")] == paragraphs
    assert all(len(part) <= 2000 for part in parts)


def test_a_paragraph_longer_than_the_limit_is_cut_between_lines_then_characters() -> None:
    table = "\n".join(f"| {i} | {'兵' * 30} |" for i in range(100))  # one long paragraph
    parts = split_body(table, 500)
    assert all(len(part) <= 500 for part in parts)
    assert "\n".join(parts).splitlines() == table.splitlines()  # no row split
    one_line = "长" * 1200
    assert split_body(one_line, 500) == ["长" * 500, "长" * 500, "长" * 200]


def test_telegram_counts_utf16_units() -> None:
    emoji = "⚔️🏯" * 10  # 🏯 is outside the BMP: two UTF-16 units
    assert utf16_length("🏯") == 2
    parts = split_body((emoji + "\n\n") * 300, 4096, utf16_length)
    assert all(utf16_length(part) <= 4096 for part in parts)
    assert len(parts) > 1


@given(
    st.lists(
        st.text(alphabet=st.sampled_from("甲乙丙 ab\n|-"), min_size=0, max_size=300),
        max_size=30,
    ),
    st.integers(min_value=20, max_value=700),
)
def test_no_part_exceeds_the_limit_and_no_word_is_lost(paragraphs: list[str], limit: int) -> None:
    text = "\n\n".join(paragraphs)
    parts = split_body(text, limit)
    assert all(0 < len(part) <= limit for part in parts)
    assert "".join(words(parts)) == "".join(text.split())

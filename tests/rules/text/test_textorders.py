"""The shared pieces of orders in words: numerals, normalising, names, the grammars as data."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

from app.rules.base import Named
from app.rules.textorders import (
    FUZZY_MATCH_THRESHOLD,
    Guess,
    Lookup,
    normalize,
    similarity,
    to_int,
)

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("4", 4),
        ("４", 4),  # full-width, after normalising
        ("12", 12),
        ("一", 1),
        ("两", 2),
        ("十", 10),
        ("十一", 11),
        ("二十", 20),
        ("三十七", 37),
        ("九十九", 99),
        ("一百零五", 105),
        ("〇", 0),
        ("零", 0),
        ("一〇", 10),
        ("叁", 3),
        ("four", 4),
    ],
)
def test_numerals_arabic_full_width_chinese_and_english(written: str, value: int) -> None:
    assert to_int(normalize(written).text) == value


def test_normalising_keeps_the_way_back_to_the_players_words() -> None:
    text = normalize("调兵：３号位→２号位，　4人\r\n反击")
    assert text.text == "调兵:3号位→2号位, 4人\n反击"
    start = text.text.index("3号位")
    assert text.source(start, start + 3) == "３号位"


ROSTER = [Named("p1", ("张三",)), Named("p2", ("张四",)), Named("p3", ("Alice Smith",))]


@pytest.mark.parametrize(
    ("typed", "who"),
    [
        ("张三", "p1"),  # exact
        ("张 三", "p1"),  # spaces aside
        ("alice smith", "p3"),  # case aside
        ("AliceSmith", "p3"),
        ("p2", "p2"),  # an id is a name too
        ("张叁", "p1"),  # the same sound (a homophone from the input method)
        ("zhangsan", "p1"),  # pinyin for a Chinese name
        ("Zhang San", "p1"),
        ("alice smyth", "p3"),  # one letter off, clear of anyone else
    ],
)
def test_names_exact_then_by_sound_then_fuzzy(typed: str, who: str) -> None:
    assert Lookup(ROSTER).resolve(typed) == who


def test_a_name_that_fits_several_or_none_is_a_question() -> None:
    lookup = Lookup(ROSTER, public=True)
    partial = lookup.resolve("张")
    assert isinstance(partial, Guess)
    assert [c.id for c in partial.candidates] == ["p1", "p2"]
    stranger = lookup.resolve("赵六")
    assert isinstance(stranger, Guess)  # nobody is close: the public roster is offered
    assert [c.id for c in stranger.candidates] == ["p1", "p2", "p3"]
    private = Lookup([Named("bear1", ("棕熊",))]).resolve("恐龙")
    assert isinstance(private, Guess) and private.candidates == ()


def test_the_fuzzy_threshold_is_where_a_guess_is_taken() -> None:
    score, _ = similarity("alicesmyth", "alicesmith")
    assert score >= FUZZY_MATCH_THRESHOLD
    score, _ = similarity("alice", "alicesmith")
    assert score < FUZZY_MATCH_THRESHOLD
    assert isinstance(Lookup(ROSTER).resolve("alice"), Guess)


def test_the_grammars_ship_as_package_data() -> None:
    """Every .lark file under app/ is packaged (a wheel or the Docker image has it)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_data: dict[str, list[str]] = config["tool"]["setuptools"]["package-data"]
    grammars = sorted((ROOT / "app").rglob("*.lark"))
    assert grammars
    for grammar in grammars:
        package = ".".join(grammar.parent.relative_to(ROOT).parts)
        patterns = package_data.get(package, []) + package_data.get("*", [])
        assert any(fnmatch(grammar.name, p) for p in patterns), grammar


def test_the_player_typing_is_never_guessed_nor_offered() -> None:
    """Issue 16: a name that fits nobody offered the speaker among the candidates; one close
    to the speaker's own name was silently read as them. The speaker is taken only when
    written out (or its very sound), never guessed, never offered."""
    lookup = Lookup(ROSTER, public=True, never_guess=("p2",))
    stranger = lookup.resolve("赵六")
    assert isinstance(stranger, Guess)
    assert [c.id for c in stranger.candidates] == ["p1", "p3"]
    partial = lookup.resolve("张")
    assert isinstance(partial, Guess) and [c.id for c in partial.candidates] == ["p1"]
    assert lookup.resolve("张四") == "p2"  # written out: the rules will answer
    assert lookup.resolve("zhangsi") == "p2"  # its very sound

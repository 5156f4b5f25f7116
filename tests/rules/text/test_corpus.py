"""The text-order corpus (``team_battle.yaml``, ``island.yaml`` beside this file): every
phrasing reads as its expected body, every refused text names the words it could not
read, and every echo reads back as written. The YAML files are the spec."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.base import Named, ParsedOrders, RuleViolation, TextContext
from app.rules.island import text as island_text
from app.rules.island.actions import ORDER_TYPES as ISLAND_ORDER_TYPES
from app.rules.team_battle import text as tb_text
from app.rules.team_battle.order_types import ORDER_TYPES as TB_ORDER_TYPES
from app.rules.team_battle.validate import parse_order
from app.rules.textorders import drop_defaults

HERE = Path(__file__).parent


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((HERE / name).read_text(encoding="utf-8"))
    return data


TB = _load("team_battle.yaml")
ISLAND = _load("island.yaml")


def island_context(spec: dict[str, Any]) -> TextContext:
    """The corpus's island vocabulary: a roster, the scenario's items and monsters, what
    the player sees (monsters in their cell, open PKs)."""
    return TextContext(
        roster=tuple(Named(pid, (name,)) for pid, name in spec["roster"].items()),
        me=spec["me"],
        items=(
            island_text.FOOD,
            *(Named(i, tuple(names)) for i, names in spec["items"].items()),
        ),
        monsters=tuple(Named(m, tuple(names)) for m, names in spec["monsters"].items()),
        here=tuple(spec["here"]),
        challenges=tuple(
            (c["id"], tuple(c["attackers"]), tuple(c["defenders"])) for c in spec["challenges"]
        ),
    )


GAMES: dict[str, tuple[dict[str, Any], Any, TextContext, dict[str, dict[str, Any]]]] = {
    "team_battle": (TB, tb_text.parse_orders, TextContext(me="a1"), tb_text.DEFAULTS),
    "island": (
        ISLAND,
        island_text.parse_orders,
        island_context(ISLAND["context"]),
        island_text.DEFAULTS,
    ),
}


def _expected(group: str, expected: Any) -> list[dict[str, Any]]:
    bodies = expected if isinstance(expected, list) else [{"type": group, **expected}]
    return bodies


def phrasings(game: str) -> list[Any]:
    corpus = GAMES[game][0]
    return [
        pytest.param(game, text, _expected(group, expected), id=f"{game}:{text}")
        for group, texts in corpus["orders"].items()
        for text, expected in texts.items()
    ]


def _parse(game: str, text: str) -> ParsedOrders:
    _, parse, context, _ = GAMES[game]
    result: ParsedOrders = parse(text, context)
    return result


@pytest.mark.parametrize(
    ("game", "text", "expected"), phrasings("team_battle") + phrasings("island")
)
def test_phrasing_reads_as_its_body(game: str, text: str, expected: list[dict[str, Any]]) -> None:
    defaults = GAMES[game][3]
    wanted = [drop_defaults(body, defaults) for body in expected]
    assert _parse(game, text).orders == wanted


def refusals(game: str) -> list[Any]:
    return [
        pytest.param(game, text, expected, id=f"{game}:{text}")
        for text, expected in GAMES[game][0]["not_understood"].items()
    ]


@pytest.mark.parametrize(("game", "text", "expected"), refusals("team_battle") + refusals("island"))
def test_text_not_understood_names_the_words(
    game: str, text: str, expected: dict[str, Any]
) -> None:
    with pytest.raises(RuleViolation) as caught:
        _parse(game, text)
    problem = caught.value
    assert (problem.status, problem.code) == (422, "not_understood")
    assert problem.extra["unknown"] == expected["unknown"]
    names = {w: [c["name"] for c in options] for w, options in problem.extra["candidates"].items()}
    assert names == expected.get("candidates", {})
    for word in expected["unknown"]:
        assert word in problem.message_zh and word in problem.message_en


def echoes(game: str) -> list[Any]:
    return [
        pytest.param(game, text, zh, en, id=f"{game}:{text}")
        for text, (zh, en) in GAMES[game][0]["echo"].items()
    ]


@pytest.mark.parametrize(("game", "text", "zh", "en"), echoes("team_battle") + echoes("island"))
def test_echo_reads_back_in_canonical_words(game: str, text: str, zh: str, en: str) -> None:
    parsed = _parse(game, text)
    assert (parsed.echo_zh, parsed.echo_en) == (zh, en)


@pytest.mark.parametrize(
    ("game", "order_types"), [("team_battle", TB_ORDER_TYPES), ("island", ISLAND_ORDER_TYPES)]
)
def test_corpus_has_three_phrasings_of_every_order_type(
    game: str, order_types: tuple[str, ...]
) -> None:
    counts = dict.fromkeys(order_types, 0)
    for param in phrasings(game):
        _, _, expected = param.values
        for body in expected:
            counts[body["type"]] += 1
    assert {t: n for t, n in counts.items() if n < 3} == {}


def test_corpus_has_at_least_two_hundred_phrasings() -> None:
    total = sum(len(phrasings(game)) for game in GAMES)
    assert total >= 200, total


@pytest.mark.parametrize(("game", "text", "expected"), phrasings("team_battle"))
def test_team_battle_expectations_are_well_formed_orders(
    game: str, text: str, expected: list[dict[str, Any]]
) -> None:
    """The corpus expects bodies the rules accept as orders (shape, before the rules)."""
    for body in expected:
        _, clean = parse_order(body)
        assert drop_defaults(clean, tb_text.DEFAULTS) == drop_defaults(body, tb_text.DEFAULTS)


# --- any text at all: an answer, never a crash ------------------------------------------------
PIECES = {
    "team_battle": [
        "反击",
        "2",
        "号位",
        "调兵",
        "3→2",
        "4人",
        "，",
        "；",
        " ",
        "聚集",
        "左2",
        "识破",
        "撤退",
        "部署",
        "4 7 8 6 5",
        "第三格",
        "兵力",
        "十一",
        "敌方",
        "侦察",
        "吧",
        "啊",
        "x",
        "slot",
    ],
    "island": [
        "左移",
        "并",
        "暗杀",
        "张三",
        "李四",
        "，",
        "；",
        " ",
        "给",
        "长矛",
        "2个食物",
        "pk",
        "和",
        "加入",
        "pk7",
        "攻方",
        "打猎",
        "野猪",
        "隐藏",
        "向北",
        "走",
        "@",
        "啊",
        "zhang",
        "吃",
    ],
}


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_any_text_reads_or_is_refused_with_a_422(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(sorted(PIECES)))
    text = "".join(data.draw(st.lists(st.sampled_from(PIECES[game]), min_size=1, max_size=12)))
    order_types = TB_ORDER_TYPES if game == "team_battle" else ISLAND_ORDER_TYPES
    try:
        parsed = _parse(game, text)
    except RuleViolation as refused:
        assert refused.status == 422
        assert refused.code in ("not_understood", "text_too_long")
        return
    assert parsed.orders and all(o["type"] in order_types for o in parsed.orders)
    assert parsed.echo_zh and parsed.echo_en


def test_every_expectation_is_an_order_the_api_takes() -> None:
    """Each expected body passes the ruleset's own order model (the API's contract), so a
    phrasing can only ever read as something ``POST /orders`` accepts."""
    from app.rules.registry import get_ruleset

    for game in GAMES:
        model = get_ruleset(game).order_model
        for param in phrasings(game):
            _, text, expected = param.values
            for body in expected:
                assert model.problems(body) == [], (game, text, body)


@pytest.mark.parametrize(
    ("text", "words", "zh"),
    [
        ("侦察 9号位", ["侦察 9号位"], "「侦察 9号位」：没有9号位，每方只有1–5号位。"),
        ("侦察９", ["侦察９"], "「侦察９」：没有9号位，每方只有1–5号位。"),
        ("调兵 5→6 4人", ["调兵 5→6 4人"], "「调兵 5→6 4人」：没有6号位，每方只有1–5号位。"),
        ("聚集1 左2", ["聚集1 左2"], "「聚集1 左2」：1号位左边没有位置，每方只有1–5号位。"),
        ("反击2；先攻7", ["先攻7"], "「先攻7」：没有7号位，每方只有1–5号位。"),
    ],
)
def test_team_battle_a_slot_beyond_the_board_is_refused_as_read(
    text: str, words: list[str], zh: str
) -> None:
    """TB-2 (issue 16): the board's size comes from the game (text_context), and a slot
    beyond it is a 422 naming it, not an order the rules refuse later (409)."""
    from app.rules.base import Viewer
    from app.rules.team_battle import RULESET as TB_RULESET

    state = {"settings": {"slots": 5}}
    context = TB_RULESET.text_context(state, Viewer(role="player", player_id="a1"))
    with pytest.raises(RuleViolation) as caught:
        tb_text.parse_orders(text, context)
    problem = caught.value
    assert (problem.status, problem.code, problem.rule) == (422, "slot_out_of_range", "TB-2")
    assert (problem.message_zh, problem.extra["off_board"]) == (zh, words)
    assert tb_text.parse_orders("侦察5", context).orders == [{"type": "scout", "slot": 5}]

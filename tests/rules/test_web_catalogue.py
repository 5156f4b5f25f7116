"""Every event a game or the service can write reads as a sentence on the pages, in both
languages: no page shows a raw event kind."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from app.rules.registry import all_rulesets
from app.web.lines import describe_event
from app.web.messages import UI, game_words
from app.web.words.events import EVENTS as _EVENTS

APP = Path(__file__).resolve().parents[2] / "app"
EMIT = re.compile(r'emit\(\s*"([a-z_]+)"')
APPEND = re.compile(r'append_event\(\s*session,\s*game,\s*"([a-z_]+)"')
LOGGED = re.compile(r'"kind":\s*"([a-z_]+)"')  # resolution log entries become events
CONSTANT = re.compile(r'^[A-Z]+ = "([a-z_]+)"  # ', re.M)


def event_kinds() -> set[str]:
    kinds: set[str] = set()
    for path in APP.rglob("*.py"):
        if "web" in path.relative_to(APP).parts:
            continue
        text = path.read_text(encoding="utf-8")
        kinds |= set(EMIT.findall(text)) | set(APPEND.findall(text))
        if path.name == "resolve.py":
            kinds |= set(LOGGED.findall(text))
        if path.name == "receipts.py":
            kinds |= set(CONSTANT.findall(text))
    kinds |= {"player_replaced", "seed_revealed"}  # written with a computed kind or here
    for ruleset in all_rulesets().values():  # every kind a game declares it emits
        kinds |= ruleset.event_kinds
    return kinds


def test_the_event_kinds_are_found() -> None:
    kinds = event_kinds()
    assert {"phase_opened", "damage", "moved", "night_report", "paused"} <= kinds


@pytest.mark.parametrize("kind", sorted(event_kinds()))
def test_each_event_kind_reads_as_a_sentence(kind: str) -> None:
    games = all_rulesets()
    assert kind in _EVENTS or any(
        f"line.{kind}" in game_words(g) or f"event.{kind}" in game_words(g) for g in games
    ), kind
    for lang in ("zh", "en"):
        for ruleset in ("team_battle", "island"):
            line = describe_event(kind, {}, lang, ruleset, {})
            assert line and line != kind, (kind, lang)


def test_every_ui_string_has_both_languages() -> None:
    for key, (zh, en) in UI.items():
        assert zh and en, key


def _labels(fields: list[Any]) -> list[str]:
    out = []
    for f in fields:
        out.append(f.label)
        out += _labels(list(f.columns or []))
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_dispatch_form_has_no_unfilled_placeholder(lang: str) -> None:
    """It read "调动 {n}" (its revise form too: the same fields)."""
    from app.web.routes import _order_schema
    from app.web.views import order_forms

    available = [
        {"type": "dispatch", "allowed": True, "choices": {"from": [1, 2, 3], "to": [1, 2, 3]}}
    ]
    page = {"names": {}, "view": {}, "settings": {}}
    (form,) = order_forms("team_battle", _order_schema("team_battle"), available, page, lang)
    labels = _labels(form["fields"])
    assert labels and all("{" not in label and "}" not in label for label in labels), labels
    assert labels[0] == ("调动" if lang == "zh" else "Moves")


def test_the_odds_preview_prints_numbers_as_people_write_them() -> None:
    """It read "士气 15 → 15.0" and "50.0%"."""
    from app.rules.team_battle.present.board import odds_model
    from app.web.messages import game_translator

    result = {
        "exact": True,
        "rounds": 1,
        "ways": 6,
        "now": {"A": 15, "B": 15.0},
        "max_morale": {"A": 15, "B": 15},
        "expected_morale": {"A": 15.0, "B": 13.3333},
        "morale": {
            "A": [{"morale": 15.0, "p": 1.0}],
            "B": [{"morale": 12.5, "p": 0.5}, {"morale": 14.0, "p": 0.5}],
        },
        "outcomes": {"A": 0.5, "B": 0.0, "draw": 1 / 3, "continue": 1 / 6},
        "assumed": {"own": [{"type": "counter", "slot": 2}], "enemy": []},
    }
    model = odds_model(result, "A", game_translator("zh", "team_battle"), "zh")
    assert model is not None
    mine, theirs = model["bars"]
    assert (mine["now"], mine["expected"]) == ("15", "15")
    assert (theirs["now"], theirs["expected"]) == ("15", "13.3")
    assert [v["morale"] for v in theirs["values"]] == ["12.5", "14"]
    assert [v["percent"] for v in mine["values"]] == ["100"]
    assert [pct for _, pct in model["outcomes"]] == ["50", "0", "33.3", "16.7"]
    assert model["assumed"] == ["反击（第2格）"]


def test_an_empty_dispatch_is_not_counted_in_the_odds() -> None:
    """An untouched Dispatch form listed "计入的指令：调度"."""
    from starlette.datastructures import FormData

    from app.web.routes import _odds_draft

    empty = FormData([("type", "dispatch"), ("moves.0.from", ""), ("moves.0.to", "")])
    assert _odds_draft("team_battle", empty) == []
    filled = FormData(
        [("type", "dispatch"), ("moves.0.from", "3"), ("moves.0.to", "2"), ("moves.0.troops", "4")]
    )
    assert _odds_draft("team_battle", filled) == [
        {"type": "dispatch", "moves": [{"from": 3, "to": 2, "troops": 4}]}
    ]


def test_an_orders_content_reads_as_words() -> None:
    """The "All orders" table printed "from_left: 3" and "3→2 ×4"."""
    from app.rules.team_battle.present.board import body_text
    from app.web.messages import game_translator

    zh, en = game_translator("zh", "team_battle"), game_translator("en", "team_battle")

    def _body_text(body: dict[str, Any], lang: str) -> str:
        return body_text(body, zh if lang == "zh" else en, lang)

    assert _body_text({"moves": [{"from": 3, "to": 2, "troops": 4}]}, "zh") == "从第3格调 4 到第2格"
    assert (
        _body_text({"slot": 2, "from_left": 3, "from_right": None}, "zh") == "第2格，从左邻调入 3"
    )
    assert _body_text({"troops": [4, 7, 8, 6, 5]}, "en") == "4, 7, 8, 6, 5"


def test_phone_tables_do_not_break_names_or_overflow_the_screen() -> None:
    """At 390 px names and headers wrapped per character ("张/三", "名/字"), a slot badge
    wrapped "Counte/r" and the English "All orders" table was cut at the right edge.
    (The page matrix's browser run looks at the screenshots; this keeps the rules.)"""
    css = (APP / "web" / "static" / "app.css").read_text(encoding="utf-8")
    rules = re.sub(r"\s+", " ", css)
    nowrap = re.search(r"([^{}]*)\{ white-space: nowrap; \}", rules.split("/* Phones (390 px)")[1])
    assert nowrap is not None
    for selector in ("table.list th", "td.who strong", ".morale-row .who", ".order-list .name"):
        assert selector in nowrap.group(1), selector
    assert ".mark { overflow-wrap: normal; word-break: keep-all; }" in rules
    assert re.search(
        r"table\.list:not\(\.stack\) \{ display: block; max-width: 100%; overflow-x: auto;", rules
    )


def test_a_pk_to_join_reads_as_who_is_in_it() -> None:
    """The "join a PK" choice showed the challenge's internal id ("pk1")."""
    from app.web.routes import _order_schema
    from app.web.views import order_forms

    available = [
        {
            "type": "pk_join",
            "allowed": True,
            "choices": [
                {"challenge": "pk1", "side": "attack"},
                {"challenge": "pk1", "side": "defend"},
            ],
        }
    ]
    page = {
        "names": {"p1": "张三", "p2": "李四", "p3": "王五"},
        "view": {"challenges": [{"id": "pk1", "attackers": ["p1"], "defenders": ["p2", "p3"]}]},
        "settings": {},
    }
    (form,) = order_forms("island", _order_schema("island"), available, page, "zh")
    (challenge,) = [f for f in form["fields"] if f.name == "challenge"]
    assert challenge.options == [("pk1", "张三 vs 李四、王五")]


def test_a_standing_island_order_says_what_it_is_about() -> None:
    from app.rules.island.present.grid import own_orders
    from app.web.messages import game_translator

    view = {
        "orders": [
            {
                "id": "o1",
                "type": "assassinate",
                "status": "pending",
                "target": "p2",
                "path": ["right"],
            },
            {"id": "o2", "type": "move", "status": "held", "dest": [3, 2]},
        ]
    }
    t = game_translator("zh", "island")
    bodies = [o["body"] for o in own_orders(view, {"p2": "李四"}, t, "zh")]
    assert bodies == ["李四，路线 右（东）", "→ (3,2)"]

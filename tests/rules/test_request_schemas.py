"""The order and director-action models agree with the engines that read the bodies.

Every type an engine handles has a model and no model names a type the engine lacks;
each order's description carries its Chinese name and rule ID; a well-formed body of
every type passes the model and the engine's own shape check (never 422 there); malformed
bodies are refused by the model, naming the field.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.rules.base import BodyModel, RuleViolation
from app.rules.island.actions import HANDLERS
from app.rules.island.director import ACTIONS
from app.rules.island.schema import MAX_COORDINATE, ORDER_NAMES
from app.rules.island.settings import IslandSettings
from app.rules.registry import get_ruleset
from app.rules.team_battle.engine import DIRECTOR_ACTIONS
from app.rules.team_battle.order_types import ORDERS, SEE_THROUGH_TARGETS
from app.rules.team_battle.orders.table import RULES
from app.rules.team_battle.schema import MAX_SLOTS, SeeThroughTarget
from app.rules.team_battle.settings import TeamBattleSettings
from app.rules.team_battle.validate import parse_order
from tests.rules.island.island_testkit import Game as IslandGame
from tests.rules.island.island_testkit import local

TEAM_BATTLE = get_ruleset("team_battle")
ISLAND = get_ruleset("island")


def tags(model: BodyModel) -> set[str]:
    """The values of the discriminator the union accepts."""
    mapping = model.adapter.json_schema()["discriminator"]["mapping"]
    return set(mapping)


def definitions(model: BodyModel) -> dict[str, Any]:
    return dict(model.adapter.json_schema()["$defs"])


def test_every_engine_order_and_action_has_a_model_and_no_more() -> None:
    assert tags(TEAM_BATTLE.order_model) == set(ORDERS) == set(RULES)
    assert tags(TEAM_BATTLE.director_action_model) == set(DIRECTOR_ACTIONS)
    assert tags(ISLAND.order_model) == set(HANDLERS) == set(ORDER_NAMES)
    assert tags(ISLAND.director_action_model) == set(ACTIONS)


def test_tb52a_see_through_names_the_same_order_types_as_the_engine() -> None:
    assert set(SeeThroughTarget.__args__) == set(SEE_THROUGH_TARGETS)


def test_bounds_match_the_settings_that_shape_a_game() -> None:
    """A slot (TB-2) or a cell (IS-10) the model refuses can exist in no game."""
    assert TeamBattleSettings.model_json_schema()["properties"]["slots"]["maximum"] == MAX_SLOTS
    island = IslandSettings.model_json_schema()["properties"]
    assert island["width"]["maximum"] == island["height"]["maximum"] == MAX_COORDINATE


def test_each_order_is_described_with_its_chinese_name_and_rule() -> None:
    shown = {d["properties"]["type"]["const"]: d for d in _orders(TEAM_BATTLE.order_model)}
    for order_type, definition in ORDERS.items():
        description = shown[order_type]["description"]
        assert definition.name_zh in description and definition.rule in description
    shown = {d["properties"]["type"]["const"]: d for d in _orders(ISLAND.order_model)}
    for order_type, (name_zh, rules) in ORDER_NAMES.items():
        assert shown[order_type]["description"].startswith(f"{name_zh} — {rules}")


def _orders(model: BodyModel) -> list[dict[str, Any]]:
    return [d for d in definitions(model).values() if "type" in d.get("properties", {})]


TB_VALID: list[dict[str, Any]] = [
    {"type": "deploy", "troops": [4, 7, 8, 6, 5]},
    {"type": "dispatch", "moves": [{"from": 3, "to": 2, "troops": 4}]},
    {"type": "inspire"},
    {"type": "counter", "slot": 2},
    {"type": "rest"},
    {"type": "blood_battle", "slot": 1},
    {"type": "scout", "slot": 4},
    {"type": "gather", "slot": 3, "from_left": 2},
    {"type": "retreat", "slot": 2},
    {"type": "hold", "slot": 2},
    {"type": "battle_rest"},
    {"type": "pursuit", "slot": 2},
    {"type": "feint", "slot": 2},
    {"type": "surprise", "slot": 3, "from_left": None, "from_right": 5},
    {"type": "feigned_defeat", "slot": 2},
    {"type": "first_strike", "slot": 2},
    {"type": "encircle", "slot": 2},
    {"type": "stand_firm", "slot": 2},
    {"type": "spy"},
    {"type": "see_through", "order_type": "retreat"},
]


def test_every_team_battle_order_type_has_a_valid_example() -> None:
    assert {body["type"] for body in TB_VALID} == set(ORDERS)


@pytest.mark.parametrize("body", TB_VALID, ids=lambda b: b["type"])
def test_a_well_formed_team_battle_order_passes_model_and_engine_shape_check(
    body: dict[str, Any],
) -> None:
    assert TEAM_BATTLE.order_model.problems(body) == []
    definition, clean = parse_order(body)  # raises the engine's 422 if malformed
    assert definition.type == body["type"]


def field_errors(model: BodyModel, body: Any) -> set[str]:
    """The fields the model finds wrong (``moves.0.from``); "" for the body as a whole."""
    found = model.problems(body)
    assert found, body
    return {field for field, _ in found}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "counter"}, "slot"),
        ({"type": "counter", "slot": "2"}, "slot"),
        ({"type": "counter", "slot": True}, "slot"),
        ({"type": "counter", "slot": 0}, "slot"),
        ({"type": "counter", "slot": MAX_SLOTS + 1}, "slot"),
        ({"type": "counter", "slot": 1, "extra": 1}, "extra"),
        ({"type": "deploy", "troops": []}, "troops"),
        ({"type": "deploy", "troops": [6, 6, 6.5, 6, 6]}, "troops.2"),
        ({"type": "deploy", "troops": [6] * (MAX_SLOTS + 1)}, "troops"),
        ({"type": "dispatch", "moves": [{"from": 1, "to": 2}]}, "moves.0.troops"),
        ({"type": "dispatch", "moves": [{"from": 1, "to": 2, "troops": 1, "x": 0}]}, "moves.0.x"),
        ({"type": "gather", "slot": 2, "from_left": -1}, "from_left"),
        ({"type": "see_through", "order_type": "see_through"}, "order_type"),
        ({"type": "fireball"}, ""),
        ({"slot": 1}, ""),
    ],
)
def test_a_malformed_team_battle_order_is_refused_naming_the_field(
    body: dict[str, Any], field: str
) -> None:
    assert field in field_errors(TEAM_BATTLE.order_model, body)


ISLAND_VALID: list[dict[str, Any]] = [
    {"type": "move", "direction": "right", "hidden": True},
    {"type": "explore"},
    {"type": "flee", "standing": True},
    {"type": "eat", "food": 1},
    {"type": "hunt", "monster": "m1", "with": [], "use_weapon": False},
    {"type": "pk", "targets": ["p2"]},
    {"type": "pk_join", "challenge": "pk1", "side": "defend"},
    {"type": "assassinate", "target": "p2", "path": ["left"]},
    {"type": "guard", "target": "p2"},
    {"type": "give", "to": "p2", "item": "food", "count": 1},
    {"type": "equip", "item": None},
]


def test_every_island_order_type_has_a_valid_example() -> None:
    assert {body["type"] for body in ISLAND_VALID} == set(HANDLERS)


@pytest.mark.parametrize("body", ISLAND_VALID, ids=lambda b: b["type"])
def test_a_well_formed_island_order_is_never_malformed_for_the_engine(
    body: dict[str, Any],
) -> None:
    """Whatever the rules say about it now (409, 404), the engine never finds its shape
    wrong (422) once the model has passed it."""
    assert ISLAND.order_model.problems(body) == []
    game = IslandGame(starts={"1": [2, 2], "2": [2, 2], "3": [1, 2], "4": [5, 5]})
    game.start(local(21))
    try:
        game.order("p1", body, local(21))
    except RuleViolation as violation:
        assert violation.status != 422, (violation.code, violation.message_en)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "move", "direction": "up", "hidden": None}, "hidden"),
        ({"type": "eat", "food": 0}, "food"),
        ({"type": "pk", "targets": []}, "targets"),
        ({"type": "pk", "targets": ["p2", "p2"]}, "targets"),
        ({"type": "assassinate", "target": "p2", "path": ["left"], "follow": True}, ""),
        ({"type": "assassinate", "target": "p2\u202e"}, "target"),
        ({"type": "give", "to": "p2", "item": "x" * 65}, "item"),
        ({"type": "flee", "standing": None}, "standing"),
        ({"type": "move", "direction": "up", "for": ""}, "for"),
    ],
)
def test_a_malformed_island_order_is_refused_naming_the_field(
    body: dict[str, Any], field: str
) -> None:
    assert field in field_errors(ISLAND.order_model, body)


@pytest.mark.parametrize(
    ("body", "rule"),
    [
        ({"type": "move", "direction": "up-left"}, "IS-10"),
        ({"type": "flee", "direction": "north"}, "IS-13"),
        ({"type": "assassinate", "target": "p2", "path": ["left", 5]}, "IS-22"),
    ],
)
def test_is10_a_direction_that_is_not_orthogonal_breaks_the_rule_not_the_shape(
    body: dict[str, Any], rule: str
) -> None:
    """IS-10: moves go to an orthogonally adjacent cell. The model refuses any other
    direction as the engine does: ``bad_direction`` (422) citing the rule."""
    with pytest.raises(RuleViolation) as refused:
        ISLAND.order_model.problems(body)
    assert (refused.value.code, refused.value.rule, refused.value.status) == (
        "bad_direction",
        rule,
        422,
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"action": "set_morale", "side": "A", "morale": float("nan")}, "morale"),
        ({"action": "set_morale", "side": "A", "morale": float("inf")}, "morale"),
        ({"action": "set_morale", "side": "A", "morale": 1e308}, "morale"),
        ({"action": "set_morale", "side": "C", "morale": 5}, "side"),
        ({"action": "set_troops", "side": "A", "slot": 1, "troops": -1}, "troops"),
        ({"action": "close_phase", "note": "x"}, "note"),
    ],
)
def test_a_malformed_team_battle_director_action_is_refused(
    body: dict[str, Any], field: str
) -> None:
    assert field in field_errors(TEAM_BATTLE.director_action_model, body)


def _nested(depth: int) -> dict[str, Any]:
    inner: dict[str, Any] = {}
    for _ in range(depth):
        inner = {"x": inner}
    return inner


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"action": "announce", "text": "x" * 20_001}, "text"),
        ({"action": "announce", "text": ""}, "text"),
        ({"action": "announce", "text": "a\x00b"}, "text"),
        ({"action": "adjust_stamina", "player": "p1", "delta": 10**12}, "delta"),
        ({"action": "grant_item", "player": "p1", "item": "x", "deep": _nested(50)}, "deep"),
        (
            {"action": "resolve_story", "queue_id": "q1", "changes": [{"action": "cure"}]},
            "changes.0.player",
        ),
        (
            {"action": "resolve_story", "changes": [{"action": "resolve_story"}]},
            "changes.0",
        ),
        ({"action": "move_player", "player": "p1", "to": [0, 1]}, "to.0"),
    ],
)
def test_a_malformed_island_director_action_is_refused(body: dict[str, Any], field: str) -> None:
    assert field in field_errors(ISLAND.director_action_model, body)

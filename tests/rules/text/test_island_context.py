"""What an island player may name in words is what their view shows (IS-55): reading a
text never tells them that a monster or an item exists beyond their sight."""

from __future__ import annotations

import pytest

from app.rules.base import RuleViolation, Viewer
from app.rules.island import RULESET
from tests.rules.island.island_testkit import Game, settings


def scenario() -> Game:
    s = settings(
        start_positions={"1": [1, 1], "2": [1, 1], "3": [5, 5]},
        monster_kinds={"bear": {"name": "棕熊", "power": 5}, "boar": {"name": "野猪"}},
        monsters=[
            {"id": "bear1", "kind": "bear", "at": [1, 1]},
            {"id": "boar1", "kind": "boar", "at": [5, 5]},
        ],
        items={
            "spear": {"name": "长矛", "weapon": True, "power_bonus": 1},
            "rope": {"name": "绳子"},
        },
        starting_inventory={"spear": 1},
        base_vision=1,
    )
    game = Game(s, n=3)
    game.start()
    return game


def read(game: Game, pid: str, text: str) -> list[dict[str, object]]:
    viewer = Viewer(role="player", player_id=pid)
    return RULESET.parse_orders(text, RULESET.text_context(game.state, viewer)).orders


def test_is55_a_monster_in_sight_is_named_one_out_of_sight_is_not() -> None:
    game = scenario()
    assert read(game, "p1", "打猎棕熊") == [{"type": "hunt", "monster": "bear1"}]
    assert read(game, "p1", "打猎") == [{"type": "hunt", "monster": "bear1"}]
    with pytest.raises(RuleViolation) as unseen:
        read(game, "p1", "打猎野猪")  # boar1 stands four cells away
    assert unseen.value.extra == {"unknown": ["野猪"], "candidates": {"野猪": []}}
    assert read(game, "p3", "打猎 野猪") == [{"type": "hunt", "monster": "boar1"}]


def test_is36_items_are_those_held_and_food() -> None:
    game = scenario()
    assert read(game, "p1", "给P2长矛") == [{"type": "give", "to": "p2", "item": "spear"}]
    assert read(game, "p1", "给P2 2个食物") == [
        {"type": "give", "to": "p2", "item": "food", "count": 2}
    ]
    with pytest.raises(RuleViolation) as not_held:
        read(game, "p1", "给P2绳子")  # the scenario has rope; p1 holds none
    assert not_held.value.extra == {"unknown": ["绳子"], "candidates": {"绳子": []}}


def test_the_roster_is_public_and_named_from_anywhere() -> None:
    game = scenario()
    assert read(game, "p1", "提防P3") == [{"type": "guard", "target": "p3"}]

"""What a player may order now on the island (the order forms), judged by the handlers."""

from __future__ import annotations

from typing import Any

from island_testkit import Game, local

from app.rules.base import Viewer
from app.rules.island import RULESET


def offered(game: Game, pid: str, hour: int = 12) -> dict[str, dict[str, Any]]:
    entries = RULESET.available_orders(game.state, Viewer("player", pid), local(hour))
    return {e["type"]: e for e in entries}


def test_is10_moves_offered_only_where_there_is_a_cell() -> None:
    game = Game(n=2, starts={"1": [1, 1], "2": [5, 5]})
    game.start()
    move = offered(game, "p1")["move"]
    assert move["allowed"] and sorted(move["choices"]) == ["down", "right"]


def test_is15_pk_is_refused_outside_the_window_with_its_rule() -> None:
    game = Game(n=2, starts={"1": [2, 2], "2": [2, 2]})
    game.start()
    pk = offered(game, "p1", hour=12)["pk"]
    assert (pk["allowed"], pk["code"], pk["rule"]) == (False, "outside_pk_window", "IS-15")
    assert offered(game, "p1", hour=21)["pk"]["choices"] == ["p2"]


def test_is20_targets_are_only_players_in_sight_with_their_path() -> None:
    """IS-55: vision 0 sees only the own cell; IS-22: "move + assassinate" elsewhere."""
    game = Game(n=3, starts={"1": [2, 2], "2": [2, 2], "3": [4, 4]})
    game.start()
    kill = offered(game, "p1")["assassinate"]
    assert kill["choices"] == [{"target": "p2", "path": []}]
    now = offered(game, "p1", hour=21)
    assert now["pk"]["choices"] == ["p2"] and now["give"]["choices"] == ["p2"]
    # A guard names a suspect from the public list of the living, seen or not (IS-25).
    assert now["guard"]["choices"] == ["p2", "p3"]


def test_nothing_to_flee_from_says_why() -> None:
    game = Game(n=2, starts={"1": [1, 1], "2": [3, 3]})
    game.start()
    flee = offered(game, "p1")["flee"]
    assert (flee["allowed"], flee["code"], flee["rule"]) == (False, "nothing_to_flee", "IS-13")
    eat = offered(game, "p1")["eat"]
    assert (eat["allowed"], eat["code"]) == (False, "not_hungry")


def test_a_spent_day_refuses_what_costs_stamina() -> None:
    game = Game(n=2, starts={"1": [1, 1], "2": [1, 1]})
    game.start()
    game.order("p1", {"type": "explore"})
    game.order("p1", {"type": "explore"})  # 4 of 5 stamina spent
    now = offered(game, "p1")
    assert now["move"]["allowed"]
    assert (now["explore"]["allowed"], now["explore"]["code"]) == (False, "not_enough_stamina")
    # IS-33: once per game an assassination may be posted short of stamina.
    assert now["assassinate"]["allowed"]

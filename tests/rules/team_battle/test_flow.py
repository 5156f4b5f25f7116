"""Phases, timers, ready, director actions, errors and determinism."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest

from app.rules.base import (
    DIRECTOR,
    DIRECTOR_VIEWER,
    SYSTEM,
    Actor,
    Outcome,
    RuleViolation,
    Step,
    step_rng,
)
from app.rules.team_battle import RULESET

from .helpers import ORIGINAL_A, ORIGINAL_B, PLAYER, T0, Game, viewer


def test_start_opens_deployment_with_its_timer() -> None:
    game = Game(deployment_seconds=3600)
    outcome = game.start()
    assert game.state["phase"] == "deployment"
    (timer,) = outcome.timers
    assert (timer.kind, timer.key, timer.due_at) == ("phase", "phase", T0 + timedelta(hours=1))
    assert timer.data == {"round": 0, "phase": "deployment"}
    assert game.state["opened_at"] == T0.isoformat()


def test_phase_without_duration_cancels_the_timer() -> None:
    game = Game(deployment_seconds=None)
    outcome = game.start()
    assert outcome.timers == [] and outcome.cancel_timers == [("phase", "phase")]


def test_timer_closes_current_phase_and_stale_timer_does_nothing() -> None:
    game = Game()
    game.deploy()
    game.advance(86400)
    outcome = game.timer()
    assert game.state["phase"] == "battle"
    before = json.dumps(game.state, sort_keys=True)
    stale = game.timer(round_no=1, phase="command")
    assert (
        stale.events == []
        and stale.timers == []
        and json.dumps(stale.state, sort_keys=True) == before
    )
    assert outcome.timers[0].data == {"round": 1, "phase": "battle"}


def test_ready_closes_early_and_order_unreadies() -> None:
    game = Game()
    game.deploy()
    game.ready("A")
    game.order("A", {"type": "rest"})
    assert game.state["sides"]["A"]["ready"] is False
    game.ready("B")
    assert game.state["phase"] == "command"
    game.ready("A")
    assert game.state["phase"] == "battle"


def test_early_close_can_be_switched_off() -> None:
    game = Game(early_close_when_ready=False)
    game.start()
    game.order("A", {"type": "deploy", "troops": ORIGINAL_A})
    game.order("B", {"type": "deploy", "troops": ORIGINAL_B})
    game.ready_all()
    assert game.state["phase"] == "deployment"
    game.timer()
    assert game.state["phase"] == "command"


def test_withdraw_and_revise_only_own_pending_orders() -> None:
    game = Game()
    game.deploy()
    mine = game.order("A", {"type": "counter", "slot": 1})
    theirs = game.order("B", {"type": "counter", "slot": 1})
    for order_id in (theirs, "nope"):
        with pytest.raises(RuleViolation) as raised:
            game.withdraw("A", order_id)
        assert raised.value.code == "not_your_order" and raised.value.status == 404
        assert raised.value.message_en == "No such order."
    outcome = game.withdraw("A", mine)
    assert outcome.order_status == {mine: "withdrawn"}
    game.order("A", {"type": "rest"})  # the use is free again
    game.ready_all()
    with pytest.raises(RuleViolation) as raised:
        game.withdraw("B", theirs)
    assert raised.value.code == "order_not_pending"


@pytest.mark.parametrize(
    ("body", "code", "status"),
    [
        ({"type": "fireball"}, "unknown_order", 422),
        ({"slot": 1}, "bad_order", 422),
        ({"type": "counter"}, "bad_order", 422),
        ({"type": "counter", "slot": "2"}, "bad_order", 422),
        ({"type": "counter", "slot": 1, "extra": 1}, "bad_order", 422),
        ({"type": "retreat", "slot": 1}, "wrong_phase", 409),
        ({"type": "counter", "slot": 9}, "slot_out_of_range", 409),
        ("counter", "bad_order", 422),
    ],
)
def test_validation_codes(body: object, code: str, status: int) -> None:
    game = Game()
    game.deploy()
    with pytest.raises(RuleViolation) as raised:
        game.step("order", PLAYER["A"], {"order_id": "x", "order": body})
    assert (raised.value.code, raised.value.status) == (code, status)
    assert raised.value.message_zh and raised.value.message_en


def test_disabled_order_rejected() -> None:
    game = Game(enabled_orders=["deploy", "dispatch", "retreat"])
    game.deploy()
    assert game.rejects("A", {"type": "counter", "slot": 1}).code == "order_disabled"


def test_game_finished_rejects_orders() -> None:
    game = Game(missing_deployment="forfeit")
    game.start()
    game.close()
    assert game.state["winner"] == "draw"
    with pytest.raises(RuleViolation) as raised:
        game.order("A", {"type": "rest"})
    assert raised.value.code == "game_finished"


def test_players_cannot_start_or_direct() -> None:
    game = Game()
    with pytest.raises(RuleViolation):
        game.step("start", PLAYER["A"])
    with pytest.raises(RuleViolation):
        game.step("director", PLAYER["A"], {"action": "close_phase"})
    with pytest.raises(RuleViolation) as raised:
        game.director("explode")
    assert raised.value.code == "unknown_action" and raised.value.status == 422
    with pytest.raises(RuleViolation):
        game.step(
            "order", Actor("player", "stranger", "A"), {"order_id": "x", "order": {"type": "rest"}}
        )


def test_director_edits_are_events() -> None:
    game = Game()
    game.deploy()
    game.director("set_troops", side="B", slot=2, troops=9)
    game.director("set_morale", side="A", morale=12.5)
    assert game.slots("B")[1] == 9 and game.morale("A") == 12.5
    kinds = [e.kind for e in game.events[-2:]]
    assert kinds == ["director_set_troops", "director_set_morale"]
    assert game.view(DIRECTOR_VIEWER)["sides"]["A"]["morale"] == 12.5
    with pytest.raises(RuleViolation):
        game.director("set_morale", side="A", morale=1.25)


def test_validate_matches_apply_and_never_mutates() -> None:
    game = Game()
    game.deploy()
    step = Step(
        "sx", "order", PLAYER["A"], {"order_id": "z", "order": {"type": "counter", "slot": 7}}
    )
    before = json.dumps(game.state, sort_keys=True)
    with pytest.raises(RuleViolation):
        RULESET.validate(game.state, step, T0)
    with pytest.raises(RuleViolation):
        RULESET.apply(game.state, step, random.Random(0), T0)
    assert json.dumps(game.state, sort_keys=True) == before


def test_same_state_step_seed_gives_identical_outcome() -> None:
    game = Game()
    game.deploy()
    game.order("A", {"type": "dispatch", "moves": [{"from": 3, "to": 2, "troops": 4}]})
    game.ready_all()
    game.order("B", {"type": "first_strike", "slot": 1})
    state = game.state
    step = Step("s99", "director", DIRECTOR, {"action": "close_phase"})
    one = RULESET.apply(state, step, step_rng("seed", "s99"), T0)
    two = RULESET.apply(json.loads(json.dumps(state)), step, step_rng("seed", "s99"), T0)

    def dump(o: Outcome) -> str:
        events = [(e.kind, e.data, e.audience, e.reveal_at) for e in o.events]
        return json.dumps([o.state, events, o.order_status], sort_keys=True)

    assert dump(one) == dump(two)


def test_views_hide_the_other_sides_orders() -> None:
    game = Game()
    game.deploy()
    game.order("A", {"type": "counter", "slot": 1})
    game.order("B", {"type": "rest"})
    a_view = game.view(viewer("A"))
    assert [o["side"] for o in a_view["orders"]] == ["A", "A"]  # deploy + counter
    assert '"type": "rest"' not in json.dumps(a_view)
    seen_by_b = [e.data for e in game.visible_events(viewer("B")) if e.kind != "game_started"]
    assert '"counter"' not in json.dumps(seen_by_b)
    director = game.view(DIRECTOR_VIEWER)
    assert {o["type"] for o in director["orders"]} >= {"counter", "rest"}
    assert SYSTEM.role == "system"

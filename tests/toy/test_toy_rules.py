"""The toy duel's rules core on its own: pure, deterministic, with its events' audiences."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.rules.base import (
    DIRECTOR,
    DIRECTOR_VIEWER,
    PUBLIC_VIEWER,
    SYSTEM,
    Actor,
    Outcome,
    Player,
    RuleViolation,
    Step,
    Viewer,
    event_visible,
    step_rng,
)
from tests.toy.engine import RULESET, TIMER_KIND
from tests.toy.schema import ToySettings

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)
P1, P2 = Actor("player", "p1"), Actor("player", "p2")
V1, V2 = Viewer("player", "p1"), Viewer("player", "p2")


class Duel:
    """A started duel stepped by hand, as the shell would step it."""

    def __init__(self, **settings: object) -> None:
        roster = [Player("p1", "甲"), Player("p2", "乙")]
        self.state = RULESET.initial_state(ToySettings.model_validate(settings), roster)
        self.seq = 0
        self.last: Outcome | None = None
        self.step("start", SYSTEM)

    def step(self, step_kind: str, actor: Actor, **payload: object) -> Outcome:
        self.seq += 1
        step = Step(f"s{self.seq}", step_kind, actor, payload)
        self.last = RULESET.apply(self.state, step, step_rng("seed", step.id), NOW)
        self.state = self.last.state
        return self.last

    def kinds(self) -> list[str]:
        assert self.last is not None
        return [e.kind for e in self.last.events]


def test_a_round_opens_with_its_deadline_timer() -> None:
    duel = Duel(rounds=2, round_seconds=600)
    assert duel.kinds() == ["game_started", "round_opened"]
    assert duel.last is not None
    (timer,) = duel.last.timers
    assert (timer.kind, timer.key, timer.data) == (TIMER_KIND, "round", {"round": 1})
    assert timer.due_at == NOW + timedelta(seconds=600)
    assert RULESET.phase(duel.state) == "throwing"


def test_the_hidden_throw_is_seen_by_its_player_and_the_director_only() -> None:
    duel = Duel()
    out = duel.step("order", P1, order_id="o1", order={"type": "throw", "hand": "rock"})
    (given,) = out.events
    assert given.kind == "throw_given"
    seen = {
        name: event_visible(given.audience, given.reveal_at, viewer, False)
        for name, viewer in [
            ("p1", V1),
            ("p2", V2),
            ("public", PUBLIC_VIEWER),
            ("director", DIRECTOR_VIEWER),
        ]
    }
    assert seen == {"p1": True, "p2": False, "public": False, "director": True}
    assert RULESET.view(duel.state, V2).get("orders") == []
    assert "orders" not in RULESET.view(duel.state, PUBLIC_VIEWER)
    assert RULESET.view(duel.state, V1)["orders"][0]["body"]["hand"] == "rock"


def test_the_shout_is_public_and_resolved_at_once() -> None:
    duel = Duel()
    out = duel.step("order", P2, order_id="o1", order={"type": "shout", "taunt": "你输定了"})
    assert out.order_status == {"o1": "resolved"}
    assert out.events[0].audience == ("public",)
    assert RULESET.is_public_order({"type": "shout", "taunt": "x"})
    assert not RULESET.is_public_order({"type": "throw", "hand": "rock"})


def test_the_round_closes_early_when_both_are_ready() -> None:
    duel = Duel(rounds=2)
    duel.step("order", P1, order_id="o1", order={"type": "throw", "hand": "rock"})
    duel.step("order", P2, order_id="o2", order={"type": "throw", "hand": "scissors"})
    duel.step("ready", P1)
    assert duel.kinds() == ["player_ready"]
    out = duel.step("ready", P2)
    assert duel.kinds() == ["player_ready", "round_closed", "round_opened"]
    closed = out.events[1].data
    assert closed["throws"] == {"p1": "rock", "p2": "scissors"}
    assert (closed["winner"], closed["by"]) == ("p1", "ready")
    assert out.order_status == {"o1": "resolved", "o2": "resolved"}
    assert duel.state["round"] == 2


def test_the_round_closes_on_its_timer_and_a_stale_timer_says_nothing() -> None:
    duel = Duel(rounds=1)
    duel.step("order", P2, order_id="o1", order={"type": "throw", "hand": "paper"})
    duel.step("timer", SYSTEM, kind=TIMER_KIND, key="round", data={"round": 1})
    assert duel.kinds() == ["round_closed", "game_over"]
    assert duel.last is not None and duel.last.finished
    assert duel.state["winner"] == "p2"  # a lone throw wins
    assert RULESET.is_finished(duel.state)
    duel.step("timer", SYSTEM, kind=TIMER_KIND, key="round", data={"round": 1})
    assert duel.kinds() == []


def test_a_tie_is_broken_by_the_step_rng_deterministically() -> None:
    def play() -> tuple[str | None, bool]:
        duel = Duel(rounds=1)
        duel.step("order", P1, order_id="o1", order={"type": "throw", "hand": "paper"})
        duel.step("order", P2, order_id="o2", order={"type": "throw", "hand": "paper"})
        duel.step("director", DIRECTOR, action="close_round")
        closed = duel.last.events[1].data if duel.last else {}
        return closed["winner"], closed["tie_broken"]

    first = play()
    assert first[1] is True and first[0] in {"p1", "p2"}
    assert play() == first


def test_a_later_throw_replaces_the_earlier_and_a_withdrawn_one_is_gone() -> None:
    duel = Duel()
    duel.step("order", P1, order_id="o1", order={"type": "throw", "hand": "rock"})
    out = duel.step("order", P1, order_id="o2", order={"type": "throw", "hand": "paper"})
    assert out.order_status == {"o1": "replaced", "o2": "pending"}
    duel.step("revise", P1, order_id="o2", order={"type": "throw", "hand": "scissors"})
    assert duel.state["orders"][0]["body"]["hand"] == "scissors"
    duel.step("withdraw", P1, order_id="o2")
    assert duel.state["orders"] == []


@pytest.mark.parametrize(
    ("kind", "actor", "payload", "code", "status"),
    [
        (
            "order",
            P1,
            {"order_id": "x", "order": {"type": "throw", "hand": "well"}},
            "bad_order",
            422,
        ),
        ("order", Actor("player", "p9"), {"order_id": "x", "order": {}}, "not_a_player", 403),
        ("withdraw", P2, {"order_id": "o1"}, "not_your_order", 404),
        ("director", DIRECTOR, {"action": "explode"}, "unknown_action", 422),
        ("start", DIRECTOR, {}, "already_started", 409),
    ],
)
def test_refusals_change_nothing(
    kind: str, actor: Actor, payload: dict[str, object], code: str, status: int
) -> None:
    duel = Duel()
    duel.step("order", P1, order_id="o1", order={"type": "throw", "hand": "rock"})
    before = duel.state
    with pytest.raises(RuleViolation) as refused:
        RULESET.validate(before, Step("s99", kind, actor, payload), NOW)
    assert (refused.value.code, refused.value.status) == (code, status)
    assert refused.value.message_zh and refused.value.message_en
    assert duel.state is before


def test_the_roster_is_exactly_two_players_without_sides() -> None:
    settings = ToySettings()
    with pytest.raises(RuleViolation, match="no_sides"):
        RULESET.validate_player(settings, "甲", "A", 0)
    with pytest.raises(RuleViolation, match="roster_full"):
        RULESET.validate_player(settings, "丙", None, 2)
    with pytest.raises(RuleViolation, match="roster_short"):
        RULESET.validate_roster(settings, [Player("p1", "甲")])


def test_orders_in_words_in_both_languages() -> None:
    context = RULESET.text_context(Duel().state, V1)
    parsed = RULESET.parse_orders("出石头\n喊 你输定了", context)
    assert parsed.orders == [
        {"type": "throw", "hand": "rock"},
        {"type": "shout", "taunt": "你输定了"},
    ]
    assert "石头" in parsed.echo_zh
    assert RULESET.parse_orders("throw Scissors", context).orders == [
        {"type": "throw", "hand": "scissors"}
    ]
    with pytest.raises(RuleViolation) as refused:
        RULESET.parse_orders("出火箭", context)
    assert refused.value.status == 422 and refused.value.extra["unknown"] == ["出火箭"]


def test_a_whole_duel_to_a_winner_and_a_replay_is_identical() -> None:
    def play() -> Duel:
        duel = Duel(rounds=3)
        for n, (h1, h2) in enumerate([("rock", "paper"), ("rock", "scissors"), ("paper", "rock")]):
            duel.step("order", P1, order_id=f"a{n}", order={"type": "throw", "hand": h1})
            duel.step("order", P2, order_id=f"b{n}", order={"type": "throw", "hand": h2})
            duel.step("timer", SYSTEM, kind=TIMER_KIND, key="round", data={"round": n + 1})
        return duel

    duel = play()
    assert duel.state["phase"] == "finished"
    assert duel.state["scores"] == {"p1": 2, "p2": 1}
    assert duel.state["winner"] == "p1"
    assert play().state == duel.state
    assert RULESET.available_orders(duel.state, V1, NOW) == []

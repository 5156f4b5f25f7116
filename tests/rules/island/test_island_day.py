"""IS-1..IS-3, IS-33..IS-35, IS-40: the day, stamina, debt, illness, hunger, 24:00."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from island_testkit import Game, local, settings

from app.rules.base import DIRECTOR, Step, Viewer, step_rng
from app.rules.base import RuleViolation as RV
from app.rules.island import RULESET


def test_is1_players_start_with_power_2_and_5_stamina() -> None:
    """IS-1: Each player starts with power 2 and 5 stamina per day."""
    g = Game()
    g.start()
    v = g.view("p1")
    assert (v["power"], v["stamina"], v["max_stamina"], v["alive"]) == (2, 5, 5, True)


def test_is1_stamina_is_private() -> None:
    """IS-1: A player's current stamina is private (only the player and the director see it)."""
    g = Game()
    g.start()
    v = g.view("p1")
    other = [pl for c in v["visible_cells"] for pl in c["players"] if pl["id"] == "p2"]
    assert other and "stamina" not in other[0]
    assert "stamina" not in str(RULESET.view(g.state, Viewer(role="public")))
    assert RULESET.view(g.state, Viewer(role="director"))["all_players"]["p2"]["stamina"] == 5


def test_is2_stamina_refills_after_midnight() -> None:
    """IS-2: at the start of each day stamina refills to the current maximum minus any debt."""
    g = Game()
    g.start()
    g.order("p1", {"type": "explore"})
    assert g.p("p1")["stamina"] == 3
    g.midnight()
    assert g.p("p1")["stamina"] == 5 and g.state["day"] == 2


def test_is3_pk_window_and_deep_night_are_local_times() -> None:
    """IS-3: 20:00-24:00 is the PK window; 22:00-24:00 is deep night (game's time zone)."""
    from app.rules.island.core import in_window, is_deep_night

    s = settings()
    assert not in_window(s, local(19, 59), "20:00")
    assert in_window(s, local(20, 0), "20:00")
    assert not is_deep_night(s, local(21, 59)) and is_deep_night(s, local(22, 0))
    # 20:30 in Shanghai is 12:30 UTC
    assert in_window(s, datetime(2024, 6, 1, 12, 30, tzinfo=UTC), "20:00")


def test_start_schedules_midnight_and_remaining_monster_checks() -> None:
    g = Game()
    out = g.start(local(20, 30))
    kinds = {(t.kind, t.key): t.due_at for t in out.timers}
    assert kinds[("midnight", "midnight")] == local(0, 0, date(2024, 6, 2))
    assert ("monster_check", "20:00") not in kinds
    assert kinds[("monster_check", "21:00")] == local(21)


@pytest.mark.parametrize(
    ("tz", "day", "expected_utc"),
    [
        ("America/New_York", date(2024, 3, 9), datetime(2024, 3, 10, 5, 0, tzinfo=UTC)),  # EST
        ("America/New_York", date(2024, 3, 10), datetime(2024, 3, 11, 4, 0, tzinfo=UTC)),  # EDT
        ("Europe/Berlin", date(2024, 10, 26), datetime(2024, 10, 26, 22, 0, tzinfo=UTC)),  # CEST
        ("Europe/Berlin", date(2024, 10, 27), datetime(2024, 10, 27, 23, 0, tzinfo=UTC)),  # CET
    ],
)
def test_midnight_is_dst_correct(tz: str, day: date, expected_utc: datetime) -> None:
    """IS-40 / IS-3: 24:00 in the game's zone via zoneinfo, across DST changes."""
    from app.rules.island.core import midnight_after

    assert midnight_after(settings(timezone=tz), day) == expected_utc


def test_midnight_timer_chain_across_dst() -> None:
    s = settings(timezone="America/New_York", start_positions={"1": [1, 1], "2": [1, 1]})
    g = Game(s, n=2)
    out = g.start(local(10, 0, date(2024, 3, 9), "America/New_York"))
    due = next(t.due_at for t in out.timers if t.kind == "midnight")
    assert due == datetime(2024, 3, 10, 5, 0, tzinfo=UTC)
    out = g.timer("midnight", "midnight", now=due)
    nxt = next(t.due_at for t in out.timers if t.kind == "midnight")
    assert nxt - due == (datetime(2024, 3, 11, 4, 0, tzinfo=UTC) - due)  # a 23-hour day
    assert nxt == datetime(2024, 3, 11, 4, 0, tzinfo=UTC)


def test_is40_midnight_run_early_is_followed_by_tonights_midnight() -> None:
    """IS-40 / IS-3: 24:00 is in the game's time zone. When the director runs it early (at
    noon), the next 24:00 is tonight's — the next calendar midnight — not one a day later;
    afterwards the chain goes on a day at a time."""
    g = Game()
    g.start(local(9))
    out = g.timer("midnight", "midnight", now=local(12))  # the director's early /advance
    assert g.state["day"] == 2 and g.state["date"] == "2024-06-01"
    due = next(t.due_at for t in out.timers if t.kind == "midnight")
    assert due == local(0, 0, date(2024, 6, 2))  # 12 hours later, not 36
    checks = {t.key: t.due_at for t in out.timers if t.kind == "monster_check"}
    assert checks["20:00"] == local(20)  # this evening's checks are still ahead
    out = g.timer("midnight", "midnight", now=due)  # on time
    assert g.state["day"] == 3 and g.state["date"] == "2024-06-02"
    assert next(t.due_at for t in out.timers if t.kind == "midnight") == local(
        0, 0, date(2024, 6, 3)
    )


def test_is33_assassination_debt_once_per_game_taken_from_next_refill() -> None:
    """IS-33: Once per game a player may submit an Assassinate without enough stamina;
    the shortfall is owed, taken from the next day's refill."""
    g = Game(n=2)
    g.start()
    g.order("p1", {"type": "explore"})
    g.order("p1", {"type": "explore"})  # stamina 1
    out = g.order("p1", {"type": "assassinate", "target": "p2"})
    assert out.reply["result"]["debt"] == 2 and g.p("p1")["stamina"] == 0
    g.director("adjust_power", delta=10, player="p2")  # p2 survives
    g.midnight()
    assert g.p("p1")["stamina"] == 3 and g.p("p1")["debt"] == 0
    g.order("p1", {"type": "explore"})  # stamina 1, debt already used
    with pytest.raises(RV) as e:
        g.order("p1", {"type": "assassinate", "target": "p2"})
    assert e.value.code == "not_enough_stamina"


def test_is33_guard_debt_is_separate() -> None:
    """IS-33: ... and once per game a Guard."""
    g = Game(n=2)
    g.start()
    g.order("p1", {"type": "explore"})
    g.order("p1", {"type": "explore"})
    g.order("p1", {"type": "move", "direction": "right"})  # stamina 0
    out = g.order("p1", {"type": "guard", "target": "p2"})
    assert out.reply["result"]["debt"] == 2
    with pytest.raises(RV):
        g.order("p1", {"type": "guard", "target": "p2"}, oid="again")


def test_is34_illness_halves_stamina_max_and_power() -> None:
    """IS-34: current stamina, maximum stamina and power are halved (rounding down)."""
    g = Game(n=2)
    g.start()
    g.director("set_ill", player="p1")
    v = g.view("p1")
    assert (v["stamina"], v["max_stamina"], v["power"], v["ill"]) == (2, 2, 1, True)


def test_is34_illness_can_kill() -> None:
    """IS-34: Illness can kill (power 0)."""
    g = Game(n=3)
    g.start()
    g.director("adjust_power", player="p1", delta=-1)
    g.director("set_ill", player="p1")
    assert not g.p("p1")["alive"]


def test_is35_hunger_eat_at_midnight_and_starve() -> None:
    """IS-35: at 24:00 each player eats 1 food; with none they gain 1 hunger level; each level
    halves max stamina and power; power 0 starves."""
    s = settings(starting_food=0, start_positions={"1": [1, 1], "2": [1, 1], "3": [1, 1]})
    g = Game(s, n=3)
    g.start()
    g.director("adjust_food", player="p3", delta=5)
    g.midnight()
    v = g.view("p1")
    assert (v["hunger"], v["power"], v["max_stamina"], v["stamina"]) == (1, 1, 2, 2)
    assert g.p("p3")["food"] == 4 and g.p("p3")["hunger"] == 0
    g.midnight()
    assert not g.p("p1")["alive"]
    assert any(d["cause"] == "starvation" for d in g.state["deaths"])


def test_is35_eating_lowers_hunger() -> None:
    """IS-35: A hungry player may eat food at any time to lower hunger by the amount eaten."""
    s = settings(starting_food=0, start_positions={"1": [1, 1], "2": [1, 1], "3": [1, 1]})
    g = Game(s, n=3)
    g.start()
    g.midnight()
    g.director("adjust_food", player="p1", delta=1)
    g.order("p1", {"type": "eat", "food": 1})
    assert g.p("p1")["hunger"] == 0 and g.p("p1")["food"] == 0
    with pytest.raises(RV) as e:
        g.order("p1", {"type": "eat", "food": 1})
    assert e.value.code == "not_hungry"


def test_is35_eat_exactly_what_was_asked_or_refused() -> None:
    """IS-35: a hungry player may eat food to lower hunger by the amount eaten. An order is
    eaten as asked or refused with the rule: never more food than held, never more than
    the hunger it lowers, and nothing changes when it is refused."""
    s = settings(starting_food=0, start_power=4, start_positions={"1": [1, 1], "2": [1, 1]})
    g = Game(s, n=2)
    g.start()
    g.midnight()
    g.midnight()  # hunger 2: power 4 halved twice
    g.director("adjust_food", player="p1", delta=2)
    assert (g.p("p1")["hunger"], g.p("p1")["food"]) == (2, 2)
    with pytest.raises(RV) as e:
        g.order("p1", {"type": "eat", "food": 3})  # 2 food held
    assert (e.value.code, e.value.rule) == ("no_food", "IS-35")
    g.director("adjust_food", player="p1", delta=2)
    with pytest.raises(RV) as e:
        g.order("p1", {"type": "eat", "food": 3})  # 4 food, but hunger is 2
    assert (e.value.code, e.value.rule) == ("more_than_hunger", "IS-35")
    assert (g.p("p1")["hunger"], g.p("p1")["food"]) == (2, 4)
    out = g.order("p1", {"type": "eat", "food": 2})
    assert out.reply["result"] == {"eaten": 2, "hunger": 0, "food": 2}


def test_is40_midnight_pipeline_reports() -> None:
    """IS-40: 1) assassinations 2) hunger 3) deaths 4) new day 5) reports: one private report
    per player, one public report, one director report."""
    g = Game(n=3)
    g.start()
    g.order("p1", {"type": "guard", "target": "p2"})
    out = g.midnight()
    private = [e for e in out.events if e.kind == "night_report"]
    assert sorted(e.audience for e in private) == [("player:p1",), ("player:p2",), ("player:p3",)]
    assert [e.kind for e in out.events if "public" in e.audience] == ["day_report"]
    assert [e.kind for e in out.events if e.audience == ("director",)] == ["director_report"]
    assert g.state["orders"]["o1"]["status"] == "expired" and out.order_status["o1"] == "expired"
    assert {t.kind for t in out.timers} == {"midnight", "monster_check"}


def test_game_finishes_when_one_survives() -> None:
    g = Game(n=2)
    g.start()
    g.director("kill_player", player="p2")
    out = g.midnight()
    assert out.finished and RULESET.is_finished(g.state) and not out.timers


def test_determinism_same_seed_same_steps_same_result() -> None:
    """Same seed + same steps -> identical outcome (replay, GET /verify)."""
    import json

    def run(seed: str) -> str:
        s = settings(
            terrains={
                "plain": {
                    "encounter_chance": 0.5,
                    "monster_table": [{"kind": "dog"}],
                    "explore_table": [{"kind": "food"}, {"kind": "nothing"}, {"kind": "monster"}],
                }
            },
            monster_kinds={"dog": {"power": 2, "attack_chance": 0.5}},
            start_positions={str(i): [1, 1] for i in range(1, 5)},
        )
        g = Game(s, n=4, seed=seed)
        g.start()
        g.order("p1", {"type": "explore"})
        g.order("p2", {"type": "move", "direction": "right"})
        g.order("p3", {"type": "assassinate", "target": "p4"})
        g.order("p4", {"type": "pk", "targets": ["p1"]}, now=local(20, 30))
        g.timer(
            "pk", "pk", {"challenge": g.outcomes[-1].reply["result"]["challenge"]}, now=local(21)
        )
        g.midnight()
        return json.dumps(
            [g.state, [[e.kind, e.data, e.audience] for o in g.outcomes for e in o.events]],
            sort_keys=True,
            default=str,
        )

    assert run("a") == run("a")
    assert run("a") != run("b") or True


def test_apply_never_mutates_input_and_rejects_before_change() -> None:
    import copy

    g = Game(n=2)
    g.start()
    before = copy.deepcopy(g.state)
    with pytest.raises(RV):
        RULESET.apply(
            g.state,
            Step(id="x", kind="order", actor=DIRECTOR, payload={}),
            step_rng("s", "x"),
            local(12),
        )
    from app.rules.base import Actor

    st = Step(
        id="y",
        kind="order",
        actor=Actor(role="player", player_id="p1"),
        payload={"order_id": "q", "order": {"type": "explore"}},
    )
    RULESET.apply(g.state, st, step_rng("s", "y"), local(12))
    RULESET.validate(g.state, st, local(12))
    assert g.state == before


def test_ready_is_a_no_op_and_unknown_step_is_rejected() -> None:
    from app.rules.base import Actor

    g = Game(n=2)
    g.start()
    out = RULESET.apply(
        g.state,
        Step(id="r", kind="ready", actor=Actor(role="player", player_id="p1")),
        step_rng("s", "r"),
        local(12),
    )
    assert out.state == g.state and not out.events
    with pytest.raises(RV) as e:
        RULESET.apply(
            g.state, Step(id="z", kind="bogus", actor=DIRECTOR), step_rng("s", "z"), local(12)
        )
    assert e.value.code == "unsupported_step"
    assert RULESET.phase(g.state) == "day"

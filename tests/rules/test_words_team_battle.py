"""Team Battle's catalogue names everything the game declares, in both languages, and a
whole game (the golden posts' one) emits only the event kinds it declares."""

from __future__ import annotations

from app.rules.registry import get_ruleset
from app.rules.team_battle.kinds import PHASES
from app.rules.team_battle.words import WORDS
from tests.publish.render.engine_runs import team_battle_game
from tests.rules.words_check import missing_words, names_wanted, stray_names, unworded_errors

RULESET = get_ruleset("team_battle")


def test_every_order_phase_event_setting_and_tool_has_zh_and_en_words() -> None:
    wanted = names_wanted(RULESET, PHASES)
    assert missing_words(WORDS, wanted) == []
    assert stray_names(WORDS, wanted) == []


def test_every_refusal_has_zh_and_en_words() -> None:
    assert unworded_errors(WORDS) == []
    assert sum(k.startswith("error.") for k in WORDS) > 30


def test_the_phases_declared_are_the_phases_a_game_goes_through() -> None:
    run = team_battle_game("zh")
    seen = {e.data["phase"] for e, _ in run.all_events if e.kind == "phase_opened"}
    assert seen <= set(PHASES)
    assert RULESET.phase(run.state) in PHASES


def test_a_whole_game_emits_only_declared_event_kinds() -> None:
    run = team_battle_game("zh")
    kinds = {e.kind for e, _ in run.all_events}
    assert kinds <= RULESET.event_kinds, kinds - RULESET.event_kinds
    assert len(kinds) > 10

"""The island's catalogue names everything the game declares, in both languages, and a
played day (the golden posts' one) emits only the event kinds it declares."""

from __future__ import annotations

from app.rules.island.kinds import PHASES
from app.rules.island.schema import ORDER_NAMES
from app.rules.island.words import WORDS
from app.rules.registry import get_ruleset
from tests.publish.render.engine_runs import island_day
from tests.rules.words_check import missing_words, names_wanted, stray_names, unworded_errors

RULESET = get_ruleset("island")


def test_every_order_phase_event_setting_and_tool_has_zh_and_en_words() -> None:
    wanted = names_wanted(RULESET, PHASES)
    assert missing_words(WORDS, wanted) == []
    assert stray_names(WORDS, wanted) == []


def test_every_refusal_has_zh_and_en_words() -> None:
    assert unworded_errors(WORDS) == []
    assert sum(k.startswith("error.") for k in WORDS) > 30


def test_the_order_names_of_the_schema_are_the_catalogue_s() -> None:
    for order_type, (name_zh, _rules) in ORDER_NAMES.items():
        assert WORDS[f"order.{order_type}"][0] == name_zh
    assert WORDS["order.give"] == ("赠送", "Give")


def test_a_played_day_emits_only_declared_event_kinds() -> None:
    run = island_day("zh")
    kinds = {e.kind for e, _ in run.all_events}
    assert kinds <= RULESET.event_kinds, kinds - RULESET.event_kinds
    assert RULESET.phase(run.state) in PHASES
    assert len(kinds) > 10

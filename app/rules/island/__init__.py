"""另一面 (The Other Side): the island ruleset; the rules, by ID, are in docs/rules/island.md."""

from app.rules.island.engine import RULESET, IslandRuleset
from app.rules.island.scenario import ScenarioError, load_scenario
from app.rules.island.settings import IslandSettings

__all__ = ["RULESET", "IslandRuleset", "IslandSettings", "ScenarioError", "load_scenario"]

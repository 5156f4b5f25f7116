"""Team Battle (团战, simple edition): the rules, by ID, are in docs/rules/team-battle.md."""

from app.rules.team_battle.engine import TeamBattleRuleset
from app.rules.team_battle.settings import TeamBattleSettings

RULESET = TeamBattleRuleset()

__all__ = ["RULESET", "TeamBattleRuleset", "TeamBattleSettings"]

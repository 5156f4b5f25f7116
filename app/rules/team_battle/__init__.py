"""Team Battle (团战, simple edition): rules in /work/shared/rules/team-battle.md."""

from app.rules.team_battle.engine import TeamBattleRuleset
from app.rules.team_battle.settings import TeamBattleSettings

RULESET = TeamBattleRuleset()

__all__ = ["RULESET", "TeamBattleRuleset", "TeamBattleSettings"]

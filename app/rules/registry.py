"""The one place that lists the game types. Adding a game touches only this file."""

from __future__ import annotations

from app.rules.base import Ruleset, RuleViolation


def _load() -> dict[str, Ruleset]:
    from app.rules.island import RULESET as island
    from app.rules.team_battle import RULESET as team_battle

    return {r.name: r for r in (team_battle, island)}


_RULESETS: dict[str, Ruleset] | None = None


def all_rulesets() -> dict[str, Ruleset]:
    global _RULESETS
    if _RULESETS is None:
        _RULESETS = _load()
    return _RULESETS


def get_ruleset(name: str) -> Ruleset:
    try:
        return all_rulesets()[name]
    except KeyError:
        raise RuleViolation(
            "unknown_ruleset",
            None,
            f"没有名为 {name!r} 的游戏类型。",
            f"There is no game type named {name!r}.",
            status=422,
        ) from None

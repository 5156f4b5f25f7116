"""The one place that lists the game types: each game's rules core and its presentation.

Adding a game touches only this file (and the game's own package). Everything else asks here:
``get_ruleset`` for the rules, ``get_presentation`` for what people see of it. ``register``
adds a game at run time (a test's toy game, a plug-in) and returns how to take it away again.
"""

from __future__ import annotations

from collections.abc import Callable

from app.kit import Presentation
from app.rules.base import Ruleset, RuleViolation


def _load() -> tuple[dict[str, Ruleset], dict[str, Presentation]]:
    from app.rules.island import RULESET as island
    from app.rules.island.present import PRESENTATION as island_present
    from app.rules.team_battle import RULESET as team_battle
    from app.rules.team_battle.present import PRESENTATION as team_battle_present

    rulesets: dict[str, Ruleset] = {r.name: r for r in (team_battle, island)}
    presentations = {p.name: p for p in (team_battle_present, island_present)}
    return rulesets, presentations


_RULESETS: dict[str, Ruleset] | None = None
_PRESENTATIONS: dict[str, Presentation] = {}


def _ensure() -> dict[str, Ruleset]:
    global _RULESETS
    if _RULESETS is None:
        rulesets, presentations = _load()
        _RULESETS = rulesets
        _PRESENTATIONS.update(presentations)
    return _RULESETS


def all_rulesets() -> dict[str, Ruleset]:
    """Every game type by name, in the order they are offered (the first is the default)."""
    return _ensure()


def default_ruleset() -> str:
    """The game type a form offers first."""
    return next(iter(_ensure()))


def get_ruleset(name: str) -> Ruleset:
    try:
        return _ensure()[name]
    except KeyError:
        raise RuleViolation(
            "unknown_ruleset",
            None,
            f"没有名为 {name!r} 的游戏类型。",
            f"There is no game type named {name!r}.",
            status=422,
        ) from None


def get_presentation(name: str) -> Presentation:
    """The game's presentation; a game registered without one gets the kit's defaults."""
    _ensure()
    found = _PRESENTATIONS.get(name)
    return found if found is not None else Presentation(name=name)


def register(ruleset: Ruleset, presentation: Presentation | None = None) -> Callable[[], None]:
    """Add a game type at run time; the returned function removes it again."""
    rulesets = _ensure()
    name = ruleset.name
    rulesets[name] = ruleset
    if presentation is not None:
        _PRESENTATIONS[name] = presentation

    def unregister() -> None:
        rulesets.pop(name, None)
        _PRESENTATIONS.pop(name, None)

    return unregister

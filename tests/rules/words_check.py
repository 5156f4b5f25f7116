"""What a game's catalogue must name, checked the same way for every game.

Every order type of its ``order_model``, every tool of its ``director_action_model``, every
field of its ``settings_model``, every phase it has and every event kind it declares
(``event_kinds``) has a Chinese and an English word in its ``WORDS``; and a game played
through the pure engine emits only the kinds it declares.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from app.rules.base import BodyModel, Ruleset


def tags(model: BodyModel) -> set[str]:
    """The values of the discriminator the union accepts."""
    return set(model.adapter.json_schema()["discriminator"]["mapping"])


def names_wanted(ruleset: Ruleset, phases: Iterable[str]) -> set[str]:
    """Every key the catalogue must hold for what the game declares."""
    return {
        *(f"order.{t}" for t in tags(ruleset.order_model)),
        *(f"tool.{t}" for t in tags(ruleset.director_action_model)),
        *(f"setting.{f}" for f in ruleset.settings_model.model_fields),
        *(f"phase.{p}" for p in phases),
        *(f"event.{k}" for k in ruleset.event_kinds),
    }


def missing_words(words: Mapping[str, tuple[str, str]], wanted: Iterable[str]) -> list[str]:
    """The keys without a non-empty Chinese and English word."""
    out = []
    for key in sorted(wanted):
        entry = words.get(key)
        if entry is None or len(entry) != 2 or not all(isinstance(w, str) and w for w in entry):
            out.append(key)
    return out


def stray_names(words: Mapping[str, tuple[str, str]], wanted: Iterable[str]) -> list[str]:
    """Names in the catalogue for nothing the game declares (a renamed kind left behind).
    A name's own details (``setting.<field>.help``, ``setting.<field>.<choice>``) belong to it."""
    known = set(wanted)
    spaces = ("order.", "tool.", "setting.", "phase.", "event.")
    return sorted(
        k for k in words if k.startswith(spaces) and ".".join(k.split(".")[:2]) not in known
    )


def unworded_errors(words: Mapping[str, tuple[str, str]]) -> list[str]:
    """The refusal messages (``error.<code>``) not written in both languages."""
    return sorted(
        k
        for k, v in words.items()
        if k.startswith("error.") and not (v[0].strip() and v[1].strip())
    )

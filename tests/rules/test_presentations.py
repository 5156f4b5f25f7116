"""Generic checks over every registered game's presentation (and the toy duel's, registered
here): its one catalogue names, in Chinese and English, every order of its ``order_model``,
every phase it can report, every director tool, setting and declared event kind; and each
part it provides (pages, posts, sealer) has every method of the kit's protocol for it."""

from __future__ import annotations

import inspect
import re
import string
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from app.kit import Presentation
from app.kit.pages import Pages
from app.kit.posts import Posts
from app.kit.receipts import Sealer
from app.rules.base import BodyModel, Ruleset
from app.rules.registry import all_rulesets, get_presentation, get_ruleset
from tests.toy.engine import RULESET as TOY
from tests.toy.registration import toy_registered

GAMES = sorted({*all_rulesets(), TOY.name})
CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")
LANG_SUFFIX = re.compile(r"(?:^|_)(?:zh|en)$")
PARTS: dict[str, type[Any]] = {"pages": Pages, "posts": Posts, "sealer": Sealer}


@pytest.fixture(autouse=True)
def _toy() -> Iterator[None]:
    with toy_registered():
        yield


def tags(body: BodyModel) -> list[str]:
    """The discriminator values of a body family (order types, director actions)."""
    schema = body.model.model_json_schema()
    found = schema.get("discriminator", {}).get("mapping")
    if found:
        return sorted(found)
    values: list[str] = []
    for ref in schema.get("oneOf", schema.get("anyOf", [])):
        name = ref.get("$ref", "").rsplit("/", 1)[-1]
        definition = schema.get("$defs", {}).get(name, ref)
        const = definition.get("properties", {}).get(body.tag, {}).get("const")
        if const is not None:
            values.append(str(const))
    return sorted(values)


def phases(ruleset: Ruleset) -> list[str]:
    """The phases a game can report: as it declares them, else its view's ``phase`` values;
    "setup" (before the start) and "finished" always."""
    declared = getattr(ruleset, "phases", None)
    if declared is not None:
        return sorted(set(declared))
    view: type[BaseModel] = ruleset.view_model
    phase = view.model_json_schema().get("properties", {}).get("phase", {})
    return sorted({"setup", "finished", *phase.get("enum", [])})


def needed_keys(ruleset: Ruleset) -> list[str]:
    keys = [f"order.{t}" for t in tags(ruleset.order_model)]
    keys += [f"tool.{t}" for t in tags(ruleset.director_action_model)]
    keys += [f"phase.{p}" for p in phases(ruleset)]
    keys += [f"setting.{f}" for f in ruleset.settings_model.model_fields]
    keys += [f"event.{k}" for k in sorted(getattr(ruleset, "event_kinds", ()))]
    return keys


def fields_of(text: str) -> set[str]:
    """A phrase's format fields; a field given per language (``side_zh``/``side``,
    ``detail_zh``/``detail_en``) counts as one."""
    names = {name for _, name, _, _ in string.Formatter().parse(text) if name}
    return {LANG_SUFFIX.sub("", name) for name in names}


@pytest.mark.parametrize("game", GAMES)
def test_the_presentation_is_the_games(game: str) -> None:
    presentation = get_presentation(game)
    assert isinstance(presentation, Presentation)
    assert presentation.name == get_ruleset(game).name == game


@pytest.mark.parametrize("game", GAMES)
def test_the_catalogue_names_everything_the_game_declares_in_both_languages(game: str) -> None:
    words = get_presentation(game).words
    ruleset = get_ruleset(game)
    missing = [key for key in needed_keys(ruleset) if key not in words]
    assert missing == [], f"{game}: no words for {missing}"
    empty = [key for key in needed_keys(ruleset) if not all(t.strip() for t in words[key])]
    assert empty == [], f"{game}: empty words for {empty}"


@pytest.mark.parametrize("game", GAMES)
def test_every_word_has_both_languages_with_the_same_fields(game: str) -> None:
    bad: list[str] = []
    for key, entry in get_presentation(game).words.items():
        if not (isinstance(entry, tuple) and len(entry) == 2):
            bad.append(f"{key}: not a (zh, en) pair")
            continue
        zh, en = entry
        if fields_of(zh) != fields_of(en):
            bad.append(f"{key}: fields {sorted(fields_of(zh))} vs {sorted(fields_of(en))}")
        if CJK.search(en):
            bad.append(f"{key}: Chinese in the English {en!r}")
    assert bad == [], f"{game}: " + "; ".join(bad)


def protocol_methods(protocol: type[Any]) -> dict[str, inspect.Signature]:
    """The methods a kit protocol declares (its own, not object's)."""
    out: dict[str, inspect.Signature] = {}
    for name, member in vars(protocol).items():
        if name.startswith("_") or not callable(member):
            continue
        out[name] = inspect.signature(member)
    return out


def protocol_attributes(protocol: type[Any]) -> list[str]:
    """What a kit protocol declares as data: its annotated fields and its properties."""
    declared = list(getattr(protocol, "__annotations__", {}))
    declared += [n for n, m in vars(protocol).items() if isinstance(m, property)]
    return [name for name in declared if not name.startswith("_")]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("part", sorted(PARTS))
def test_each_part_given_has_the_kit_protocols_methods(game: str, part: str) -> None:
    given = getattr(get_presentation(game), part)
    if given is None:
        return  # the kit's default stands in (checked by the kit's own tests)
    protocol = PARTS[part]
    for attribute in protocol_attributes(protocol):
        assert hasattr(given, attribute), f"{game}.{part} lacks {attribute}"
    for name, wanted in protocol_methods(protocol).items():
        method = getattr(given, name, None)
        assert callable(method), f"{game}.{part} lacks {name}()"
        have = inspect.signature(method)
        params = [p for p in wanted.parameters if p != "self"]
        assert [p for p in have.parameters if p != "self"][: len(params)] == params, (
            f"{game}.{part}.{name}{have} does not take {params}"
        )


def test_the_toy_duel_is_known_only_while_registered() -> None:
    assert TOY.name in all_rulesets()
    assert get_presentation(TOY.name).words  # its own catalogue, not the kit's empty default

"""A game's page parts: the :class:`Pages` protocol and the kit's defaults.

The web shell draws every page's frame (the header, the feed, the order forms, the console's
roster, tools and publishing) and asks the game's ``Pages`` for what only the game knows: its
board or map, its own numbers, how its orders read, its widgets, its console tables, its odds.
A part is a :class:`Part`: the name of a template partial in the game's package (found as
``"<game>/<name>.html"`` from ``Pages.templates``) and the plain data it shows, read by the
partial as ``part.data``. Every method here is the kit's default, so a game that overrides
nothing still gets plain pages: no parts, generic fields from its JSON schema, no odds.

Methods get ``t``, the page's translator: the shell's generic words and the game's own
catalogue (``page.*``, ``order.*``, ``phase.*``… keys), and ``lang`` for separators.

Also here, because a game's widgets are built from them: :class:`Field` (one input of a
generated form) and the JSON-schema helpers ``resolve`` and ``properties``.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.kit.words import Words, pick

JSON = dict[str, Any]
Translate = Callable[..., str]


@dataclass(frozen=True)
class Part:
    """One piece of a page a game draws: its template (``"<game>/<name>.html"``) and data."""

    template: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Field:
    """One input of a generated form, ready for the template."""

    name: str
    label: str
    kind: str  # number | select | checkbox | checkboxes | list | rows | text | textarea
    required: bool = False
    value: Any = None
    options: list[tuple[str, str]] = field(default_factory=list)
    minimum: float | None = None
    maximum: float | None = None
    step: str = "1"
    help: str = ""
    rule: str = ""
    count: int = 0  # list: how many inputs
    columns: list[Field] = field(default_factory=list)  # rows: the fields of one row


def resolve(schema: Mapping[str, Any], root: Mapping[str, Any]) -> dict[str, Any]:
    """Follow ``$ref`` and unwrap ``anyOf [T, null]`` (an optional T)."""
    node: dict[str, Any] = dict(schema)
    while "$ref" in node:
        name = str(node["$ref"]).rsplit("/", 1)[-1]
        merged = dict(root.get("$defs", {}).get(name, {}))
        merged.update({k: v for k, v in node.items() if k != "$ref"})
        node = merged
    options = node.get("anyOf")
    if isinstance(options, list):
        real = [o for o in options if o.get("type") != "null"]
        if len(real) == 1:
            inner = resolve(real[0], root)
            inner.update({k: v for k, v in node.items() if k != "anyOf"})
            inner["nullable"] = True
            return inner
    return node


def properties(
    schema: Mapping[str, Any], root: Mapping[str, Any]
) -> list[tuple[str, dict[str, Any], bool]]:
    """(name, resolved schema, required) of each property, in declaration order."""
    required = set(schema.get("required", []))
    return [
        (name, resolve(prop, root), name in required)
        for name, prop in schema.get("properties", {}).items()
    ]


def readable(raw: str, lang: str) -> str:
    """A raw identifier made readable ("first_strike" -> "First strike"), never left raw."""
    text = raw.replace("_", " ").strip()
    return text[:1].upper() + text[1:] if text else raw


def order_name(words: Words, order_type: str, lang: str) -> str:
    """An order's name: the game's ``order.<type>`` word, else its type made readable."""
    return pick(words, f"order.{order_type}", lang) or readable(order_type, lang)


def number(value: Any) -> Any:
    """15.0 reads as 15; 12.5 stays (one decimal at most: 4.333… reads 4.3)."""
    if isinstance(value, float):
        if value.is_integer():
            return int(value)
        return round(value, 1)
    return value


def number_text(value: Any) -> str:
    """A number as the pages print it: 15 (not 15.0), 12.5, 4.3 (one decimal at most)."""
    return str(number(value))


class _Lenient(string.Formatter):
    """A field an event did not carry reads as "?" rather than breaking the line."""

    def get_value(self, key: int | str, args: Any, kwargs: Any) -> Any:
        if isinstance(key, str):
            return kwargs.get(key, "?")
        return super().get_value(key, args, kwargs)


def fill(pair: tuple[str, str], lang: str, **fields: Any) -> str:
    """One of a (zh, en) pair with its fields filled; a field not given reads "?"."""
    return _Lenient().vformat(pair[1 if lang == "en" else 0], (), fields)


def cell(value: Any) -> str:
    """A grid cell as people write it: "(3,2)"."""
    if isinstance(value, list | tuple) and len(value) == 2:
        return f"({value[0]},{value[1]})"
    return "?" if value is None else str(value)


def join(values: Any, lang: str) -> str:
    """A list as a reader writes one: "4、7、8" in Chinese, "4, 7, 8" in English."""
    if not isinstance(values, list | tuple):
        return "?" if values is None else str(number(values))
    return ("、" if lang != "en" else ", ").join(str(number(v)) for v in values)


@dataclass
class Line:
    """An event as the feed turns it into a line (see :meth:`Pages.event_line`): its kind and
    data, the reader's language, the fields already filled (its plain values, ``side``,
    ``phase``, ``order``, ``detail``) and the shell's ways of naming what an event mentions."""

    kind: str
    data: Mapping[str, Any]
    lang: str
    fields: dict[str, Any]
    t: Translate
    words: Words
    names: Mapping[str, str]
    settings: Mapping[str, Any]
    sides: tuple[str, ...]
    name: Callable[[Any], str]  # a player's id -> their name
    who: Callable[[Any], str]  # players' ids -> their names, joined ("none" for none)
    side: Callable[[Any], str]
    order: Callable[[Any], str]  # an order type -> its name
    phase: Callable[[Any], str]

    @property
    def en(self) -> bool:
        return self.lang == "en"

    @property
    def sep(self) -> str:
        return ", " if self.en else "、"

    def word(self, key: str, **fields: Any) -> str | None:
        """The game's word ``key`` filled (a field not given reads "?"); None: it has none."""
        pair = self.words.get(key)
        return fill(pair, self.lang, **fields) if pair else None


@dataclass(frozen=True)
class NewGame:
    """What a game adds to the new-game form: parts above its settings (a scenario upload),
    whether its settings fold away, whether its advanced (nested) settings are offered."""

    parts: list[Part] = field(default_factory=list)
    settings_folded: bool = False
    advanced_settings: bool = True


class Pages:
    """A game's page parts. A game subclasses this in ``present/pages.py`` and overrides what
    it has; what it leaves alone is the kit's default (nothing game-specific is shown)."""

    # The game's template partials (``present/templates/pages``), found as "<game>/<name>".
    templates: Path | None = None
    # The sides players are put on ("A", "B"); empty: a game without sides.
    sides: tuple[str, ...] = ()
    # Numbers of the player's own view an instant action may change ("stamina"): the page
    # tells the player each that changed.
    action_numbers: tuple[str, ...] = ()
    # Director tools that cannot be undone: their forms ask for a confirmation.
    irreversible_tools: frozenset[str] = frozenset()

    # --- words ---------------------------------------------------------------------------
    def side_name(self, side: str | None, t: Translate) -> str:
        return side or ""

    def header_bits(self, view: Mapping[str, Any], t: Translate) -> list[str]:
        """Where the game stands before the phase ("Round 2", "Day 3")."""
        return []

    def phase_label(self, phase: str, t: Translate) -> str | None:
        """The header's word for a phase; None: the phase's name."""
        return None

    def time_window(self, view: Mapping[str, Any], clock: str) -> str | None:
        """A translator key for the part of the day the game is in at ``clock`` ("HH:MM")."""
        return None

    def you_play(self, you: Mapping[str, Any], t: Translate, name: str) -> str:
        """The player's line at the top of their page ("You are {name}")."""
        return t("you_play_plain", name=name)

    def own_orders_title(self, t: Translate) -> str:
        return t("your_orders_plain")

    def text_order_hint(self, t: Translate) -> str:
        return t("text_order_hint_plain")

    # --- page parts ----------------------------------------------------------------------
    def spectator_parts(self, page: Mapping[str, Any], t: Translate, lang: str) -> list[Part]:
        """What everyone sees of a started game (a board, a map, who is alive)."""
        return []

    def player_parts(self, page: Mapping[str, Any], t: Translate, lang: str) -> list[Part]:
        """What a player's page shows of a started game (default: what everyone sees)."""
        return self.spectator_parts(page, t, lang)

    def console_parts(self, page: Mapping[str, Any], t: Translate, lang: str) -> list[Part]:
        """The director's full view: the whole board or map and the game's tables."""
        return []

    def own_orders(self, page: Mapping[str, Any], t: Translate, lang: str) -> list[JSON]:
        """The player's orders still standing: id, type, name, body, status, note,
        changeable, revisable."""
        return []

    def alive(self, view: Mapping[str, Any]) -> bool:
        """Whether the viewing player still plays (a dead one gives no orders)."""
        return view.get("alive") is not False

    def ready(self, view: Mapping[str, Any]) -> bool | None:
        """Whether the player's side said it is ready; None: the game has no ready button."""
        return None

    def can_ready(self, view: Mapping[str, Any]) -> bool:
        return False

    # --- order forms ---------------------------------------------------------------------
    def order_tags(self, entry: Mapping[str, Any], t: Translate) -> list[str]:
        """Badges beside an order's name (public/hidden, tier, cost)."""
        return []

    def order_field(
        self,
        kind: str,
        name: str,
        prop: Mapping[str, Any],
        root: Mapping[str, Any],
        choices: Any,
        base: dict[str, Any],
        page: Mapping[str, Any],
        t: Translate,
        lang: str,
    ) -> Field | None:
        """A game's widget for one field of an order; None: the generic field."""
        return None

    # --- the feed ------------------------------------------------------------------------
    def event_line(self, line: Line) -> str | None:
        """Fill ``line.fields`` for one of the game's own events (what its ``event.<kind>``
        line in the catalogue names); the key of the line to use, None: the kind's own."""
        return None

    # --- the odds preview ----------------------------------------------------------------
    def has_odds(self, view: Mapping[str, Any]) -> bool:
        return False

    def odds(
        self,
        view: Mapping[str, Any],
        draft: list[JSON],
        rng: random.Random,
        rounds: int,
        replacing: str | None,
        t: Translate,
        lang: str,
    ) -> Part | None:
        """The odds of the order being drafted, as the part the shell's odds fragment draws;
        None: the game has no odds (the fragment's address answers 404)."""
        return None

    # --- the new-game form ---------------------------------------------------------------
    def new_game(self, t: Translate) -> NewGame:
        return NewGame()

    def example_scenario(self) -> str | None:
        """The scenario a new game uses when none is uploaded; None: none needed."""
        return None


DEFAULT_PAGES = Pages()

__all__ = [
    "DEFAULT_PAGES",
    "Field",
    "Line",
    "NewGame",
    "Pages",
    "Part",
    "Translate",
    "number",
    "number_text",
    "cell",
    "fill",
    "join",
    "order_name",
    "properties",
    "readable",
    "resolve",
]

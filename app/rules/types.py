"""Value types for every model at the boundary: settings, scenarios, orders, requests.

Text a person typed is shown to other people (names on a roster, titles, a director's
announcement), so it must not be able to hide anything: no NUL (PostgreSQL refuses it),
no control characters, no format characters (zero-width spaces, bidi overrides) that
make one string look like another. Numbers are finite and bounded, so no value accepted
here can overflow a date or a counter later.

Pure: rulesets import these too.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field

# Unicode general categories refused anywhere: control, format (zero-width, bidi marks
# and overrides), surrogates, private use, unassigned.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
# Line breaks and tabs are allowed in multi-line text only.
_MULTILINE_ALLOWED = frozenset({"\n", "\t"})

# Limits shared by both databases (PostgreSQL and SQLite must refuse the same inputs).
MAX_NAME_LENGTH = 100
MAX_TITLE_LENGTH = 200
MAX_ID_LENGTH = 64
MAX_TEXT_LENGTH = 20_000
MAX_DURATION_SECONDS = 30 * 24 * 3600  # a deadline, grace period or extension: 30 days


def refused_character(value: str, multiline: bool = False) -> str | None:
    """The first character ``value`` may not contain, or None."""
    for char in value:
        if multiline and char in _MULTILINE_ALLOWED:
            continue
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            return char
    return None


def _check_line(value: str) -> str:
    bad = refused_character(value)
    if bad is not None:
        raise ValueError(f"contains a control or invisible character (U+{ord(bad):04X})")
    return value


def _check_text(value: str) -> str:
    bad = refused_character(value, multiline=True)
    if bad is not None:
        raise ValueError(f"contains a control or invisible character (U+{ord(bad):04X})")
    return value


def normalize_name(value: str) -> str:
    """A person's or thing's name as stored and compared: NFKC, trimmed, inner runs of
    whitespace made one space; refused if empty or hiding characters."""
    name = " ".join(unicodedata.normalize("NFKC", value).split())
    _check_line(name)
    if not name:
        raise ValueError("must not be empty or blank")
    return name


# One line of visible text (titles, labels, ids). Length limits are set per use.
Line = Annotated[str, AfterValidator(_check_line)]
# Free text over several lines (an announcement, a scenario's story text).
Text = Annotated[str, Field(max_length=MAX_TEXT_LENGTH), AfterValidator(_check_text)]
# A player's (or item's, monster's) name: normalised, so look-alikes are the same name.
Name = Annotated[str, Field(max_length=MAX_NAME_LENGTH), AfterValidator(normalize_name)]
Title = Annotated[str, Field(max_length=MAX_TITLE_LENGTH), AfterValidator(_check_line)]
Identifier = Annotated[
    str, Field(min_length=1, max_length=MAX_ID_LENGTH), AfterValidator(_check_line)
]
# A duration in seconds that a date can always hold.
Seconds = Annotated[float, Field(ge=0, le=MAX_DURATION_SECONDS, allow_inf_nan=False)]
WholeSeconds = Annotated[int, Field(ge=0, le=MAX_DURATION_SECONDS)]
# A finite game number (morale, stamina, counts) a director may set.
GameNumber = Annotated[int, Field(ge=-1_000_000, le=1_000_000)]

"""Words: a catalogue maps a key to its (Chinese, English) text, ``str.format`` fields allowed.

Each game has one catalogue (``app.rules.<game>.words.WORDS``); the shell's generic words live
in the shell's own catalogue. Keys in a game's catalogue are namespaced by what they name:

- ``order.<type>``    an order's name          - ``phase.<phase>``   a phase's name
- ``event.<kind>``    an event's name          - ``setting.<field>`` a setting's label
- ``line.<kind>``     an event's line in a feed or post (``str.format`` fields from its data)
- ``tool.<action>``   a director tool's name   - ``error.<code>``    a refusal's message
- ``field.<name>``    an order field's label   - ``order.<type>.<value>`` a choice's name
- ``page.<...>``      words of its page parts  - ``post.<...>``      words of its posts
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Words = Mapping[str, tuple[str, str]]


def pick(words: Words, key: str, lang: str, **fields: Any) -> str | None:
    """The text of ``key`` in ``lang`` (``"en"`` or Chinese), filled; None when missing."""
    entry = words.get(key)
    if entry is None:
        return None
    text = entry[1] if lang == "en" else entry[0]
    return text.format(**fields) if fields else text

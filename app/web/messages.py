"""Every string a player reads on the pages: one catalogue, Chinese first, English too.

Templates call ``t("key", **fields)``: the shell's words (:mod:`app.web.words`), then the
game's catalogue; event lines in the feeds come from :func:`app.web.lines.describe_event`.
Rule-engine refusals already carry both languages
(``message_zh`` / ``message_en``) and are shown as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.errors import prefers_english
from app.kit.pages import DEFAULT_PAGES, Pages, readable
from app.kit.pages import order_name as kit_order_name
from app.kit.words import Words
from app.kit.words import pick as kit_pick
from app.rules.registry import all_rulesets, get_presentation
from app.web.words import CHANNEL_HELP, CHANNEL_KINDS, CONFIG_LABELS, POST_KINDS, UI

__all__ = ["CHANNEL_HELP", "CHANNEL_KINDS", "CONFIG_LABELS", "POST_KINDS", "UI"]

LANGS = ("zh", "en")
LANG_COOKIE = "fp_lang"

Translate = Callable[..., str]


def choose_language(cookie: str | None, accept_language: str | None) -> str:
    if cookie in LANGS:
        return str(cookie)
    return "en" if prefers_english(accept_language) else "zh"


def translator(lang: str, words: Words | None = None) -> Translate:
    """The page's words: the shell's generic catalogue, then the game's (``words``): the key
    itself, else its page word (a field the shell labels, "stamina", is ``page.stamina``)."""
    index = 1 if lang == "en" else 0

    def t(key: str, **fields: Any) -> str:
        pair = UI.get(key)
        if pair is None and words is not None:
            pair = words.get(key) or words.get(f"page.{key}")
        if pair is None:
            return key
        return pair[index].format(**fields) if fields else pair[index]

    return t


def game_words(ruleset: str) -> Words:
    """The game's one catalogue (empty for an unknown game)."""
    return get_presentation(ruleset).words


def game_pages(ruleset: str) -> Pages:
    """The game's page parts; the kit's plain defaults when it has none."""
    return get_presentation(ruleset).pages or DEFAULT_PAGES


def game_translator(lang: str, ruleset: str) -> Translate:
    return translator(lang, game_words(ruleset))


def pick(lang: str, zh: str | None, en: str | None) -> str:
    """One of a pair of texts the engine gave (a refusal, a report line)."""
    return (en if lang == "en" else zh) or zh or en or ""


def order_name(ruleset: str, order_type: str, lang: str) -> str:
    return kit_order_name(game_words(ruleset), order_type, lang)


def game_word(ruleset: str, key: str, lang: str, **fields: Any) -> str | None:
    """A word of the game's catalogue; without a game (a report that does not say whose),
    of the first game that has it."""
    for name in [ruleset] if ruleset else list(all_rulesets()):
        said = kit_pick(game_words(name), key, lang, **fields)
        if said is not None:
            return said
    return None


def phase_name(ruleset: str, phase: str, lang: str) -> str:
    """A phase's name: the game's ``phase.<phase>`` word, else the phase made readable."""
    return game_word(ruleset, f"phase.{phase}", lang) or readable(phase, lang)


def tool_name(ruleset: str, action: str, lang: str) -> str:
    """A director tool's name: the game's ``tool.<action>``, else the action made readable."""
    return game_word(ruleset, f"tool.{action}", lang) or readable(action, lang)


def setting_label(ruleset: str, name: str, lang: str) -> str:
    """A setting's label on the new-game form: the game's ``setting.<field>``, else its name."""
    return game_word(ruleset, f"setting.{name}", lang) or name


def game_title(ruleset: str, lang: str) -> str:
    """A game type's name ("团战"): its ``page.title`` word, else its name made readable."""
    return kit_pick(game_words(ruleset), "page.title", lang) or readable(ruleset, lang)


def side_name(side: str | None, lang: str, ruleset: str) -> str:
    return game_pages(ruleset).side_name(side, game_translator(lang, ruleset))


# --- event lines ------------------------------------------------------------------------

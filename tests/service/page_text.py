"""The visible-text checker of the page matrix (issue 16): what a person reads on a page.

``problems(html, lang, ids=...)`` lists what must never reach a reader: Python's ``None``,
dict reprs, Python lists, whole numbers printed as floats ("15.0"), a header repeating itself ("Day 2 · Day"), unfilled ``{placeholder}`` fields, the games' raw codes (event
kinds, order types, setting names, status and phase codes: built from the code below, not
by hand), internal ids, and on a Chinese page any Latin word that is not a rule ID or a
proper name of the allowlist.

Visible text: text nodes outside ``<script>``, ``<style>``, ``<template>`` and outside any
element with ``translate="no"`` (the project's marker for user data and machine text a
person copies: tokens, hashes, URLs, post source), plus the attributes a reader sees
(``placeholder``, ``title``, ``aria-label``, ``alt``, and the ``value`` of a submit or
button input).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

VOID = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr",
}  # fmt: skip
SKIPPED_TAGS = {"script", "style", "template"}
SEEN_ATTRIBUTES = ("placeholder", "title", "aria-label", "alt")

# Latin words a Chinese page may show: proper names, standards and units. One reason each.
ALLOWED_LATIN: dict[str, str] = {
    "BBCode": "the forum markup's own name",
    "Markdown": "the markup's own name",
    "Misago": "a forum software's name",
    "Discourse": "a forum software's name",
    "Discord": "a chat service's name",
    "Telegram": "a chat service's name",
    "QQ": "a chat service's name",
    "Webhook": "the delivery mechanism's name, untranslated in Chinese software",
    "Webhooks": "the same, as Discord's settings menu names it",
    "webhook": "the same, lower case as the channel settings write it",
    "UTC": "the time standard",
    "PK": "how Chinese forum games name a duel",
    "SHA-256": "the hash standard's name",
    "JSON": "a data format's name",
    "YAML": "the scenario file format's name",
    "API": "the service's programming interface, untranslated in Chinese software",
    "HTTP": "the protocol's name",
    "HTTPS": "the protocol's name",
    "URL": "a web address, untranslated in Chinese software",
    "English": "the language switch offers English in English",
    "OneBot": "the QQ bot protocol's name",
    "NapCat": "a OneBot implementation's name",
    "LLOneBot": "a OneBot implementation's name",
    "BotFather": "Telegram's bot for making bots, by its name",
    "NGA": "a Chinese forum's name",
    "S1": "a Chinese forum's name (Stage1)",
    "Discuz": "a forum software's name",
    "phpBB": "a forum software's name",
    "POST": "the HTTP method, as the receiving service's documentation writes it",
    "forumplay": "the project's own name",
}
# Names of more than one word, and versions of a named protocol ("OneBot v11").
ALLOWED_PHRASES: dict[str, str] = {
    "Standard Webhooks": "the signing specification's name",
}
VERSION = re.compile(r"\bv\d+(?:\.\d+)*\b")
# TB-12, IS-3, TB-2a: rule IDs are always fine.
RULE_ID = re.compile(r"\b(?:TB|IS)-\d+[a-z]?\b")
# Asia/Shanghai, America/New_York: time zone names are typed as they are (IANA), not translated.
TIMEZONE = re.compile(r"\b[A-Z][a-z]+(?:/[A-Z][A-Za-z_]+)+\b")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:['_-][A-Za-z0-9]+)*")

NONE = re.compile(r"(?<![A-Za-z0-9_])None(?![A-Za-z0-9_])")
# "15 → 15.0": a whole number printed as Python prints a float (not "v1.0", not "1.0.2";
# a percentage with one fixed decimal, "100.0%" beside "37.5%", is a format, not a repr)
# An English label followed by a Chinese full-width colon ("Forum name：").
EN_FULLWIDTH_COLON = re.compile(r"[A-Za-z)][ ]?：")
FLOAT_REPR = re.compile(r"(?<![\w.])\d+\.0(?![\w.%])")
DICT_REPR = re.compile(r"\{\s*(?:'[^']*'|\"[^\"]*\")\s*:|\{\}")
PY_LIST = re.compile(
    r"\[\s*(?:-?\d+(?:\.\d+)?|'[^']*'|\"[^\"]*\")\s*(?:,\s*(?:-?\d+(?:\.\d+)?|'[^']*'|\"[^\"]*\")\s*)+\]"
    r"|\[\s*(?:'[^']*'|\"[^\"]*\")\s*\]|\[\]"
)
PLACEHOLDER = re.compile(r"\{\s*[A-Za-z_][A-Za-z0-9_.]*\s*(?:![rsa])?(?::[^{}]*)?\}")
WORD = re.compile(r"[A-Za-z0-9_]+")
SEPARATOR = " · "  # how headers and titles join their parts: "第 1 天 · 白天"


def _repeated_part(chunk: str) -> str | None:
    """ "论坛戏 · 论坛戏", "Day 2 · Day": a part that repeats another (or its first word)."""
    parts = [p.strip() for p in chunk.split(SEPARATOR.strip())]
    parts = [p for p in parts if p]
    for i, one in enumerate(parts):
        for other in parts[i + 1 :]:
            if one == other:
                return one
            for a, b in ((one, other), (other, one)):
                if " " in a and " " not in b and a.split(" ")[0] == b and b.isalpha():
                    return b
    return None


# --- the visible text ------------------------------------------------------------------------
class _Visible(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []  # (tag, hides its content)
        self.chunks: list[str] = []

    @property
    def hidden(self) -> bool:
        return any(hides for _, hides in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k.lower(): (v or "") for k, v in attrs}
        hides = tag in SKIPPED_TAGS or found.get("translate", "").lower() == "no"
        if not self.hidden and not hides:
            for name in SEEN_ATTRIBUTES:
                if found.get(name, "").strip():
                    self.chunks.append(found[name])
            if tag == "input" and found.get("type", "").lower() in ("submit", "button"):
                if found.get("value", "").strip():
                    self.chunks.append(found["value"])
        if tag not in VOID:
            self.stack.append((tag, hides))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if not self.hidden and data.strip():
            self.chunks.append(data)


def visible_chunks(html: str) -> list[str]:
    """The pieces of text a reader sees, each whitespace-collapsed."""
    parser = _Visible()
    parser.feed(html)
    parser.close()
    return [" ".join(c.split()) for c in parser.chunks]


def visible_text(html: str) -> str:
    return "\n".join(visible_chunks(html))


# --- the games' raw codes, from the code --------------------------------------------------
def _schema_words(schema: Any, into: set[str]) -> None:
    """Every enum/const value and property name of a JSON schema."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "const" and isinstance(value, str):
                into.add(value)
            elif key == "enum" and isinstance(value, list):
                into.update(v for v in value if isinstance(v, str))
            elif key == "properties" and isinstance(value, dict):
                into.update(value)
                _schema_words(value, into)
            else:
                _schema_words(value, into)
    elif isinstance(schema, list):
        for item in schema:
            _schema_words(item, into)


# Where the engines and services name their codes in source: emit("moved"…), kind="…",
# audit(…, "approve_post", …), status/phase comparisons.
_SOURCE_CODES = (
    re.compile(r"\bemit\(\s*\"([a-z][a-z0-9_]*)\""),
    re.compile(r"\bkind\s*(?:==|=|:)\s*\"([a-z][a-z0-9_]*)\""),
    re.compile(r"\"kind\"\s*:\s*\"([a-z][a-z0-9_]*)\""),
    re.compile(r"\baudit\([^()\"]*\"([a-z][a-z0-9_]*)\""),
    re.compile(
        r"\b(?:status|phase|action|type|verb|outcome|result)\s*(?:==|=)\s*\"([a-z][a-z0-9_]*)\""
    ),
    re.compile(r"\"(?:status|phase|action|type|outcome|result)\"\s*:\s*\"([a-z][a-z0-9_]*)\""),
)


@functools.cache
def game_codes() -> frozenset[str]:
    """The raw codes a page must never show as words."""
    from app.rules.registry import all_rulesets
    from app.web import messages
    from app.web.words.events import EVENTS

    codes: set[str] = set(EVENTS)
    for ruleset in all_rulesets().values():
        codes.add(ruleset.name)
        words = messages.game_words(ruleset.name)
        codes |= {k.split(".")[1] for k in words if k.startswith("event.")}
        for model in (
            ruleset.settings_model,
            ruleset.view_model,
            ruleset.order_model.model,
            ruleset.director_action_model.model,
        ):
            schema_of = getattr(model, "model_json_schema", None)
            if schema_of is not None:
                _schema_words(schema_of(), codes)
    for folder in ("app/rules", "app/services", "app/publish", "app/scheduler.py"):
        base = ROOT / folder
        files = [base] if base.is_file() else base.rglob("*.py")
        for path in files:
            source = path.read_text(encoding="utf-8")
            for pattern in _SOURCE_CODES:
                codes.update(pattern.findall(source))
    # A code of one or two characters ("A", "B", "up") is not told apart from text here;
    # the Chinese pages' Latin-word rule still reports it.
    return frozenset(c for c in codes if len(c) > 2)


def _is_code_word(code: str, lang: str) -> bool:
    """A one-word code ("scout", "move") is also a plain English word: only codes that no
    sentence writes (snake_case, digits) are reported as codes; on a Chinese page the
    Latin-word rule reports the others (naming them as codes too)."""
    return "_" in code or any(ch.isdigit() for ch in code)


# --- the checks --------------------------------------------------------------------------------
def _snippet(text: str, start: int, end: int, width: int = 30) -> str:
    left = max(0, start - width)
    right = min(len(text), end + width)
    return ("…" if left else "") + text[left:right] + ("…" if right < len(text) else "")


def _hits(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    return pattern.finditer(text)


def problems(html: str, lang: str, ids: Iterable[str] = ()) -> list[str]:
    """What a reader must not see on this page, each with the text around it."""
    found: list[str] = []
    seen: set[str] = set()

    def report(what: str, chunk: str, match: re.Match[str]) -> None:
        line = f"{what} {match.group(0)!r}: {_snippet(chunk, match.start(), match.end())!r}"
        if line not in seen:
            seen.add(line)
            found.append(line)

    codes = game_codes()
    id_set = {i for i in ids if i and len(i) >= 6}
    id_pattern = (
        re.compile("|".join(re.escape(i) for i in sorted(id_set, key=len, reverse=True)))
        if id_set
        else None
    )
    for chunk in visible_chunks(html):
        for m in _hits(NONE, chunk):
            report("None:", chunk, m)
        # headers and titles only: a long text (a post's receipts) lists many "第1回合·统御阶段 · A方"
        repeated = _repeated_part(chunk) if "·" in chunk and len(chunk) <= 60 else None
        if repeated is not None:
            line = f"a repeated part {repeated!r}: {chunk[:80]!r}"
            if line not in seen:
                seen.add(line)
                found.append(line)
        for m in _hits(FLOAT_REPR, chunk):
            report("a whole number as a float:", chunk, m)
        for m in _hits(DICT_REPR, chunk):
            report("dict repr:", chunk, m)
        for m in _hits(PY_LIST, chunk):
            report("Python list:", chunk, m)
        for m in _hits(PLACEHOLDER, chunk):
            report("unfilled placeholder:", chunk, m)
        if id_pattern is not None:
            for m in _hits(id_pattern, chunk):
                report("internal id:", chunk, m)
        code_spans: list[tuple[int, int]] = []
        for m in _hits(WORD, chunk):
            if m.group(0) in codes and _is_code_word(m.group(0), lang):
                report("raw code:", chunk, m)
                code_spans.append(m.span())
        if lang == "en":
            for m in _hits(EN_FULLWIDTH_COLON, chunk):
                report("a Chinese colon in English:", chunk, m)
        if lang == "zh":
            cleaned = RULE_ID.sub(lambda r: " " * len(r.group(0)), chunk)
            # a placeholder's field name is reported as the placeholder, not as English
            cleaned = PLACEHOLDER.sub(lambda r: " " * len(r.group(0)), cleaned)
            cleaned = TIMEZONE.sub(lambda r: " " * len(r.group(0)), cleaned)
            cleaned = VERSION.sub(lambda r: " " * len(r.group(0)), cleaned)
            for phrase in ALLOWED_PHRASES:
                cleaned = cleaned.replace(phrase, " " * len(phrase))
            if id_pattern is not None:
                cleaned = id_pattern.sub(lambda r: " " * len(r.group(0)), cleaned)
            words = [
                m
                for m in _hits(LATIN_WORD, cleaned)
                if m.group(0) not in ALLOWED_LATIN
                and m.group(0) != "None"
                and not any(s <= m.start() < e for s, e in code_spans)  # reported as a code
            ]
            if words:  # one line per piece of text, naming its words
                named = " ".join(dict.fromkeys(m.group(0) for m in words))
                # a lone word that is a code ("探索结果：food。") is named as one; in a
                # sentence, "player" or "story" is just English
                coded = [m.group(0) for m in words if m.group(0) in codes and len(words) == 1]
                what = "English on a Chinese page"
                if coded:
                    what += f" (raw codes: {' '.join(dict.fromkeys(coded))})"
                line = f"{what}: {named!r}: {_snippet(chunk, words[0].start(), words[-1].end())!r}"
                if line not in seen:
                    seen.add(line)
                    found.append(line)
    return found

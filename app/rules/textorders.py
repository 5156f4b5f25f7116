"""Orders in words: the pieces both games' grammars share. Pure.

Each ruleset owns a grammar (a ``.lark`` file in its package, shipped as package data)
that reads normalised text into a parse tree, and a ``text.py`` that turns the tree into
the order bodies ``POST /orders`` takes. What they share lives here:

- the words (:mod:`app.rules.textnames`, re-exported here): :func:`normalize`,
  :func:`to_int`, and :class:`Lookup` for the names a text may give;
- :class:`TextGrammar`: compiles a grammar once per vocabulary (a game's names add
  terminals), reads a text sentence by sentence, and explains what it cannot read by
  naming the words;
- :func:`not_understood`: the 422 problem, ``unknown`` words and name ``candidates``.

Parsing reads text only; the rules are checked when an order is submitted.
"""

from __future__ import annotations

import re
import threading
import unicodedata
import weakref
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput
from lark.load_grammar import FromPackageLoader
from pydantic import Field

from app.rules.base import JSON, RuleViolation
from app.rules.textnames import (
    AMBIGUITY_MARGIN,
    CANDIDATE_FLOOR,
    FUZZY_MATCH_THRESHOLD,
    MAX_CANDIDATES,
    NEVER,
    Guess,
    Lookup,
    Normalized,
    chinese_number,
    normalize,
    pinyin_of,
    similarity,
    squash,
    to_int,
)
from app.rules.types import Text

# Longer texts are refused before parsing: a post of orders is a few lines, and reading
# costs time (Earley is cubic at worst), so what one text may ask for is bounded.
MAX_TEXT_CHARS = 400
# Each sentence (up to a new line, ; 。 ! ?) is read on its own: no order spans one, which
# keeps reading fast and errors local. A sentence may hold several orders.
MAX_SENTENCE_CHARS = 60
MAX_SENTENCES = 12
# A text order as it arrives: visible text, a few lines at most.
OrderText = Annotated[Text, Field(min_length=1, max_length=MAX_TEXT_CHARS)]


# --- the problem: words not understood -----------------------------------------------------
@dataclass(slots=True)
class Problems:
    """What a text could not be read as: words, and names that fit no one (or several)."""

    unknown: list[str] = field(default_factory=list)
    candidates: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    incomplete: list[str] = field(default_factory=list)
    reasons: dict[str, tuple[str, str]] = field(default_factory=dict)

    def word(self, text: str) -> None:
        if text and text not in self.unknown:
            self.unknown.append(text)

    def guess(self, guess: Guess) -> None:
        self.word(guess.word)
        self.candidates[guess.word] = [{"id": c.id, "name": c.name} for c in guess.candidates]

    def partial(self, text: str) -> None:
        self.word(text)
        if text not in self.incomplete:
            self.incomplete.append(text)

    def explain(self, text: str, zh: str, en: str) -> None:
        """``text`` was read, but says too little (which PK? which monster?)."""
        self.word(text)
        self.reasons[text] = (zh, en)

    def __bool__(self) -> bool:
        return bool(self.unknown)

    def violation(self) -> RuleViolation:
        return not_understood(self.unknown, self.candidates, self.incomplete, self.reasons)


def not_understood(
    unknown: Sequence[str],
    candidates: Mapping[str, Sequence[Mapping[str, str]]] | None = None,
    incomplete: Sequence[str] = (),
    reasons: Mapping[str, tuple[str, str]] | None = None,
) -> RuleViolation:
    """422 ``not_understood``: ``unknown`` lists the words (as the player wrote them),
    ``candidates`` who or what each unclear name might be."""
    candidates = candidates or {}
    reasons = reasons or {}
    parts_zh: list[str] = []
    parts_en: list[str] = []
    plain = [w for w in unknown if w not in candidates and w not in incomplete and w not in reasons]
    if plain:
        parts_zh.append("看不懂：" + "、".join(f"「{w}」" for w in plain) + "。")
        parts_en.append("Could not understand: " + ", ".join(f'"{w}"' for w in plain) + ".")
    for w in incomplete:
        parts_zh.append(f"「{w}」不是完整的指令。")
        parts_en.append(f'"{w}" is not a complete order.')
    for w, (zh, en) in reasons.items():
        parts_zh.append(f"「{w}」：{zh}")
        parts_en.append(f'"{w}": {en}')
    for w, options in candidates.items():
        names_zh = "、".join(o["name"] for o in options)
        names_en = ", ".join(o["name"] for o in options)
        if options:
            parts_zh.append(f"「{w}」指的是谁/什么？可能是：{names_zh}。")
            parts_en.append(f'Which one is "{w}"? Perhaps: {names_en}.')
        else:
            parts_zh.append(f"找不到「{w}」。")
            parts_en.append(f'No one and nothing here is called "{w}".')
    if not parts_zh:
        parts_zh.append("没有读到任何指令。")
        parts_en.append("No order found in the text.")
    return RuleViolation(
        "not_understood",
        None,
        "".join(parts_zh),
        " ".join(parts_en),
        status=422,
        extra={"unknown": list(unknown), "candidates": {k: list(v) for k, v in candidates.items()}},
    )


def too_long() -> RuleViolation:
    return RuleViolation(
        "text_too_long",
        None,
        f"文字太长了（最多{MAX_TEXT_CHARS}个字、{MAX_SENTENCES}句）。",
        f"The text is too long (at most {MAX_TEXT_CHARS} characters, {MAX_SENTENCES} sentences).",
        status=422,
    )


# --- grammars ------------------------------------------------------------------------------
# Terminals that do not make a word "understood": a guessed name (textorders.lark) matches
# almost anything.
_SOFT_TERMINALS = ("GUESS",)


class TextGrammar:
    """One ruleset's grammar: its ``.lark`` file plus terminals for a game's vocabulary
    (``extra`` maps a terminal name to a regular expression), compiled once per
    vocabulary and kept for the next text."""

    def __init__(self, package: str, filename: str, cache_size: int = 32) -> None:
        self._package = package
        self._filename = filename
        self._cache: OrderedDict[str, Lark] = OrderedDict()
        self._cache_size = cache_size
        # The shell may read texts in worker threads; one compiles, the others wait.
        self._lock = threading.Lock()

    @property
    def source(self) -> str:
        return _read(self._package, self._filename)

    def parser(self, extra: Mapping[str, str] | None = None) -> Lark:
        lines = [f"{name}: /{_lark_regex(rx)}/" for name, rx in sorted((extra or {}).items())]
        key = "\n".join(lines)
        with self._lock:
            found = self._cache.get(key)
            if found is not None:
                self._cache.move_to_end(key)
                return found
            return self._compile(key)

    def _compile(self, key: str) -> Lark:
        grammar = self.source + "\n" + key + "\n"
        parser = Lark(
            grammar,
            parser="earley",
            # Every length of every word is tried: "4个兵力" is 4 + 个 + 兵力, though 个兵
            # is a word too.
            lexer="dynamic_complete",
            ambiguity="resolve",
            propagate_positions=True,
            import_paths=[FromPackageLoader("app.rules", ("",))],
        )
        self._cache[key] = parser
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return parser

    def read(
        self, text: Normalized, problems: Problems, extra: Mapping[str, str] | None = None
    ) -> list[tuple[Normalized, Tree[Token]]]:
        """Each sentence of ``text`` with its parse tree; what cannot be read goes into
        ``problems`` (the words, or the unfinished order) and the rest is still read, so
        one answer names every problem."""
        parser = self.parser(extra)
        read: list[tuple[Normalized, Tree[Token]]] = []
        parts = sentences(text)
        if len(parts) > MAX_SENTENCES:
            raise too_long()
        for sentence in parts:
            if len(sentence.text) > MAX_SENTENCE_CHARS:
                start = sentence.source(0, 12) + "…"
                problems.explain(
                    start,
                    f"这一句太长了（最多{MAX_SENTENCE_CHARS}个字），请分句或分行写。",
                    f"This sentence is too long (at most {MAX_SENTENCE_CHARS} characters): "
                    "split it with new lines or semicolons.",
                )
                continue
            try:
                tree = parser.parse(sentence.text)
            except UnexpectedInput as error:
                explain(parser, sentence, error, problems)
                continue
            if not _split_names(tree, sentence, extra or {}, problems):
                read.append((sentence, tree))
        if not read and not problems:
            raise not_understood([])
        return read


def sentences(text: Normalized) -> list[Normalized]:
    """The text cut at its strong breaks (new lines, ; 。 ! ?), blank pieces left out."""
    out: list[Normalized] = []
    start = 0
    for match in _SENTENCE_END.finditer(text.text):
        out.append(text.slice(start, match.start()))
        start = match.end()
    out.append(text.slice(start, len(text.text)))
    return [s for s in out if s.text.strip(" ,、")]


_SENTENCE_END = re.compile(r"[\n;。!?]+")


def _split_names(
    tree: Tree[Token], text: Normalized, extra: Mapping[str, str], problems: Problems
) -> bool:
    """A reading that guesses two names out of one real name ("给李四" as 给 + 李 + 四) has
    cut a word in half: the order is unfinished, not two strangers."""
    guesses = [(t.start_pos or 0, t.end_pos or 0) for t in tokens(tree) if t.type == "GUESS"]
    if not guesses:
        return False
    for rx in extra.values():
        for match in re.finditer(rx, text.text):
            start, end = match.span()
            inside = [g for g in guesses if g[0] < end and start < g[1]]
            if inside and not any(g[0] <= start and end <= g[1] for g in inside):
                problems.partial(text.source(*_clause_around(text.text, start)))
                return True
    return False


def _read(package: str, filename: str) -> str:
    from importlib.resources import files

    return files(package).joinpath(filename).read_text(encoding="utf-8")


def _lark_regex(rx: str) -> str:
    return rx.replace("/", "\\/")


# What ends a clause when a sentence is explained piece by piece.
_CLAUSE_END = re.compile(r"[,、]|然后|并且|and then|then")


def explain(parser: Lark, text: Normalized, error: UnexpectedInput, problems: Problems) -> None:
    """Which words of a sentence that does not parse were not understood: the runs of
    characters no word of the grammar covers; failing that, the clause where reading
    stopped (an unfinished order, such as "调兵 3号位")."""
    unknown = uncovered(parser, text.text)
    for start, end in unknown:
        problems.word(text.source(start, end))
    if unknown:
        return
    at = len(text.text)
    if isinstance(error, UnexpectedCharacters) and error.pos_in_stream is not None:
        at = error.pos_in_stream
    start, end = _clause_around(text.text, at)
    problems.partial(text.source(start, end) or text.source(0, len(text.text)))


def _clause_around(text: str, at: int) -> tuple[int, int]:
    bounds = [(m.start(), m.end()) for m in _CLAUSE_END.finditer(text)]
    start, end = 0, len(text)
    for b_start, b_end in bounds:
        if b_end <= at and b_start < at:
            start = b_end
        elif b_start >= at and b_start > start:
            end = b_start
            break
    if start >= end:  # the error is at a separator: the clause before it
        end = start
        start = max((b_end for _, b_end in bounds if b_end < end), default=0)
    return start, end


def uncovered(parser: Lark, text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` that no terminal of the grammar matches (guesses aside): the words
    it does not know. Scans like a reader, longest known word first; a one-character word
    glued to unknown text ("吧" in "吧啦吧啦") is taken as part of it."""
    scanner = _scanner(parser)
    pieces: list[list[Any]] = []  # [start, end, known]
    i = 0
    while i < len(text):
        if text[i] == " ":
            i += 1
            continue
        best = max(
            (_word_end(text, m) - i for rx in scanner if (m := rx.match(text, i))), default=0
        )
        pieces.append([i, i + max(best, 1), best > 0])
        i += max(best, 1)
    changed = True
    while changed:
        changed = False
        for n, (start, end, known) in enumerate(pieces):
            if not known or end - start != 1 or not _is_word_char(text[start]):
                continue
            neighbours = [pieces[m] for m in (n - 1, n + 1) if 0 <= m < len(pieces)]
            if any(not p[2] and (p[1] == start or p[0] == end) for p in neighbours):
                pieces[n][2] = False
                changed = True
    spans: list[tuple[int, int]] = []
    for start, end, known in pieces:
        if known:
            continue
        if spans and spans[-1][1] == start:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def _word_end(text: str, match: re.Match[str]) -> int:
    """Where a match ends, or where it started if it stops inside a Latin word ("at" is
    not a word of "attack")."""
    end = match.end()
    inside = 0 < end < len(text) and text[end - 1].isascii() and text[end - 1].isalpha()
    if inside and text[end].isascii() and text[end].isalpha():
        return match.start()
    return end


def _is_word_char(char: str) -> bool:
    return unicodedata.category(char).startswith("L")


# One word list per compiled grammar, gone with it (a grammar may leave the cache).
_SCANNERS: weakref.WeakKeyDictionary[Lark, list[re.Pattern[str]]] = weakref.WeakKeyDictionary()
_SCANNERS_LOCK = threading.Lock()


def _scanner(parser: Lark) -> list[re.Pattern[str]]:
    with _SCANNERS_LOCK:
        found = _SCANNERS.get(parser)
        if found is None:
            found = [
                re.compile(t.pattern.to_regexp())
                for t in parser.terminals
                if t.name not in _SOFT_TERMINALS and t.pattern.max_width > 0
            ]
            _SCANNERS[parser] = found
        return found


# --- trees -> bodies --------------------------------------------------------------------------
def tokens(tree: Tree[Token] | Token) -> list[Token]:
    """Every token under ``tree``, in text order."""
    if isinstance(tree, Token):
        return [tree]
    return list(tree.scan_values(lambda v: isinstance(v, Token)))


def first(tree: Tree[Token], *types: str) -> Token | None:
    for token in tokens(tree):
        if token.type in types:
            return token
    return None


def subtrees(tree: Tree[Token], name: str) -> list[Tree[Token]]:
    """Direct and nested subtrees called ``name`` (not descending into matches)."""
    found: list[Tree[Token]] = []
    for child in tree.children:
        if isinstance(child, Tree):
            if child.data == name:
                found.append(child)
            else:
                found.extend(subtrees(child, name))
    return found


def number(tree: Tree[Token] | Token) -> int:
    token = tree if isinstance(tree, Token) else first(tree, "NUM", "CN_NUM", "EN_NUM")
    assert token is not None
    return to_int(str(token))


def drop_defaults(body: JSON, defaults: Mapping[str, Mapping[str, Any]]) -> JSON:
    """Optional fields at their default left out: "left out" and "given the default" are
    the same order (API.md), so both read back the same."""
    fields = defaults.get(str(body.get("type")), {})
    return {k: v for k, v in body.items() if not (k in fields and fields[k] == v)}


def merge_adjacent(orders: list[JSON], kind: str, key: str) -> list[JSON]:
    """Orders of ``kind`` written as several pieces become one (their ``key`` lists joined,
    in order): "调兵 3→2 4人；2→1 3人" is one Dispatch of two moves."""
    out: list[JSON] = []
    for order in orders:
        if order.get("type") == kind and out and out[-1].get("type") == kind:
            out[-1] = {**out[-1], key: [*out[-1][key], *order[key]]}
        else:
            out.append(order)
    return out


def join_echo(pieces: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """Several orders' echoes as one line each language."""
    return "；".join(zh for zh, _ in pieces), "; ".join(en for _, en in pieces)


__all__ = [
    "AMBIGUITY_MARGIN",
    "CANDIDATE_FLOOR",
    "FUZZY_MATCH_THRESHOLD",
    "MAX_CANDIDATES",
    "MAX_SENTENCES",
    "MAX_SENTENCE_CHARS",
    "MAX_TEXT_CHARS",
    "NEVER",
    "Guess",
    "Lookup",
    "Normalized",
    "OrderText",
    "Problems",
    "TextGrammar",
    "chinese_number",
    "drop_defaults",
    "first",
    "join_echo",
    "merge_adjacent",
    "normalize",
    "not_understood",
    "number",
    "pinyin_of",
    "sentences",
    "similarity",
    "squash",
    "subtrees",
    "to_int",
    "tokens",
    "too_long",
]

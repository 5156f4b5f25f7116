"""Orders in words: the pieces both games' grammars share. Pure.

Each ruleset owns a grammar (a ``.lark`` file in its package, shipped as package data)
that reads normalised text into a parse tree, and a ``text.py`` that turns the tree into
the order bodies ``POST /orders`` takes. What they share lives here:

- :func:`normalize`: NFKC (full-width → ASCII), lower case, one space for many, with a map
  back to the original text so an error quotes the player's own words;
- :func:`to_int`: Arabic, full-width, Chinese (一…九十九, 两, 〇, 零) and English numerals;
- :class:`Lookup`: names (players, items, monsters) matched exactly, then by pinyin, then
  fuzzily above :data:`FUZZY_MATCH_THRESHOLD`; otherwise the player is asked, with the
  candidates;
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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Annotated, Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput
from lark.load_grammar import FromPackageLoader
from pydantic import Field
from rapidfuzz import fuzz

from app.rules.base import JSON, Named, RuleViolation
from app.rules.types import Text

# A guessed name is taken when its best fuzzy score (0-100, rapidfuzz ``ratio`` on the
# name or its pinyin) reaches this, and no other name scores within AMBIGUITY_MARGIN.
FUZZY_MATCH_THRESHOLD = 80
AMBIGUITY_MARGIN = 10
# Names scoring at least this are offered as candidates when a guess is not taken.
CANDIDATE_FLOOR = 50
MAX_CANDIDATES = 5
# Longer texts are refused before parsing: a post of orders is a few lines, and reading
# costs time (Earley is cubic at worst), so what one text may ask for is bounded.
MAX_TEXT_CHARS = 400
# Each sentence (up to a new line, ; 。 ! ?) is read on its own: no order spans one, which
# keeps reading fast and errors local. A sentence may hold several orders.
MAX_SENTENCE_CHARS = 60
MAX_SENTENCES = 12
# A text order as it arrives: visible text, a few lines at most.
OrderText = Annotated[Text, Field(min_length=1, max_length=MAX_TEXT_CHARS)]

# A character no text can contain (the boundary types refuse private-use characters): the
# pattern of a name terminal when a game has nothing of that kind to name.
NEVER = "\ue000"


# --- normalising -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Normalized:
    """Text as the grammar reads it, and where each of its characters came from."""

    original: str
    text: str
    origin: tuple[int, ...]

    def slice(self, start: int, end: int) -> Normalized:
        """A part of the text, still pointing back into the whole original."""
        return Normalized(self.original, self.text[start:end], self.origin[start:end])

    def source(self, start: int, end: int) -> str:
        """The original text behind ``text[start:end]``, trimmed."""
        if start >= end or start >= len(self.origin):
            return ""
        first = self.origin[start]
        last = self.origin[min(end, len(self.origin)) - 1]
        return self.original[first : last + 1].strip()


def normalize(text: str) -> Normalized:
    out: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        if char == "\r":
            continue
        piece = " " if char != "\n" and char.isspace() else unicodedata.normalize("NFKC", char)
        for c in piece.lower():
            if c == " " and (not out or out[-1] in " \n"):
                continue
            if c == "\n" and out and out[-1] == " ":
                out.pop()
                origin.pop()
            out.append(c)
            origin.append(index)
    while out and out[-1] == " ":
        out.pop()
        origin.pop()
    # "first-strike", "flare_gun": a hyphen or underscore inside a Latin word is a space.
    for i in range(1, len(out) - 1):
        if out[i] in "-_" and out[i - 1].isascii() and out[i - 1].isalpha():
            if out[i + 1].isascii() and out[i + 1].isalpha():
                out[i] = " "
    return Normalized(text, "".join(out), tuple(origin))


def squash(text: str) -> str:
    """The form names are compared in: normalised, without spaces."""
    return normalize(text).text.replace(" ", "").replace("\n", "")


# --- numbers -----------------------------------------------------------------------------
_CN_DIGITS = {
    **dict.fromkeys("零〇", 0),
    **dict.fromkeys("一壹", 1),
    **dict.fromkeys("二两兩贰", 2),
    **dict.fromkeys("三叁", 3),
    **dict.fromkeys("四肆", 4),
    **dict.fromkeys("五伍", 5),
    **dict.fromkeys("六陆", 6),
    **dict.fromkeys("七柒", 7),
    **dict.fromkeys("八捌", 8),
    **dict.fromkeys("九玖", 9),
}
_CN_UNITS = {"十": 10, "拾": 10, "百": 100}


def chinese_number(text: str) -> int:
    """一 → 1, 十一 → 11, 二十 → 20, 九十九 → 99, 一百零五 → 105; digit by digit without
    units (一〇 → 10)."""
    if not any(c in _CN_UNITS for c in text):
        return int("".join(str(_CN_DIGITS[c]) for c in text))
    total = current = 0
    for char in text:
        if char in _CN_UNITS:
            total += (current or 1) * _CN_UNITS[char]
            current = 0
        else:
            current = _CN_DIGITS[char]
    return total + current


_EN_NUMBERS = {
    w: n
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()
    )
}


def to_int(token: str) -> int:
    """An Arabic, Chinese or (up to twelve) English number."""
    if token.isdigit() and token.isascii():
        return int(token)
    if token in _EN_NUMBERS:
        return _EN_NUMBERS[token]
    return chinese_number(token)


# --- names -------------------------------------------------------------------------------
@lru_cache(maxsize=4096)
def pinyin_of(text: str) -> str:
    """Toneless pinyin of the Chinese characters in ``text`` ("张三" → "zhangsan"); other
    characters as they are. Homophones are the commonest typing slip in Chinese, and it
    lets a name be typed in Latin letters ("Zhang San")."""
    if all(ord(c) < 0x2E80 for c in text):
        return text
    # Imported on first use: its dictionary is large, and most texts name nobody new.
    from pypinyin import lazy_pinyin

    return "".join(lazy_pinyin(text)).replace(" ", "")


@dataclass(frozen=True, slots=True)
class Guess:
    """A name that could not be taken as it stands: why, and who it might be."""

    word: str
    candidates: tuple[Named, ...]


class Lookup:
    """Looks up names of one kind (players, items, monsters) of a game's vocabulary.

    Exact first (the name or id as written, spaces and case aside), then the same pinyin,
    then the best fuzzy score if it reaches FUZZY_MATCH_THRESHOLD and stands clear of the
    next; otherwise a :class:`Guess` with the candidates."""

    def __init__(
        self,
        things: Iterable[Named],
        prefer: Sequence[str] = (),
        public: bool = False,
        never_guess: Sequence[str] = (),
    ) -> None:
        self.things: dict[str, Named] = {}
        self._exact: dict[str, list[str]] = {}
        self._prefer = tuple(prefer)
        # Taken only when written exactly (or its very sound), never guessed or offered: the
        # player typing, who does not mean themselves by a name they misspell (issue 16).
        self._never_guess = frozenset(never_guess)
        # A public list (the roster) may be offered whole when nothing is close.
        self._public = public
        for thing in things:
            self.things[thing.id] = thing
            for alias in (*thing.names, thing.id):
                key = squash(alias)
                if key and thing.id not in self._exact.setdefault(key, []):
                    self._exact[key].append(thing.id)

    def pattern(self) -> str:
        """A regular expression matching every name as written (spaces optional), longest
        first, for the grammar's exact-name terminal."""
        forms = sorted(self._exact, key=lambda k: (-len(k), k))
        if not forms:
            return re.escape(NEVER)
        return "|".join(" ?".join(re.escape(c) for c in form) for form in forms)

    def exact(self, word: str) -> list[str]:
        return list(self._exact.get(squash(word), []))

    def resolve(self, word: str) -> str | Guess:
        """The id ``word`` names, or a Guess."""
        key = squash(word)
        found = self._choose(self._exact.get(key, []))
        if found is not None:
            return found
        scores = self._scores(key)
        by_sound = [i for i, (_, same) in scores.items() if same]
        found = self._choose(by_sound)
        if found is not None:
            return found
        scores = {i: v for i, v in scores.items() if i not in self._never_guess}
        order = {thing_id: n for n, thing_id in enumerate(self.things)}
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1][0], order[kv[0]]))
        if ranked:
            best_id, (best, _) = ranked[0]
            runner_up = ranked[1][1][0] if len(ranked) > 1 else -1.0
            if best >= FUZZY_MATCH_THRESHOLD and runner_up < best - AMBIGUITY_MARGIN:
                return best_id
        ids = by_sound or self._exact.get(key, [])
        if not ids:
            ids = [i for i, (score, _) in ranked if score >= CANDIDATE_FLOOR]
        if not ids and self._public:
            ids = list(self.things)
        ids = [i for i in ids if i not in self._never_guess]
        return Guess(word, tuple(self.things[i] for i in ids[:MAX_CANDIDATES]))

    def _choose(self, ids: Sequence[str]) -> str | None:
        """One id; of several, the single preferred one (e.g. the monster in your cell)."""
        if len(ids) == 1:
            return ids[0]
        preferred = [i for i in ids if i in self._prefer]
        return preferred[0] if len(preferred) == 1 else None

    def _scores(self, key: str) -> dict[str, tuple[float, bool]]:
        """Per id: the best fuzzy score of any of its names, and whether one sounds exactly
        the same."""
        out: dict[str, tuple[float, bool]] = {}
        for alias, ids in self._exact.items():
            score, same = similarity(key, alias)
            for i in ids:
                old = out.get(i, (0.0, False))
                out[i] = (max(old[0], score), old[1] or same)
        return out


def _han(text: str) -> int:
    return sum(1 for c in text if "\u4e00" <= c <= "\u9fff" or "\u3400" <= c <= "\u4dbf")


def similarity(typed: str, name: str) -> tuple[float, bool]:
    """How alike a typed name and a real one are (0-100), and whether they sound the same.

    Sound is trusted only where it can be: the same number of Chinese characters (张叁 for
    张三, a homophone picked from the input method), or Latin letters typed for a Chinese
    name (zhang san, zhangsna: then its pinyin is what is compared). A part of a name (张
    for 张三) is compared as written, so it stays a question between 张三 and 张四."""
    score = fuzz.ratio(typed, name)
    typed_han, name_han = _han(typed), _han(name)
    if not name_han:
        return score, False
    if typed_han == 0 and typed.isascii():
        sound = pinyin_of(name)
        return max(score, fuzz.ratio(typed, sound)), typed == sound
    return score, typed_han == name_han and pinyin_of(typed) == pinyin_of(name)


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

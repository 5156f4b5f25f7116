"""Orders in words, the words themselves: text normalised for reading, numbers in Chinese
and English, and the names a text may give (players, items, monsters). Pure.

- :func:`normalize`: NFKC (full-width → ASCII), lower case, one space for many, with a map
  back to the original text so an error quotes the player's own words;
- :func:`to_int`: Arabic, full-width, Chinese (一…九十九, 两, 〇, 零) and English numerals;
- :class:`Lookup`: names matched exactly, then by pinyin, then fuzzily above
  :data:`FUZZY_MATCH_THRESHOLD`; otherwise the player is asked, with the candidates.

The grammars that read sentences of these words are :mod:`app.rules.textorders`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz

from app.rules.base import Named

# A guessed name is taken when its best fuzzy score (0-100, rapidfuzz ``ratio`` on the
# name or its pinyin) reaches this, and no other name scores within AMBIGUITY_MARGIN.
FUZZY_MATCH_THRESHOLD = 80
AMBIGUITY_MARGIN = 10
# Names scoring at least this are offered as candidates when a guess is not taken.
CANDIDATE_FLOOR = 50
MAX_CANDIDATES = 5

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

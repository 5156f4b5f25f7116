"""The three post formats: how each writes bold, headings, tables, quotes, lists — and how
each escapes text that people typed (names, titles, announcements).

Every helper takes plain strings or :class:`Markup`: a plain string is user text and is
escaped for the format; ``Markup`` is markup this package made and passes through. The
templates only ever print helper results or values the environment escapes the same way
(``finalize``), so no name can open a tag, a table cell or a mention.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from markupsafe import Markup

ZWSP = "\u200b"  # refused in every input (app/rules/types.py), so it is ours alone


def display_width(text: str) -> int:
    """Columns ``text`` takes in a monospaced CJK font: wide and full-width characters 2."""
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def plain(value: Any) -> str:
    """A value as text: whole floats without '.0' (morale 15.0 → 15)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class Format:
    name: str
    ext: str

    def esc(self, value: Any) -> Markup:
        if isinstance(value, Markup):
            return value
        return Markup(self._escape(plain(value)))

    def _escape(self, text: str) -> str:
        raise NotImplementedError

    def join(self, parts: Iterable[Any], sep: str = "") -> Markup:
        return Markup(sep).join(self.esc(p) for p in parts)

    def lines(self, parts: Iterable[Any]) -> Markup:
        return self.join(parts, "\n")

    # Markup primitives, overridden per format.
    def bold(self, value: Any) -> Markup:
        return self.esc(value)

    def heading(self, value: Any) -> Markup:
        return self.esc(value)

    def color(self, value: Any, color: str) -> Markup:
        return self.esc(value)

    def mono(self, value: Any) -> Markup:
        return self.esc(value)

    def block(self, value: Any) -> Markup:
        return self.esc(value)

    def link(self, url: str, label: Any = None) -> Markup:
        raise NotImplementedError

    def quote(self, body: Any) -> Markup:
        raise NotImplementedError

    def items(self, entries: Sequence[Any], numbered: bool = False) -> Markup:
        raise NotImplementedError

    def table(self, headers: Sequence[Any], rows: Sequence[Sequence[Any]]) -> Markup:
        raise NotImplementedError

    def mention(self, name: str) -> Markup:
        return Markup("@") + self.esc(name)


class BBCode(Format):
    """The Discuz!/NGA/S1/phpBB dialect: [b], [table][tr][td], [quote], [color], [list]."""

    name, ext = "bbcode", "bbcode"

    def _escape(self, text: str) -> str:
        # No BBCode dialect has an escape character; a zero-width space after "[" keeps
        # "[b]" from being a tag while it still reads "[b]".
        return text.replace("[", "[" + ZWSP)

    def bold(self, value: Any) -> Markup:
        return Markup("[b]") + self.esc(value) + Markup("[/b]")

    def heading(self, value: Any) -> Markup:
        return Markup("[size=4][b]") + self.esc(value) + Markup("[/b][/size]")

    def color(self, value: Any, color: str) -> Markup:
        return Markup(f"[color={color}]") + self.esc(value) + Markup("[/color]")

    def mono(self, value: Any) -> Markup:
        return Markup("[font=monospace]") + self.esc(value) + Markup("[/font]")

    def block(self, value: Any) -> Markup:
        # Tags are not read inside [code], and what is there is meant to be copied (a
        # command, the orders a receipt hashes): only a closing tag needs breaking.
        text = plain(value).replace("[/code", "[" + ZWSP + "/code")
        return Markup("[code]") + Markup(text) + Markup("[/code]")

    def link(self, url: str, label: Any = None) -> Markup:
        if label is None:
            return Markup("[url]") + self.esc(url) + Markup("[/url]")
        return Markup(f"[url={self._escape(url)}]") + self.esc(label) + Markup("[/url]")

    def quote(self, body: Any) -> Markup:
        return Markup("[quote]") + self.esc(body) + Markup("[/quote]")

    def items(self, entries: Sequence[Any], numbered: bool = False) -> Markup:
        opening = "[list=1]" if numbered else "[list]"
        inner = Markup("").join(Markup("\n[*]") + self.esc(e) for e in entries)
        return Markup(opening) + inner + Markup("\n[/list]")

    def table(self, headers: Sequence[Any], rows: Sequence[Sequence[Any]]) -> Markup:
        def row(cells: Iterable[Any]) -> Markup:
            tds = (Markup("[td]") + self.esc(c) + Markup("[/td]") for c in cells)
            return Markup("[tr]") + Markup("").join(tds) + Markup("[/tr]")

        head = row(self.bold(h) for h in headers)
        body = self.lines([head, *(row(r) for r in rows)])
        return Markup("[table]\n") + body + Markup("\n[/table]")


class Markdown(Format):
    """CommonMark with GitHub-style tables (Discourse, Misago)."""

    name, ext = "markdown", "md"
    # Anywhere: emphasis, code, links, HTML, tables, strike-through, mentions, hashtags,
    # entities, and ":" before a word (a Discourse emoji, ":smile:"; "07:00" stays as is).
    _SPECIAL = re.compile(r"[\\`*_\[\]<>|~@#&]|(?<!\d):")
    # Only at the start of a line: list items, headings' kin, quotes, "1." / "1)" lists.
    _LEADING = re.compile(r"^(?:[-+=>]|\d+[.)])")

    def _escape(self, text: str) -> str:
        # Backslash escapes work for every ASCII punctuation mark in CommonMark.
        text = self._SPECIAL.sub(lambda m: "\\" + m.group(0), text)
        lead = self._LEADING.match(text)
        if lead:
            mark = lead.group(0)
            text = mark[:-1] + "\\" + mark[-1] + text[len(mark) :]
        return text

    def bold(self, value: Any) -> Markup:
        return Markup("**") + self.esc(value) + Markup("**")

    def heading(self, value: Any) -> Markup:
        return Markup("### ") + self.esc(value)

    def color(self, value: Any, color: str) -> Markup:
        return self.bold(value)  # Markdown has no colour: emphasis carries the meaning

    def mono(self, value: Any) -> Markup:
        text = plain(value)
        return Markup("`") + Markup(text.replace("`", "'")) + Markup("`")

    def block(self, value: Any) -> Markup:
        text = plain(value).replace("```", "'''")
        return Markup("```\n") + Markup(text) + Markup("\n```")

    def link(self, url: str, label: Any = None) -> Markup:
        safe_url = url.replace(")", "%29").replace(" ", "%20")
        if label is None:
            return Markup(f"<{safe_url}>")
        return Markup("[") + self.esc(label) + Markup(f"]({safe_url})")

    def quote(self, body: Any) -> Markup:
        text = self.esc(body)
        return Markup("\n").join(Markup("> ") + Markup(line) for line in text.split("\n"))

    def items(self, entries: Sequence[Any], numbered: bool = False) -> Markup:
        marks = [f"{i}. " if numbered else "- " for i in range(1, len(entries) + 1)]
        return self.lines(Markup(m) + self.esc(e) for m, e in zip(marks, entries, strict=True))

    def table(self, headers: Sequence[Any], rows: Sequence[Sequence[Any]]) -> Markup:
        def row(cells: Iterable[Any]) -> Markup:
            return Markup("| ") + self.join(cells, " | ") + Markup(" |")

        rule = Markup("|") + Markup("|").join(Markup("---") for _ in headers) + Markup("|")
        return self.lines([row(headers), rule, *(row(r) for r in rows)])


class Text(Format):
    """Plain text (QQ groups, Telegram, Discord): no markup, columns aligned by width."""

    name, ext = "text", "txt"

    def block(self, value: Any) -> Markup:
        return Markup(plain(value))  # meant to be copied exactly

    def _escape(self, text: str) -> str:
        # No markup to break; only a mention could reach further than the text itself.
        return text.replace("@", "@" + ZWSP)

    def link(self, url: str, label: Any = None) -> Markup:
        if label is None:
            return Markup(url)
        return self.esc(label) + Markup(" ") + Markup(url)

    def quote(self, body: Any) -> Markup:
        text = self.esc(body)
        return Markup("\n").join(Markup("  | ") + Markup(line) for line in text.split("\n"))

    def items(self, entries: Sequence[Any], numbered: bool = False) -> Markup:
        marks = [f"{i}. " if numbered else "· " for i in range(1, len(entries) + 1)]
        return self.lines(Markup(m) + self.esc(e) for m, e in zip(marks, entries, strict=True))

    def table(self, headers: Sequence[Any], rows: Sequence[Sequence[Any]]) -> Markup:
        grid = [[str(self.esc(c)) for c in r] for r in [headers, *rows]]
        widths = [max(display_width(r[i]) for r in grid) for i in range(len(headers))]

        def line(cells: list[str]) -> str:
            padded = [c + " " * (w - display_width(c)) for c, w in zip(cells, widths, strict=True)]
            return "  ".join(padded).rstrip()

        rule = "  ".join("-" * w for w in widths)
        return Markup("\n".join([line(grid[0]), rule, *(line(r) for r in grid[1:])]))


FORMATTERS: dict[str, Format] = {f.name: f for f in (BBCode(), Markdown(), Text())}

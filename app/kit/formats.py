"""The three post formats: how each writes bold, headings, tables, quotes, lists — and how
each escapes text that people typed (names, titles, announcements).

Every helper takes plain strings or :class:`Markup`: a plain string is user text and is
escaped for the format; ``Markup`` is markup the post code made and passes through. The
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

# Autolinks. Forums and chats make a link of a bare "www.evil.example", "http://…" or
# "evil.example/path" in text: QQ and Telegram in plain text (no escape exists there), Misago
# after its Markdown (``\.`` is undone before it looks), Discuz!/phpBB before their BBCode.
# So in text people typed, a dot between a letter or digit and a letter becomes U+2024 ONE
# DOT LEADER and the colon of "://" a full-width colon: both read the same, NFKC (how names
# and text orders are compared, app/rules/types.py, app/rules/textorders.py) turns them back
# into "." and ":", and no autolinker takes them for a host or a scheme. No invisible
# character is used: the input rules refuse those, so a name copied from a post would be.
_LINK_DOT = re.compile(r"(?<=[^\W_])\.(?=[A-Za-z])")
_SCHEME = re.compile(r":(?=//)")


def defang_links(text: str) -> str:
    """``text`` with nothing an autolinker reads as a link (see above)."""
    return _SCHEME.sub("\uff1a", _LINK_DOT.sub("\u2024", text))


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


# A table as lines (Markdown forums and chat, issue 18 item 1): one line per row, its first
# cell the label, then the other cells joined by "｜" — each after its column's header when
# the cell alone would not say what it is (a number, "4→3"), never a space-aligned column.
_LEADING_TAGS = re.compile(r"^(?:\*\*|\[[^\]]*\])+")
_NEEDS_HEADER = re.compile(r"^[\d+\-−±→/.]")
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def _row_line(fmt: Format, headers: Sequence[Any], row: Sequence[Any], label_markup: Any) -> Markup:
    cells = list(row)
    if not cells:
        return Markup("")
    label, rest = cells[0], cells[1:]
    wide = bool(_CJK.search("".join(plain(c) for c in [*headers, *cells])))
    parts: list[Markup] = []
    for i, cell in enumerate(rest, start=1):
        shown = plain(cell)
        if not shown.strip():
            continue
        header = headers[i] if i < len(headers) else ""
        bare = _LEADING_TAGS.sub("", shown)
        if len(rest) > 1 and plain(header).strip() and _NEEDS_HEADER.match(bare):
            parts.append(fmt.esc(header) + Markup(" ") + fmt.esc(cell))
        else:
            parts.append(fmt.esc(cell))
    body = Markup("｜" if wide else " | ").join(parts)
    if not plain(label).strip():
        return body
    head = label_markup(label)
    return head + Markup("：" if wide else ": ") + body if parts else head


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

    def fold(self, summary: str, body: Any) -> Markup:
        """``body`` folded behind ``summary`` where the format can fold; else nothing (the
        caller links a page with the same details)."""
        return Markup("")


class BBCode(Format):
    """The Discuz!/NGA/S1/phpBB dialect: [b], [table][tr][td], [quote], [color], [list]."""

    name, ext = "bbcode", "bbcode"

    # No BBCode dialect has an escape character, and Discuz!/phpBB have no [noparse]: an
    # empty [b][/b] after "[" keeps "[b]" from being a tag while it still reads (and copies
    # as) "[b]". "@" is Discuz!'s mention: a full-width "＠" (NFKC "@") mentions nobody.
    _BREAK = "[[b][/b]"

    def _escape(self, text: str) -> str:
        return defang_links(text).replace("[", self._BREAK).replace("@", "\uff20")

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
        # Our own links (the verify address, a post): meant to be links, never defanged.
        safe_url = url.replace("[", "%5B").replace("]", "%5D")
        if label is None:
            return Markup("[url]") + Markup(safe_url) + Markup("[/url]")
        return Markup(f"[url={safe_url}]") + self.esc(label) + Markup("[/url]")

    def quote(self, body: Any) -> Markup:
        return Markup("[quote]") + self.esc(body) + Markup("[/quote]")

    def fold(self, summary: str, body: Any) -> Markup:
        head = self.esc(summary).replace("]", "）")
        return Markup(f"[spoiler={head}]\n") + self.esc(body) + Markup("\n[/spoiler]")

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
    # Two parsers read these posts: CommonMark (Discourse, markdown-it) and Python-Markdown
    # (Misago), which honours a backslash only before \ ` * _ { } [ ] ( ) > # + - . ! and
    # shows it before anything else. So: a backslash for those; an entity for "&", "<", "|"
    # (a table cell), "~" (strike-through) and a leading "=" (a heading's underline); a
    # full-width "＠" for mentions (both forums also mention inside entities) and "：" for a
    # colon right before a word (a Discourse emoji, ":smile:"; "07:00" and "a: b" stay).
    _BACKSLASH = re.compile(r"[\\`*_\[\]>#]")
    _ENTITIES = {"&": "&amp;", "<": "&lt;", "|": "&#124;", "~": "&#126;"}
    _OTHER = re.compile(r"[&<|~@]|(?<!\d):(?=\S)")
    # At the start of EVERY line (an announcement has many; issue 16 item 36): list items,
    # "1." / "1)" lists, a "=" or "-" heading underline. "#", ">", "*", "`" are escaped
    # anywhere already.
    _LEADING = re.compile(r"^([ \t]*)([-+=]|\d+[.)])", re.MULTILINE)

    def _other(self, m: re.Match[str]) -> str:
        char = m.group(0)
        if char == "@":
            return "\uff20"
        if char == ":":
            return "\uff1a"
        return self._ENTITIES[char]

    def _leading(self, m: re.Match[str]) -> str:
        space, mark = m.group(1), m.group(2)
        if mark == "=":
            return space + "&#61;"
        return space + mark[:-1] + "\\" + mark[-1]

    def _escape(self, text: str) -> str:
        text = defang_links(text)
        text = self._BACKSLASH.sub(lambda m: "\\" + m.group(0), text)
        text = self._OTHER.sub(self._other, text)  # last: its entities hold "#"
        return self._LEADING.sub(self._leading, text)

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
        # Misago's CSS gives table cells no padding and no borders, and a wide table does not
        # fit a phone: a list, one row a line, its label in bold.
        return self.lines(
            Markup("- ") + _row_line(self, headers, r, self.bold) for r in rows if list(r)
        )


class Text(Format):
    """Plain text (QQ groups, Telegram, Discord): no markup, one line per item."""

    name, ext = "text", "txt"

    def block(self, value: Any) -> Markup:
        return Markup(plain(value))  # meant to be copied exactly

    # Plain text, but Discord reads it as Markdown ("||spoiler||", "*bold*", "# heading",
    # "> quote", "- list", masked links "[x](https://…)") and Telegram and QQ make links,
    # mentions, hashtags and bot commands of it. Telegram and QQ show a backslash as typed,
    # so the one body all three get writes those marks in their full-width forms, which mark
    # nothing anywhere and read the same; NFKC (how names and text orders are compared)
    # turns each back into the ASCII mark. A masked link needs "://", which defang_links
    # already broke, so brackets stay; so does "_" inside a word ("dongzhi_4"), which no
    # platform reads as emphasis.
    _FULL_WIDTH = str.maketrans({c: chr(ord(c) + 0xFEE0) for c in "*`~|<>@#\\"})
    _UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")
    # A line's "- " / "+ " (a list) and "/word" (a bot command); "-8" stays a number.
    _LEADING = re.compile(r"^([ \t]*)([-+](?=[ \t])|/(?=\w))", re.MULTILINE)
    _COMMAND = re.compile(r"(?<=\s)/(?=\w)")

    def _escape(self, text: str) -> str:
        text = defang_links(text).translate(self._FULL_WIDTH)
        text = self._UNDERSCORE.sub("\uff3f", text)
        text = self._COMMAND.sub("\uff0f", text)
        return self._LEADING.sub(lambda m: m.group(1) + chr(ord(m.group(2)) + 0xFEE0), text)

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
        # A chat bubble has no monospace font and wraps: one row a line, never columns.
        return self.lines(_row_line(self, headers, r, self.esc) for r in rows if list(r))


FORMATTERS: dict[str, Format] = {f.name: f for f in (BBCode(), Markdown(), Text())}

"""Posts turned into HTML the way forums do it: Markdown with markdown-it-py (CommonMark +
GitHub tables), BBCode with the ``bbcode`` package plus the table tags Discuz!/NGA know.
Used by the escaping tests and by ``scripts/preview_posts.py``."""

from __future__ import annotations

import html
import re
import unicodedata
from typing import Any

import bbcode
from markdown_it import MarkdownIt

_MD = MarkdownIt("commonmark", {"breaks": True, "html": False}).enable("table")


def _bbcode_parser() -> Any:
    parser = bbcode.Parser(replace_links=False, install_defaults=True)
    parser.add_simple_formatter(
        "table", "<table>%(value)s</table>", strip=True, swallow_trailing_newline=True
    )
    parser.add_simple_formatter(
        "tr", "<tr>%(value)s</tr>", strip=True, swallow_trailing_newline=True
    )
    parser.add_simple_formatter("td", "<td>%(value)s</td>")

    def size(tag: str, value: str, options: dict[str, str], parent: Any, context: Any) -> str:
        level = options.get("size", "3")
        em = {"2": "0.8em", "3": "1em", "4": "1.25em"}.get(level, "1em")
        return f'<span style="font-size:{em}">{value}</span>'

    def font(tag: str, value: str, options: dict[str, str], parent: Any, context: Any) -> str:
        return f'<span style="font-family:monospace">{value}</span>'

    parser.add_formatter("size", size)
    parser.add_formatter("font", font)
    return parser


_BB = _bbcode_parser()


def markdown_html(text: str) -> str:
    return str(_MD.render(text))


def bbcode_html(text: str) -> str:
    return str(_BB.format(text))


def text_html(text: str) -> str:
    return f"<pre>{html.escape(text)}</pre>"


RENDERERS = {"markdown": markdown_html, "bbcode": bbcode_html, "text": text_html}


def visible_text(page: str) -> str:
    """What a reader sees, as the service compares names (NFKC: the full-width "＠" and
    the one-dot leader "․" the posts write for "@" and "." are the same text): tags
    dropped, entities decoded, zero-width spaces gone."""
    seen = html.unescape(re.sub(r"<[^>]+>", "", page)).replace("\u200b", "")
    return unicodedata.normalize("NFKC", seen)

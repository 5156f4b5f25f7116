"""Posts as their platform shows them, for the reader tests (tests/test_rendered_posts.py).

- Markdown: Misago's own renderer (tests/support/misago_markup.py) inside Misago's own CSS,
  in the thread page's post markup (``.post-body > article.misago-markup``).
- BBCode: the ``bbcode`` package with the Discuz!/NGA table tags (``html_preview``), in a
  Discuz!-style post cell (``td.t_f``: bordered tables, cells padded).
- Text: a chat bubble: a narrow box, ``white-space: pre-wrap``, long tokens wrapped as
  chat apps wrap them, a proportional CJK font (space-aligned columns drift in it).

``page(format, posts)`` gives one HTML page holding several posts, each in an element with
``data-post`` (its label), so one browser visit judges them all; ``MEASURE`` is the script
that reports what a reader on a phone would trip over.
"""

from __future__ import annotations

import html
from pathlib import Path

from tests.publish.render.html_preview import bbcode_html
from tests.support.misago_markup import misago_css

VIEWPORT = {"width": 390, "height": 844}

_DISCUZ_CSS = """
body { margin: 0; font: 14px/1.6 "Noto Sans CJK SC", sans-serif; background: #fff; }
.pl { border-top: 1px solid #c2d5e3; padding: 8px; }
td.t_f { font-size: 14px; word-wrap: break-word; }
td.t_f table { border-collapse: collapse; margin: 4px 0; }
td.t_f td { border: 1px solid #c2d5e3; padding: 2px 4px; }
"""

_CHAT_CSS = """
body { margin: 0; padding: 8px; background: #ededed; font: 15px/1.5 "Noto Sans CJK SC",
       sans-serif; }
.bubble { box-sizing: border-box; max-width: 80%; margin: 8px 0; padding: 8px 10px;
          background: #fff; border-radius: 6px; white-space: pre-wrap;
          overflow-wrap: anywhere; }
"""


def _document(head: str, body: str) -> str:
    return (
        '<!doctype html><html><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{head}</head><body>{body}</body></html>"
    )


def markdown_page(posts: list[tuple[str, str]], css: Path | None = None) -> str:
    """``posts``: (label, HTML from Misago's parser)."""
    sheet = (css or misago_css()).read_text(encoding="utf-8")
    items = "".join(
        f'<li class="post" data-post="{html.escape(label)}"><div class="panel panel-default '
        f'panel-post"><div class="panel-body"><div class="post-body">'
        f'<article class="misago-markup">{body}</article></div></div></div></li>'
        for label, body in posts
    )
    body = f'<div class="page-thread"><div class="container"><ul class="posts-list ui-ready">{items}</ul></div></div>'
    return _document(f"<style>{sheet}</style>", body)


def bbcode_page(posts: list[tuple[str, str]]) -> str:
    """``posts``: (label, BBCode source)."""
    items = "".join(
        f'<div class="pl"><table style="width:100%;table-layout:fixed"><tr>'
        f'<td class="t_f" data-post="{html.escape(label)}">{bbcode_html(text)}</td>'
        f"</tr></table></div>"
        for label, text in posts
    )
    return _document(f"<style>{_DISCUZ_CSS}</style>", items)


def text_page(posts: list[tuple[str, str]]) -> str:
    """``posts``: (label, plain text)."""
    items = "".join(
        f'<div class="bubble" data-post="{html.escape(label)}">{html.escape(text)}</div>'
        for label, text in posts
    )
    return _document(f"<style>{_CHAT_CSS}</style>", items)


# Per post: is it wider than its box or the screen; is any table cell narrower than its own
# first two characters (one character a line); is Markdown source shown as text (a table
# the forum's renderer does not know reads as rows of pipes); in a chat bubble, are columns
# aligned with runs of spaces (they drift in a proportional font).
MEASURE = r"""() => {
  const screen = window.innerWidth;
  const out = [];
  if (document.documentElement.scrollWidth > screen + 1) {
    out.push({post: '(page)', problem: `page is ${document.documentElement.scrollWidth}px wide on a ${screen}px screen`});
  }
  document.querySelectorAll('[data-post]').forEach((post) => {
    const label = post.dataset.post;
    const box = post.getBoundingClientRect();
    if (post.scrollWidth > post.clientWidth + 1 || box.right > screen + 1) {
      out.push({post: label, problem: `${post.scrollWidth}px of content in a ${post.clientWidth}px post`});
    }
    post.querySelectorAll('*').forEach((el) => {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > screen + 1 && el.children.length === 0) {
        out.push({post: label, problem: `"${el.textContent.trim().slice(0, 30)}" reaches ${Math.round(r.right)}px`});
      }
    });
    post.querySelectorAll('td, th').forEach((cell) => {
      const text = cell.textContent.trim();
      if (!text) return;
      const style = getComputedStyle(cell);
      const inner = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const probe = document.createElement('span');
      probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre';
      probe.style.font = style.font;
      probe.textContent = Array.from(text).slice(0, 2).join('');
      document.body.appendChild(probe);
      const two = probe.getBoundingClientRect().width;
      probe.remove();
      if (inner < two - 0.5) {
        out.push({post: label, problem: `cell "${text.slice(0, 20)}" is ${Math.round(inner)}px, narrower than its first two characters (${Math.round(two)}px)`});
      }
    });
    if (post.classList.contains('bubble')) {
      const aligned = post.textContent.split('\n').filter((l) => /\S {2,}\S/.test(l));
      if (aligned.length) {
        out.push({post: label, problem: `columns aligned with spaces drift in a chat bubble: "${aligned[0].trim().slice(0, 40)}"`});
      }
    }
    const lines = post.innerText.split('\n').filter((l) => /^\s*\|.*\|\s*$/.test(l));
    if (lines.length) {
      out.push({post: label, problem: `Markdown table shown as text: "${lines[0].trim().slice(0, 40)}"`});
    }
  });
  return out;
}"""

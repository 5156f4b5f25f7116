"""The console's publishing as plain data: the review queue, posts and their previews,
channels, reminders, and the player's forum link."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from markupsafe import Markup, escape

from app.kit.pages import readable
from app.kit.words import Words
from app.rules.base import JSON
from app.web.forms import Field, properties
from app.web.messages import (
    CHANNEL_HELP,
    CHANNEL_KINDS,
    CONFIG_LABELS,
    POST_KINDS,
    pick,
    translator,
)
from app.web.views.base import local_time, minutes_text

# --- publishing: the review queue, posts, channels, settings -----------------------------------
FORMATS = ("bbcode", "markdown", "text")
SOURCE_FORMATS = ("bbcode", "markdown")  # shown as source in a box to copy; text as text
REFRESH_MIN_SECONDS = 2
REFRESH_MAX_SECONDS = 3600


def _seconds_until(value: str | None, now: datetime) -> float | None:
    if not value:
        return None
    return (datetime.fromisoformat(value) - now).total_seconds()


def publishing_console(
    publishing: Mapping[str, Any],
    timers: list[Mapping[str, Any]],
    tz: str,
    now: datetime,
    lang: str,
    channel_schemas: Mapping[str, tuple[Mapping[str, Any], tuple[str, ...]]],
    game_words: Words | None = None,
) -> JSON:
    """Everything the console's publishing sections show. ``channel_schemas``: per kind,
    the JSON Schema of its config and its secret fields (the adapters'); ``game_words``: the
    game's catalogue, which names the post kinds of its own (``post.kind.<kind>``)."""
    t = translator(lang)
    settings = publishing["settings"]
    channels = publishing["channels"]
    names = {c["id"]: c["name"] for c in channels}
    kinds = {c["id"]: c["kind"] for c in channels}
    formats = {c["id"]: c["format"] for c in channels}
    shown_format = channels[0]["format"] if channels else "bbcode"
    queue: list[JSON] = []
    done: list[JSON] = []
    for post in publishing["posts"]:
        entry = _post_entry(post, tz, lang, shown_format, names, kinds, formats)
        entry["kind"] = post_kind(post["kind"], lang, game_words or {})
        (queue if post["status"] == "awaiting_review" else done).append(entry)
    done.reverse()  # newest first; the queue oldest first, in the order to review it
    return {
        "review": settings["review"],
        "settings": {
            "review": settings["review"],
            "auto_minutes": minutes_text(settings["auto_publish_after_seconds"]),
            "language": settings["language"],
        },
        "reminders": {
            "minutes": ", ".join(minutes_text(s) for s in settings["reminders"]["before_seconds"]),
            "channel_id": settings["reminders"]["channel_id"] or "",
        },
        "channels": [_channel_entry(c, lang, channel_schemas) for c in channels],
        "kinds": [
            {
                "kind": kind,
                "label": pick(lang, *CHANNEL_KINDS[kind]),
                "help": marked(pick(lang, *CHANNEL_HELP[kind])),
                "fields": _config_fields(kind, schema, secret, lang),
            }
            for kind, (schema, secret) in channel_schemas.items()
            if kind in CHANNEL_KINDS
        ],
        "queue": queue,
        "posts": done,
        "total": publishing["total"],
        "refresh_in": _refresh_in(publishing["posts"], timers, now),
        "formats": [(f, t(f"format_{f}")) for f in FORMATS],
    }


def post_kind(kind: str, lang: str, game_words: Words) -> str:
    """A post's kind as the console names it: the shell's word, the game's own
    (``post.kind.<kind>``), or the kind made readable — never the raw kind."""
    known = POST_KINDS.get(kind) or game_words.get(f"post.kind.{kind}")
    return pick(lang, *known) if known else readable(kind, lang)


def _post_entry(
    post: Mapping[str, Any],
    tz: str,
    lang: str,
    shown_format: str,
    names: Mapping[str, str],
    kinds: Mapping[str, str],
    formats: Mapping[str, str],
) -> JSON:
    t = translator(lang)
    bodies = post["bodies"]
    deliveries = []
    for d in post["deliveries"]:
        status = d["status"]
        channel = d["channel_id"]
        fmt = formats.get(channel, "bbcode")
        deliveries.append(
            {
                "id": d["id"],
                "channel": names.get(channel) or t("removed_channel"),
                "kind": pick(lang, *CHANNEL_KINDS.get(kinds.get(channel, ""), ("", ""))),
                "status": status,
                "status_label": t(f"delivery_{status}"),
                "url": d["remote_url"] or "",
                "error": d["error"] or "",
                "attempts": d["attempts"],
                "next": local_time(d["next_attempt_at"], tz) if d["next_attempt_at"] else "",
                # A delivery the director posts by hand: the body in its channel's format.
                "by_hand": status in ("manual", "failed") and channel in names,
                "body": bodies.get(fmt, "") if status in ("manual", "failed") else "",
                "format_label": t(f"body_{fmt}"),
            }
        )
    return {
        "id": post["id"],
        "seq": post["seq"],
        "kind": post["kind"],
        "status": post["status"],
        "status_label": t(f"post_status_{post['status']}"),
        "title": post["title"],
        "created": local_time(post["created_at"], tz),
        "publish_at": local_time(post["publish_at"], tz) if post["publish_at"] else "",
        "published": local_time(post["published_at"], tz) if post["published_at"] else "",
        "bodies": [
            {
                "format": f,
                "label": t(f"body_{f}"),
                "text": bodies.get(f, ""),
                "source": f in SOURCE_FORMATS,
                "checked": f == shown_format,
            }
            for f in FORMATS
        ],
        "deliveries": deliveries,
        "failed": any(d["status"] == "failed" for d in post["deliveries"]),
        # As a reader sees it: the Markdown rendered, or else the plain text as text.
        "preview": markdown_preview(bodies["markdown"]) if bodies.get("markdown") else None,
        "preview_text": bodies.get("text", ""),
    }


_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_MD_INLINE = re.compile(r"\*\*(.+?)\*\*|`([^`]*)`|\[([^\]]*)\]\(([^)\s]*)\)|<(https?://[^>\s]+)>")


def _md_inline(text: str) -> Markup:
    """One line of the posts' Markdown as HTML: bold, code, links shown as their text
    (a preview follows no link); every other character escaped."""
    out = Markup("")
    # Backslash escapes first, kept apart from the marks they escape: \x00 + index.
    kept: list[str] = []

    def keep(m: re.Match[str]) -> str:
        kept.append(m.group(1))
        return f"\x00{len(kept) - 1}\x00"

    def back(value: str) -> str:
        return re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m.group(1))], value)

    text = _MD_ESCAPE.sub(keep, text)
    at = 0
    for m in _MD_INLINE.finditer(text):
        out += escape(back(text[at : m.start()]))
        bold, code, label, _url, bare = m.groups()
        if bold is not None:
            out += Markup("<strong>") + _md_inline(back(bold)) + Markup("</strong>")
        elif code is not None:
            out += Markup("<code>") + escape(back(code)) + Markup("</code>")
        elif label is not None:
            out += Markup('<span class="link">') + _md_inline(back(label)) + Markup("</span>")
        else:
            out += Markup('<span class="link">') + escape(back(bare or "")) + Markup("</span>")
        at = m.end()
    return out + escape(back(text[at:]))


def markdown_preview(source: str) -> Markup:
    """A post's Markdown as a reader of Discourse or Misago sees it, for the review
    queue: the blocks the post templates make (headings, paragraphs, lists, tables,
    quotes, code, rules). Everything is escaped; no raw HTML, no link is followed."""
    lines = source.replace("\r\n", "\n").split("\n")
    html: list[Markup] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            i += 1
        elif stripped.startswith("```"):
            block = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                block.append(lines[i])
                i += 1
            i += 1
            html.append(Markup("<pre>") + escape("\n".join(block)) + Markup("</pre>"))
        elif re.fullmatch(r"(-{3,}|\*{3,}|_{3,})", stripped):
            html.append(Markup("<hr>"))
            i += 1
        elif m := re.match(r"(#{1,6})\s+(.*)", stripped):
            level = min(6, len(m.group(1)) + 2)
            html.append(Markup(f"<h{level}>") + _md_inline(m.group(2)) + Markup(f"</h{level}>"))
            i += 1
        elif stripped.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
                    rows.append(cells)
                i += 1
            body = Markup("")
            for n, cells in enumerate(rows):
                tag = "th" if n == 0 else "td"
                body += (
                    Markup("<tr>")
                    + Markup("").join(
                        Markup(f"<{tag}>") + _md_inline(c) + Markup(f"</{tag}>") for c in cells
                    )
                    + Markup("</tr>")
                )
            html.append(
                Markup('<div class="scroll"><table class="list">') + body + Markup("</table></div>")
            )
        elif re.match(r"([-*+]|\d+[.)])\s", stripped):
            numbered = bool(re.match(r"\d", stripped))
            entries = []
            while i < len(lines) and re.match(r"\s*([-*+]|\d+[.)])\s", lines[i]):
                entries.append(re.sub(r"^\s*([-*+]|\d+[.)])\s+", "", lines[i]))
                i += 1
            tag = "ol" if numbered else "ul"
            html.append(
                Markup(f"<{tag}>")
                + Markup("").join(Markup("<li>") + _md_inline(e) + Markup("</li>") for e in entries)
                + Markup(f"</{tag}>")
            )
        elif stripped.startswith(">"):
            quoted = []
            while i < len(lines) and lines[i].strip().startswith(">"):
                quoted.append(_md_inline(lines[i].strip()[1:].lstrip()))
                i += 1
            html.append(
                Markup("<blockquote>") + Markup("<br>").join(quoted) + Markup("</blockquote>")
            )
        else:
            para = []
            while (
                i < len(lines)
                and lines[i].strip()
                and not re.match(r"\s*(#{1,6}\s|```|\||>|[-*+]\s|\d+[.)]\s)", lines[i])
            ):
                para.append(_md_inline(lines[i].strip()))
                i += 1
            if not para:  # a line no rule above took: show it as text
                para.append(_md_inline(stripped))
                i += 1
            html.append(Markup("<p>") + Markup("<br>").join(para) + Markup("</p>"))
    return Markup("").join(html)


def marked(text: str) -> Markup:
    """A help text or label whose `backticked` parts are machine text the director types
    as it is (a key's prefix, a field's name): those in ``<code translate="no">``."""
    parts = text.split("`")
    out = Markup("")
    for i, part in enumerate(parts):
        if i % 2:
            out += Markup('<code translate="no">') + escape(part) + Markup("</code>")
        else:
            out += escape(part)
    return out


def _shown(value: Any, t: Any) -> str:
    """A config value as the list shows it: a yes/no in words, never True/False."""
    if isinstance(value, bool):
        return str(t("audit_yes") if value else t("audit_no"))
    return str(value)


def _channel_entry(
    channel: Mapping[str, Any],
    lang: str,
    channel_schemas: Mapping[str, tuple[Mapping[str, Any], tuple[str, ...]]],
) -> JSON:
    """A channel as the list shows it: secrets never (they come back redacted anyway)."""
    t = translator(lang)
    secret = set(channel_schemas.get(channel["kind"], ({}, ()))[1])
    config = [
        (
            marked(pick(lang, *CONFIG_LABELS.get(key, (key, key)))),
            t("secret_set") if key in secret else _shown(value, t),
        )
        for key, value in channel["config"].items()
        if value is not None
    ]
    return {
        "id": channel["id"],
        "name": channel["name"],
        "kind": pick(lang, *CHANNEL_KINDS.get(channel["kind"], (channel["kind"],) * 2)),
        "format": t(f"body_{channel['format']}"),
        "config": config,
    }


def _config_fields(
    kind: str, schema: Mapping[str, Any], secret: tuple[str, ...], lang: str
) -> list[Field]:
    """The inputs of one channel kind's config, from its config model's schema. Secrets
    are password inputs, never filled in."""
    fields = []
    for name, prop, required in properties(schema, schema):
        label = marked(pick(lang, *CONFIG_LABELS.get(name, (name, name))))
        numeric = prop.get("type") == "integer"
        if prop.get("type") == "boolean":  # a box, ticked as the model's default says
            fields.append(
                Field(
                    name=f"config.{kind}.{name}",
                    label=label,
                    kind="checkbox",
                    required=False,
                    value=bool(prop.get("default")),
                )
            )
            continue
        fields.append(
            Field(
                name=f"config.{kind}.{name}",
                label=label,
                kind="password" if name in secret else ("number" if numeric else "text"),
                required=required,
                minimum=1 if numeric else None,
                value=None,
            )
        )
    return fields


def _refresh_in(
    posts: list[Mapping[str, Any]], timers: list[Mapping[str, Any]], now: datetime
) -> int | None:
    """When the console should look again by itself: deliveries, auto-publishing and
    reminders change posts without a game event (the stream refreshes the rest)."""
    due: list[float] = []
    blocked: set[str] = set()  # channels held back by a failed delivery (until the director acts)
    for post in posts:
        if post["status"] == "awaiting_review":
            left = _seconds_until(post["publish_at"], now)
            if left is not None:
                due.append(left + 1)
        for d in post["deliveries"]:
            if d["status"] == "failed":
                blocked.add(d["channel_id"])
            if d["channel_id"] in blocked:
                continue
            if d["status"] == "sending":
                due.append(REFRESH_MIN_SECONDS)
            elif d["status"] == "pending":
                left = _seconds_until(d["next_attempt_at"], now)
                due.append(left + 1 if left is not None else REFRESH_MIN_SECONDS)
    for timer in timers:
        if timer.get("kind") == "reminder":
            left = _seconds_until(timer.get("due_at"), now)
            if left is not None:
                due.append(left + 1)
    if not due:
        return None
    return int(max(REFRESH_MIN_SECONDS, min(REFRESH_MAX_SECONDS, min(due))))


# The forum bridge's part of the player's page: the code that links a forum account.
_FORUM_LINK = {
    "title": ("论坛帖子下令", "Orders from the forum thread"),
    "linked": (
        "你的论坛账号：{name}。在帖子里公开发出的公开指令会以你的名义提交，机器人会回帖确认。",
        "Your forum account: {name}. Public orders you post in the thread are submitted as "
        "yours, and the bot answers there.",
    ),
    "how": (
        "在本局的论坛帖子里发一帖「绑定 {code}」，即可把你的论坛账号与本角色绑定（绑定码只能用一次）。",
        "Post “link {code}” in the game's forum thread to link your forum account to this "
        "player (the code works once).",
    ),
    "hidden": (
        "暗令不要发在帖子里：公开发出的暗令不会执行。",
        "Never post hidden orders in the thread: a hidden order posted in public is not executed.",
    ),
    "thread": ("打开帖子", "Open the thread"),
}


def forum_link(link: Mapping[str, Any] | None, lang: str) -> JSON | None:
    """What the player's page says about reading orders from the forum thread."""
    if not link:
        return None

    def say(key: str, **fields: Any) -> str:
        zh, en = _FORUM_LINK[key]
        return pick(lang, zh.format(**fields), en.format(**fields))

    lines = []
    if link.get("forum_name"):
        lines.append(say("linked", name=link["forum_name"]))
    lines.append(say("how", code=link["code"]))
    lines.append(say("hidden"))
    return {
        "title": say("title"),
        "lines": lines,
        "code": link["code"],
        "thread_url": link.get("thread_url"),
        "thread": say("thread"),
    }

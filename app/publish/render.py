"""Posts from public events: one post kind, three formats (BBCode, Markdown, plain text).

Pure: a post is a function of the public events of one step (plus the game's public
facts), so posts can be re-rendered, golden-tested and proven free of secrets. The caller
(the outbox) passes exactly the events whose audience contains "public", in order,
including the service events written in the same transaction (receipts, the seed).

A builder per (ruleset, kind) turns the events into titled sections, already escaped for
the format; a Jinja2 template per (format, kind) under ``templates/`` lays them out. Every
phrase comes from ``catalogue.py`` (Chinese first, ``language: "en"`` English).

Post kinds and the events that call for them (see ``groups.py``):
- ``game_started``: ``game_started``
- ``phase_opened``: team battle ``phase_opened`` (with the close before it: public orders
  announced, dispatches, See Through)
- ``deployments_revealed``: ``deployment_revealed``
- ``round_result``: ``round_resolved`` (with its whole resolution log)
- ``daily_report``: island ``day_report`` (24:00)
- ``pk_result``: island ``pk_resolved``
- ``game_finished``: ``game_over`` (with ``orders_revealed``, ``seed_revealed``), or
  ``seed_revealed`` alone
- ``receipts``: ``orders_sealed`` / ``receipts_opened``
- ``notice``: ``paused``, ``resumed``, ``deadline_extended``, ``announcement``,
  ``pk_posted``, ``pk_joined``, ``pk_fled``, a lone ``death_announced``,
  ``director_set_morale`` / ``director_set_troops``
- ``reminder`` and ``tally``: :func:`reminder_post`, :func:`tally_post` (no events)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from app.publish import island_posts, team_battle_posts
from app.publish.context import (
    Ctx,
    GameInfo,
    PostDraft,
    PublicEvent,
    RosterEntry,
    Section,
)
from app.publish.formats import FORMATTERS, Format
from app.publish.groups import Group, group_events
from app.publish.receipts import canonical_orders

__all__ = [
    "FORMATS",
    "GameInfo",
    "PostDraft",
    "PublicEvent",
    "RosterEntry",
    "posts_for_events",
    "reminder_post",
    "tally_post",
]

FORMATS = ("bbcode", "markdown", "text")
TEMPLATES = Path(__file__).parent / "templates"

Builder = Callable[[Ctx, Group, datetime | None], tuple[str, list[Section]]]
_BUILDERS: dict[str, Mapping[str, Builder]] = {
    "team_battle": team_battle_posts.BUILDERS,
    "island": island_posts.BUILDERS,
}


@cache
def _environment(format_name: str) -> Environment:
    fmt = FORMATTERS[format_name]

    def finalize(value: Any) -> Markup:
        # Whatever a template prints that is not markup we made is escaped as user text.
        return Markup("") if value is None else fmt.esc(value)

    return Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=False,
        finalize=finalize,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )


def _render(kind: str, fmt: Format, heading: str, sections: list[Section], footer: Markup) -> str:
    template = _environment(fmt.name).get_template(f"{fmt.name}/{kind}.{fmt.ext}.j2")
    text = template.render(f=fmt, heading=fmt.heading(heading), sections=sections, footer=footer)
    # One blank line between blocks, none at the ends: the same in every format.
    lines = [line.rstrip() for line in text.strip().split("\n")]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out) + "\n"


def _post(
    game: GameInfo,
    kind: str,
    build: Callable[[Ctx], tuple[str, list[Section]]],
    footer: Callable[[Ctx], Markup],
) -> PostDraft | None:
    """The post in every format, or None when its events left nothing to say."""
    bodies: dict[str, str] = {}
    title = ""
    for name in FORMATS:
        ctx = Ctx(game, FORMATTERS[name])
        title, sections = build(ctx)
        if not any(s.lines or s.items or s.table or s.quote or s.code for s in sections):
            return None
        bodies[name] = _render(kind, ctx.fmt, title, sections, footer(ctx))
    return PostDraft(kind=kind, title=title, bodies=bodies)


def _always(post: PostDraft | None) -> PostDraft:
    assert post is not None, "reminders and tallies always have something to say"
    return post


def posts_for_events(
    game: GameInfo, events: Sequence[PublicEvent], deadline: datetime | None
) -> list[PostDraft]:
    """The posts that the public events of ONE step (or one service action) call for, in
    order. ``deadline`` is the game's current deadline after that step (for phase_opened)."""
    posts: list[PostDraft] = []
    for group in group_events(events):

        def build(ctx: Ctx, group: Group = group) -> tuple[str, list[Section]]:
            return _build(ctx, group, deadline)

        def footer(ctx: Ctx, group: Group = group) -> Markup:
            return ctx.footer(group.events)

        post = _post(game, group.kind, build, footer)
        if post is not None:
            posts.append(post)
    return posts


def _build(ctx: Ctx, group: Group, deadline: datetime | None) -> tuple[str, list[Section]]:
    if group.kind == "receipts":
        return _receipts(ctx, group)
    if group.kind == "notice":
        return _notice(ctx, group, deadline)
    builder = _BUILDERS.get(ctx.game.ruleset, {}).get(group.kind)
    title, sections = builder(ctx, group, deadline) if builder else ("", [])
    if group.kind == "game_finished":
        if group.first("game_over") is None:
            title = ctx.raw("title.seed_revealed", title=ctx.game.title)
        sections.extend(_seed_sections(ctx, group))
    return title, sections


# ----- the end: the seed and how to verify ------------------------------------------------------
def _seed_sections(ctx: Ctx, group: Group) -> list[Section]:
    revealed = group.first("seed_revealed")
    if revealed is None:
        return []
    seed = revealed["seed"]
    commitment = revealed.get("seed_commitment", ctx.game.seed_commitment)
    shell = "printf '%s' '" + seed.replace("'", "'\\''") + "' | sha256sum"
    section = Section(
        title=ctx.t("head.seed"),
        lines=[ctx.t("seed.revealed")],
        code=seed,
        quote=[ctx.t("seed.commitment_intro"), ctx.fmt.mono(commitment)],
    )
    how = Section(lines=[ctx.t("seed.how_commitment")], code=shell)
    if ctx.game.public_url:
        url = f"{ctx.game.public_url.rstrip('/')}/api/v1/games/{ctx.game.id}/verify"
        verify = Section(lines=[ctx.t("seed.how_verify"), ctx.fmt.link(url)])
    else:
        verify = Section(lines=[ctx.t("seed.verify_offline")])
    return [section, how, verify]


# ----- receipts ---------------------------------------------------------------------------------
def _receipt_label(ctx: Ctx, data: dict[str, Any]) -> Markup:
    if "day" in data:
        return ctx.t("rc.label.island", day=data["day"])
    if data.get("phase") == "deployment":
        return ctx.t("rc.label.deployment")
    phase = team_battle_posts.phase_name(ctx, data.get("phase", ""))
    return ctx.t("rc.label.tb", round=data.get("round", 0), phase=phase)


def _owner(ctx: Ctx, owner: str) -> Markup:
    if ctx.game.ruleset == "team_battle":
        return ctx.side(owner)
    return ctx.fmt.esc(ctx.name(owner))


def _label_of_key(key: str) -> dict[str, Any]:
    if key.startswith("d"):
        return {"day": int(key[1:])}
    round_no, phase = key[1:].split("-", 1)
    return {"round": int(round_no), "phase": phase}


def _receipts(ctx: Ctx, group: Group) -> tuple[str, list[Section]]:
    sections: list[Section] = []
    for sealed in group.of("orders_sealed"):
        if "day" in sealed:
            intro = ctx.t("rc.sealed.island", day=sealed["day"])
        else:
            intro = ctx.t("rc.sealed.tb", phase=_receipt_label(ctx, sealed))
        items = [
            _owner(ctx, r["owner"])
            + Markup("：" if ctx.lang == "zh" else ": ")
            + ctx.fmt.mono(r["receipt"])
            for r in sealed["receipts"]
        ]
        sections.append(
            Section(
                title=_receipt_label(ctx, sealed),
                lines=[intro],
                items=items,
                quote=[ctx.t("rc.sealed.note")],
            )
        )
    for opened in group.of("receipts_opened"):
        intro = ctx.t("rc.opened.end" if opened.get("reason") == "end" else "rc.opened.revealed")
        sections.append(Section(lines=[intro]))
        for item in opened["receipts"]:
            label = _receipt_label(ctx, _label_of_key(item["key"]))
            sections.append(
                Section(
                    title=ctx.t("rc.opened.item", label=label, owner=_owner(ctx, item["owner"])),
                    lines=[
                        ctx.t("rc.salt", salt=ctx.fmt.mono(item["salt"])),
                        ctx.t("rc.receipt", receipt=ctx.fmt.mono(item["receipt"])),
                        ctx.t("rc.orders"),
                    ],
                    code=canonical_orders(item["orders"]),
                )
            )
        if opened["receipts"]:
            first = opened["receipts"][0]
            example = (
                "printf '%s:%s' '"
                + first["salt"]
                + "' '"
                + canonical_orders(first["orders"]).replace("'", "'\\''")
                + "' | sha256sum"
            )
            sections.append(Section(lines=[ctx.t("rc.how")], code=example))
    return ctx.raw("title.receipts", title=ctx.game.title), sections


# ----- notices ----------------------------------------------------------------------------------
def _notice(ctx: Ctx, group: Group, deadline: datetime | None) -> tuple[str, list[Section]]:
    items: list[Markup] = []
    quotes: list[Markup] = []
    for e in group.events:
        line = _notice_line(ctx, e, deadline)
        if line is not None:
            items.append(line)
        if e.kind == "announcement":
            quotes.append(ctx.fmt.esc(e.data.get("text", "")))
    sections = [Section(items=items)]
    if quotes:
        sections.append(Section(quote=quotes))
    return ctx.raw("title.notice", title=ctx.game.title), sections


def _notice_line(ctx: Ctx, e: PublicEvent, deadline: datetime | None) -> Markup | None:
    data = e.data
    if e.kind == "paused":
        return ctx.t("notice.paused")
    if e.kind == "resumed":
        line = ctx.t("notice.resumed")
        if deadline is not None:
            line = line + Markup(" ") + ctx.t("notice.new_deadline", when=ctx.when(deadline))
        return line
    if e.kind == "deadline_extended":
        when = deadline
        for key in ("deadline", "due_at", "new_deadline"):
            if isinstance(data.get(key), str):
                when = datetime.fromisoformat(data[key])
                break
        return ctx.t("notice.deadline_extended", when=ctx.when(when)) if when else None
    if e.kind == "announcement":
        return ctx.t("is.notice.announcement", day=data.get("day", ""))
    found = island_posts.notice_line(ctx, e.kind, data)
    return found if found is not None else team_battle_posts.director_notice(ctx, e.kind, data)


# ----- reminders and tallies --------------------------------------------------------------------
def _who(ctx: Ctx, entry: RosterEntry, mentions: bool) -> Markup:
    shown = entry.forum_name or entry.name
    if mentions and entry.forum_name:
        return ctx.fmt.mention(entry.forum_name)
    return ctx.fmt.esc(shown)


def reminder_post(
    game: GameInfo, waiting: Sequence[RosterEntry], deadline: datetime, mentions: bool
) -> PostDraft:
    """Before a deadline: the players who have not yet ordered or readied."""

    def build(ctx: Ctx) -> tuple[str, list[Section]]:
        if not waiting:
            return ctx.raw("title.reminder", title=game.title), [
                Section(lines=[ctx.t("reminder.nobody")])
            ]
        names = ctx.fmt.join([_who(ctx, w, mentions) for w in waiting], " ")
        section = Section(
            lines=[ctx.fmt.bold(ctx.t("reminder.line", when=ctx.when(deadline))), names]
        )
        return ctx.raw("title.reminder", title=game.title), [section]

    return _always(_post(game, "reminder", build, lambda ctx: ctx.t("footer.none")))


def tally_post(
    game: GameInfo,
    rows: Sequence[tuple[RosterEntry, bool, bool]],
    deadline: datetime | None,
) -> PostDraft:
    """Who has ordered and who is ready (never what they ordered)."""

    def build(ctx: Ctx) -> tuple[str, list[Section]]:
        team = game.ruleset == "team_battle"
        headers = [ctx.t("col.player")]
        if team:
            headers.append(ctx.t("col.side"))
        headers += [ctx.t("col.ordered"), ctx.t("col.ready")]
        table = []
        for who, ordered, ready in rows:
            row: list[Any] = [ctx.fmt.esc(who.forum_name or who.name)]
            if team:
                row.append(ctx.side(who.side) if who.side else ctx.t("dash"))
            row += [ctx.t("check" if ordered else "cross"), ctx.t("check" if ready else "cross")]
            table.append(row)
        lines = [ctx.t("tally.intro")]
        section = Section(lines=lines, table=(headers, table))
        extra = []
        if deadline is not None:
            extra.append(
                Section(lines=[ctx.fmt.bold(ctx.t("tally.deadline", when=ctx.when(deadline)))])
            )
        return ctx.raw("title.tally", title=game.title), [section, *extra]

    return _always(_post(game, "tally", build, lambda ctx: ctx.t("footer.none")))


def dump(post: PostDraft) -> str:
    """A post as one JSON document (golden files, debugging)."""
    return json.dumps(
        {"kind": post.kind, "title": post.title, "bodies": post.bodies},
        ensure_ascii=False,
        indent=2,
    )

"""Posts from public events: one post kind, three formats (BBCode, Markdown, plain text).

Pure: a post is a function of the public events of one step (plus the game's public
facts), so posts can be re-rendered, golden-tested and proven free of secrets. The caller
(the outbox) passes exactly the events whose audience contains "public", in order,
including the service events written in the same transaction (receipts, the seed).

The game's presentation (``registry.get_presentation(ruleset).posts``, see
:mod:`app.kit.posts`) says which of its events open which post kind and gives a builder per
kind, which turns the events into titled sections, already escaped for the format; a Jinja2
template per (format, kind) under ``templates/`` lays them out (``_post`` for a kind with
none of its own). Every phrase comes from ``catalogue.py`` or the game's own catalogue
(Chinese first, ``language: "en"`` English). A game without posts of its own, or a kind
without a builder, gets the kit's plain post: a line per event from ``event.<kind>``.

Post kinds every game has (see ``groups.py``):
- ``game_started``: ``game_started``
- ``game_finished``: ``game_over`` (with the game's end extras, ``seed_revealed``), or
  ``seed_revealed`` alone
- ``receipts``: ``orders_sealed`` / ``receipts_opened`` (see ``receipt_posts.py``)
- ``notice``: ``paused``, ``resumed``, ``deadline_extended`` and the game's notices, or
  context with no headline after it
- ``reminder`` and ``tally``: :func:`reminder_post`, :func:`tally_post` (no events)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from app.kit.formats import FORMATTERS, Text
from app.kit.post_parts import Ctx, GameInfo, Group, PostDraft, PublicEvent, RosterEntry, Section
from app.kit.posts import DEFAULT_POSTS, Posts, event_line, plain_post
from app.kit.words import Words
from app.publish.catalogue import PHRASES
from app.publish.groups import END_EXTRAS, RECEIPTS, group_events
from app.publish.receipt_posts import receipt_sections, receipts_post
from app.rules.registry import get_presentation

__all__ = [
    "FORMATS",
    "GameInfo",
    "PostDraft",
    "PostPlan",
    "PublicEvent",
    "RosterEntry",
    "plan_posts",
    "posts_for_events",
    "render_group",
    "reminder_post",
    "tally_post",
]

FORMATS = ("bbcode", "markdown", "text")
# Posts that mark a stage of every game: the thread is titled like them from then on.
STAGES = frozenset({"game_started", "game_finished"})
TEMPLATES = Path(__file__).parent / "templates"


def _posts(ruleset: str) -> Posts:
    found = get_presentation(ruleset).posts
    return found if found is not None else DEFAULT_POSTS


def _words(ruleset: str) -> Words:
    """The generic post words with the game's own catalogue over them."""
    return {**PHRASES, **get_presentation(ruleset).words}


@cache
def _environment(format_name: str, game_templates: str | None) -> Environment:
    """The templates of one format; a game's own (its ``Posts.templates``) come first."""
    fmt = FORMATTERS[format_name]
    search = [str(TEMPLATES)] if game_templates is None else [game_templates, str(TEMPLATES)]

    def finalize(value: Any) -> Markup:
        # Whatever a template prints that is not markup we made is escaped as user text.
        return Markup("") if value is None else fmt.esc(value)

    return Environment(
        loader=FileSystemLoader(search),
        autoescape=False,
        finalize=finalize,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )


def _render(ctx: Ctx, kind: str, heading: str, sections: list[Section], footer: Markup) -> str:
    fmt = ctx.fmt
    environment = _environment(fmt.name, _posts(ctx.game.ruleset).templates)
    template = environment.select_template(
        [f"{fmt.name}/{kind}.{fmt.ext}.j2", f"{fmt.name}/_post.{fmt.ext}.j2"]
    )
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
    words = _words(game.ruleset)
    for name in FORMATS:
        ctx = Ctx(game, FORMATTERS[name], words)
        title, sections = build(ctx)
        if all(s.empty() for s in sections):
            return None
        bodies[name] = _render(ctx, kind, title, sections, footer(ctx))
    stage = kind in STAGES or kind in _posts(game.ruleset).stages
    return PostDraft(kind=kind, title=title, bodies=bodies, thread_title=title if stage else None)


class _Planning(Text):
    """The format a post is planned in: its title (plain text, ``Ctx.raw``: the same in
    every format) and whether it has anything to say, without laying it out. Neither
    depends on how its text is escaped, and this text is never shown, so nothing is
    escaped (five expressions a value in the text format: a third of the planning, which
    runs inside the transaction that closes a phase)."""

    name = "plan"

    def _escape(self, text: str) -> str:
        return text


PLANNING = _Planning()


@dataclass(frozen=True)
class PostPlan:
    """A post of one group of events, planned but not rendered (``render_group``)."""

    kind: str
    title: str
    thread_title: str | None
    events: tuple[PublicEvent, ...]


def plan_posts(
    game: GameInfo, events: Sequence[PublicEvent], deadline: datetime | None
) -> list[PostPlan]:
    """The posts ``posts_for_events`` makes, without their bodies: the builders run once,
    in one format, and no template. ``render_group`` lays each one out later."""
    plans: list[PostPlan] = []
    game_posts = _posts(game.ruleset)
    words = _words(game.ruleset)
    for group in group_events(events, game_posts):
        ctx = Ctx(game, PLANNING, words)
        title, sections = _build(ctx, game_posts, group, deadline, planning=True)
        if all(s.empty() for s in sections):
            continue
        stage = group.kind in STAGES or group.kind in game_posts.stages
        thread_title = title if stage else None
        plans.append(PostPlan(group.kind, title, thread_title, tuple(group.events)))
    return plans


def render_group(
    game: GameInfo,
    kind: str,
    events: Sequence[PublicEvent],
    deadline: datetime | None,
    format_name: str,
) -> str:
    """One format's body of the post ``plan_posts`` planned for these events: exactly the
    text ``posts_for_events`` gives that format."""
    game_posts = _posts(game.ruleset)
    group = Group(kind, list(events))
    ctx = Ctx(game, FORMATTERS[format_name], _words(game.ruleset))
    title, sections = _build(ctx, game_posts, group, deadline)
    return _render(ctx, kind, title, sections, ctx.footer(group.events))


def _always(post: PostDraft | None) -> PostDraft:
    assert post is not None, "reminders and tallies always have something to say"
    return post


def posts_for_events(
    game: GameInfo, events: Sequence[PublicEvent], deadline: datetime | None
) -> list[PostDraft]:
    """The posts that the public events of ONE step (or one service action) call for, in
    order. ``deadline`` is the game's current deadline after that step (for phase_opened).
    The outbox stores ``plan_posts`` and renders later; this renders at once."""
    return [
        PostDraft(
            kind=plan.kind,
            title=plan.title,
            bodies={f: render_group(game, plan.kind, plan.events, deadline, f) for f in FORMATS},
            thread_title=plan.thread_title,
        )
        for plan in plan_posts(game, events, deadline)
    ]


def _build(
    ctx: Ctx, posts: Posts, group: Group, deadline: datetime | None, planning: bool = False
) -> tuple[str, list[Section]]:
    """The post's title and sections. ``planning``: only the title and whether any section
    says something are wanted, so the close's receipts, which only add to a post that
    already says something, are left out then."""
    if group.kind == "receipts":
        return receipts_post(ctx, group)
    if group.kind == "notice":
        return _notice(ctx, posts, group, deadline)
    builder = posts.builders.get(group.kind)
    if builder is not None:
        title, sections = builder(ctx, group, deadline)
    else:  # the kit's plain post, of the game's own events (the seed is shown below)
        own = Group(group.kind, [e for e in group.events if e.kind not in END_EXTRAS | RECEIPTS])
        title, sections = plain_post(ctx, own, deadline)
    if group.kind == "game_started":  # how to order, before the seed's commitment
        seed = [i for i, s in enumerate(sections) if s.title == ctx.t("head.seed")]
        sections.insert(seed[-1] if seed else len(sections), _how_to_order(ctx))
    if group.kind == "game_finished":
        if group.first("game_over") is None:
            title = ctx.raw("title.seed_revealed", title=ctx.game.title)
        sections.extend(_seed_sections(ctx, group))
    if any(e.kind in RECEIPTS for e in group.events):  # the close's receipts, last
        if not (planning and any(not s.empty() for s in sections)):
            sections.extend(receipt_sections(ctx, group, within=True))
    return title, sections


# ----- the start: how to order; the end: the seed and where to check -----------------------------
def _how_to_order(ctx: Ctx) -> Section:
    """How a player gives orders, in words: their page, or a reply in this thread."""
    play = ctx.page_url(f"/play/{ctx.game.id}")
    watch = ctx.page_url(f"/g/{ctx.game.id}")
    items = [
        ctx.t("how.page", link=ctx.fmt.link(play, ctx.phrase("how.page_label")))
        if play
        else ctx.t("how.page_offline"),
        ctx.t("how.thread"),
    ]
    if ctx.game.dm_bots:  # hidden orders by private message, once the account is linked
        items.append(ctx.t("how.dm", bots=ctx.join([ctx.fmt.esc(b) for b in ctx.game.dm_bots])))
    if ctx.has("post.how.example"):
        items.append(ctx.t("post.how.example"))
    if watch:
        items.append(ctx.t("how.watch", link=ctx.fmt.link(watch, ctx.phrase("how.watch_label"))))
    return Section(title=ctx.t("head.how"), items=items)


def _seed_sections(ctx: Ctx, group: Group) -> list[Section]:
    revealed = group.first("seed_revealed")
    if revealed is None:
        return []
    url = ctx.page_url(f"/g/{ctx.game.id}?verify=1")
    check = (
        ctx.t("seed.check", link=ctx.fmt.link(url, ctx.phrase("rc.check_label")))
        if url
        else ctx.t("seed.verify_offline")
    )
    quote = [ctx.t("seed.matches"), check]
    undos = revealed.get("undos")
    if isinstance(undos, int) and undos > 0:  # every undo was public; the end says how many
        quote.append(ctx.t("seed.undos", n=undos))
    section = Section(
        title=ctx.t("head.seed_revealed"),
        lines=[ctx.t("seed.revealed")],
        code=revealed["seed"],
        quote=quote,
    )
    return [section]


# ----- notices ----------------------------------------------------------------------------------
def _notice(
    ctx: Ctx, posts: Posts, group: Group, deadline: datetime | None
) -> tuple[str, list[Section]]:
    items: list[Markup] = []
    quotes: list[Markup] = []
    for e in group.events:
        line = _notice_line(ctx, e, deadline)
        if line is None:
            line = posts.notice_line(ctx, e.kind, e.data)
        if line is None and posts.others:
            line = event_line(ctx, e)
        if line is not None:
            items.append(line)
        if e.kind in posts.quoted:
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
    if e.kind == "steps_undone":
        return _undone_line(ctx, data)
    return None


def _undone_line(ctx: Ctx, data: dict[str, Any]) -> Markup:
    """The correction: what the director took back and why, the undo count, the deadline."""
    reason = str(data.get("reason") or "")
    if data.get("round") is not None:
        line = ctx.t("notice.undone_round", round=data["round"], reason=reason)
    else:
        line = ctx.t("notice.undone", n=len(data.get("steps") or []), reason=reason)
    line = line + Markup(" ") + ctx.t("notice.undone_count", n=data.get("undos", 1))
    if isinstance(data.get("deadline"), str):
        when = datetime.fromisoformat(data["deadline"])
        line = line + Markup(" ") + ctx.t("notice.new_deadline", when=ctx.when(when))
    return line


# ----- reminders and tallies --------------------------------------------------------------------
def _who(ctx: Ctx, entry: RosterEntry, mentions: bool) -> Markup:
    """The character's name, then the forum name — a mention where the channel notifies:
    "周瑜（@player2）"."""
    if not entry.forum_name:
        return ctx.fmt.esc(entry.name)
    forum = ctx.fmt.mention(entry.forum_name) if mentions else ctx.fmt.esc(entry.forum_name)
    if entry.forum_name == entry.name and not mentions:
        return forum
    return ctx.t("player_forum", name=entry.name, forum=forum)


def _time_left(ctx: Ctx, deadline: datetime, now: datetime | None) -> Markup | None:
    if now is None or deadline <= now:
        return None
    seconds = (deadline - now).total_seconds()
    step = 1800 if seconds >= 3 * 3600 else 60  # "还剩 2.5小时", "还剩 25分钟"
    return ctx.t("reminder.left", left=ctx.duration(max(step, round(seconds / step) * step)))


def reminder_post(
    game: GameInfo,
    waiting: Sequence[RosterEntry],
    deadline: datetime,
    mentions: bool,
    now: datetime | None = None,
) -> PostDraft:
    """Before a deadline: the players who have not yet ordered or readied, and the time left."""

    def build(ctx: Ctx) -> tuple[str, list[Section]]:
        if not waiting:
            return ctx.raw("title.reminder", title=game.title), [
                Section(lines=[ctx.t("reminder.nobody")])
            ]
        head = ctx.t("reminder.line", when=ctx.when(deadline))
        left = _time_left(ctx, deadline, now)
        if left is not None:
            head = left + head
        names = ctx.join([_who(ctx, w, mentions) for w in waiting])
        section = Section(lines=[ctx.fmt.bold(head), names])
        return ctx.raw("title.reminder", title=game.title), [section]

    return _always(_post(game, "reminder", build, lambda ctx: Markup("")))


def tally_post(
    game: GameInfo,
    rows: Sequence[tuple[RosterEntry, bool, bool]],
    deadline: datetime | None,
) -> PostDraft:
    """Who has ordered and who is ready (never what they ordered) — per side in a game of
    sides, where a side orders as one."""

    sides = _posts(game.ruleset).sides

    def state(ctx: Ctx, ordered: bool, ready: bool) -> Markup:
        return ctx.join(
            [
                ctx.t("tally.ordered" if ordered else "tally.not_ordered"),
                ctx.t("tally.ready" if ready else "tally.not_ready"),
            ]
        )

    def build(ctx: Ctx) -> tuple[str, list[Section]]:
        items: list[Markup] = []
        if sides:
            by_side: dict[str, list[tuple[RosterEntry, bool, bool]]] = {}
            for row in rows:
                by_side.setdefault(row[0].side or "", []).append(row)
            for side, members in by_side.items():
                ordered = any(o for _, o, _ in members)
                ready = any(r for _, _, r in members)
                items.append(
                    ctx.t(
                        "tally.side_line",
                        side=ctx.side(side) if side else ctx.t("dash"),
                        players=ctx.join([ctx.player(m[0]) for m in members]),
                        state=state(ctx, ordered, ready),
                    )
                )
        else:
            for who, ordered, ready in rows:
                items.append(
                    ctx.t("tally.line", player=ctx.player(who), state=state(ctx, ordered, ready))
                )
        lines = [ctx.t("tally.intro")]
        section = Section(lines=lines, items=items)
        extra = []
        if deadline is not None:
            extra.append(
                Section(lines=[ctx.fmt.bold(ctx.t("tally.deadline", when=ctx.when(deadline)))])
            )
        return ctx.raw("title.tally", title=game.title), [section, *extra]

    return _always(_post(game, "tally", build, lambda ctx: Markup("")))


def dump(post: PostDraft) -> str:
    """A post as one JSON document (golden files, debugging)."""
    return json.dumps(
        {"kind": post.kind, "title": post.title, "bodies": post.bodies},
        ensure_ascii=False,
        indent=2,
    )

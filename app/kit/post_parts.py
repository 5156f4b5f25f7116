"""What a post is made from (public events, public game facts) and what a game's post
builders write with: the per-format context ``Ctx``, a titled ``Section``, the ``Group`` of
events one post is built from. Pure: no I/O, no clock.

The words a ``Ctx`` speaks are one catalogue: the shell's generic post words with the game's
own catalogue over them (see :mod:`app.kit.words`), so a builder names a phrase by its key
whichever of the two it lives in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from markupsafe import Markup

from app.kit.formats import Format, plain
from app.kit.words import Words

# Zones a Chinese reader knows as 北京时间 (UTC+8, no summer time).
BEIJING_ZONES = frozenset({"Asia/Shanghai", "Asia/Chongqing", "Asia/Harbin", "PRC"})


@dataclass(frozen=True)
class PublicEvent:
    """An event the public may see (its audience contains "public")."""

    seq: int  # the public numbering, as GET /events gives it to callers without a token
    at: datetime  # UTC-aware
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True)
class RosterEntry:
    id: str
    name: str
    side: str | None
    forum_name: str | None


@dataclass(frozen=True)
class GameInfo:
    """Only public facts about a game."""

    id: str
    title: str
    ruleset: str  # the game type's registered name
    timezone: str  # IANA name; times are shown in it
    language: str  # "zh" | "en"
    settings: dict[str, Any]  # the ruleset settings; the builders choose the public ones
    roster: tuple[RosterEntry, ...]
    seed_commitment: str
    public_url: str | None  # e.g. "https://host", for "how to verify" links
    # Where hidden orders may also go by private message (the chat bots, as players find
    # them: "Telegram @forumplay_bot"); empty when the game takes none.
    dm_bots: tuple[str, ...] = ()


@dataclass(frozen=True)
class PostDraft:
    kind: str
    title: str
    bodies: dict[str, str]  # exactly the three FORMATS
    # What the thread should be called from this post on (a stage of the game), where the
    # channel may rename its thread; None leaves the thread's title as it is.
    thread_title: str | None = None
    # What to render the bodies from later (``app.publish.bodies``), when ``bodies`` is
    # empty: a post planned in its step's transaction.
    source: dict[str, Any] | None = None


@dataclass
class Section:
    """A titled block of a post: lines, then a table, a list, a quote or a code block."""

    title: Markup | None = None
    lines: list[Markup] = field(default_factory=list)
    table: tuple[list[Any], list[list[Any]]] | None = None
    items: list[Markup] = field(default_factory=list)
    numbered: bool = False
    quote: list[Markup] = field(default_factory=list)
    code: str | None = None

    def empty(self) -> bool:
        return not (self.lines or self.items or self.table or self.quote or self.code)


@dataclass
class Group:
    """The events one post is built from."""

    kind: str
    events: list[PublicEvent] = field(default_factory=list)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [e.data for e in self.events if e.kind == kind]

    def first(self, kind: str) -> dict[str, Any] | None:
        found = self.of(kind)
        return found[0] if found else None

    def event(self, kind: str) -> PublicEvent | None:
        for e in self.events:
            if e.kind == kind:
                return e
        return None


@dataclass
class Ctx:
    """One game, one language, one format: phrases, names, times, numbers."""

    game: GameInfo
    fmt: Format
    words: Words

    @property
    def lang(self) -> str:
        return "en" if self.game.language == "en" else "zh"

    def phrase(self, key: str) -> str:
        zh, en = self.words[key]
        return en if self.lang == "en" else zh

    def has(self, key: str) -> bool:
        return key in self.words

    def t(self, key: str, **fields: Any) -> Markup:
        """A catalogue phrase with its fields escaped for this format."""
        escaped = {k: self.fmt.esc(v) for k, v in fields.items()}
        return Markup(self.phrase(key).format(**escaped))

    def raw(self, key: str, **fields: Any) -> str:
        """A phrase as plain text (titles: not markup, so nothing to escape)."""
        return self.phrase(key).format(**{k: plain(v) for k, v in fields.items()})

    def join(self, parts: Sequence[Any]) -> Markup:
        return self.fmt.join(parts, str(self.t("list_sep")))

    def side(self, side: str) -> Markup:
        """A side as the game's words name it (``post.side.<side>``)."""
        key = f"post.side.{side}"
        return self.t(key) if self.has(key) else self.fmt.esc(side)

    def name(self, player_id: str) -> str:
        for entry in self.game.roster:
            if entry.id == player_id:
                return entry.name
        return player_id

    def names(self, player_ids: Sequence[str]) -> Markup:
        return self.join([self.name(p) for p in player_ids]) if player_ids else self.t("none")

    def player(self, entry: RosterEntry) -> Markup:
        """A roster entry as a roster table shows it: its name, and its forum name if other."""
        if entry.forum_name and entry.forum_name != entry.name:
            return self.t("player_forum", name=entry.name, forum=entry.forum_name)
        return self.fmt.esc(entry.name)

    def when(self, moment: datetime) -> str:
        """A moment in the game's time zone, with the zone and its offset spelled out."""
        local = moment.astimezone(ZoneInfo(self.game.timezone))
        offset = local.strftime("%z")
        sign, hours, minutes = offset[0], int(offset[1:3]), offset[3:5]
        shown = f"{sign}{hours}" if minutes == "00" else f"{sign}{hours}:{minutes}"
        weekday = self.phrase("weekdays").split()[local.weekday()]
        if self.lang == "en":
            date = f"{local.day} {local.strftime('%b')} {local.year}"
        else:
            date = f"{local.year}年{local.month}月{local.day}日"
        if self.game.timezone in BEIJING_ZONES:
            return self.raw("time.beijing", date=date, weekday=weekday, hm=local.strftime("%H:%M"))
        return self.raw(
            "time",
            date=date,
            weekday=weekday,
            hm=local.strftime("%H:%M"),
            zone=self.game.timezone,
            offset=shown,
        )

    def local_date(self, iso: str) -> str:
        year, month, day = (int(x) for x in iso.split("-"))
        if self.lang == "en":
            return datetime(year, month, day).strftime("%-d %b %Y")
        return f"{year}年{month}月{day}日"

    def duration(self, seconds: float) -> str:
        whole = int(seconds)
        for key, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
            if whole >= size and whole % size == 0:
                return self.raw(f"duration.{key}", n=whole // size)
        if whole >= 3600:
            return self.raw("duration.hours", n=round(whole / 3600, 1))
        if whole >= 60:
            return self.raw("duration.minutes", n=whole // 60)
        return self.raw("duration.seconds", n=whole)

    def page_url(self, path: str) -> str | None:
        """A page of this service (``/g/<id>``, ``/play/<id>``) when its address is public."""
        base = self.game.public_url
        return f"{base.rstrip('/')}{path}" if base else None

    def footer(self, events: Sequence[PublicEvent]) -> Markup:
        """A post's footer: nothing. Event numbers and a "forumplay" signature are counters a
        reader has no use for (issue 18 item 12); a game may still write its own."""
        return Markup("")


def commitment_section(ctx: Ctx) -> Section:
    """The seed commitment a game's opening post shows."""
    return Section(
        title=ctx.t("head.seed"),
        lines=[ctx.t("seed.commitment_intro")],
        code=fold_token(ctx.game.seed_commitment),
        quote=[ctx.t("seed.commitment_note")],
    )


def fold_token(token: str, width: int = 32) -> str:
    """A long token (a hash) in lines of ``width``: 64 hex digits in one line are wider than
    a phone, and no forum wraps inside a code block."""
    return "\n".join(token[i : i + width] for i in range(0, len(token), width)) or token


def order_name(ctx: Ctx, order_type: str) -> str:
    """An order's name from the game's catalogue (``order.<type>``), else its type readable."""
    key = f"order.{order_type}"
    if ctx.has(key):
        return ctx.phrase(key)
    return order_type.replace("_", " ").capitalize()

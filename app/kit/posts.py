"""A game's posts: what its public events are called in posts and how each post is built.

The shell (``app.publish``) groups the public events of one step into posts, renders each
in the three formats and sends them; a game's :class:`Posts` tells it

- ``headlines``: which of its events open a post, and the post's kind (``game_started`` and
  ``game_over`` open ``game_started`` and ``game_finished`` posts for every game);
- ``context``: which events belong to the next headline of the step (what a close revealed);
- ``notices``: which events are short notices (gathered into one ``notice`` post), and
  ``notice_line`` words each; ``quoted`` notices also quote their ``text``;
- ``end_extras``: which events the ``game_finished`` post gathers wherever they stand;
- ``closes``: the events that mark a close (the receipts sealed at it are read before it);
- ``builders``: post kind -> the function that writes its titled sections;
- ``sides``: whether the players play on sides (the tally shows each one's side);
- ``others``: whether events no post claims still get a post of their own;
- ``stages``: the post kinds that mark a stage of the game: from one of them on, the
  thread is titled like that post where the channel may rename it (``game_started`` and
  ``game_finished`` always are);
- ``templates``: a directory of the game's own post templates (``bbcode/<kind>.bbcode.j2``,
  ``markdown/<kind>.md.j2``, ``text/<kind>.txt.j2``), found before the shell's; a kind
  without one is laid out by the shell's ``<format>/_post.<ext>.j2``, which a game's
  template may extend.

A game that provides no ``Posts`` gets :data:`DEFAULT_POSTS`: every public event it emits
is one line of a plain post, from the game's ``event.<kind>`` words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from markupsafe import Markup

from app.kit.post_parts import Ctx, Group, PublicEvent, Section

Built = tuple[str, list[Section]]
Builder = Callable[[Ctx, Group, "datetime | None"], Built]
NoticeLine = Callable[[Ctx, str, dict[str, Any]], "Markup | None"]


class Posts(Protocol):
    @property
    def headlines(self) -> Mapping[str, str]: ...
    @property
    def context(self) -> frozenset[str]: ...
    @property
    def notices(self) -> frozenset[str]: ...
    @property
    def quoted(self) -> frozenset[str]: ...
    @property
    def end_extras(self) -> frozenset[str]: ...
    @property
    def closes(self) -> frozenset[str]: ...
    @property
    def builders(self) -> Mapping[str, Builder]: ...
    @property
    def sides(self) -> bool: ...
    @property
    def others(self) -> bool: ...
    @property
    def templates(self) -> str | None: ...
    @property
    def stages(self) -> frozenset[str]: ...

    def notice_line(self, ctx: Ctx, kind: str, data: dict[str, Any]) -> Markup | None: ...


def _no_line(ctx: Ctx, kind: str, data: dict[str, Any]) -> Markup | None:
    return None


@dataclass(frozen=True)
class GamePosts:
    """A game's :class:`Posts` as plain data; what it leaves out is the kit's default."""

    headlines: Mapping[str, str] = field(default_factory=dict)
    context: frozenset[str] = frozenset()
    notices: frozenset[str] = frozenset()
    quoted: frozenset[str] = frozenset()
    end_extras: frozenset[str] = frozenset()
    closes: frozenset[str] = frozenset()
    builders: Mapping[str, Builder] = field(default_factory=dict)
    sides: bool = False
    others: bool = True
    templates: str | None = None
    stages: frozenset[str] = frozenset()
    line: NoticeLine = _no_line

    def notice_line(self, ctx: Ctx, kind: str, data: dict[str, Any]) -> Markup | None:
        return self.line(ctx, kind, data)


DEFAULT_POSTS: Posts = GamePosts()


# ----- the kit's plain post: one line per event, from the game's ``event.<kind>`` words --------
def event_line(ctx: Ctx, e: PublicEvent) -> Markup:
    """The game's ``line.<kind>`` (or else its ``event.<kind>`` name) filled with the event's
    plain fields; never the raw kind."""
    fields = {k: v for k, v in e.data.items() if isinstance(v, str | int | float)}
    for key in (f"line.{e.kind}", f"event.{e.kind}"):
        if ctx.has(key):
            try:
                return ctx.t(key, **fields)
            except (KeyError, IndexError, ValueError):
                pass
    return ctx.t("event_line.unnamed", seq=e.seq)


def plain_post(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    """The kit's post for a group of events no builder of the game writes."""
    key = f"title.{group.kind}"
    title = ctx.raw(key if ctx.has(key) else "title.events", title=ctx.game.title)
    lines = [event_line(ctx, e) for e in group.events]
    return title, [Section(items=lines)] if lines else []

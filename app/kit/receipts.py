"""A game's sealing of hidden orders into receipts: which orders a close seals, and the words
a receipts post names them with. The hashing and salting are the shell's and neutral
(``app.publish.receipts``); a game says only *what* is sealed, *when*, and *by whom*.

- ``close_of(before, events)``: the close a step performed (judged from the state before it
  and its events), or None;
- ``current(state, actor)``: the actor's (phase key, owner, orders) as they would be sealed
  if the phase closed now, or None (an order's reply carries its receipt);
- ``label(ctx, data)``: a close's name (it opens
  its receipts line), from the ``label`` fields a :class:`Close` carries;
- ``label_of_key(key)``: those fields again from a phase key (an opened receipt has only it);
- ``owner(ctx, owner)``: who a receipt belongs to, as a post names them.

A game that provides no sealer gets :data:`DEFAULT_SEALER`: it seals nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from markupsafe import Markup

from app.kit.post_parts import Ctx

JSON = dict[str, Any]


class Event(Protocol):
    """What a sealer reads of an event (``app.rules.base.Event`` is one)."""

    @property
    def kind(self) -> str: ...

    @property
    def data(self) -> JSON: ...


class Actor(Protocol):
    """What a sealer reads of who acted (``app.rules.base.Actor`` is one)."""

    @property
    def player_id(self) -> str | None: ...

    @property
    def side(self) -> str | None: ...


@dataclass(frozen=True)
class Close:
    """One phase close: its key, a description for posts, and what each owner sealed."""

    key: str
    label: JSON  # the game's fields naming the close (its round and phase, its day...)
    sealed: dict[str, list[JSON]]  # owner -> canonical orders, owners in a fixed order
    opens_at_once: bool  # the orders are revealed by the closing step itself


class Sealer(Protocol):
    def close_of(self, before: JSON, events: Iterable[Event]) -> Close | None: ...

    def current(self, state: JSON, actor: Actor) -> tuple[str, str, list[JSON]] | None: ...

    def label(self, ctx: Ctx, data: JSON) -> Markup: ...

    def label_of_key(self, key: str) -> JSON: ...

    def owner(self, ctx: Ctx, owner: str) -> Markup: ...


class BaseSealer:
    """Seals nothing; names a close by its key and an owner by the player's name. A game's
    sealer overrides what it seals and how it names it."""

    def close_of(self, before: JSON, events: Iterable[Event]) -> Close | None:
        return None

    def current(self, state: JSON, actor: Actor) -> tuple[str, str, list[JSON]] | None:
        return None

    def label(self, ctx: Ctx, data: JSON) -> Markup:
        return ctx.fmt.esc(data.get("key", ""))

    def label_of_key(self, key: str) -> JSON:
        return {"key": key}

    def owner(self, ctx: Ctx, owner: str) -> Markup:
        return ctx.fmt.esc(ctx.name(owner))


DEFAULT_SEALER: Sealer = BaseSealer()

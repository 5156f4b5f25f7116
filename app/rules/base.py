"""The contract between the pure rules core and the service shell.

A ruleset is a package under ``app.rules`` that exports one object implementing
:class:`Ruleset`. It never imports the web, the database, the clock or the global
``random``: time arrives as ``now`` and randomness as a ``random.Random`` that the
shell derives from (game seed, step id) with :func:`step_rng`.

Everything that happens to a running game is a :class:`Step`: a player's order, its
withdrawal, "ready", a due timer, a director's edit. The shell records every step
(kind, actor, payload, time) before it commits, so a game can be replayed from its
seed and its steps, byte for byte (``GET /verify``).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar, Literal, Protocol

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

# Re-exported: rulesets and tests import them from here.
from app.rules.copying import CopiedOnRead as CopiedOnRead
from app.rules.copying import copy_json as copy_json
from app.rules.copying import copy_state as copy_state
from app.rules.copying import settled_state

JSON = dict[str, Any]

# Step kinds the shell produces. A ruleset may reject any it does not support
# with RuleViolation("unsupported_step", ...).
STEP_START = "start"  # the director started the game (leaves setup)
STEP_ORDER = "order"  # payload: {"order_id": str, "order": {...body...}}
STEP_REVISE = "revise"  # payload: {"order_id": str, "order": {...new body...}}
STEP_WITHDRAW = "withdraw"  # payload: {"order_id": str}
STEP_READY = "ready"  # payload: {}
STEP_TIMER = "timer"  # payload: {"kind": str, "key": str, "data": {...timer payload...}}
STEP_DIRECTOR = "director"  # payload: {"action": str, ...}; ruleset-specific state edits


class RuleViolation(Exception):
    """An order or action that the rules (or the game's phase) do not allow.

    ``code`` is a stable machine code, ``rule`` the rule ID broken (as the game's rules
    document numbers it) or None, ``message_zh``/``message_en`` what a player reads.
    ``status`` is the HTTP status the shell answers with: 409 for rule/phase conflicts
    (the default), 404 when the thing named must not be confirmed to exist, 422 for a
    malformed body.
    A ruleset must raise it before changing anything.
    """

    def __init__(
        self,
        code: str,
        rule: str | None,
        message_zh: str,
        message_en: str,
        status: int = 409,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{code} ({rule}): {message_en}")
        self.code = code
        self.rule = rule
        self.message_zh = message_zh
        self.message_en = message_en
        self.status = status
        # Further problem fields for the caller (e.g. the words a text order could not read).
        self.extra: dict[str, Any] = dict(extra or {})


@dataclass(frozen=True, slots=True)
class Player:
    """One roster entry. ``side`` is the player's side in a game with sides (e.g. "A"/"B"),
    None where the game has none."""

    id: str
    name: str
    side: str | None = None


@dataclass(frozen=True, slots=True)
class Actor:
    """Who caused a step: a player (with their side), the director, or the system (timers)."""

    role: Literal["player", "director", "system"]
    player_id: str | None = None
    side: str | None = None


SYSTEM = Actor(role="system")
DIRECTOR = Actor(role="director")


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: the director, one player (with their side), or the public."""

    role: Literal["director", "player", "public"]
    player_id: str | None = None
    side: str | None = None


PUBLIC_VIEWER = Viewer(role="public")
DIRECTOR_VIEWER = Viewer(role="director")


@dataclass(frozen=True, slots=True)
class Step:
    """One input to a game. ``id`` is stable across replays (the shell uses "s<seq>")."""

    id: str
    kind: str
    actor: Actor
    payload: Mapping[str, Any] = field(default_factory=dict)


# Audience tags. An event is visible to a viewer when any tag matches, or once its
# ``reveal_at`` condition holds (``"end"``: when the game is finished).
AUDIENCE_PUBLIC = "public"
AUDIENCE_DIRECTOR = "director"


def side_audience(side: str) -> str:
    return f"side:{side}"


def player_audience(player_id: str) -> str:
    return f"player:{player_id}"


@dataclass(frozen=True, slots=True)
class Event:
    """Something a step caused, with who may see it.

    ``data`` must be JSON-serialisable and deterministic (no times from the wall clock,
    no set ordering), since replay compares it byte for byte. The director always sees
    every event; ``audience`` needs to list ``"director"`` only for director-only events.
    """

    kind: str
    data: JSON
    audience: tuple[str, ...] = (AUDIENCE_PUBLIC,)
    reveal_at: str | None = None


def event_visible(
    audience: Sequence[str], reveal_at: str | None, viewer: Viewer, finished: bool
) -> bool:
    """The single audience filter for events, used by every endpoint that lists them."""
    if viewer.role == "director":
        return True
    if AUDIENCE_PUBLIC in audience:
        return True
    if reveal_at == "end" and finished:
        return True
    if viewer.role == "player":
        if viewer.side is not None and side_audience(viewer.side) in audience:
            return True
        if viewer.player_id is not None and player_audience(viewer.player_id) in audience:
            return True
    return False


@dataclass(frozen=True, slots=True)
class TimerSpec:
    """A deadline the ruleset wants: (kind, key) is unique per game; scheduling the
    same (kind, key) again replaces the earlier one. ``due_at`` is UTC-aware."""

    kind: str
    key: str
    due_at: datetime
    data: JSON = field(default_factory=dict)


@dataclass(slots=True)
class Outcome:
    """What ``apply`` returns.

    - ``state``: the new state (a fresh object; the input state is never mutated);
    - ``events``: what happened, in order, each with its audience;
    - ``timers``: deadlines to (re)schedule; ``cancel_timers``: (kind, key) to drop;
    - ``order_status``: order_id -> new status for orders this step touched
      (``"pending"``, ``"withdrawn"``, ``"resolved"``, ``"void"``, ``"held"`` ...);
    - ``finished``: the game is over (the shell reveals the seed);
    - ``reply``: extra fields for the HTTP reply to the actor (e.g. an immediate
      action's private result). It must already be filtered for the actor.
    """

    state: JSON
    events: list[Event] = field(default_factory=list)
    timers: list[TimerSpec] = field(default_factory=list)
    cancel_timers: list[tuple[str, str]] = field(default_factory=list)
    order_status: dict[str, str] = field(default_factory=dict)
    finished: bool = False
    reply: JSON = field(default_factory=dict)

    def __post_init__(self) -> None:
        # What ``copy_state`` handed the step goes out as plain JSON again.
        if isinstance(self.state, dict):
            self.state = settled_state(self.state)


@dataclass(slots=True)
class StepContext:
    """What one ``apply`` call accumulates, for a ruleset to extend with its own fields
    and its own ``emit``; ``outcome()`` packs it up."""

    state: JSON
    rng: random.Random
    now: datetime
    events: list[Event] = field(default_factory=list)
    timers: list[TimerSpec] = field(default_factory=list)
    cancel_timers: list[tuple[str, str]] = field(default_factory=list)
    order_status: dict[str, str] = field(default_factory=dict)
    reply: JSON = field(default_factory=dict)
    finished: bool = False

    def outcome(self) -> Outcome:
        return Outcome(
            state=self.state,
            events=self.events,
            timers=self.timers,
            cancel_timers=self.cancel_timers,
            order_status=self.order_status,
            finished=self.finished,
            reply=self.reply,
        )


# --- orders in words ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Named:
    """Something a text order may name (a player, an item, a monster): its id and every
    name it answers to, the display name first."""

    id: str
    names: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.names[0] if self.names else self.id


@dataclass(frozen=True, slots=True)
class TextContext:
    """What a ruleset's grammar may look names up in, built by ``Ruleset.text_context``
    from what the viewer may see (so parsing never reveals anything a view would not).

    ``roster``: the players who may be named; ``me``: the player typing; ``items`` and
    ``monsters``: things of the game's world the viewer may name (e.g. the items the viewer
    holds, the creatures in sight); ``here``: ids of those nearest the viewer, preferred
    when a name fits several; ``challenges``: open contests the viewer can see, as (id,
    attackers, defenders)."""

    roster: tuple[Named, ...] = ()
    me: str | None = None
    items: tuple[Named, ...] = ()
    monsters: tuple[Named, ...] = ()
    here: tuple[str, ...] = ()
    challenges: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class ParsedOrders:
    """Text read as order bodies (exactly what ``POST /orders`` takes, optional fields at
    their defaults left out), and how they were understood, in words."""

    orders: list[JSON]
    echo_zh: str
    echo_en: str


class BodyModel:
    """One family of a ruleset's request bodies — its orders, or its director's actions —
    as a pydantic model: a ``RootModel`` over a union discriminated on ``tag``.

    ``model`` documents the bodies (OpenAPI); ``adapter``, built once here because order
    submission is the hot path, checks them. Checking never changes a body: the ruleset
    still reads the body as sent, and the rules (409) are judged only after it passes.
    """

    __slots__ = ("adapter", "model", "tag")

    def __init__(self, model: type[BaseModel], tag: str) -> None:
        self.model = model
        self.tag = tag
        self.adapter: TypeAdapter[Any] = TypeAdapter(model)

    def problems(self, body: Any) -> list[tuple[str, ErrorDetails]]:
        """What is wrong with ``body``, each with the dotted path of its field
        (``moves.0.from``); empty when it is well formed. A field whose wrong value breaks
        a rule (a diagonal move) raises that RuleViolation instead."""
        try:
            self.adapter.validate_python(body)
        except ValidationError as error:
            return [(_field(body, e["loc"]), e) for e in error.errors(include_url=False)]
        return []


def _field(body: Any, loc: tuple[int | str, ...]) -> str:
    """A discriminated union puts the tag it chose into an error's location
    (``<tag>.slot``); that is not a field of the body, so it is left out."""
    parts: list[str] = []
    here = body
    for part in loc:
        if isinstance(here, dict):
            if part not in here and part in (here.get("type"), here.get("action")):
                continue
            here = here.get(part)
        elif isinstance(here, list) and isinstance(part, int) and 0 <= part < len(here):
            here = here[part]
        else:
            here = None
        parts.append(str(part))
    return ".".join(parts)


class Ruleset(Protocol):
    """What every game type implements. See the module docstring."""

    name: ClassVar[str]
    settings_model: ClassVar[type[BaseModel]]
    # The request bodies the ruleset accepts, checked by the shell before a step is run:
    # a malformed body is a 422 that changes nothing (``app/services/bodies.py``).
    order_model: ClassVar[BodyModel]  # POST/PUT /orders, discriminated on "type"
    director_action_model: ClassVar[BodyModel]  # POST /director/actions, on "action"
    # Every event kind the game can emit: its catalogue names each (``event.<kind>``).
    event_kinds: ClassVar[frozenset[str]]
    # The kinds of its timers that are a deadline: orders after one is due are late, an
    # all-ready close skips it, reminders and the tally count down to it.
    deadline_timer_kinds: ClassVar[tuple[str, ...]]
    # What ``view`` returns, for the API documentation (extra fields allowed).
    view_model: ClassVar[type[BaseModel]]

    def initial_state(self, settings: BaseModel, roster: Sequence[Player]) -> JSON:
        """The state at the start step, before ``apply(STEP_START)``. Pure, no RNG."""
        ...

    def validate_roster(self, settings: BaseModel, roster: Sequence[Player]) -> None:
        """Raise RuleViolation if the game cannot start with this roster."""
        ...

    def validate_player(
        self, settings: BaseModel, name: str, side: str | None, roster_size: int = 0
    ) -> None:
        """Raise RuleViolation if a player with this side may not be added to a roster of
        ``roster_size`` players (a full scenario refuses at once, not only at the start)."""
        ...

    def validate(self, state: JSON, step: Step, now: datetime) -> None:
        """Raise RuleViolation if ``step`` is not allowed now. Never mutates."""
        ...

    def apply(self, state: JSON, step: Step, rng: random.Random, now: datetime) -> Outcome:
        """Validate then apply one step. Deterministic in (state, step, rng, now)."""
        ...

    def view(self, state: JSON, viewer: Viewer) -> JSON:
        """Exactly what ``viewer`` may see of the state right now. The only such place."""
        ...

    def phase(self, state: JSON) -> str:
        """The current phase name for the public summary."""
        ...

    def available_orders(self, state: JSON, viewer: Viewer, now: datetime) -> list[JSON]:
        """The orders ``viewer`` could give now: per order ``type``, ``allowed``, and when
        not, the ``code``, ``rule`` and ``message_zh``/``message_en`` the engine would
        answer; ``choices`` lists the targets that would pass. Judged by the ruleset's
        own validation, on what the viewer may know. Pure."""
        ...

    def is_finished(self, state: JSON) -> bool: ...

    def text_context(self, state: JSON, viewer: Viewer) -> TextContext:
        """What ``viewer`` may name in a text order: only what their view shows or the
        game's public roster and scenario vocabulary."""
        ...

    def is_public_order(self, order: JSON) -> bool:
        """Whether ``order`` may be given in the open (a forum thread): a hidden order
        posted there would be known to all, so the forum bridge refuses it. Pure."""
        ...

    def parse_orders(self, text: str, context: TextContext) -> ParsedOrders:
        """Read orders written in words (Chinese or English). Reads text only, never the
        rules: a RuleViolation with status 422 (code ``not_understood``, ``extra`` naming
        the ``unknown`` words and name ``candidates``) when it cannot."""
        ...


def seed_commitment(seed: str) -> str:
    """The public SHA-256 commitment to a game's secret seed (hex)."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def step_rng(seed: str, step_id: str) -> random.Random:
    """The RNG for one step: derived from (seed, step id) and nothing else."""
    digest = hashlib.sha256(f"{seed}\x00{step_id}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))

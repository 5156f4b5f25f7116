"""What each route answers, as pydantic models: the OpenAPI document's response schemas.

Routes return their JSON as built by the services (so answers stay byte for byte what
they were, and the order hot path pays for no second serialisation); these models say
what that JSON is. Fields that some answers lack have defaults (so they are not required);
objects allow further fields, which the API may add (API.md: "add fields freely").
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, create_model

from app.rules.registry import all_rulesets

GameStatus = Literal["setup", "running", "paused", "finished"]


class PlayerEntry(BaseModel):
    id: str
    name: str
    side: str | None


class GameSummary(BaseModel):
    """A game's public summary."""

    id: str
    ruleset: str
    title: str
    status: GameStatus
    phase: str
    deadline: datetime | None = Field(description="The current phase's deadline, if any.")
    deadline_remaining_seconds: float | None = Field(
        description="While paused: the time the deadline had left."
    )
    timezone: str
    seed_commitment: str = Field(description="SHA-256 of the secret seed (hex).")
    seed: str | None = Field(description="Revealed once the game is over.")
    players: list[PlayerEntry]
    created_at: datetime


class CreatedGame(BaseModel):
    """A new game: its director token is shown this once."""

    id: str
    ruleset: str
    title: str
    director_token: str
    seed_commitment: str
    timezone: str
    settings: dict[str, Any] = Field(description="Every setting's effective value.")
    options: dict[str, Any] = Field(description="Every service option's effective value.")
    status: GameStatus


class CreatedPlayer(BaseModel):
    """A new player: their token is shown this once."""

    id: str
    name: str
    side: str | None
    token: str


class You(BaseModel):
    """Who the caller is in this game."""

    role: Literal["director", "player", "public"]
    id: str | None = None
    name: str | None = None
    side: str | None = None


class _ViewBase(BaseModel):
    """What every view carries besides the ruleset's own fields."""

    game_id: str
    status: GameStatus
    you: You
    deadline: datetime | None
    deadline_remaining_seconds: float | None = None


class SetupView(_ViewBase):
    """A game still in setup: no state yet."""

    phase: Literal["setup"]
    round: None
    winner: None


def _game_view(ruleset_view: type[BaseModel]) -> type[BaseModel]:
    """A ruleset's view (``Ruleset.view_model``) plus what the service adds to it."""
    name = ruleset_view.__name__
    return create_model(name.removesuffix("View") + "GameView", __base__=(ruleset_view, _ViewBase))


# Every ruleset's view, then the setup view: what GET /view answers (anyOf).
VIEW_MODELS: tuple[type[BaseModel], ...] = (
    *(_game_view(r.view_model) for r in all_rulesets().values()),
    SetupView,
)


class Event(BaseModel):
    """One event the caller may see. ``seq`` is the caller's own gap-free numbering."""

    seq: int
    at: datetime
    kind: str
    data: dict[str, Any]
    audience: list[str] | None = Field(None, description="Who may see it (director only).")
    undone: bool = Field(False, description="Its step was taken back by a director's undo.")


class Order(BaseModel):
    """An order as stored. A just-submitted order may carry the ruleset's private answer
    (an instant action's ``result``…)."""

    id: str
    type: str
    status: str = Field(description="pending, resolved, held, withdrawn, replaced, void…")
    side: str | None
    player_id: str
    body: dict[str, Any] = Field(description="The order's body as submitted.")
    created_at: datetime
    updated_at: datetime
    echo: str | None = Field(None, description="For an order sent in words: how it was understood.")


class ParsedText(BaseModel):
    """Orders read from words, and how they were understood (``POST /orders/parse``)."""

    orders: list[dict[str, Any]] = Field(
        description="Order bodies, exactly as POST /orders takes them (defaults left out)."
    )
    echo: str = Field(
        description="The understanding in canonical words (Chinese; English with "
        "Accept-Language: en).",
        examples=["调兵：3号位→2号位，4人；反击：2号位"],
    )


class OrderRevision(BaseModel):
    """One change of an order: its submission, a revision, its withdrawal."""

    action: str
    status: str
    body: dict[str, Any] | None
    by_role: str
    by_player_id: str | None
    at: datetime


class Ready(BaseModel):
    ok: bool
    status: GameStatus


class Verification(BaseModel):
    """The game re-run from its revealed seed and recorded steps."""

    ok: bool
    commitment_ok: bool
    steps: int
    events: int
    seed: str
    seed_commitment: str
    mismatches: list[dict[str, Any]]


class DeletedGame(BaseModel):
    """What deleting did: a game in setup is deleted (nothing of it is left to read); a
    finished one is archived (hidden from the lists, its pages and archive kept)."""

    id: str
    title: str
    deleted: bool
    archived: bool


class Advanced(BaseModel):
    advanced: dict[str, Any] = Field(description="The timer run early, or the phase closed.")
    game: GameSummary
    dry_run: bool = Field(False, description="True: what it would run; nothing was run.")


class DirectorActionDone(BaseModel):
    ok: bool
    result: dict[str, Any]
    events: list[str] = Field(description="The kinds of the events the action caused.")
    dry_run: bool = Field(False, description="True: what it would cause; nothing changed.")
    finishes: bool | None = Field(None, description="With dry_run: whether it ends the game.")


class AuditEntry(BaseModel):
    id: int
    actor: str
    action: str
    payload: dict[str, Any]
    at: datetime


class TimerEntry(BaseModel):
    kind: str
    key: str
    due_at: datetime | None
    remaining_seconds: float | None
    extensions: int
    data: dict[str, Any]
    attempts: int = Field(0, description="Runs in a row that raised (retried with backoff).")
    failed_at: datetime | None = Field(
        None, description="Parked after its retries ran out; resume runs it again."
    )
    last_error: str | None = None

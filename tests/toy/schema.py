"""The toy duel's settings, request bodies and view, as pydantic models."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from app.rules.base import BodyModel

HANDS = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}  # key beats value
Hand = Literal["rock", "paper", "scissors"]


class ToySettings(BaseModel):
    """How long a duel lasts."""

    model_config = ConfigDict(extra="forbid")

    rounds: int = Field(3, ge=1, le=9, description="Rounds to play.")
    round_seconds: int | None = Field(
        3600, ge=60, le=7 * 86400, description="Seconds per round; null: no deadline."
    )
    early_close_when_ready: bool = Field(
        True, description="Close a round as soon as both players are ready."
    )


class ShoutOrder(BaseModel):
    """A taunt the whole thread reads at once (public)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    type: Literal["shout"]
    # Not "text": the shell reads a body with a "text" field as an order in words.
    taunt: str = Field(min_length=1, max_length=140)


class ThrowOrder(BaseModel):
    """The round's hand (hidden until the round closes)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    type: Literal["throw"]
    hand: Hand


class ToyOrder(RootModel[Any]):
    """A duel order, by its ``type``."""

    root: Annotated[ShoutOrder | ThrowOrder, Field(discriminator="type")]


class CloseRoundAction(BaseModel):
    """Close the current round now."""

    model_config = ConfigDict(extra="forbid", strict=True)

    action: Literal["close_round"]


class ToyDirectorAction(RootModel[Any]):
    """A director's tool, by its ``action``."""

    root: Annotated[CloseRoundAction, Field(discriminator="action")]


class ToyView(BaseModel):
    """What the caller may see of a duel."""

    ruleset: Literal["toy_duel"]
    round: int
    rounds: int
    phase: Literal["throwing", "finished"]
    winner: str | None
    scores: dict[str, int]
    players: list[dict[str, Any]]
    history: list[dict[str, Any]]
    shouts: list[dict[str, Any]]
    settings: dict[str, Any]
    orders: list[dict[str, Any]] | None = Field(
        None, description="The caller's own orders (the director: all)."
    )
    ready: dict[str, bool] | None = None


ORDER_MODEL = BodyModel(ToyOrder, "type")
DIRECTOR_ACTION_MODEL = BodyModel(ToyDirectorAction, "action")
ORDER_TYPES = ("shout", "throw")
PUBLIC_ORDERS = frozenset({"shout"})
DIRECTOR_TOOLS = ("close_round",)

"""The answers of the sign-up routes (API: "Sign-ups"), as the OpenAPI document shows them."""

from __future__ import annotations

from pydantic import BaseModel, Field


class SignupEntry(BaseModel):
    name: str
    forum_name: str | None = None


class SignupList(BaseModel):
    """``GET /signup``: names only."""

    open: bool
    configured: bool = Field(description="Whether the director has set sign-ups up at all.")
    max_players: int | None
    min_players: int
    approval: str
    closes_at: str | None
    listed: bool = Field(description="Shown on the home page's list of games.")
    players: list[SignupEntry]
    waitlist: list[SignupEntry]
    pending: list[SignupEntry]
    needed: int = Field(description="How many more players the game wants.")
    sides: list[str] = Field(description="The sides a player may ask for (none: no sides).")


class CreatedSignup(BaseModel):
    id: str
    status: str = Field(description="`player` | `waitlist` | `pending`")
    token: str = Field(
        description="Shown once: the seat's player token (or, waiting, this sign-up's)."
    )
    player_id: str | None


class Signup(BaseModel):
    id: str
    name: str
    forum_name: str | None
    side: str | None
    status: str = Field(
        description="`player` | `waitlist` | `pending` | `offered` | `withdrawn` | `rejected` "
        "| `dropped`"
    )
    player_id: str | None
    source: str
    created_at: str
    waitlist_place: int | None = None
    seat: str | None = None
    offered_to: str | None = None
    list: SignupList | None = None


class DroppedSeat(BaseModel):
    player_id: str
    seat: str
    status: str
    offered_to: str | None = Field(description="The backup the seat is offered to, if any.")
    revoked_sessions: int


class WithdrawnSignup(BaseModel):
    """A sign-up withdrawn (before the start) or a seat dropped (after it)."""

    id: str | None = None
    status: str
    name: str | None = None
    player_id: str | None = None
    seat: str | None = None
    offered_to: str | None = None
    list: SignupList | None = None


class PostedList(BaseModel):
    post_id: str
    list: SignupList


class CoDirector(BaseModel):
    id: str
    name: str
    scope: str = Field(description="`all` | `review`")
    created_at: str
    revoked_at: str | None
    token: str | None = Field(None, description="Shown once, when invited.")

"""Request bodies. Game-specific order bodies stay free-form: the ruleset validates them."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field

from app.rules.registry import all_rulesets
from app.rules.textorders import OrderText
from app.rules.types import Identifier, Line, Name, Seconds, Title

# The longest IANA zone name is 32 characters; the column holds 64.
TimeZoneName = Annotated[Line, Field(min_length=1, max_length=64)]
Side = Annotated[Identifier, Field(max_length=16)]


class CreateGame(BaseModel):
    ruleset: Annotated[Identifier, Field(max_length=32)] = Field(
        description=" or ".join(f'"{name}"' for name in all_rulesets())
    )
    title: Annotated[Title, Field(min_length=1)] | None = Field(
        None, description="Default: the scenario's title"
    )
    settings: dict[str, Any] = Field(default_factory=dict, description="The ruleset's settings")
    timezone: TimeZoneName | None = Field(None, description="IANA zone, e.g. Asia/Shanghai")
    scenario: str | dict[str, Any] | None = Field(
        None,
        description="A scenario (JSON or YAML text, or an object) whose settings the game "
        "starts from; `settings` then overrides single fields.",
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="Service options: missed_deadline (run|pause), max_extensions_per_deadline…",
    )


class AddPlayer(BaseModel):
    name: Name = Field(
        description="Stored NFKC-normalised and trimmed; no invisible or control characters; "
        "unique in the game in that form"
    )
    side: Side | None = Field(None, description='"A" or "B" in team battle')
    forum_name: Name | None = Field(None, description="Their name on the forum (reminders)")


class ExtendDeadline(BaseModel):
    seconds: Annotated[Seconds, Field(gt=0)] = Field(description="How much later (≤ 30 days)")
    kind: Annotated[Identifier, Field(max_length=32)] | None = Field(
        None, description="Which timer (default: the phase deadline)"
    )
    key: Identifier | None = None


class TextOrders(BaseModel):
    text: OrderText = Field(
        description="Orders in words, Chinese or English, e.g. 调兵 3→2 4人；反击2",
        examples=["调兵 3号位到2号位 4人；反击2"],
    )

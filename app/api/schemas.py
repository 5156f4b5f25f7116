"""Request bodies. Game-specific order bodies stay free-form: the ruleset validates them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.rules.textorders import OrderText


class CreateGame(BaseModel):
    ruleset: str = Field(description='"team_battle" or "island"')
    title: str | None = Field(
        None, min_length=1, max_length=200, description="Default: the scenario's title"
    )
    settings: dict[str, Any] = Field(default_factory=dict, description="The ruleset's settings")
    timezone: str | None = Field(None, description="IANA zone, e.g. Asia/Shanghai")
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
    name: str = Field(min_length=1, max_length=100)
    side: str | None = Field(None, description='"A" or "B" in team battle')


class ExtendDeadline(BaseModel):
    seconds: float = Field(gt=0, le=7 * 24 * 3600, description="How much later")
    kind: str | None = Field(None, description="Which timer (default: the phase deadline)")
    key: str | None = None


class TextOrders(BaseModel):
    text: OrderText = Field(
        description="Orders in words, Chinese or English, e.g. 调兵 3→2 4人；反击2",
        examples=["调兵 3号位到2号位 4人；反击2"],
    )

"""Team Battle settings: every number and every "Default" of the rules.

Each field's description cites the rule ID it comes from (``docs/rules/team-battle.md``
explains each rule, its setting and the readings that are not settings); the director may
change any of them, since the original says the rules may be added to or removed as needed.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.rules.team_battle.order_types import ORDER_TYPES, OrderType
from app.rules.team_battle.schema import MAX_TROOPS
from app.rules.types import MAX_DURATION_SECONDS

SIDES = ("A", "B")


class TeamBattleSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    slots: int = Field(5, ge=1, le=20, description="TB-2: number of parallel slots per side")
    troops: dict[str, Annotated[int, Field(le=MAX_TROOPS)]] = Field(
        default_factory=lambda: {"A": 30, "B": 30},
        description="TB-3: each side's troop total, set by the director (keys 'A' and 'B')",
    )

    # Round structure: a deadline per phase (None = no deadline; the director closes it).
    deployment_seconds: int | None = Field(
        86400,
        ge=1,
        le=MAX_DURATION_SECONDS,
        description="Round structure / TB-10: deployment phase duration",
    )
    command_seconds: int | None = Field(
        86400,
        ge=1,
        le=MAX_DURATION_SECONDS,
        description="Round structure: command phase (统御阶段) duration",
    )
    battle_seconds: int | None = Field(
        86400,
        ge=1,
        le=MAX_DURATION_SECONDS,
        description="Round structure: battle phase (战斗阶段) duration",
    )
    response_seconds: int | None = Field(
        21600,
        ge=1,
        le=MAX_DURATION_SECONDS,
        description="TB-5a: response window duration after the battle phase",
    )
    response_window: bool = Field(
        True,
        description="TB-5a: after the battle phase a response window opens for the extra "
        "Retreat of TB-41 and Pursuit (TB-45) when a side may respond; when off there is no "
        "window, so neither can be given and the round resolves at once",
    )
    early_close_when_ready: bool = Field(
        True, description="Round structure: a phase closes early once every side is ready"
    )

    enabled_orders: list[OrderType] = Field(
        default_factory=lambda: list(ORDER_TYPES),  # type: ignore[arg-type]
        description="Original preamble: the director may add or remove orders; "
        "a disabled order is rejected (order_disabled)",
    )
    commander_only: bool = Field(
        False,
        description="TB-1: only the side's designated commander (director action "
        "set_commander) may submit, revise, withdraw or mark ready; without one, any member may",
    )
    missing_deployment: Literal["even", "forfeit"] = Field(
        "even",
        description="TB-10 (silent in the rules): a side that has not deployed when the "
        "deployment phase closes gets its troops spread as evenly as possible, left slots "
        "taking the remainder ('even'), or loses the game ('forfeit'; both missing = draw)",
    )

    dice: Literal["random", "low", "high"] = Field(
        "random",
        description="House variant: every damage band yields a uniform roll, or its lower "
        "/ upper bound (TB-20, TB-21, TB-22, TB-32, TB-49)",
    )
    double_band_lower_rounding: Literal["up", "down"] = Field(
        "up", description="TB-21: lower bound of the band (d/2 – d) is ⌈d/2⌉ ('up') or ⌊d/2⌋"
    )
    halving_rounding: Literal["down", "up"] = Field(
        "down", description="TB-27: how a halved unit damage (Stand Firm) is rounded"
    )
    hold_halves_exactly: bool = Field(
        True,
        description="TB-27: a penetration halved by Hold may be fractional (morale is "
        "exact); when off it is rounded like halving_rounding",
    )
    whole_morale: bool = Field(
        False,
        description="TB-4: morale is exact, fractions allowed (off); when on it is kept in "
        "whole numbers: max morale ⌊total/2⌋, an annihilation ⌊max/5⌋ (TB-53) and Hold's "
        "halved penetration rounded as halving_rounding (TB-27)",
    )
    quarter_band_rounding: Literal["down", "up"] = Field(
        "down",
        description="TB-22 (also TB-32, TB-49): the band (1 – troops/4) tops out at "
        "max(1, ⌊troops/4⌋) ('down') or ⌈troops/4⌉ ('up')",
    )
    damage_overflow: Literal["lost", "penetration"] = Field(
        "lost",
        description="TB-25: damage beyond the lower unit's remaining troops is lost ('lost'), "
        "or added to the striking unit's penetration when it penetrates, h ≥ 2l "
        "('penetration', TB-23)",
    )
    halve_before_doubling: bool = Field(
        False,
        description="Order of effects: Stand Firm's ½ (TB-51) comes after Pursuit and Blood "
        "Battle ×2 (off) or before them (on); it matters for odd damage",
    )
    morale_cap: bool = Field(
        True, description="TB-5: morale gained is capped at maximum morale (after summing)"
    )
    tier1_morale_thirds: int = Field(
        1, ge=0, le=3, description="TB-13: tier 1 needs morale ≥ max morale × n/3"
    )
    tier2_morale_thirds: int = Field(
        2, ge=0, le=3, description="TB-13: tier 2 needs morale ≥ max morale × n/3"
    )
    recheck_morale_at_close: bool = Field(
        True,
        description="TB-13: the morale gate is checked at submission and again when the "
        "phase closes (failing orders are voided)",
    )
    penetration_counts_positive_only: bool = Field(
        True, description="TB-24: a unit counts for the multiplier only if its penetration > 0"
    )
    blood_battle_doubles_penetration: bool = Field(
        False, description="TB-34: Blood Battle also doubles its unit's penetration damage"
    )
    extra_retreat_free: bool = Field(
        True,
        description="TB-41: the extra Retreat granted against a Gather is outside the order "
        "count and the morale gate (when off, the tier 1 morale gate applies)",
    )
    pursuit_must_face_retreat: bool = Field(
        True,
        description="TB-45: the pursuing unit must face an announced Retreat "
        "(or a Feigned Defeat shown as one)",
    )
    first_strike_timing: Literal["after_moves", "before_moves"] = Field(
        "after_moves",
        description="TB-49: First Strike is applied after the Gather / Surprise moves "
        "('after_moves') or before them ('before_moves'); always before resolution",
    )
    first_strike_annihilates: bool = Field(
        True,
        description="TB-49: a unit emptied by First Strike counts as annihilated (TB-53)",
    )
    scout_locks_on_submit: bool = Field(
        True,
        description="TB-35: Scout takes effect as soon as it is submitted, so it can then "
        "no longer be revised or withdrawn (order_in_effect)",
    )
    draw_on_exact_tie: bool = Field(
        True,
        description="TB-60: when both sides lose with exactly equal morale the game is a "
        "draw; when off, the side with more troops left wins (equal troops: still a draw)",
    )
    both_out_of_troops: Literal["lower_morale_loses", "draw"] = Field(
        "lower_morale_loses",
        description="TB-60 (silent in the rules): when both sides run out of troops at once "
        "and both still have morale, the lower morale loses, as when both reach 0 morale "
        "('lower_morale_loses'), or the game is a draw ('draw')",
    )

    @field_validator("troops")
    @classmethod
    def _troops_per_side(cls, value: dict[str, int]) -> dict[str, int]:
        if sorted(value) != list(SIDES):
            raise ValueError("troops must give exactly the sides 'A' and 'B'")
        return value

    @field_validator("enabled_orders")
    @classmethod
    def _no_duplicate_orders(cls, value: list[OrderType]) -> list[OrderType]:
        if len(set(value)) != len(value):
            raise ValueError("enabled_orders lists an order twice")
        if "deploy" not in value:
            raise ValueError("deploy cannot be disabled (TB-10)")
        return value

    @model_validator(mode="after")
    def _enough_troops(self) -> TeamBattleSettings:
        for side in SIDES:
            if self.troops[side] < self.slots:
                raise ValueError(
                    f"side {side} needs at least one troop per slot (TB-10): "
                    f"{self.troops[side]} < {self.slots}"
                )
        if self.tier1_morale_thirds > self.tier2_morale_thirds:
            raise ValueError("tier 1 morale gate cannot exceed tier 2 (TB-13)")
        return self


def setting(stored: dict[str, Any], name: str) -> Any:
    """A setting from a game's stored settings; a game stored before the setting existed
    gets its default, which is the behaviour it was created with."""
    if name in stored:
        return stored[name]
    return TeamBattleSettings.model_fields[name].default

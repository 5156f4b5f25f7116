"""Team Battle request and response bodies as pydantic models (the API's contract).

One model per order, in a union discriminated on ``type``; one per director action, on
``action``. They check a body's *shape* — fields, types, bounds — so a malformed body is a
422 before anything runs; whether the rules allow the order now (slots of this game,
troops, uses, morale, phase) stays the engine's 409. Each order's description is built
from the order table (``orders.py``), where its Chinese name and rule ID are defined.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from app.rules.base import BodyModel
from app.rules.team_battle.order_types import ORDERS
from app.rules.types import Identifier

# TeamBattleSettings.slots' upper bound (TB-2): no game has a slot above it.
MAX_SLOTS = 20
# No side can hold more troops than this (TB-3), nor move or gather more; morale is
# half the troops (TB-4), so it stays below it too.
MAX_TROOPS = 1_000_000

Slot = Annotated[int, Field(ge=1, le=MAX_SLOTS, description="A 1-based slot (TB-2).")]
TroopCount = Annotated[int, Field(ge=0, le=MAX_TROOPS)]
Side = Literal["A", "B"]
SeeThroughTarget = Literal[
    "gather",
    "retreat",
    "hold",
    "battle_rest",
    "pursuit",
    "feint",
    "surprise",
    "feigned_defeat",
    "first_strike",
    "encircle",
    "stand_firm",
    "spy",
]
_PHASE_NAMES = {
    "deployment": "deployment phase",
    "command": "command phase (统御阶段)",
    "battle": "battle phase (战斗阶段)",
    "response": "response window (TB-5a)",
}


def _describe_order(schema: dict[str, Any], cls: type) -> None:
    """Prefix the docstring with the order's Chinese name, rule ID and phase."""
    order_type = schema["properties"]["type"].get("const")
    definition = ORDERS[order_type]
    hidden = "public" if definition.public else "hidden"
    schema["description"] = (
        f"{definition.name_zh} — {definition.rule}, {_PHASE_NAMES[definition.phase]}, "
        f"{hidden}. {schema.get('description', '')}".strip()
    )


class _Order(BaseModel):
    # Strict: "2" is not a slot and true is not 1 — the engine refuses both, and so does
    # the schema, so the two can never disagree about what a well-formed order is.
    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=_describe_order)


class _SlotOrder(_Order):
    slot: Slot


class DeployOrder(_Order):
    """Troops for every slot, left to right: at least 1 each, adding up to the side's total."""

    type: Literal["deploy"]
    troops: list[TroopCount] = Field(min_length=1, max_length=MAX_SLOTS)


class DispatchMove(BaseModel):
    """Troops moved from one of your slots to an adjacent one."""

    model_config = ConfigDict(extra="forbid", strict=True)

    from_: Slot = Field(alias="from")
    to: Slot
    troops: TroopCount


class DispatchOrder(_Order):
    """Move troops between adjacent slots of your own (at most two units, TB-30)."""

    type: Literal["dispatch"]
    moves: list[DispatchMove] = Field(min_length=1, max_length=MAX_SLOTS)


class InspireOrder(_Order):
    """This round your battle-phase orders skip the morale gates (TB-13); once a game."""

    type: Literal["inspire"]


class CounterOrder(_SlotOrder):
    """If the facing unit damages this one in resolution, this one hits back."""

    type: Literal["counter"]


class RestOrder(_Order):
    """One more command-phase use next round; not two rounds in a row (TB-14)."""

    type: Literal["rest"]


class BloodBattleOrder(_SlotOrder):
    """This unit deals and takes double damage this round; costs two uses."""

    type: Literal["blood_battle"]


class ScoutOrder(_Order):
    """Every enemy order naming this enemy slot is shown to you this round."""

    type: Literal["scout"]
    slot: Slot = Field(description="One of the opponent's slots (TB-35).")


class _GatherLike(_SlotOrder):
    from_left: TroopCount | None = Field(
        None, description="Troops drawn from the left neighbour (default: all)."
    )
    from_right: TroopCount | None = Field(
        None, description="Troops drawn from the right neighbour (default: all)."
    )


class GatherOrder(_GatherLike):
    """The neighbouring units' troops move into this slot before resolution."""

    type: Literal["gather"]


class RetreatOrder(_SlotOrder):
    """Neither this unit nor the one facing it deals damage this round."""

    type: Literal["retreat"]


class HoldOrder(_SlotOrder):
    """The facing enemy unit's penetration is halved this round."""

    type: Literal["hold"]


class BattleRestOrder(_Order):
    """One more battle-phase use next round; not two rounds in a row (TB-14)."""

    type: Literal["battle_rest"]


class PursuitOrder(_SlotOrder):
    """Answer an announced Retreat: its protection is ignored and this unit's damage doubles."""

    type: Literal["pursuit"]


class FeintOrder(_SlotOrder):
    """Read out as a Gather, but moves nothing."""

    type: Literal["feint"]


class SurpriseOrder(_GatherLike):
    """Like a Gather, but the other side gets no extra Retreat; once a game, costs two uses."""

    type: Literal["surprise"]


class FeignedDefeatOrder(_SlotOrder):
    """Read out as a Retreat; the unit deals and takes no damage this round; costs two uses."""

    type: Literal["feigned_defeat"]


class FirstStrikeOrder(_SlotOrder):
    """The unit hits the facing unit before resolution."""

    type: Literal["first_strike"]


class EncircleOrder(_SlotOrder):
    """The unit's judged troops add both neighbours' this round; costs two uses."""

    type: Literal["encircle"]


class StandFirmOrder(_SlotOrder):
    """Damage to this unit from the facing one is halved; not two rounds in a row (TB-14)."""

    type: Literal["stand_firm"]


class SpyOrder(_Order):
    """Next round, every hidden order of the other side is shown to you as it is given."""

    type: Literal["spy"]


class SeeThroughOrder(_Order):
    """Name a battle-phase order type: the other side's orders of that type are voided."""

    type: Literal["see_through"]
    order_type: SeeThroughTarget


class TeamBattleOrder(RootModel[Any]):
    """An order of a Team Battle (团战) game, by its ``type``."""

    root: Annotated[
        DeployOrder
        | DispatchOrder
        | InspireOrder
        | CounterOrder
        | RestOrder
        | BloodBattleOrder
        | ScoutOrder
        | GatherOrder
        | RetreatOrder
        | HoldOrder
        | BattleRestOrder
        | PursuitOrder
        | FeintOrder
        | SurpriseOrder
        | FeignedDefeatOrder
        | FirstStrikeOrder
        | EncircleOrder
        | StandFirmOrder
        | SpyOrder
        | SeeThroughOrder,
        Field(discriminator="type"),
    ]


# --- director actions ------------------------------------------------------------------
class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ClosePhaseAction(_Action):
    """Close the current phase now, as if its deadline had passed."""

    action: Literal["close_phase"]


class SetCommanderAction(_Action):
    """Name the side's commander (TB-1), or none (null)."""

    action: Literal["set_commander"]
    side: Side
    player_id: Identifier | None = None


class SetMoraleAction(_Action):
    """Set a side's morale (one decimal place at most)."""

    action: Literal["set_morale"]
    side: Side
    morale: float = Field(ge=0, le=MAX_TROOPS, allow_inf_nan=False)


class SetTroopsAction(_Action):
    """Set the troops of one slot of a side, once deployments are revealed."""

    action: Literal["set_troops"]
    side: Side
    slot: Slot
    troops: TroopCount


class TeamBattleDirectorAction(RootModel[Any]):
    """A director's edit of a Team Battle game, by its ``action``."""

    root: Annotated[
        ClosePhaseAction | SetCommanderAction | SetMoraleAction | SetTroopsAction,
        Field(discriminator="action"),
    ]


# --- the view ----------------------------------------------------------------------------
class TeamBattleSideView(BaseModel):
    """One side as the caller sees it; a side's own players and the director see more."""

    slots: list[int] | None = Field(description="Troops per slot; null until revealed (TB-10).")
    total_troops: int | None
    morale: float
    max_morale: float


class TeamBattleView(BaseModel):
    """What the caller may see of a Team Battle (director: everything; a side: its own
    orders, uses and intel; the public: what was announced or revealed)."""

    ruleset: Literal["team_battle"]
    round: int
    phase: Literal["deployment", "command", "battle", "response", "finished"]
    deadline: str | None
    opened_at: str | None
    winner: Literal["A", "B", "draw"] | None
    finish_reason: str | None
    sides: dict[Side, TeamBattleSideView]
    announced: list[dict[str, Any]]
    revealed: list[dict[str, Any]]
    seen_through: list[dict[str, Any]]
    settings: dict[str, Any]
    response: dict[str, Any] | None = Field(
        None, description="Who may still respond, during the response window (TB-5a)."
    )
    orders: list[dict[str, Any]] | None = Field(
        None, description="The caller's side's orders (the director: all)."
    )
    intel: list[dict[str, Any]] | dict[Side, list[dict[str, Any]]] | None = Field(
        None,
        description="Scout and Spy intel (TB-35, TB-52): a side sees its own list; the "
        "director sees both, by side.",
    )


ORDER_MODEL = BodyModel(TeamBattleOrder, "type")
DIRECTOR_ACTION_MODEL = BodyModel(TeamBattleDirectorAction, "action")

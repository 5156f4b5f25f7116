"""Island request and response bodies as pydantic models (the API's contract).

One model per order, in a union discriminated on ``type``; one per director tool, on
``action``. They check a body's *shape* — fields, types, bounds — so a malformed body is a
422 before anything runs; whether the rules allow it now (stamina, who is where, what the
player can see) stays the engine's 409 or 404. The Chinese name and rule ID of each order
(the name from the game's catalogue) are listed here, in ``ORDER_NAMES``, and become its
description.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_validator,
)

from app.rules.base import BodyModel
from app.rules.island.messages import violation
from app.rules.island.words.names import NAMES
from app.rules.types import GameNumber, Identifier, Text, Title

# IslandSettings.width / height's upper bound (IS-10): no cell lies beyond it.
MAX_COORDINATE = 200
# No order names more players than this (a PK side is far smaller, IS-15).
MAX_NAMED_PLAYERS = 100
# No count of items or food in one order exceeds this.
MAX_COUNT = 1_000_000
# A "move + assassinate" path never needs more steps than crossing the largest map.
MAX_PATH = 2 * MAX_COORDINATE
# Story answers apply at most this many director changes.
MAX_CHANGES = 100

Direction = Literal["up", "down", "left", "right"]


def _orthogonal(key: str, rule: str) -> WrapValidator:
    """Moves are orthogonal (IS-10): any other direction breaks that rule, so it is refused
    as the engine refuses it — ``bad_direction`` citing the rule — not as a bad shape."""

    def check(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        try:
            return handler(value)
        except ValidationError:
            raise violation("bad_direction", rule, key=key) from None

    return WrapValidator(check)


MoveDirection = Annotated[Direction, _orthogonal("direction", "IS-10")]
FleeDirection = Annotated[Direction, _orthogonal("direction", "IS-13")]
PathStep = Annotated[Direction, _orthogonal("path", "IS-22")]
Count = Annotated[int, Field(ge=1, le=MAX_COUNT)]
Coordinate = Annotated[int, Field(ge=1, le=MAX_COORDINATE)]

# type -> rule IDs; the Chinese name is the catalogue's (``words/names.py``).
ORDER_RULES: dict[str, str] = {
    "move": "IS-10, IS-11",
    "explore": "IS-12",
    "flee": "IS-13",
    "eat": "IS-35",
    "hunt": "IS-14",
    "pk": "IS-15",
    "pk_join": "IS-15",
    "assassinate": "IS-20, IS-22, IS-24",
    "guard": "IS-25",
    "give": "IS-36",
    "equip": "IS-37",
}
# type -> (Chinese name, rule IDs), for the orders' descriptions.
ORDER_NAMES: dict[str, tuple[str, str]] = {
    kind: (NAMES[f"order.{kind}"][0], rules) for kind, rules in ORDER_RULES.items()
}


def _describe_order(schema: dict[str, Any], cls: type) -> None:
    name_zh, rules = ORDER_NAMES[schema["properties"]["type"]["const"]]
    schema["description"] = f"{name_zh} — {rules}. {schema.get('description', '')}".strip()


def _distinct(values: list[str]) -> list[str]:
    if len(set(values)) != len(values):
        raise ValueError("names a player twice")
    return values


class _Order(BaseModel):
    # Strict, like the engine: "1" is not a count and 1 is not true.
    model_config = ConfigDict(
        extra="forbid", strict=True, populate_by_name=False, json_schema_extra=_describe_order
    )

    for_: Identifier | None = Field(
        None,
        alias="for",
        description="Submit for a player of your own faction (proxy order, IS-39).",
    )


class MoveOrder(_Order):
    """Move to an orthogonally adjacent cell; a hidden move is not announced."""

    type: Literal["move"]
    direction: MoveDirection
    hidden: bool = False


class ExploreOrder(_Order):
    """Explore your cell: items, food, monsters or a story."""

    type: Literal["explore"]


class FleeOrder(_Order):
    """Flee the fight you are in, and with a direction flee to that cell. With ``standing``
    only, set the standing choice "flee if I lose" instead."""

    type: Literal["flee"]
    direction: FleeDirection | None = None
    # Present (true or false): set the standing choice; absent: flee now. Never null.
    standing: bool = Field(None, description='The standing "flee if I lose" choice.')  # type: ignore[assignment]


class EatOrder(_Order):
    """Eat food to lower your hunger."""

    type: Literal["eat"]
    food: Count = 1


class HuntOrder(_Order):
    """Attack a monster in your cell, alone or with players of your cell."""

    type: Literal["hunt"]
    monster: Identifier
    with_: list[Identifier] = Field(
        default_factory=list,
        alias="with",
        max_length=MAX_NAMED_PLAYERS,
        description="Hunt together with these players (proxy orders, IS-39).",
    )
    split: dict[Identifier, Annotated[int, Field(ge=0, le=MAX_COUNT)]] | None = Field(
        None, max_length=MAX_NAMED_PLAYERS, description="Food shares by hunter, declared ahead."
    )
    use_weapon: bool = Field(False, description="Use a weapon with limited uses (IS-37).")


class PkOrder(_Order):
    """Challenge players in your cell, in the PK window (20:00–24:00 by default)."""

    type: Literal["pk"]
    targets: Annotated[
        list[Identifier],
        Field(min_length=1, max_length=MAX_NAMED_PLAYERS),
        AfterValidator(_distinct),
    ]
    use_weapon: bool = False


class PkJoinOrder(_Order):
    """Join an open PK in your cell on either side."""

    type: Literal["pk_join"]
    challenge: Identifier
    side: Literal["attack", "defend"]
    use_weapon: bool = False


class AssassinateOrder(_Order):
    """Assassinate a player at 24:00: in your cell, at the end of ``path`` ("move +
    assassinate"), or wherever they go (``follow``)."""

    type: Literal["assassinate"]
    target: Identifier
    path: list[PathStep] | None = Field(None, max_length=MAX_PATH)
    follow: bool = False
    use_weapon: bool = False

    @model_validator(mode="after")
    def _path_or_follow(self) -> AssassinateOrder:
        if self.follow and self.path:
            raise ValueError("use either 'path' or 'follow', not both")
        return self


class GuardOrder(_Order):
    """Guard against a player: if they assassinate you tonight, their strength counts 0."""

    type: Literal["guard"]
    target: Identifier


class GiveOrder(_Order):
    """Give items (or ``"food"``) to a player in your cell."""

    type: Literal["give"]
    to: Identifier
    item: Identifier
    count: Count = 1


class EquipOrder(_Order):
    """Equip a weapon you carry (null: unequip)."""

    type: Literal["equip"]
    item: Identifier | None


class IslandOrder(RootModel[Any]):
    """An order of an island game (另一面), by its ``type``."""

    root: Annotated[
        MoveOrder
        | ExploreOrder
        | FleeOrder
        | EatOrder
        | HuntOrder
        | PkOrder
        | PkJoinOrder
        | AssassinateOrder
        | GuardOrder
        | GiveOrder
        | EquipOrder,
        Field(discriminator="type"),
    ]


# --- director tools -----------------------------------------------------------------------
class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _PlayerAction(_Action):
    player: Identifier


class GrantItemAction(_PlayerAction):
    """Give a player an item (or ``"food"``)."""

    action: Literal["grant_item"]
    item: Identifier
    count: Count = 1


class TakeItemAction(_PlayerAction):
    """Take an item (or ``"food"``) from a player."""

    action: Literal["take_item"]
    item: Identifier
    count: Count = 1


class SetIllAction(_PlayerAction):
    """Make a player ill (IS-34): stamina, max stamina and power halve."""

    action: Literal["set_ill"]


class CureAction(_PlayerAction):
    """Cure a player's illness (IS-34)."""

    action: Literal["cure"]


class MovePlayerAction(_PlayerAction):
    """Put a player on a cell ([x, y], 1-based)."""

    action: Literal["move_player"]
    to: list[Coordinate] = Field(min_length=2, max_length=2)
    hidden: bool = True


class ForbidFleeAction(_Action):
    """Forbid (or allow) fleeing a PK or a story (IS-13)."""

    action: Literal["forbid_flee"]
    forbid: bool = True
    challenge: Identifier | None = None
    queue_id: Identifier | None = None


class InvalidateProxiesAction(_Action):
    """Declare proxy orders for players (or every idle player) invalid, or valid again
    with ``restore`` (IS-39)."""

    action: Literal["invalidate_proxies"]
    players: list[Identifier] = Field(default_factory=list, max_length=MAX_NAMED_PLAYERS)
    all_idle: bool = False
    restore: bool = False


class AdjustStaminaAction(_PlayerAction):
    """Add to (or take from) a player's stamina."""

    action: Literal["adjust_stamina"]
    delta: GameNumber


class AdjustPowerAction(_PlayerAction):
    """Add to (or take from) a player's power; power 0 is death."""

    action: Literal["adjust_power"]
    delta: GameNumber


class AdjustFoodAction(_PlayerAction):
    """Add to (or take from) a player's food."""

    action: Literal["adjust_food"]
    delta: GameNumber


class SetFactionAction(_PlayerAction):
    """Move a player into a faction (IS-38)."""

    action: Literal["set_faction"]
    faction: Identifier


class KillPlayerAction(_PlayerAction):
    """Kill a player."""

    action: Literal["kill_player"]
    cause: Title = "director"


class AnnounceAction(_Action):
    """Post a public announcement."""

    action: Literal["announce"]
    text: Annotated[Text, Field(min_length=1)]


class EndGameAction(_Action):
    """End the game now."""

    action: Literal["end_game"]


# What a story's answer may change: every tool but answering another story.
StoryChange = Annotated[
    GrantItemAction
    | TakeItemAction
    | SetIllAction
    | CureAction
    | MovePlayerAction
    | ForbidFleeAction
    | InvalidateProxiesAction
    | AdjustStaminaAction
    | AdjustPowerAction
    | AdjustFoodAction
    | SetFactionAction
    | KillPlayerAction
    | AnnounceAction
    | EndGameAction,
    Field(discriminator="action"),
]


class ResolveStoryAction(_Action):
    """Answer a triggered story (IS-12): its text goes to the player, ``changes`` apply,
    and the cell unlocks (IS-11). Name it by ``queue_id`` (or by its ``story`` id)."""

    action: Literal["resolve_story"]
    queue_id: Identifier | None = None
    story: Identifier | None = None
    text: Text = ""
    changes: list[StoryChange] = Field(default_factory=list, max_length=MAX_CHANGES)


class IslandDirectorAction(RootModel[Any]):
    """A director's tool in an island game, by its ``action``."""

    root: Annotated[
        ResolveStoryAction | StoryChange,
        Field(discriminator="action"),
    ]


# --- the view ------------------------------------------------------------------------------
class IslandPlayerEntry(BaseModel):
    id: str
    name: str


class IslandCell(BaseModel):
    """A cell within the player's vision (IS-55)."""

    at: list[int]
    terrain: str
    players: list[dict[str, Any]]
    monsters: list[dict[str, Any]]
    busy: bool


class IslandView(BaseModel):
    """What the caller may see of an island game. Everyone: the day, who is alive, the
    announcements. A player also: their own stats and orders and the cells within their
    vision (IS-55). The director: everything (``all_players``, ``orders``…)."""

    ruleset: Literal["island"]
    day: int
    date: str | None
    timezone: str
    width: int
    height: int
    players: list[IslandPlayerEntry]
    dead: list[IslandPlayerEntry]
    announcements: list[dict[str, Any]]
    public_challenges: list[dict[str, Any]]
    position: list[int] | None = Field(None, description="A player's own cell [x, y].")
    stamina: int | None = None
    max_stamina: int | None = None
    power: int | None = None
    hunger: int | None = None
    ill: bool | None = None
    alive: bool | None = None
    inventory: dict[str, int] | None = None
    visible_cells: list[IslandCell] | None = Field(
        None, description="Only the cells within the player's vision (IS-55)."
    )


ORDER_MODEL = BodyModel(IslandOrder, "type")
DIRECTOR_ACTION_MODEL = BodyModel(IslandDirectorAction, "action")

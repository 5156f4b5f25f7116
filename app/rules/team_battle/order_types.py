"""Every Team Battle order, declared as data (TB-10, TB-30…TB-35, TB-40…TB-52a)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.rules.team_battle.words.names import NAMES

OrderType = Literal[
    "deploy",
    "dispatch",
    "inspire",
    "counter",
    "rest",
    "blood_battle",
    "scout",
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
    "see_through",
]

# What the order's body names:
#   none        no field besides "type"
#   troops      "troops": the deployment list
#   moves       "moves": up to two {"from", "to", "troops"}
#   own_slot    "slot": one of your slots (it may be empty)
#   own_unit    "slot": one of your slots holding a unit (troops ≥ 1)
#   gather      "slot" plus optional "from_left" / "from_right"
#   enemy_slot  "slot": one of the opponent's slots
#   order_type  "order_type": a battle-phase order type
TargetKind = Literal[
    "none", "troops", "moves", "own_slot", "own_unit", "gather", "enemy_slot", "order_type"
]
Phase = Literal["deployment", "command", "battle", "response"]


@dataclass(frozen=True, slots=True)
class OrderDef:
    type: str
    phase: Phase
    rule: str
    target: TargetKind
    public: bool = False
    tier: int = 0  # battle-phase morale tier (TB-13); 0 = no gate
    cost: int = 1  # order uses consumed (TB-12 "costs two")
    once_per_game: bool = False
    cooldown: bool = False  # TB-14: not if used last round
    shown_as: str | None = None  # how the opponent and the public see it until the end

    @property
    def name_zh(self) -> str:
        """The order's Chinese name, as the game's catalogue writes it."""
        return NAMES[f"order.{self.type}"][0]

    @property
    def name_en(self) -> str:
        return NAMES[f"order.{self.type}"][1]


_DEFS = (
    OrderDef("deploy", "deployment", "TB-10", "troops", cost=0),
    # Command phase (统御阶段): no morale gate.
    OrderDef("dispatch", "command", "TB-30", "moves", public=True),
    OrderDef("inspire", "command", "TB-31", "none", public=True, once_per_game=True),
    OrderDef("counter", "command", "TB-32", "own_slot"),
    OrderDef("rest", "command", "TB-33", "none", cooldown=True),
    OrderDef("blood_battle", "command", "TB-34", "own_slot", cost=2),
    OrderDef("scout", "command", "TB-35", "enemy_slot"),
    # Battle phase (战斗阶段), tier 1.
    OrderDef("gather", "battle", "TB-40", "gather", public=True, tier=1),
    OrderDef("retreat", "battle", "TB-42", "own_unit", public=True, tier=1),
    OrderDef("hold", "battle", "TB-43", "own_unit", tier=1),
    OrderDef("battle_rest", "battle", "TB-44", "none", tier=1, cooldown=True),
    # Battle phase, tier 2. Pursuit is a response: it is given in the response window.
    OrderDef("pursuit", "response", "TB-45", "own_unit", public=True, tier=2),
    OrderDef("feint", "battle", "TB-46", "own_slot", public=True, tier=2, shown_as="gather"),
    OrderDef(
        "surprise",
        "battle",
        "TB-47",
        "gather",
        public=True,
        tier=2,
        cost=2,
        once_per_game=True,
    ),
    OrderDef(
        "feigned_defeat",
        "battle",
        "TB-48",
        "own_unit",
        public=True,
        tier=2,
        cost=2,
        shown_as="retreat",
    ),
    OrderDef("first_strike", "battle", "TB-49", "own_unit", public=True, tier=2),
    OrderDef("encircle", "battle", "TB-50", "own_unit", public=True, tier=2, cost=2),
    OrderDef("stand_firm", "battle", "TB-51", "own_unit", tier=2, cooldown=True),
    OrderDef("spy", "battle", "TB-52", "none", tier=2),
    OrderDef("see_through", "battle", "TB-52a", "order_type", tier=2),
)

ORDERS: dict[str, OrderDef] = {d.type: d for d in _DEFS}
ORDER_TYPES: tuple[str, ...] = tuple(d.type for d in _DEFS)

# Orders that take the battle phase's uses (TB-11): the battle phase proper plus Pursuit.
BATTLE_ORDER_TYPES: tuple[str, ...] = tuple(
    d.type for d in _DEFS if d.phase in ("battle", "response")
)
# TB-52a: See Through names any battle-phase order type other than itself.
SEE_THROUGH_TARGETS: tuple[str, ...] = tuple(t for t in BATTLE_ORDER_TYPES if t != "see_through")


def shown_type(order_type: str) -> str:
    """The type the opponent and the public are shown (Feint → Gather, TB-46/TB-48)."""
    shown = ORDERS[order_type].shown_as
    return shown if shown is not None else order_type


def named_slots(order_type: str, body: dict[str, object]) -> list[int]:
    """The slots of its own side an order names explicitly (used by Scout, TB-35,
    and by Blood Battle's restriction, TB-34)."""
    target = ORDERS[order_type].target
    if target in ("own_slot", "own_unit", "gather"):
        slot = body.get("slot")
        return [slot] if isinstance(slot, int) else []
    if target == "moves":
        found: list[int] = []
        moves = body.get("moves")
        if isinstance(moves, list):
            for move in moves:
                if isinstance(move, dict):
                    for key in ("from", "to"):
                        value = move.get(key)
                        if isinstance(value, int) and value not in found:
                            found.append(value)
        return found
    return []

"""Island settings: the scenario (map, monsters, items, stories) and every rule default.

Every "Default" of the rules is a named field whose description cites its rule ID
(``docs/rules/island.md`` explains each rule and the readings that are not settings).
Coordinates are 1-based ``[x, y]`` as in the rules text: x grows to the right, y grows
downwards ("up" is y - 1).
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.rules.types import MAX_DURATION_SECONDS, Identifier, Line, Name, Text, Title

_HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")

# Bounds shared by every number of a scenario: no value accepted here can overflow a
# counter, a date or a float later (issue 7).
MAX_AMOUNT = 1_000_000  # costs, counts, power, food, weights
MAX_LIST = 10_000  # monsters, stories, table lines
MAX_CELLS = 200 * 200  # every cell of the largest map
Amount = Annotated[int, Field(ge=0, le=MAX_AMOUNT)]
Weight = Annotated[int, Field(ge=1, le=MAX_AMOUNT)]
Chance = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
# A cell [x, y]; whether it lies on the map is checked with the others (scenario_problems).
_Coordinate = Annotated[int, Field(ge=-MAX_AMOUNT, le=MAX_AMOUNT)]
Position = tuple[_Coordinate, _Coordinate]
ClockTime = Annotated[Line, Field(max_length=5)]
DisplayName = Title
# A PK's response window, in minutes: a date can always hold it (≤ 30 days).
WindowMinutes = Annotated[int, Field(le=MAX_DURATION_SECONDS // 60)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WeightedMonster(_Strict):
    kind: Identifier = Field(description="Monster kind id (IS-50).")
    weight: Weight = Field(1, description="Relative weight in the terrain's table (IS-50).")


class ExploreOutcome(_Strict):
    """One weighted line of an explore table (IS-12)."""

    kind: Literal["nothing", "item", "food", "monster", "story"]
    weight: Weight = Field(1, description="Relative weight (IS-12).")
    item: Identifier | None = Field(None, description="Item id for kind 'item' (IS-12).")
    count: Weight = Field(1, description="How many items / how much food (IS-12).")
    monster: Identifier | None = Field(
        None, description="Monster kind for kind 'monster'; default: the terrain's table (IS-52)."
    )
    story: Identifier | None = Field(None, description="Story event id for kind 'story' (IS-12).")


class Terrain(_Strict):
    name: DisplayName = ""
    encounter_chance: Chance = Field(
        0.1, description="Chance a move into this terrain meets a monster (IS-50)."
    )
    monster_table: list[WeightedMonster] = Field(
        default_factory=list,
        max_length=MAX_LIST,
        description="Random monsters met here, weighted (IS-50, IS-52).",
    )
    vision_bonus: Amount = Field(0, description="Vision added while standing here (IS-55).")
    explore_table: list[ExploreOutcome] = Field(
        default_factory=lambda: [ExploreOutcome(kind="nothing")],
        max_length=MAX_LIST,
        description="Weighted explore outcomes for cells of this terrain (IS-12).",
    )


class Cell(_Strict):
    at: Position = Field(description="1-based [x, y] (IS-10).")
    terrain: Identifier
    explore_table: list[ExploreOutcome] | None = Field(
        None,
        max_length=MAX_LIST,
        description="Overrides the terrain's explore table for this cell (IS-12).",
    )


class MonsterKind(_Strict):
    name: DisplayName = ""
    power: Amount = Field(2, description="Strength in fights (IS-14, IS-53).")
    food: Amount = Field(1, description="Food gained by beating one (IS-14).")
    attack_chance: Chance = Field(
        0.0, description="Chance to attack per monster check / per encounter (IS-51)."
    )


class ResidentMonster(_Strict):
    id: Identifier = Field(description="Stable id players use in hunt orders (IS-14).")
    kind: Identifier
    at: Position
    count: Weight = Field(1, description="Fixed count; never respawns (IS-51).")
    power: Amount | None = Field(None, description="Overrides the kind's power (IS-51).")
    food: Amount | None = Field(None, description="Overrides the kind's food (IS-51).")
    attack_chance: Chance | None = Field(
        None, description="Overrides the kind's attack chance per check (IS-51)."
    )


class Item(_Strict):
    name: DisplayName = ""
    weapon: bool = Field(False, description="Can be equipped (IS-37).")
    power_bonus: Amount = Field(0, description="Strength added when equipped (IS-37).")
    uses: Weight | None = Field(
        None, description="Limited uses; used in PK/assassination only on request (IS-37)."
    )
    vision_bonus: Amount = Field(0, description="Vision added while carried (IS-55).")


class StoryEvent(_Strict):
    id: Identifier
    title: Title = ""
    text: Text = Field("", description="For the director only (IS-12).")
    forbid_flee: bool = Field(False, description="Important stories may forbid fleeing (IS-13).")


class IslandSettings(_Strict):
    """All settings of one island game; unknown keys are rejected."""

    # --- the map (scenario) -------------------------------------------------------------
    width: int = Field(5, ge=1, le=200, description="Island width in cells (IS-10).")
    height: int = Field(5, ge=1, le=200, description="Island height in cells (IS-10).")
    default_terrain: Identifier = Field("plain", description="Terrain of cells not listed (IS-55).")
    terrains: dict[Identifier, Terrain] = Field(
        default_factory=lambda: {"plain": Terrain(name="平原")},
        max_length=MAX_LIST,
        description="Terrain definitions: encounter chance, monster table, vision (IS-50, IS-55).",
    )
    cells: list[Cell] = Field(
        default_factory=list, max_length=MAX_CELLS, description="Per-cell terrain (IS-55)."
    )
    start_positions: dict[Name, Position] | None = Field(
        None,
        max_length=MAX_LIST,
        description="Start cell by player name or 1-based roster index; positions of "
        "players not in the roster are unused (IS-4).",
    )
    start_placement: Literal["scenario", "random"] = Field(
        "scenario",
        description="Where players start (IS-4): 'scenario' puts each player on the start "
        "position listed for them and anyone not listed on a free cell drawn from the game's "
        "seed; 'random' puts everyone on a free cell drawn from the seed.",
    )
    max_players: int | None = Field(
        None,
        ge=2,
        le=MAX_CELLS,
        description="Most players the scenario takes (IS-4); default: one per cell.",
    )
    monster_kinds: dict[Identifier, MonsterKind] = Field(
        default_factory=dict, max_length=MAX_LIST, description="(IS-51)."
    )
    monsters: list[ResidentMonster] = Field(
        default_factory=list, max_length=MAX_LIST, description="Resident monsters (IS-51)."
    )
    items: dict[Identifier, Item] = Field(
        default_factory=dict, max_length=MAX_LIST, description="(IS-36, IS-37)."
    )
    starting_inventory: dict[Identifier, Annotated[int, Field(le=MAX_AMOUNT)]] = Field(
        default_factory=dict,
        max_length=MAX_LIST,
        description="Items each player starts with (IS-36).",
    )
    starting_food: Amount = Field(
        2, description="Food each player starts with; the rules are silent (IS-35)."
    )
    stories: list[StoryEvent] = Field(
        default_factory=list, max_length=MAX_LIST, description="(IS-12)."
    )

    # --- players and the day ----------------------------------------------------------
    start_power: int = Field(2, ge=1, le=MAX_AMOUNT, description="Starting power (IS-1).")
    start_stamina: int = Field(5, ge=1, le=MAX_AMOUNT, description="Stamina per day (IS-1, IS-2).")
    base_vision: int = Field(0, ge=0, le=MAX_AMOUNT, description="Vision radius at start (IS-55).")
    timezone: Annotated[Line, Field(max_length=64)] = Field(
        "Asia/Shanghai", description="The game's time zone (IS-3)."
    )
    pk_window_start: ClockTime = Field(
        "20:00", description="PK window / monster window start (IS-3)."
    )
    deep_night_start: ClockTime = Field("22:00", description="Deep night start (IS-3).")
    end_when_alive_at_most: int = Field(
        1,
        ge=0,
        le=MAX_AMOUNT,
        description="The game finishes when this few remain alive after 24:00 (IS-40).",
    )

    # --- action costs -----------------------------------------------------------------
    move_cost: int = Field(1, ge=0, le=MAX_AMOUNT, description="(IS-10).")
    explore_cost: int = Field(2, ge=0, le=MAX_AMOUNT, description="(IS-12).")
    flee_cost: int = Field(2, ge=0, le=MAX_AMOUNT, description="(IS-13).")
    flee_move_cost: int = Field(3, ge=0, le=MAX_AMOUNT, description="Flee + move (IS-13).")
    hunt_cost: int = Field(3, ge=0, le=MAX_AMOUNT, description="(IS-14).")
    pk_cost: int = Field(3, ge=0, le=MAX_AMOUNT, description="Posting a PK (IS-15).")
    pk_join_cost: int = Field(
        3, ge=0, le=MAX_AMOUNT, description="Joining a PK on either side (IS-15)."
    )
    assassinate_cost: int = Field(3, ge=0, le=MAX_AMOUNT, description="(IS-20).")
    guard_cost: int = Field(2, ge=0, le=MAX_AMOUNT, description="(IS-25).")
    eat_cost: int = Field(
        0, ge=0, le=MAX_AMOUNT, description="Eating costs nothing; rules silent (IS-35)."
    )

    # --- moves, explore, flee ---------------------------------------------------------
    move_shows_both_cells: bool = Field(
        False,
        description="IS-10 / IS-55 (the rules are silent): a move that is not hidden is told "
        "to everyone who sees its origin or its destination, each learning only the cells "
        "within their vision (off), or both cells (on)",
    )
    hold_moves_into_busy_cells: bool = Field(
        True, description="A move into a busy cell is held until it is free (IS-11)."
    )
    refund_cancelled_held_move: bool = Field(
        True, description="Withdrawing a held move refunds its stamina (IS-11)."
    )
    refund_withdrawn_guard: bool = Field(
        False,
        description="Withdrawing a guard before 24:00 refunds its stamina (IS-25; the original "
        "is silent, and treats a withdrawn assassination as unrefunded, IS-23).",
    )
    story_triggers_once: bool = Field(
        True, description="A story event triggers only for the first explorer (IS-12)."
    )
    flee_if_lose_default: bool = Field(
        False, description="Initial standing 'flee if I lose' choice (IS-13)."
    )

    # --- hunt / PK ----------------------------------------------------------------------
    hunt_loss_power: int = Field(
        1, ge=0, le=MAX_AMOUNT, description="Power a losing hunter loses (IS-14)."
    )
    monster_loss_power: int = Field(
        1,
        ge=0,
        le=MAX_AMOUNT,
        description="Power lost to a monster's attack or encounter (IS-50, IS-53).",
    )
    pk_loss_power: int = Field(
        1, ge=0, le=MAX_AMOUNT, description="Power each loser loses (IS-15)."
    )
    pk_window_enforced: bool = Field(True, description="PKs only posted 20:00-24:00 (IS-15).")
    pk_window_minutes: tuple[WindowMinutes, WindowMinutes] = Field(
        (20, 40), description="Random response window after posting, minutes (IS-15)."
    )
    max_pk_side: int = Field(
        3, ge=1, le=MAX_AMOUNT, description="At most this many per PK side (IS-15)."
    )
    pk_public: bool = Field(
        True, description="A PK post and its result are public (the forum PK thread) (IS-15)."
    )
    pk_participants_locked: bool = Field(
        True, description="PK participants cannot move until it resolves (IS-11, IS-15)."
    )

    # --- assassination / guard --------------------------------------------------------
    max_assassins: int = Field(
        2, ge=1, le=MAX_AMOUNT, description="At most this many per target (IS-20)."
    )
    assassination_kills: bool = Field(True, description="Success kills the target (IS-20).")
    assassination_power_loss: int = Field(
        1, ge=0, le=MAX_AMOUNT, description="Power lost on success when it does not kill (IS-20)."
    )
    excess_assassins_void: bool = Field(
        True,
        description="Assassins beyond the limit are voided at 24:00 (latest first) rather "
        "than refused, so a refusal never reveals others' hidden orders (IS-20).",
    )
    tell_target_of_failed_attempt: bool = Field(
        True, description="A failed attempt is reported (anonymously) to its target (IS-21)."
    )
    debt_from_next_refill: bool = Field(
        True, description="Stamina debt is taken from the next day's refill (IS-33)."
    )

    # --- hunger / illness -------------------------------------------------------------
    food_per_day: int = Field(1, ge=0, le=MAX_AMOUNT, description="Food eaten at 24:00 (IS-35).")

    # --- items / proxies --------------------------------------------------------------
    give_same_cell_only: bool = Field(True, description="Give/trade only in one cell (IS-36).")
    auto_equip_best_weapon: bool = Field(
        True, description="Equip the largest power bonus by default (IS-37)."
    )
    proxy_idle_days: int = Field(
        2,
        ge=1,
        le=MAX_DURATION_SECONDS // 86400,
        description="'Idle' for invalidate_proxies: no own order for this many days (IS-39).",
    )

    # --- monsters and danger ----------------------------------------------------------
    deep_night_encounter_multiplier: float = Field(
        3.0,
        ge=0,
        le=1000,
        allow_inf_nan=False,
        description="Encounter chance multiplier in deep night (IS-50).",
    )
    deep_night_power_penalty: int = Field(
        1, ge=0, le=MAX_AMOUNT, description="Strength lost in a deep-night encounter fight (IS-50)."
    )
    monster_check_times: list[ClockTime] = Field(
        default_factory=lambda: ["20:00", "21:00", "22:00", "23:00"],
        max_length=24 * 60,
        description="Local times when resident monsters may attack (IS-51).",
    )

    @model_validator(mode="after")
    def _cross_check(self) -> IslandSettings:
        problems = scenario_problems(self)
        if problems:
            raise ValueError("; ".join(problems))
        return self


MIN_PLAYERS = 2


def player_range(s: IslandSettings) -> tuple[int, int]:
    """How many players the scenario takes, (fewest, most) (IS-4): at least two, at most
    its ``max_players`` (one per cell when it names none)."""
    most = s.max_players if s.max_players is not None else s.width * s.height
    return MIN_PLAYERS, max(MIN_PLAYERS, most)


def _inside(s: IslandSettings, at: tuple[int, int]) -> bool:
    return 1 <= at[0] <= s.width and 1 <= at[1] <= s.height


def scenario_problems(s: IslandSettings) -> list[str]:
    """Every cross-reference problem of a scenario, in a stable order."""
    out: list[str] = []
    lo, hi = s.pk_window_minutes
    if lo < 0 or hi < lo:
        out.append(f"pk_window_minutes {list(s.pk_window_minutes)} must be 0 <= min <= max")
    for name, value in (
        ("pk_window_start", s.pk_window_start),
        ("deep_night_start", s.deep_night_start),
    ):
        if not _HHMM.match(value):
            out.append(f"{name} {value!r} is not HH:MM")
    for t in s.monster_check_times:
        if not _HHMM.match(t):
            out.append(f"monster_check_times entry {t!r} is not HH:MM")
    try:
        from zoneinfo import ZoneInfo

        ZoneInfo(s.timezone)
    except Exception:
        out.append(f"unknown timezone {s.timezone!r}")
    if s.default_terrain not in s.terrains:
        out.append(f"default_terrain {s.default_terrain!r} is not a defined terrain")
    for tid, terrain in s.terrains.items():
        for wm in terrain.monster_table:
            if wm.kind not in s.monster_kinds:
                out.append(f"terrain {tid!r}: unknown monster kind {wm.kind!r}")
        out.extend(_explore_problems(s, f"terrain {tid!r}", terrain.explore_table))
    seen: set[tuple[int, int]] = set()
    for cell in s.cells:
        at = tuple(cell.at)
        if not _inside(s, cell.at):
            out.append(f"cell {list(at)} is outside the {s.width}x{s.height} map")
        if at in seen:
            out.append(f"cell {list(at)} is listed twice (overlapping)")
        seen.add(cell.at)
        if cell.terrain not in s.terrains:
            out.append(f"cell {list(at)}: unknown terrain {cell.terrain!r}")
        if cell.explore_table is not None:
            out.extend(_explore_problems(s, f"cell {list(at)}", cell.explore_table))
    if s.start_positions:
        for who, at in s.start_positions.items():
            if not _inside(s, at):
                out.append(f"start position of {who!r} {list(at)} is outside the map")
    if s.start_placement == "random" and player_range(s)[1] > s.width * s.height:
        out.append(
            f"max_players {s.max_players} is more than the {s.width * s.height} cells "
            "random placement can draw from"
        )
    mids: set[str] = set()
    for m in s.monsters:
        if m.id in mids:
            out.append(f"monster id {m.id!r} is used twice")
        mids.add(m.id)
        if m.kind not in s.monster_kinds:
            out.append(f"monster {m.id!r}: unknown monster kind {m.kind!r}")
        if not _inside(s, m.at):
            out.append(f"monster {m.id!r} at {list(m.at)} is outside the map")
    for item_id, count in s.starting_inventory.items():
        if item_id not in s.items:
            out.append(f"starting_inventory: unknown item {item_id!r}")
        if count < 0:
            out.append(f"starting_inventory: negative count for {item_id!r}")
    if "food" in s.items:
        out.append("item id 'food' is reserved for the food counter")
    sids: set[str] = set()
    for st in s.stories:
        if st.id in sids:
            out.append(f"story id {st.id!r} is used twice")
        sids.add(st.id)
    return out


def _explore_problems(s: IslandSettings, where: str, table: list[ExploreOutcome]) -> list[str]:
    out: list[str] = []
    story_ids = {st.id for st in s.stories}
    if not table:
        out.append(f"{where}: explore table is empty")
    for line in table:
        if line.kind == "item" and line.item not in s.items:
            out.append(f"{where}: explore outcome has unknown item {line.item!r}")
        if line.kind == "story" and line.story not in story_ids:
            out.append(f"{where}: explore outcome has unknown story {line.story!r}")
        if line.kind == "monster" and line.monster is not None:
            if line.monster not in s.monster_kinds:
                out.append(f"{where}: explore outcome has unknown monster {line.monster!r}")
    return out

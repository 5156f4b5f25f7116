"""The island ruleset object: initial state, validation and the step dispatcher.

State keys the shell may rely on (all JSON): ``ruleset`` ("island"), ``status``
("setup" | "running" | "finished"), ``day`` (0 before start), ``date`` (local ISO date of the
current day), ``settings``, ``roster``, ``player_order``, ``players`` (by id), ``orders``
(standing orders by order id, with ``status``), ``challenges`` (PKs by id), ``story_queue``,
``deaths``, ``announcements``, ``monsters``, ``proxies_invalid``, ``seq``, ``as_of``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from typing import ClassVar

from pydantic import BaseModel

from app.rules.base import (
    STEP_DIRECTOR,
    STEP_ORDER,
    STEP_READY,
    STEP_REVISE,
    STEP_START,
    STEP_TIMER,
    STEP_WITHDRAW,
    BodyModel,
    Outcome,
    ParsedOrders,
    Player,
    Ruleset,
    Step,
    TextContext,
    Viewer,
    copy_state,
)
from app.rules.island import text
from app.rules.island.actions import handle_order, handle_revise, handle_withdraw, resolve_pk
from app.rules.island.available import available_orders
from app.rules.island.core import (
    JSON,
    Ctx,
    day_timers,
    director_and,
    local_now,
    require,
    settings_of,
)
from app.rules.island.director import handle_director
from app.rules.island.kinds import EVENT_KINDS
from app.rules.island.messages import violation
from app.rules.island.midnight import run_midnight
from app.rules.island.monsters import monster_check
from app.rules.island.schema import DIRECTOR_ACTION_MODEL, ORDER_MODEL, IslandView
from app.rules.island.settings import IslandSettings, player_range
from app.rules.island.view import view as island_view


def _settings(settings: BaseModel) -> IslandSettings:
    if isinstance(settings, IslandSettings):
        return settings
    return IslandSettings.model_validate(settings.model_dump())


def _listed_cell(s: IslandSettings, index: int, player: Player) -> tuple[int, int] | None:
    """The start position the scenario lists for this player (by name, id or 1-based
    roster place), if any (IS-4)."""
    if s.start_placement != "scenario" or not s.start_positions:
        return None
    for key in (player.name, player.id, str(index + 1)):
        if key in s.start_positions:
            at = s.start_positions[key]
            return (int(at[0]), int(at[1]))
    return None


def start_cells(
    s: IslandSettings, roster: Sequence[Player], rng: random.Random
) -> list[tuple[int, int]]:
    """Where each player of ``roster`` starts (IS-4), in roster order: listed players on
    their positions (those of absent players simply unused), the others on free cells —
    cells no one else starts on — drawn in roster order from ``rng`` (the game's seed, so
    the same seed and roster always place the same way, and /verify replays it). Should
    the island run out of free cells, any cell is drawn."""
    listed = [_listed_cell(s, i, p) for i, p in enumerate(roster)]
    taken = {at for at in listed if at is not None}
    cells = [(x, y) for y in range(1, s.height + 1) for x in range(1, s.width + 1)]
    free = [c for c in cells if c not in taken]
    out: list[tuple[int, int]] = []
    for at in listed:
        if at is None and free:
            # One draw per player, the drawn cell swapped out: linear on the largest map.
            i = rng.randrange(len(free))
            at, free[i] = free[i], free[-1]
            free.pop()
        elif at is None:
            at = rng.choice(cells)
        out.append(at)
    return out


class IslandRuleset:
    """另一面 (The Other Side): a real-time island survival game."""

    name: ClassVar[str] = "island"
    settings_model: ClassVar[type[BaseModel]] = IslandSettings
    order_model: ClassVar[BodyModel] = ORDER_MODEL
    director_action_model: ClassVar[BodyModel] = DIRECTOR_ACTION_MODEL
    event_kinds: ClassVar[frozenset[str]] = EVENT_KINDS
    deadline_timer_kinds: ClassVar[tuple[str, ...]] = ("midnight",)  # a day's 24:00
    view_model: ClassVar[type[BaseModel]] = IslandView

    # --- setup -------------------------------------------------------------------------
    # Sign-ups (issue 20): island players have no side; where they start is the
    # scenario's ``start_placement`` (listed positions, or drawn from the seed).
    signup_sides: tuple[str, ...] = ()

    def roster_range(self, settings: BaseModel) -> tuple[int, int | None]:
        """How many players the scenario takes, (fewest, most) (IS-4)."""
        return player_range(_settings(settings))

    def validate_player(
        self, settings: BaseModel, name: str, side: str | None, roster_size: int = 0
    ) -> None:
        if side is not None:
            raise violation("bad_side")
        fewest, most = player_range(_settings(settings))
        if roster_size >= most:
            raise violation("roster_full", "IS-4", fewest=fewest, most=most)

    def validate_roster(self, settings: BaseModel, roster: Sequence[Player]) -> None:
        s = _settings(settings)
        problems = []
        if any(p.side is not None for p in roster):
            problems.append(("本戏玩家不分阵营。", "Island players have no side."))
        fewest, most = player_range(s)
        if not fewest <= len(roster) <= most:
            problems.append(
                (
                    f"本剧本可容纳 {fewest}–{most} 名玩家，现在有 {len(roster)} 名。",
                    f"This scenario takes {fewest} to {most} players; the roster has "
                    f"{len(roster)}.",
                )
            )
        if problems:
            raise violation(
                "bad_roster",
                "IS-4",
                zh=" ".join(z for z, _ in problems),
                en=" ".join(e for _, e in problems),
            )

    def initial_state(self, settings: BaseModel, roster: Sequence[Player]) -> JSON:
        s = _settings(settings)
        players: JSON = {}
        for p in roster:
            players[p.id] = {
                "id": p.id,
                "name": p.name,
                "at": None,
                "alive": True,
                "power": s.start_power,
                "base_max_stamina": s.start_stamina,
                "stamina": s.start_stamina,
                "hunger": 0,
                "ill": False,
                "food": s.starting_food,
                "inventory": {},
                "uses": {},
                "equipped": None,
                "faction": p.id,
                "debt": 0,
                "debt_used": {"assassinate": False, "guard": False},
                "flee_if_lose": s.flee_if_lose_default,
                "last_own_order_day": 0,
            }
        monsters: JSON = {}
        for m in s.monsters:
            kind = s.monster_kinds[m.kind]
            monsters[m.id] = {
                "id": m.id,
                "kind": m.kind,
                "at": [m.at[0], m.at[1]],
                "count": m.count,
                "power": m.power if m.power is not None else kind.power,
                "food": m.food if m.food is not None else kind.food,
                "attack_chance": m.attack_chance
                if m.attack_chance is not None
                else kind.attack_chance,
            }
        return {
            "ruleset": "island",
            "settings": s.model_dump(mode="json"),
            "roster": [{"id": p.id, "name": p.name} for p in roster],
            "player_order": [p.id for p in roster],
            "status": "setup",
            "day": 0,
            "date": None,
            "seq": 0,
            "players": players,
            "monsters": monsters,
            "orders": {},
            "challenges": {},
            "story_queue": [],
            "stories_triggered": [],
            "proxies_invalid": [],
            "announcements": [],
            "deaths": [],
            "as_of": None,
        }

    # --- steps -------------------------------------------------------------------------
    def validate(self, state: JSON, step: Step, now: datetime) -> None:
        # Validation never depends on the dice (every check precedes the first roll), and
        # apply never mutates its input, so a dry run is an exact validation.
        self.apply(state, step, random.Random(0), now)

    def apply(self, state: JSON, step: Step, rng: random.Random, now: datetime) -> Outcome:
        if now.tzinfo is None:
            raise ValueError("now must be timezone-aware")
        s = settings_of(state)
        ctx = Ctx(state=copy_state(state), s=s, rng=rng, now=now)
        kind = step.kind
        if kind == STEP_READY:
            return Outcome(state=ctx.state)
        if kind == STEP_START:
            require(step.actor.role == "director", "director_only")
            require(state["status"] == "setup", "already_started")
            self._start(ctx, step)
        elif kind == STEP_TIMER:
            self._timer(ctx, step)
        else:
            require(state["status"] == "running", "not_running")
            if kind == STEP_DIRECTOR:
                require(step.actor.role == "director", "director_only")
                handle_director(ctx, step.payload)
            elif kind in (STEP_ORDER, STEP_WITHDRAW, STEP_REVISE):
                actor = step.actor.player_id
                if step.actor.role != "player" or actor is None or actor not in state["players"]:
                    raise violation("not_found")
                if kind == STEP_ORDER:
                    handle_order(ctx, actor, step.payload)
                elif kind == STEP_WITHDRAW:
                    handle_withdraw(ctx, actor, step.payload)
                else:
                    handle_revise(ctx, actor, step.payload)
            else:
                raise violation("unsupported_step", None, kind=kind)
        ctx.state["as_of"] = now.isoformat()
        return ctx.outcome()

    def _start(self, ctx: Ctx, step: Step) -> None:
        s = ctx.s
        st = ctx.state
        roster = [Player(id=r["id"], name=r["name"]) for r in st["roster"]]
        self.validate_roster(s, roster)
        st["status"] = "running"
        st["day"] = 1
        today = local_now(s, ctx.now).date()
        st["date"] = today.isoformat()
        for pl, at in zip(roster, start_cells(s, roster, ctx.rng), strict=True):
            p = st["players"][pl.id]
            p["at"] = [at[0], at[1]]
            p["stamina"] = s.start_stamina
            for item_id, count in sorted(s.starting_inventory.items()):
                if count > 0:
                    from app.rules.island.core import add_items

                    add_items(s, p, item_id, count)
            ctx.emit("placed", {"player": pl.id, "at": list(at)}, *director_and(pl.id))
        ctx.emit(
            "game_started",
            {"day": 1, "date": today.isoformat(), "players": [r["name"] for r in st["roster"]]},
            "public",
        )
        ctx.timers.extend(day_timers(s, today, ctx.now))

    def _timer(self, ctx: Ctx, step: Step) -> None:
        payload = step.payload
        kind, key = payload.get("kind"), payload.get("key")
        data = payload.get("data") or {}
        if ctx.state["status"] != "running":
            return  # a stale timer of a finished game is a no-op
        if kind == "pk":
            resolve_pk(ctx, str(data.get("challenge", key)))
        elif kind == "midnight":
            run_midnight(ctx)
        elif kind == "monster_check":
            monster_check(ctx, dict(data))
        else:
            raise violation("unsupported_step", None, kind=f"timer:{kind}")

    # --- reading -----------------------------------------------------------------------
    def view(self, state: JSON, viewer: Viewer) -> JSON:
        return island_view(state, viewer)

    def available_orders(self, state: JSON, viewer: Viewer, now: datetime) -> list[JSON]:
        return available_orders(state, viewer, now, self.validate)

    def phase(self, state: JSON) -> str:
        status = str(state["status"])
        return "day" if status == "running" else status

    def is_finished(self, state: JSON) -> bool:
        return bool(state["status"] == "finished")

    # ----- orders in words (the grammar and its reader live in text.py) ----------------
    def text_context(self, state: JSON, viewer: Viewer) -> TextContext:
        return text.text_context(state, viewer)

    def parse_orders(self, source: str, context: TextContext) -> ParsedOrders:
        return text.parse_orders(source, context)

    def is_public_order(self, order: JSON) -> bool:
        """Assassinations and guards wait hidden for 24:00 (IS-20, IS-25), and a hidden
        move is told to nobody (IS-10): none of them may be posted in the open."""
        if order.get("type") in ("assassinate", "guard"):
            return False
        return not (order.get("type") == "move" and order.get("hidden"))


RULESET = IslandRuleset()
_CONFORMS: Ruleset = RULESET  # mypy checks the protocol here

"""How many seats a game has, and who sits on which side when it starts (issue 20).

Games with sides say so (``signup_sides`` on their ruleset); the shell never names one.
At the start, with the sign-up setting ``side_assignment``:

- ``"preference"``: sides balanced from the players' wishes. Sizes are made as equal as
  they can be; a side asked for by more than its share keeps its earliest sign-ups and
  the latest go to the sides short of players;
- ``"seed"``: sides drawn from the game's seed (re-checkable once it is revealed).

Seats whose side the director set (``side_fixed``), and players the director added by
hand, keep theirs. Where players start on a map is the game's own setting.

Imports nothing of ``app.services.games`` (which calls :func:`prepare_start`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import AppError
from app.models import Game, PlayerRow, Timer
from app.rules.base import step_rng
from app.rules.registry import get_ruleset
from app.services.auth import forget_game_players
from app.services.signup_models import SignupRow, SignupSettingsRow

SIDE_DRAW = "signup_sides"  # the seed's step id for a drawn assignment
CLOSE_TIMER = "signup_close"  # sign-ups' closing time (``signup_settings.run_timer``)
OFFER_TIMER = "signup_offer"  # a backup's offer running out (``backups.offer_expired``)
# Timers of sign-ups: the scheduler runs them without the rules; no director's advance does.
SIGNUP_TIMER_KINDS = (CLOSE_TIMER, OFFER_TIMER)


def roster_range(game: Game) -> tuple[int, int | None]:
    """(fewest, most) players the game's rules take."""
    ruleset = get_ruleset(game.ruleset)
    hook = getattr(ruleset, "roster_range", None)
    if hook is None:
        return 1, None
    fewest, most = hook(ruleset.settings_model.model_validate(game.settings))
    return int(fewest), None if most is None else int(most)


def capacity(game: Game, row: SignupSettingsRow | None) -> int | None:
    """How many seats sign-ups may fill: the director's cap, within the rules' most."""
    most = roster_range(game)[1]
    cap = row.max_players if row is not None else None
    if cap is None:
        return most
    return cap if most is None else min(cap, most)


def required(game: Game, row: SignupSettingsRow | None) -> int:
    """The fewest players the game may start with."""
    fewest = roster_range(game)[0]
    wanted = row.min_players if row is not None and row.min_players else 0
    return max(fewest, wanted)


def sides_of(game: Game) -> tuple[str, ...]:
    return tuple(getattr(get_ruleset(game.ruleset), "signup_sides", ()))


def balance(
    sides: tuple[str, ...],
    seats: list[tuple[str, str | None, bool]],
    draw: Any | None = None,
) -> dict[str, str]:
    """Each seat's side: ``seats`` are (player id, wish, fixed) in sign-up order. With
    ``draw`` (a seeded RNG) the free seats are shuffled and dealt; else wishes are kept
    while a side has room. Fixed seats count first and keep their side."""
    out: dict[str, str] = {}
    counts = dict.fromkeys(sides, 0)
    for pid, wish, fixed in seats:
        if fixed and wish in counts:
            out[pid] = str(wish)
            counts[str(wish)] += 1
    free = [(pid, wish) for pid, wish, fixed in seats if pid not in out]
    total = len(seats)
    share = {
        s: total // len(sides) + (1 if i < total % len(sides) else 0) for i, s in enumerate(sides)
    }
    if draw is not None:
        draw.shuffle(free)
        for pid, _ in free:
            side = min(sides, key=lambda s: (counts[s] - share[s], sides.index(s)))
            out[pid] = side
            counts[side] += 1
        return out
    left = []
    for pid, wish in free:
        if wish in counts and counts[str(wish)] < share[str(wish)]:
            out[pid] = str(wish)
            counts[str(wish)] += 1
        else:
            left.append(pid)
    for pid in left:
        side = min(sides, key=lambda s: (counts[s] - share[s], sides.index(s)))
        out[pid] = side
        counts[side] += 1
    return out


def missing(game: Game, count: int) -> int:
    """How many players the rules want beyond ``count`` (the refusal's ``missing``)."""
    return max(0, roster_range(game)[0] - count)


async def prepare_start(session: AsyncSession, game: Game, now: datetime) -> None:
    """Before the rules check the roster of a game with sign-ups: refuse too few players
    (409 naming how many are missing), close sign-ups, and assign sides."""
    row = await session.get(SignupSettingsRow, game.id)
    players = list(
        (
            await session.scalars(
                select(PlayerRow).where(PlayerRow.game_id == game.id).order_by(PlayerRow.ordinal)
            )
        ).all()
    )
    need = required(game, row)
    if row is not None and len(players) < need:  # else the rules' own refusal speaks
        missing = need - len(players)
        raise AppError(
            409,
            "not_enough_players",
            f"人数不足：至少需要 {need} 名玩家，现有 {len(players)} 名，还差 {missing} 人。",
            f"Not enough players: at least {need} are needed, {len(players)} have joined; "
            f"{missing} missing.",
            extra={"missing": missing, "needed": need, "players": len(players)},
        )
    if row is None:
        return  # no sign-ups: the director's roster as it is
    row.open = False
    row.updated_at = now
    await session.execute(
        update(Timer)
        .where(Timer.game_id == game.id, Timer.kind == CLOSE_TIMER, Timer.done_at.is_(None))
        .values(done_at=now)
    )
    sides = sides_of(game)
    if not sides:
        return
    signups = {
        s.player_id: s
        for s in (
            await session.scalars(
                select(SignupRow).where(
                    SignupRow.game_id == game.id, SignupRow.player_id.is_not(None)
                )
            )
        ).all()
    }
    seats: list[tuple[str, str | None, bool]] = []
    for p in players:
        signup = signups.get(p.id)
        if signup is None:  # added by hand: the director chose the side
            seats.append((p.id, p.side, True))
        else:
            seats.append((p.id, signup.side, signup.side_fixed))
    draw = step_rng(game.seed, SIDE_DRAW) if row.side_assignment == "seed" else None
    chosen = balance(sides, seats, draw)
    changed = False
    for p in players:
        if p.side != chosen[p.id]:
            p.side, changed = chosen[p.id], True
    if changed:  # a remembered token knows its old side
        game.auth_epoch += 1
        forget_game_players(game.id)
    await session.flush()

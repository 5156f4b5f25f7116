"""Decoded game states kept in memory, by the hash of their content.

A step reads the game's whole state and writes a new one: with 1,000 players that is a
400 KiB JSON document, and decoding it costs more than the rest of an order. So each
process keeps the states it last read or wrote, decoded, under the SHA-256 of their
stored text (``games.state_hash``, the hash a step records in ``steps.state_hash``), and a
game row is read with its state only when the row's hash is not one this process holds
(``STATE_UNLESS_KNOWN``): the database sends nothing that would be decoded again.

Keyed by content, an entry can never be stale: a rolled-back step, an undo, another
replica's write or a restored backup give the row another hash, or the same hash of the
same content. Every writer of ``games.state`` writes ``games.state_hash`` with it: a step
both at once (``steps.persist_steps``), the ORM's writes (the start, an undo, a sandbox)
through ``_hash_written_state`` below. A row written before the column existed has no
hash, and is read whole until its next step.

A large state is stored as a base and a delta (app/services/state_delta.py): an entry
holds the state and the base it was rebuilt from (or diffed against), under the pair of
their hashes, and a row is "known" when its pair is one held here. ``base_of(game)``
tells ``persist_steps`` which base the game's state in memory relates to; a state
rebuilt from a row is hashed and compared with the row's hash before anyone sees it.

The states are shared between requests, so no one may change one in place (no one does:
``Ruleset.apply`` leaves its input untouched, and the service only ever assigns a new
state). With ``STATE_CACHE_CHECK`` (the test suite sets it) every hit is hashed again and
every state put here compared with its JSON round trip, so a change in place, or a step
leaving what JSON would not give back (a tuple, an integer key), fails loudly.
"""

from __future__ import annotations

import hashlib
import json
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Row, bindparam, case, event, inspect, null, select, type_coerce, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.orm import Mapper, attributes, defer
from sqlalchemy.orm.util import identity_key

from app.models import GAMES, Game, SerializedJSON
from app.services import state_delta
from app.services.recent import Recent
from app.services.state_text import Pieces, hash_text, serialize_state, state_bytes
from app.settings import get_settings

JSON = dict[str, Any]

# What identifies a row's stored state: its hash and its base's, together.
_ROW_KEY = GAMES.c.state_hash + GAMES.c.state_base
_KNOWN = _ROW_KEY.in_(bindparam("known", expanding=True))
# The row's base and delta, or NULL when its key is one of ``known`` (an expanding bound
# parameter: the keys of ``StateCache.pinned``). Selected beside ``Game`` loaded with
# ``defer(Game.state), defer(Game.state_delta)``; ``adopt`` then gives each its state.
STATE_UNLESS_KNOWN = (
    type_coerce(case((_KNOWN, null()), else_=GAMES.c.state), GAMES.c.state.type).label(
        "base_unless_known"
    ),
    type_coerce(case((_KNOWN, null()), else_=GAMES.c.state_delta), GAMES.c.state.type).label(
        "delta_unless_known"
    ),
)


_SETTINGS_KNOWN = GAMES.c.settings_hash.in_(bindparam("known_settings", expanding=True))
# The row's settings, or NULL when their hash is one of ``known_settings`` (the keys of
# ``pinned_settings``): a scenario's settings are 20 KiB to send and decode, and never
# change once the game exists.
SETTINGS_UNLESS_KNOWN = type_coerce(
    case((_SETTINGS_KNOWN, null()), else_=GAMES.c.settings), GAMES.c.settings.type
).label("settings_unless_known")


# The portable writes of a step's game rows: the state whole (a new base), or only what
# changed since its base (``state_delta``). PostgreSQL: app/services/pg_batch.py.
_GAME_VALUES = {
    "step_seq": bindparam("step_seq"),
    "event_seq": bindparam("event_seq"),
    "state_delta": bindparam("state_delta", type_=GAMES.c.state_delta.type),
    "state_hash": bindparam("state_hash"),
    "state_base": bindparam("state_base"),
    "updated_at": bindparam("updated_at", type_=GAMES.c.updated_at.type),
}
_UPDATE_GAME = (
    update(GAMES)
    .where(GAMES.c.id == bindparam("game_id"))
    .values(**_GAME_VALUES, state=bindparam("state", type_=GAMES.c.state.type))
)
_UPDATE_GAME_DELTA = update(GAMES).where(GAMES.c.id == bindparam("game_id")).values(**_GAME_VALUES)


async def write_games(conn: AsyncConnection, game_rows: list[dict[str, Any]]) -> None:
    """``steps.persist_steps``'s game rows, the portable way (SQLite): two executemany at
    most, each delta padded to its size class (``padded_delta``)."""
    whole = [row for row in game_rows if row["state"] is not None]
    # (A key named after a column would join the SET clause: the base must stay.)
    deltas = [
        {k: padded_delta(v) if k == "state_delta" else v for k, v in row.items() if k != "state"}
        for row in game_rows
        if row["state"] is None
    ]
    for statement, rows in ((_UPDATE_GAME, whole), (_UPDATE_GAME_DELTA, deltas)):
        if rows:
            await conn.execute(statement, rows)


# SQLite writes a row again whole, its base state's 400 KiB of overflow pages included,
# whenever an UPDATE changes the row's size; at the same size it writes only the pages whose
# bytes changed (a row of 400 KB: 785 KiB of WAL per commit against 8 KiB, measured). A step
# changes the delta's length, and little else of the row's: so the delta's text is padded
# with spaces (JSON's whitespace: it reads back the same) to the next power of two, at least
# this many bytes, and the row keeps its size until the delta outgrows its class.
DELTA_PAD_MIN_BYTES = 4096


def padded_delta(text: Any) -> Any:
    """A delta's JSON text padded to its size class; anything else as it is."""
    if not isinstance(text, str):
        return text
    length = len(text.encode("utf-8"))
    target = max(DELTA_PAD_MIN_BYTES, 1 << (length - 1).bit_length())
    return SerializedJSON(text + " " * (target - length))


@dataclass(frozen=True, slots=True)
class Base:
    """The base a state in memory is stored against: its hash and the decoded document."""

    digest: str
    state: JSON


@dataclass(frozen=True, slots=True)
class Held:
    game_id: str
    state: JSON
    base: Base


class StateCache:
    """The most recently used states, at most ``size`` of them (0: none kept) and at most
    ``budget`` bytes of their stored text (None: no such bound), and the key each game's
    state last had here (which one to offer as known). Counted in bytes, a server with
    thousands of small games keeps them all, and one with large ones only a few. The text
    of the states last written (``pieces``) and the games' settings (``settings``) are kept
    within the same bounds, each on its own."""

    def __init__(self, size: int, check: bool = False, budget: int | None = None) -> None:
        self.size = size
        self.check = check
        self.budget = budget
        self._held: Recent[str, Held] = Recent(size, budget, self._evicted)  # by row key
        self._latest: dict[str, str] = {}  # game id -> row key
        self.pieces: Recent[str, Pieces] = Recent(size, budget)  # by game id
        self.settings: Recent[str, JSON] = Recent(size, budget)  # by their hash
        self.settings_of: Recent[str, str] = Recent(4 * size)  # game id -> settings hash

    @property
    def weight(self) -> int:
        """Bytes of stored text the states held stand for."""
        return self._held.weight

    def _evicted(self, key: str, held: Held) -> None:
        if self._latest.get(held.game_id) == key:
            del self._latest[held.game_id]

    def pinned(self, game_ids: Iterable[str]) -> dict[str, Held]:
        """What is held for these games, by row key: the ``known`` parameter of
        ``STATE_UNLESS_KNOWN``, kept by the caller until ``adopt`` so that no other
        request's put can evict one meanwhile."""
        found = {}
        for game_id in game_ids:
            key = self._latest.get(game_id)
            held = self._held.get(key) if key is not None else None
            if key is not None and held is not None:
                found[key] = held
        return found

    def put(
        self,
        game_id: str,
        digest: str | None,
        state: JSON | None,
        base: Base,
        size: int | None = None,
    ) -> None:
        """Hold ``state`` (its stored text ``size`` bytes long; measured when not given)."""
        if digest is None or state is None or self.size <= 0:
            return
        if self.check:
            if json.loads(json.dumps(state, ensure_ascii=False)) != state:
                raise AssertionError("a state that JSON would not give back as it is")
            if hash_text(serialize_state(state)) != digest:
                raise AssertionError(f"a state put under another's hash ({digest[:12]})")
        if size is None:
            size = len(serialize_state(state))
        # A base apart from its state is about as large again.
        weight = size if base.state is state else 2 * size
        key = digest + base.digest
        self._latest[game_id] = key
        self._held.put(key, Held(game_id, state, base), weight)

    def clear(self) -> None:
        for kept in (self._held, self.pieces, self.settings, self.settings_of):
            kept.clear()
        self._latest.clear()


_cache: StateCache | None = None
# The base each loaded game's state relates to (what its next step's delta is taken
# against). Forgotten with the game object.
_bases: weakref.WeakKeyDictionary[Game, Base] = weakref.WeakKeyDictionary()


def cache() -> StateCache:
    """This process's cache, sized by the settings (``STATE_CACHE_GAMES``,
    ``STATE_CACHE_MB``)."""
    global _cache
    if _cache is None:
        settings = get_settings()
        budget = int(settings.state_cache_mb * 1024 * 1024)
        _cache = StateCache(settings.state_cache_games, settings.state_cache_check, budget)
    return _cache


def state_text(game_id: str, state: JSON) -> bytes:
    """The stored text of the game's new state (``state_text.state_bytes``), pieced
    together from the text last written here of what the step did not change."""
    kept = cache().pieces
    if kept.size <= 0:
        return state_bytes(state, None)
    pieces = kept.pop(game_id) or Pieces()
    text = state_bytes(state, pieces)
    kept.put(game_id, pieces, pieces.weight)
    return text


def pinned_settings(game_id: str) -> dict[str, JSON]:
    """The settings held for the game, by hash (the ``known_settings`` parameter)."""
    kept = cache()
    digest = kept.settings_of.get(game_id)
    held = kept.settings.get(digest) if digest is not None else None
    return {} if digest is None or held is None else {digest: held}


def adopt_settings(game: Game, settings: Any, pinned: dict[str, JSON]) -> None:
    """Give ``game`` (loaded with its settings deferred) its settings: those selected, or
    the pinned ones when they were not sent. Shared like the states: read, never changed."""
    kept = cache()
    digest = game.settings_hash
    if settings is None and digest is not None and digest in pinned:
        settings = pinned[digest]
        if kept.check and settings_hash(settings) != digest:
            raise AssertionError(f"cached settings were changed in place ({digest[:12]})")
    if digest is not None and settings is not None and kept.size > 0:
        if kept.settings.get(digest) is not settings:  # weighed once, when first held
            kept.settings.put(digest, settings, len(serialize_state(settings)))
        kept.settings_of.put(game.id, digest)
    attributes.set_committed_value(game, "settings", settings)


def settings_hash(settings: Any) -> str:
    return hash_text(
        json.dumps(settings, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    )


def base_of(game: Game) -> Base | None:
    """The base the game's stored state is written against, if its state in memory is
    known to relate to it (else the next step writes the state whole)."""
    return _bases.get(game)


def wrote(game: Game, digest: str, state: JSON, base: Base, size: int) -> None:
    """A step wrote ``state`` (hash ``digest``, ``size`` bytes of text) against ``base``:
    remember both."""
    _bases[game] = base
    cache().put(game.id, digest, state, base, size)


# A state this long (bytes of JSON) is written as a delta against its base, while the
# delta is at most this share of it; else whole, and that is its new base.
DELTA_MIN_BYTES = 32 * 1024
DELTA_MAX_SHARE = 0.25


def stored_against(
    game: Game, state: dict[str, Any], size: int, digest: str
) -> tuple[Base, dict[str, Any] | None, SerializedJSON | None]:
    """How a step stores the game's new state: against which base, as which delta (and
    its text), or whole (no delta: the state is its own new base). A small state, one
    whose base this process does not hold, or one that has drifted far from its base is
    written whole."""
    base = base_of(game)
    if base is not None and size >= DELTA_MIN_BYTES:
        delta = state_delta.diff(base.state, state)
        text = serialize_state(delta)
        if len(text) <= size * DELTA_MAX_SHARE:
            return base, delta, text
    return Base(digest, state), None, None


def checked_digest(stored: bytes, state: JSON) -> str:
    """The SHA-256 of a state's text (``state_bytes``); under ``STATE_CACHE_CHECK`` that
    text is first compared with ``serialize_state``'s."""
    if cache().check and stored != serialize_state(state).encode():
        raise AssertionError("a state's text pieced together is not its text")
    return hashlib.sha256(stored).hexdigest()


def rebuilt(game: Game, base: JSON, delta: JSON | None) -> JSON:
    """The state of a row read whole: its base, or its base with its delta applied, which
    must hash to the row's ``state_hash`` (a rebuild that does not is refused loudly)."""
    if delta is None:
        return base
    state = state_delta.apply(base, delta)
    if game.state_hash is not None and hash_text(serialize_state(state)) != game.state_hash:
        raise RuntimeError(f"game {game.id}: the stored state does not match its hash")
    return state


def adopt(game: Game, base: Any, delta: Any, pinned: dict[str, Held]) -> None:
    """Give ``game`` (loaded with its state deferred) its state: rebuilt from the base and
    delta selected beside it, or, when those are NULL because its key was among
    ``pinned``, the pinned one."""
    held_here = cache()
    key = (game.state_hash or "") + (game.state_base or "")
    held = pinned.get(key) if game.state_hash and game.state_base else None
    state: JSON | None
    stored_against: Base | None
    if base is None and held is not None:
        if held_here.check and hash_text(serialize_state(held.state)) != game.state_hash:
            raise AssertionError(f"a cached state was changed in place ({key[:12]})")
        state, stored_against = held.state, held.base
    else:
        state = None if base is None else rebuilt(game, base, delta)
        stored_against = None
        if base is not None and game.state_base is not None:
            stored_against = Base(game.state_base, base)
            held_here.put(game.id, game.state_hash, state, stored_against)
        # (A hit reads no delta: the attribute stays unloaded then.)
        attributes.set_committed_value(game, "state_delta", delta)
    attributes.set_committed_value(game, "state", state)
    if stored_against is not None:
        _bases[game] = stored_against
    else:
        _bases.pop(game, None)


def adopt_rows(rows: Sequence[Row[Any]], pinned: dict[str, Held]) -> None:
    """``adopt`` for rows of ``(Game, ..., base_unless_known, delta_unless_known)``."""
    for row in rows:
        adopt(row[0], row[len(row) - 2], row[len(row) - 1], pinned)


@event.listens_for(Game, "load")
def _rebuild_loaded(game: Game, context: Any) -> None:
    """A game loaded whole (not through ``adopt``): its state rebuilt from base and delta."""
    loaded = game.__dict__
    if "state" not in loaded or "state_delta" not in loaded or loaded["state"] is None:
        return
    base = loaded["state"]
    if loaded["state_delta"] is not None:
        attributes.set_committed_value(game, "state", rebuilt(game, base, loaded["state_delta"]))
    if game.state_base:
        _bases[game] = Base(game.state_base, base)


@event.listens_for(Game, "refresh")
def _rebuild_refreshed(game: Game, context: Any, attrs: Any) -> None:
    if attrs is None or "state" in attrs:  # (a refresh of other columns keeps the state)
        _rebuild_loaded(game, context)


@event.listens_for(Game, "before_insert")
@event.listens_for(Game, "before_update")
def _hash_written_state(mapper: Mapper[Game], connection: Any, game: Game) -> None:
    """A state the ORM writes (a start, an undo, a sandbox's copy) is written whole: its
    own base, with its hash. Settings written get theirs."""
    if "settings" in game.__dict__:
        written = attributes.get_history(game, "settings", attributes.PASSIVE_NO_INITIALIZE)
        if written.added or game.settings_hash is None:
            game.settings_hash = settings_hash(game.__dict__["settings"])
    if "state" not in game.__dict__:
        return  # not loaded, so not changed
    state = game.__dict__["state"]
    changed = attributes.get_history(game, "state", attributes.PASSIVE_NO_INITIALIZE).added
    if changed or (state is None) != (game.state_hash is None):
        digest = None if state is None else hash_text(serialize_state(state))
        game.state_hash = digest
        game.state_base = digest
        game.state_delta = None
        attributes.flag_modified(game, "state_delta")  # written even if it was not loaded
        if digest is not None and state is not None:
            _bases[game] = Base(digest, state)


async def load(session: AsyncSession, game_id: str, lock: bool) -> Game | None:
    """The game row (``games.load_game``; ``lock``: FOR UPDATE), its state and settings beside
    it unless this process holds them already."""
    if not lock:
        held = session.identity_map.get(identity_key(Game, game_id))
        if isinstance(held, Game) and not inspect(held).expired_attributes:
            return held  # as session.get would: this transaction read it already
    pinned = cache().pinned([game_id])
    settings = pinned_settings(game_id)
    query = _LOAD_GAME_LOCKED if lock else _LOAD_GAME
    params = {"game_id": game_id, "known": list(pinned), "known_settings": list(settings)}
    row = (await session.execute(query, params)).first()
    if row is None:
        return None
    adopt(row[0], row[2], row[3], pinned)
    adopt_settings(row[0], row[1], settings)
    return row[0]


_LOAD_GAME = (
    select(Game, SETTINGS_UNLESS_KNOWN, *STATE_UNLESS_KNOWN)
    .where(Game.id == bindparam("game_id"))
    .options(defer(Game.settings), defer(Game.state), defer(Game.state_delta))
)
_LOAD_GAME_LOCKED = _LOAD_GAME.with_for_update(of=Game).execution_options(populate_existing=True)

"""Sealed-order receipts: proof that what was executed is what was sealed at the deadline.

When a phase closes, the hidden orders that stand for it are sealed, per owner (a side, a
living player: the game's sealer says, see :mod:`app.kit.receipts`), into a receipt:

    salt    = HMAC-SHA256(key = game seed, message = "receipt|<phase key>|<owner>")  (hex)
    receipt = SHA-256("<salt>:<canonical orders>")                                   (hex)

The canonical orders are the JSON list of ``{"id", "type", ...what the rules executed}`` in
submission order, with sorted keys, no spaces, UTF-8. A receipt is published for every
owner at every close, orders or none, so its existence says nothing; without the salt it
says nothing either. The player gets the same receipt in the reply to each order (it
changes as they revise or withdraw), so they can check that the published one is theirs.
The salts (with the orders) are published once those orders are revealed — at once when
the close itself reveals them, everything else when the game ends — and anyone can then
recompute each receipt. ``GET /verify`` recomputes them all from the replay.

The phase key (the game's name for the close, e.g. ``r1-command`` or ``d3``) stands in for
the closing step's id because the receipt must be known before the close, in the order's
reply. After a director's undo (app/services/safety/undo.py) the game's ``generation``
(how many undos it has had) is part of the key (``r1-command~1``): the receipts and salts of
an undone close are superseded, never reused by the close that replaces it. Everything here
except
:func:`receipt_events` is pure.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.kit.receipts import DEFAULT_SEALER, Close, Sealer
from app.models import EventRow
from app.rules.base import AUDIENCE_DIRECTOR, AUDIENCE_PUBLIC, Actor, Event
from app.rules.registry import get_presentation

SEALED = "orders_sealed"  # public: the receipts of one close
OPENED = "receipts_opened"  # public: salts and orders, so anyone can recompute
CONTENTS = "receipt_contents"  # director only: what was sealed, kept until it is opened

JSON = dict[str, Any]


def salt(seed: str, key: str, owner: str) -> str:
    message = f"receipt|{key}|{owner}".encode()
    return hmac.new(seed.encode("utf-8"), message, hashlib.sha256).hexdigest()


def canonical_orders(orders: Sequence[JSON]) -> str:
    return json.dumps(list(orders), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def receipt(salt_hex: str, orders: Sequence[JSON]) -> str:
    return hashlib.sha256(f"{salt_hex}:{canonical_orders(orders)}".encode()).hexdigest()


def generation_key(key: str, generation: int) -> str:
    """The phase key a close seals under: the game's own, or after ``generation`` undos a
    new one, so a close made again never shares a salt with the one it replaces."""
    return key if generation <= 0 else f"{key}~{generation}"


def sealer_of(ruleset: str) -> Sealer:
    """The game's sealer, or the kit's (which seals nothing)."""
    found = get_presentation(ruleset).sealer
    return found if found is not None else DEFAULT_SEALER


def close_of(ruleset: str, before: JSON | None, events: Iterable[Event]) -> Close | None:
    """The close a step performed, judged from the state before it and its events."""
    if before is None:
        return None
    return sealer_of(ruleset).close_of(before, events)


def current_receipt(
    ruleset: str, seed: str, state: JSON | None, actor: Actor, generation: int = 0
) -> JSON | None:
    """The actor's receipt as it would be sealed if the phase closed now (order replies)."""
    if state is None:
        return None
    found = sealer_of(ruleset).current(state, actor)
    if found is None:
        return None
    key, owner, orders = found
    key = generation_key(key, generation)
    return {
        "key": key,
        "owner": owner,
        "receipt": receipt(salt(seed, key, owner), orders),
        "order_ids": [o["id"] for o in orders],
    }


def _opened(seed: str, key: str, owner: str, orders: list[JSON]) -> JSON:
    s = salt(seed, key, owner)
    return {"key": key, "owner": owner, "salt": s, "orders": orders, "receipt": receipt(s, orders)}


def step_receipt_events(
    ruleset: str,
    seed: str,
    before: JSON | None,
    events: Sequence[Event],
    finished: bool,
    step_seq: int,
    unopened: Sequence[JSON],
    generation: int = 0,
) -> list[tuple[str, JSON, list[str]]]:
    """The service events (kind, data, audience) a step calls for, in order. Pure.

    ``unopened`` are the earlier ``receipt_contents`` data not yet opened; they are
    opened when the game finishes."""
    out: list[tuple[str, JSON, list[str]]] = []
    close = close_of(ruleset, before, events)
    to_open: list[JSON] = []
    if close is not None:
        key = generation_key(close.key, generation)
        receipts = [
            {"owner": owner, "receipt": receipt(salt(seed, key, owner), orders)}
            for owner, orders in close.sealed.items()
        ]
        sealed = {"step": step_seq, "key": key, **close.label, "receipts": receipts}
        out.append((SEALED, sealed, [AUDIENCE_PUBLIC]))
        contents = {"step": step_seq, "key": key, **close.label, "sealed": close.sealed}
        if close.opens_at_once:
            to_open.append(contents)
        else:
            out.append((CONTENTS, contents, [AUDIENCE_DIRECTOR]))
            if finished:
                unopened = [*unopened, contents]
    if finished:
        to_open.extend(unopened)
    if to_open:
        opened = [
            _opened(seed, c["key"], owner, orders)
            for c in to_open
            for owner, orders in c["sealed"].items()
        ]
        data = {"reason": "end" if finished else "revealed", "receipts": opened}
        out.append((OPENED, data, [AUDIENCE_PUBLIC]))
    return out


async def receipt_events(
    session: AsyncSession,
    game_id: str,
    ruleset: str,
    seed: str,
    before: JSON | None,
    events: Sequence[Event],
    finished: bool,
    step_seq: int,
    generation: int = 0,
) -> list[tuple[str, JSON, list[str]]]:
    """:func:`step_receipt_events` for a live step: at the end, what was sealed earlier
    comes from the game's own ``receipt_contents`` events."""
    unopened: list[JSON] = []
    if finished:
        rows = await session.scalars(
            select(EventRow.data)
            .where(EventRow.game_id == game_id, EventRow.kind == CONTENTS)
            .order_by(EventRow.seq)
        )
        unopened = [dict(r) for r in rows.all()]
    return step_receipt_events(
        ruleset, seed, before, events, finished, step_seq, unopened, generation
    )


def check_replay(
    ruleset: str,
    seed: str,
    replayed: Sequence[tuple[int, JSON | None, Sequence[Event], bool, int]],
    stored: Sequence[tuple[str, JSON]],
) -> tuple[int, list[JSON]]:
    """/verify: recompute every receipt from the replay (step seq, state before, events,
    finished, the game's generation: undos so far) and compare with the stored (kind, data) of ``orders_sealed`` and
    ``receipts_opened`` events.
    Returns (receipts checked, problems)."""
    expected_sealed: dict[int, JSON] = {}
    expected_open: dict[tuple[str, str], JSON] = {}
    unopened: list[JSON] = []
    for seq, before, events, finished, generation in replayed:
        for kind, data, _ in step_receipt_events(
            ruleset, seed, before, events, finished, seq, unopened, generation
        ):
            if kind == SEALED:
                expected_sealed[seq] = data
            elif kind == CONTENTS:
                unopened.append(data)
            elif kind == OPENED:
                for item in data["receipts"]:
                    expected_open[(item["key"], item["owner"])] = item
                if finished:
                    unopened = []
    problems: list[JSON] = []
    checked = 0
    seen_sealed: set[int] = set()
    for kind, data in stored:
        if kind == SEALED:
            step = int(data["step"])
            seen_sealed.add(step)
            want = expected_sealed.get(step)
            if want is None or want["receipts"] != data["receipts"]:
                problems.append({"step": step, "problem": "sealed receipts differ"})
            checked += len(data["receipts"])
        elif kind == OPENED:
            for item in data.get("receipts", []):
                want = expected_open.get((item.get("key"), item.get("owner")))
                if want != item or receipt(item["salt"], item["orders"]) != item["receipt"]:
                    problems.append(
                        {"step": 0, "problem": f"opened receipt {item.get('key')} differs"}
                    )
    for step in sorted(set(expected_sealed) - seen_sealed):
        problems.append({"step": step, "problem": "receipts were not published"})
    return checked, problems

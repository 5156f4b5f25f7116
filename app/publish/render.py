"""STAND-IN until i8-render's renderer lands on main (same interface; see PUBLISH.md)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

FORMATS = ("bbcode", "markdown", "text")

_KINDS = {
    "game_started": "game_started",
    "phase_opened": "phase_opened",
    "deployments_revealed": "deployments_revealed",
    "round_resolved": "round_result",
    "daily_report": "daily_report",
    "pk_resolved": "pk_result",
    "seed_revealed": "game_finished",
}


@dataclass(frozen=True)
class PublicEvent:
    seq: int
    at: datetime
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True)
class RosterEntry:
    id: str
    name: str
    side: str | None
    forum_name: str | None


@dataclass(frozen=True)
class GameInfo:
    id: str
    title: str
    ruleset: str
    timezone: str
    language: str
    settings: dict[str, Any]
    roster: tuple[RosterEntry, ...]
    seed_commitment: str
    public_url: str | None


@dataclass(frozen=True)
class PostDraft:
    kind: str
    title: str
    bodies: dict[str, str]


def _draft(kind: str, title: str, text: str) -> PostDraft:
    return PostDraft(kind, title, dict.fromkeys(FORMATS, text))


def posts_for_events(
    game: GameInfo, events: Sequence[PublicEvent], deadline: datetime | None
) -> list[PostDraft]:
    out = []
    for event in events:
        kind = _KINDS.get(event.kind)
        if kind is not None:
            body = json.dumps(event.data, ensure_ascii=False, sort_keys=True)
            if kind == "phase_opened" and deadline is not None:
                body += f"\n{deadline.isoformat()}"
            out.append(_draft(kind, f"{game.title} #{event.seq} {kind}", body))
    return out


def reminder_post(
    game: GameInfo, waiting: Sequence[RosterEntry], deadline: datetime, mentions: bool
) -> PostDraft:
    names = [("@" if mentions else "") + (w.forum_name or w.name) for w in waiting]
    return _draft("reminder", f"{game.title} reminder", f"{deadline.isoformat()} {' '.join(names)}")


def tally_post(
    game: GameInfo,
    rows: Sequence[tuple[RosterEntry, bool, bool]],
    deadline: datetime | None,
) -> PostDraft:
    return _draft("tally", f"{game.title} tally", " ".join(r.name for r, _, _ in rows))

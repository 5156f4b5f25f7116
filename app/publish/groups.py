"""Which posts the public events of one step call for, and which events each post uses.

A step's events arrive in the order the rules emitted them, followed by the service events
of the same transaction (receipts, the seed). Headline events open a post (a phase opened,
deployments revealed, a round resolved, a PK resolved, the 24:00 report, the end);
context events (a phase closed, the public orders announced at its close, dispatches)
belong to the next headline of the step; what a post at the end gathers (every order
revealed, the seed) may come after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.publish.context import PublicEvent

# The resolution log of one Team Battle round: from resolution_started to round_resolved.
TB_ROUND_LOG = frozenset(
    {
        "resolution_started",
        "order_revealed",
        "troops_gathered",
        "first_strike",
        "damage",
        "counter",
        "penetration",
        "no_damage",
        "annihilated",
        "penetration_total",
        "morale_changed",
    }
)
CONTEXT = frozenset(
    {
        "phase_closed",
        "director_closed_phase",
        "orders_announced",
        "troops_dispatched",
        "order_seen_through",
        "death_announced",
    }
)
# Gathered by the game_finished post wherever they stand in the batch.
END_EXTRAS = frozenset({"orders_revealed", "hidden_events_revealed", "seed_revealed"})
RECEIPTS = frozenset({"orders_sealed", "receipts_opened"})
NOTICES = frozenset(
    {
        "paused",
        "resumed",
        "deadline_extended",
        "announcement",
        "pk_posted",
        "pk_joined",
        "pk_fled",
        "director_set_morale",
        "director_set_troops",
    }
)
HEADLINES = {
    "game_started": "game_started",
    "phase_opened": "phase_opened",
    "deployment_revealed": "deployments_revealed",
    "round_resolved": "round_result",
    "day_report": "daily_report",
    "pk_resolved": "pk_result",
    "game_over": "game_finished",
}


@dataclass
class Group:
    """The events one post is built from."""

    kind: str
    events: list[PublicEvent] = field(default_factory=list)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [e.data for e in self.events if e.kind == kind]

    def first(self, kind: str) -> dict[str, Any] | None:
        found = self.of(kind)
        return found[0] if found else None

    def event(self, kind: str) -> PublicEvent | None:
        for e in self.events:
            if e.kind == kind:
                return e
        return None


def group_events(events: Sequence[PublicEvent]) -> list[Group]:
    groups: list[Group] = []
    waiting: list[PublicEvent] = []  # context and round log for the next headline
    finished: Group | None = None
    extras = [e for e in events if e.kind in END_EXTRAS]
    for index, e in enumerate(events):
        kind = e.kind
        previous = events[index - 1].kind if index else ""
        if kind in HEADLINES:
            group = Group(HEADLINES[kind], [*waiting, e])
            waiting = []
            groups.append(group)
            if group.kind == "game_finished":
                group.events.extend(extras)
                finished = group
        elif kind in CONTEXT or kind in TB_ROUND_LOG:
            waiting.append(e)
        elif kind == "orders_sealed":
            # Sealed at the close, so read before what the close revealed or opened.
            closing = [
                i
                for i, g in enumerate(groups)
                if any(x.kind in ("phase_closed", "day_report") for x in g.events)
            ]
            at = closing[-1] if closing else len(groups)
            groups.insert(at, Group("receipts", [e]))
        elif kind == "receipts_opened":
            last = groups[-1] if groups else None
            if last is not None and last.kind == "receipts" and previous in RECEIPTS:
                last.events.append(e)
            else:
                groups.append(Group("receipts", [e]))
        elif kind in NOTICES:
            last = groups[-1] if groups else None
            if last is not None and last.kind == "notice":
                last.events.append(e)
            else:
                groups.append(Group("notice", [e]))
    if finished is None and any(e.kind == "seed_revealed" for e in extras):
        groups.append(Group("game_finished", extras))
    if waiting:
        # Context with no headline after it (a director's close that opened nothing new).
        groups.append(Group("notice", waiting))
    return groups

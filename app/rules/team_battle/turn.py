"""One Team Battle step as it is applied: the new state and the Outcome's parts, and how
an event is addressed (to everyone, or to one side and the director)."""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.base import (
    AUDIENCE_DIRECTOR,
    AUDIENCE_PUBLIC,
    JSON,
    Actor,
    Event,
    StepContext,
    side_audience,
)

PHASE_TIMER = ("phase", "phase")
OPEN_PHASES = ("deployment", "command", "battle", "response")


@dataclass(slots=True)
class Turn(StepContext):
    """What one step is producing: the new state plus the Outcome's parts."""

    def emit(
        self,
        kind: str,
        data: JSON,
        audience: tuple[str, ...] = (AUDIENCE_PUBLIC,),
        reveal_at: str | None = None,
    ) -> None:
        self.events.append(Event(kind=kind, data=data, audience=audience, reveal_at=reveal_at))


def own(side: str) -> tuple[str, ...]:
    """The audience of what only ``side`` (and the director) may see."""
    return (side_audience(side), AUDIENCE_DIRECTOR)


def who(actor: Actor) -> str:
    return actor.player_id if actor.player_id else actor.role

"""Which posts the public events of one step call for, and which events each post uses.

A step's events arrive in the order the rules emitted them, followed by the service events
of the same transaction (receipts, the seed). Headline events open a post (the start, the
end, and what the game's :class:`~app.kit.posts.Posts` names: a phase opened, a round
resolved...); context events (what a close revealed) belong to the next headline of the
step; what a post at the end gathers (every order revealed, the seed) may come after it.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.kit.post_parts import Group, PublicEvent
from app.kit.posts import Posts

# Every game's: its start and its end open a post.
HEADLINES = {"game_started": "game_started", "game_over": "game_finished"}
# Gathered by the game_finished post wherever they stand in the batch (the service's).
END_EXTRAS = frozenset({"hidden_events_revealed", "seed_revealed"})
RECEIPTS = frozenset({"orders_sealed", "receipts_opened"})
# The service's notices (the director's pause, resume and extension).
NOTICES = frozenset({"paused", "resumed", "deadline_extended", "steps_undone"})
OTHERS = "events"  # the kit's plain post of events no post claims

__all__ = ["Group", "group_events"]


def group_events(events: Sequence[PublicEvent], posts: Posts) -> list[Group]:
    headlines = {**HEADLINES, **posts.headlines}
    end_extras = END_EXTRAS | posts.end_extras
    notices = NOTICES | posts.notices
    groups: list[Group] = []
    waiting: list[PublicEvent] = []  # context for the next headline
    finished: Group | None = None
    extras = [e for e in events if e.kind in end_extras]
    for index, e in enumerate(events):
        kind = e.kind
        previous = events[index - 1].kind if index else ""
        last = groups[-1] if groups else None
        if kind in headlines:
            group = Group(headlines[kind], [*waiting, e])
            waiting = []
            groups.append(group)
            if group.kind == "game_finished":
                group.events.extend(extras)
                finished = group
        elif kind in posts.context:
            waiting.append(e)
        elif kind == "orders_sealed":
            # Sealed at the close: the receipts end the post of that close (the one whose
            # events hold it), so a close adds no post of its own; with none, their own.
            closing = [g for g in groups if any(x.kind in posts.closes for x in g.events)]
            if closing:
                closing[-1].events.append(e)
            else:
                groups.append(Group("receipts", [e]))
        elif kind == "receipts_opened":
            # Opened by the close that sealed them (a deployment revealed at once), or by
            # the end: said in the post that holds that close's receipts, or the end's.
            holding = [g for g in groups if g.event("orders_sealed") is not None]
            if e.data.get("reason") == "end" and finished is not None:
                finished.events.append(e)
            elif last is not None and previous in RECEIPTS and last.event(previous) is not None:
                last.events.append(e)
            elif holding and e.data.get("reason") != "end":
                holding[-1].events.append(e)
            else:
                groups.append(Group("receipts", [e]))
        elif kind in notices:
            if last is not None and last.kind == "notice":
                last.events.append(e)
            else:
                groups.append(Group("notice", [e]))
        elif posts.others and kind not in end_extras:
            if last is not None and last.kind == OTHERS:
                last.events.append(e)
            else:
                groups.append(Group(OTHERS, [e]))
    if finished is None and any(e.kind == "seed_revealed" for e in extras):
        groups.append(Group("game_finished", extras))
    if waiting:
        # Context with no headline after it (a director's close that opened nothing new).
        groups.append(Group("notice", waiting))
    return groups

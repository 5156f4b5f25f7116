"""What the island declares of itself: every event kind it emits and every phase it has.

The catalogue (``words/names.py``) names each of them; a test checks it does, and that a
replayed game emits only these kinds.
"""

from __future__ import annotations

PHASES: tuple[str, ...] = ("setup", "day", "finished")

EVENT_KINDS: frozenset[str] = frozenset(
    {
        # the game
        "game_started",
        "placed",
        "game_over",
        # what a player does by day
        "moved",
        "held_move_done",
        "encounter",
        "explored",
        "story_triggered",
        "ate",
        "hunt",
        "gave",
        "pk_posted",
        "pk_joined",
        "pk_fled",
        "pk_resolved",
        "order_posted",
        "order_revised",
        "order_withdrawn",
        "target_moved",
        # beasts, deaths and the night
        "monster_attack",
        "night_encounter",
        "death",
        "death_announced",
        "night_report",
        "day_report",
        "director_report",
        # the director
        "director_action",
        "story_resolved",
        "announcement",
    }
)

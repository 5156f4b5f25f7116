"""What Team Battle declares of itself: every event kind it emits and every phase it has.

The catalogue (``words/names.py``) names each of them; a test checks it does, and that a
replayed game emits only these kinds.
"""

from __future__ import annotations

PHASES: tuple[str, ...] = ("setup", "deployment", "command", "battle", "response", "finished")

EVENT_KINDS: frozenset[str] = frozenset(
    {
        # the game and its phases
        "game_started",
        "phase_opened",
        "phase_closed",
        "side_ready",
        "game_over",
        # orders as they are given and announced
        "order_submitted",
        "order_revised",
        "order_withdrawn",
        "order_voided",
        "order_revealed",
        "order_seen_through",
        "orders_nullified",
        "orders_announced",
        "orders_revealed",
        "disguised_order_announced",
        "deployment_revealed",
        "troops_dispatched",
        "extra_use_granted",
        "intel",
        # a round's resolution (TB-60 onwards)
        "resolution_started",
        "troops_gathered",
        "first_strike",
        "damage",
        "counter",
        "no_damage",
        "penetration",
        "penetration_total",
        "annihilated",
        "morale_changed",
        "round_resolved",
        # the director's edits
        "commander_set",
        "director_set_morale",
        "director_set_troops",
        "director_closed_phase",
    }
)

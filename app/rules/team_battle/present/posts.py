"""Team Battle's posts (see :mod:`app.kit.posts`): which events open which post, what a
close reveals before the next headline, the director's notices and the builders."""

from __future__ import annotations

from app.kit.posts import Builder, GamePosts, Posts
from app.rules.team_battle.present import post_builders as built
from app.rules.team_battle.present.post_round import round_result

# The resolution log of one round: from resolution_started to round_resolved.
ROUND_LOG = frozenset(
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
# What a phase's close reveals, read with the headline after it.
CLOSE = frozenset(
    {
        "phase_closed",
        "director_closed_phase",
        "orders_announced",
        "troops_dispatched",
        "order_seen_through",
    }
)
BUILDERS: dict[str, Builder] = {
    "game_started": built.game_started,
    "phase_opened": built.phase_opened,
    "deployments_revealed": built.deployments_revealed,
    "round_result": round_result,
    "game_finished": built.game_finished,
}

POSTS: Posts | None = GamePosts(
    headlines={
        "phase_opened": "phase_opened",
        "deployment_revealed": "deployments_revealed",
        "round_resolved": "round_result",
    },
    context=CLOSE | ROUND_LOG,
    notices=frozenset({"director_set_morale", "director_set_troops"}),
    end_extras=frozenset({"orders_revealed"}),
    closes=frozenset({"phase_closed"}),
    builders=BUILDERS,
    stages=frozenset({"phase_opened", "round_result"}),
    sides=True,
    others=False,
    line=built.director_notice,
)

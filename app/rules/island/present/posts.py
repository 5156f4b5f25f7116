"""The Other Side's posts (see :mod:`app.kit.posts`): the 24:00 report, PK results and the
PK's challenge and updates (titled as a PK, never 【公告】), and the builders."""

from __future__ import annotations

from app.kit.posts import GamePosts, Posts
from app.rules.island.present.post_builders import BUILDERS, notice_line

POSTS: Posts | None = GamePosts(
    headlines={
        "day_report": "daily_report",
        "pk_posted": "pk_challenge",
        "pk_joined": "pk_update",
        "pk_fled": "pk_update",
        "pk_resolved": "pk_result",
    },
    context=frozenset({"death_announced"}),
    notices=frozenset({"announcement"}),
    quoted=frozenset({"announcement"}),
    closes=frozenset({"day_report"}),
    builders=BUILDERS,
    stages=frozenset({"daily_report"}),
    sides=False,
    others=False,
    line=notice_line,
)

"""A post planned in its step's transaction and rendered later from its stored source (as
JSON, the way ``posts.source`` keeps it) is byte for byte the post rendered at once — the
text the golden files hold."""

from __future__ import annotations

import json

import pytest

from app.publish import bodies
from app.publish.render import FORMATS, plan_posts, posts_for_events
from tests.publish.render.engine_runs import Run, island_day, team_battle_game
from tests.publish.render.golden_posts import PUBLIC_URL

RUNS = {"team_battle": team_battle_game, "island": island_day}


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize("game", sorted(RUNS))
def test_a_post_rendered_from_its_source_is_the_post_rendered_at_once(
    game: str, language: str
) -> None:
    run: Run = RUNS[game]()
    info = run.info(language=language, public_url=PUBLIC_URL)
    count = 0
    for batch in run.batches:
        at_once = posts_for_events(info, batch.events, batch.deadline)
        plans = plan_posts(info, batch.events, batch.deadline)
        assert [(p.kind, p.title, p.thread_title) for p in plans] == [
            (p.kind, p.title, p.thread_title) for p in at_once
        ]
        for plan, post in zip(plans, at_once, strict=True):
            source = json.loads(json.dumps(bodies.source_of(info, plan.events, batch.deadline)))
            for name in FORMATS:
                assert bodies.render_source(plan.kind, source, name) == post.bodies[name]
            count += 1
    assert count > 5

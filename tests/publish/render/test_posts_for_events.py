"""Which posts a step's public events call for (app/publish/groups.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from app.publish.render import PublicEvent, posts_for_events
from tests.publish.render.engine_runs import team_battle_game

RUN = team_battle_game()
INFO = RUN.info()
AT = datetime(2026, 3, 5, 12, 0, tzinfo=UTC)


def kinds(events: list[PublicEvent]) -> list[str]:
    return [p.kind for p in posts_for_events(INFO, events, None)]


def test_steps_without_public_news_make_no_post() -> None:
    assert kinds([]) == []
    assert kinds([PublicEvent(1, AT, "some_future_event", {"x": 1})]) == []
    # An extension of a deadline that is paused (no time given) says nothing new.
    assert kinds([PublicEvent(1, AT, "deadline_extended", {"deadline": None})]) == []


def test_a_seed_revealed_on_its_own_is_still_a_post_with_how_to_verify() -> None:
    event = PublicEvent(9, AT, "seed_revealed", {"seed": "s", "seed_commitment": "c" * 64})
    posts = posts_for_events(INFO, [event], None)
    assert [p.kind for p in posts] == ["game_finished"]
    text = posts[0].bodies["text"]
    assert "\ns\n" in text and "sha256sum" not in text and "printf" not in text
    assert "/g/" in text or "导演" in text or "director" in text


def test_every_step_of_the_demo_game_calls_for_its_posts_in_reading_order() -> None:
    per_step = [kinds(b.events) for b in RUN.batches]
    assert per_step[0] == ["game_started", "phase_opened"]
    close_deployment = next(k for k in per_step if "deployments_revealed" in k)
    # Sealed and opened at the close: the receipts end the post of what the close revealed
    # (no post of their own), then the next phase (issue 18 items 4 and 15).
    assert close_deployment == ["deployments_revealed", "phase_opened"]
    assert per_step[-1] == ["round_result", "game_finished"]
    texts = [p.bodies["text"] for p in posts_for_events(INFO, RUN.batches[-1].events, None)]
    assert "【收据】" in texts[0] and "封存为收据" in texts[0]  # the last round's close
    assert "全部" in texts[1] and "份收据" in texts[1]  # all of them, checkable at the end
    # Orders, withdrawals and "ready" are not news.
    assert sum(1 for k in per_step if not k) >= 6


def test_rendering_is_a_pure_function_of_the_events() -> None:
    batch = RUN.batches[-1]
    assert posts_for_events(INFO, batch.events, None) == posts_for_events(INFO, batch.events, None)

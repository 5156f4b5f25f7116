"""One name per Team Battle side everywhere (issue 16 item 17): the rules' own text says
甲方/乙方 and so does every page, so every post does too — never "A方"/"B方" — and in
English "Side A"/"Side B" as the pages write it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.bridge.replies import Reply, draft
from app.publish.render import FORMATS, PublicEvent, posts_for_events
from tests.publish.render.engine_runs import team_battle_game
from tests.publish.render.golden_posts import extras, game_posts

AT = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def director_notices(language: str) -> list[str]:
    """The notices only a director's hand makes (not in the demo game)."""
    info = team_battle_game(language).info(language=language)
    events = [
        PublicEvent(1, AT, "director_set_morale", {"side": "A", "before": 10, "after": 12}),
        PublicEvent(
            2, AT, "director_set_troops", {"side": "B", "slot": 2, "before": 6, "after": 4}
        ),
    ]
    posts = posts_for_events(info, events, None)
    return [p.bodies[f] for p in posts for f in FORMATS]


def every_team_battle_body(language: str) -> list[str]:
    posts = game_posts(team_battle_game(language), language)
    posts += [p for p in extras(language) if "【截止提醒】" in p.title or "tally" in p.kind]
    bodies = [p.bodies[f] for p in posts for f in FORMATS] + [p.title for p in posts]
    kinds = {p.kind for p in posts}
    assert {
        "game_started",
        "phase_opened",
        "deployments_revealed",
        "round_result",
        "game_finished",
        "tally",
    } <= kinds
    return bodies + director_notices(language)


def test_chinese_posts_call_the_sides_jia_and_yi() -> None:
    bodies = every_team_battle_body("zh")
    joined = "\n".join(bodies)
    assert "甲方" in joined and "乙方" in joined
    for body in bodies:
        assert "A方" not in body and "B方" not in body, body
        assert "A/B" not in body, body  # the round table's damage columns too
    for notice in director_notices("zh"):
        assert "导演将甲方士气由 10 调整为 12。" in notice
        assert "导演将乙方2号位兵力由 6 调整为 4。" in notice


def test_english_posts_say_side_a_and_side_b() -> None:
    joined = "\n".join(every_team_battle_body("en"))
    assert "Side A" in joined and "Side B" in joined
    assert "Total troops: Side A" in joined


@pytest.mark.parametrize("side", ["A", "B"])
def test_a_refused_forum_order_names_the_side_as_the_pages_do(side: str) -> None:
    """The bridge relays a rules message (only one side's commander may order)."""
    from app.rules.team_battle.messages import violation

    problem = violation("not_commander", "TB-7", side=side)
    reply = Reply("refused", {"message": (problem.message_zh, problem.message_en)})
    post = draft(reply, "player1", None, "zh")
    name = "甲方" if side == "A" else "乙方"
    for body in post.bodies.values():
        assert f"本局只有{name}指挥官" in body and f"{side}方" not in body
        assert f"Side {side}'s commander" in body

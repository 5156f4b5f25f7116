"""Team Battle's posts read like a director wrote them (issue 18): the pages' words, no rule
IDs, a round headline that tells its story, the end's orders one line each, and a response
window that never invites an order the rules will refuse."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.publish.render import FORMATS, PostDraft, posts_for_events
from app.rules.base import DIRECTOR, Viewer
from app.rules.team_battle.available import available_orders
from tests.publish.render.engine_runs import (
    T0,
    TB_ROSTER,
    A,
    B,
    Run,
    tb_ready_all,
    team_battle_game,
)
from tests.publish.render.golden_posts import game_posts


def bodies(posts: list[PostDraft]) -> list[str]:
    return [p.bodies[f] for p in posts for f in FORMATS] + [p.title for p in posts]


@pytest.fixture(scope="module")
def demo_zh() -> list[PostDraft]:
    return game_posts(team_battle_game("zh"), "zh")


def test_posts_speak_the_pages_words_and_no_rule_ids(demo_zh: list[PostDraft]) -> None:
    for body in bodies(demo_zh) + bodies(game_posts(team_battle_game("en"), "en")):
        assert not re.search(r"\bTB-\d", body), body  # rule IDs stay in the rules
        assert "第1格" not in body and "调度" not in body and "受伤" not in body, body
        assert "0·部署阶段" not in body, body
    joined = "\n".join(bodies(demo_zh))
    assert "调兵 1号位→2号位 2人" in joined  # as the order grammar and the pages say it


def test_a_round_opens_with_its_story(demo_zh: list[PostDraft]) -> None:
    rounds = [p for p in demo_zh if p.kind == "round_result"]
    assert "第1回合：甲方1号位全灭" in rounds[0].bodies["text"]
    last = rounds[-1].bodies["text"]
    assert "乙方2、3号位全灭" in last and "乙方士气跌破0——甲方获胜！" in last
    assert "乙方：15 → −8" in last  # one minus sign, the same everywhere
    assert "\\-" not in rounds[-1].bodies["markdown"]


def test_a_slot_that_gathered_out_is_not_shown_as_wiped(demo_zh: list[PostDraft]) -> None:
    first = next(p for p in demo_zh if p.kind == "round_result").bodies["text"]
    assert "4号位：甲 6→4（调出1）｜乙 6→6（甲损1）" in first  # amounts given, no wipe
    assert "3号位：甲 9→11（调入2）" in first
    assert "1号位：甲 1→0（全灭）｜乙 6→6（甲损1、乙穿透4）" in first


def test_the_round_has_no_table_wider_than_a_phone(demo_zh: list[PostDraft]) -> None:
    for post in demo_zh:
        if post.kind == "round_result":
            assert "|---" not in post.bodies["markdown"]
            assert "[table]" not in post.bodies["bbcode"]


def test_the_end_lists_every_order_one_line_each(demo_zh: list[PostDraft]) -> None:
    end = next(p for p in demo_zh if p.kind == "game_finished").bodies["text"]
    assert "状态" not in end and "执行" not in end
    assert "部署阶段\n· 甲方：部署 3 / 9 / 9 / 6 / 3" in end
    assert "第1回合·统御阶段\n· 甲方：调兵 1号位→2号位 2人\n· 乙方：反击 2号位" in end


# --- the response window ------------------------------------------------------------------
def pursuit_window(b_battle_order: dict[str, Any] | None) -> tuple[Run, list[PostDraft]]:
    """甲方 announces a Retreat at 2号位; 乙方 gives a hidden battle order or none."""
    from app.rules.team_battle import TeamBattleSettings

    run = Run("team_battle", TeamBattleSettings(troops={"A": 30, "B": 30}), TB_ROSTER, "s", T0)
    run.step("start", DIRECTOR)
    run.order(A, {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    run.order(B, {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    tb_ready_all(run)
    tb_ready_all(run)  # command: nothing
    run.order(A, {"type": "retreat", "slot": 2})
    if b_battle_order is not None:
        run.order(B, b_battle_order)
    tb_ready_all(run)
    assert run.state["phase"] == "response"
    info = run.info(language="zh")
    opened = posts_for_events(info, run.batches[-1].events, run.batches[-1].deadline)
    return run, [p for p in opened if p.kind == "phase_opened"]


def pursuit_allowed(run: Run) -> bool:
    entry = next(
        o
        for o in available_orders(run.state, Viewer("player", "pb1", "B"))
        if o["type"] == "pursuit"
    )
    return bool(entry["allowed"])


def test_the_response_window_names_the_slot_and_the_condition() -> None:
    run, (post,) = pursuit_window(None)
    text = post.bodies["text"]
    assert "乙方可对2号位下令追杀（对方在此公开撤退）" in text
    assert "前提是乙方本回合没有下过战斗阶段指令" in text
    assert pursuit_allowed(run)  # the invitation holds: the rules take it
    run.order(B, {"type": "pursuit", "slot": 2})


def test_a_pursuit_the_rules_would_refuse_is_never_offered_unconditionally() -> None:
    """乙方's hidden Hold is no public fact, so the window still opens for it (saying so would
    tell 甲方 乙方 gave a hidden order); the post gives the condition the rules then apply."""
    run, (post,) = pursuit_window({"type": "hold", "slot": 1})
    assert not pursuit_allowed(run)
    for body in post.bodies.values():
        if "追杀" in body:
            assert "前提是乙方本回合没有下过战斗阶段指令，否则会被拒绝" in body
    assert "死守" not in "".join(post.bodies.values())  # nothing hidden reaches the post

"""The island's posts as a forum reader reads them: a PK titled and named as a PK, its result
with each side's strength, the odds and what each loser lost; the 24:00 report's title telling
the night's story, and saying so when the director ran it early; no rule ids, no internal ids."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from app.publish.render import FORMATS, PostDraft, PublicEvent, posts_for_events
from app.rules.base import DIRECTOR, SYSTEM
from tests.publish.render.engine_runs import IS_ROSTER, Run, actor, island_day, local
from tests.publish.render.golden_posts import game_posts

AT = local(21, 0)


def _one(language: str, events: list[PublicEvent], **settings: object) -> PostDraft:
    info = island_day(language).info(language=language)
    info = replace(info, settings={**info.settings, **settings})
    (post,) = posts_for_events(info, events, None)
    return post


def _pk(winner: str, attack: int, defend: int, losses: dict[str, str]) -> PublicEvent:
    data = {
        "challenge": "pk7",
        "attackers": ["p1", "p2"],
        "defenders": ["p4"],
        "fled": [],
        "winner": winner,
        "strengths": {"attack": attack, "defend": defend},
        "losses": losses,
    }
    return PublicEvent(9, AT, "pk_resolved", data)


def test_a_challenge_is_titled_as_a_pk_and_named_by_its_fighters() -> None:
    data = {
        "challenge": "pk1",
        "attackers": ["p2"],
        "defenders": ["p1"],
        "names": {"p1": "阿青", "p2": "白露"},
        "due_at": (AT + timedelta(minutes=30)).isoformat(),
    }
    post = _one("zh", [PublicEvent(3, AT, "pk_posted", data)])
    assert post.title.startswith("【PK】白露 对 阿青"), post.title
    assert "公告" not in post.title
    for body in post.bodies.values():
        assert "pk1" not in body
        assert "白露 向 阿青 发起 PK" in body and "21:30" in body
    # How to join, in words the island's order grammar reads (see the next test).
    assert "「帮白露」加入攻方、「帮阿青」加入守方" in post.bodies["text"]
    assert "「逃跑」" in post.bodies["text"]


def test_a_fighter_joining_or_fleeing_is_titled_by_who_did() -> None:
    data = {"challenge": "pk1", "player": "p4", "name": "*冬至*", "side": "defend"}
    joined = _one("zh", [PublicEvent(4, AT, "pk_joined", data)])
    assert joined.title.startswith("【PK】*冬至* 加入守方"), joined.title
    fled = _one("en", [PublicEvent(5, AT, "pk_fled", {"challenge": "pk1", "name": "白露"})])
    assert fled.title.startswith("[PK] 白露 flees"), fled.title
    assert "pk1" not in joined.bodies["text"] + fled.bodies["text"]


def test_the_orders_a_challenge_suggests_are_the_orders_the_rules_read() -> None:
    from app.rules.base import Viewer
    from app.rules.island.text import parse_orders, text_context

    base = island_day("zh")
    run = Run("island", base.settings, IS_ROSTER, base.seed, local(10), title=base.title)
    run.step("start", DIRECTOR)
    run.now = local(20, 30)
    run.order(actor("p2"), {"type": "pk", "targets": ["p3"]})
    seen = text_context(run.state, Viewer(role="player", player_id="p4"))
    assert parse_orders("帮白露", seen).orders == [
        {"type": "pk_join", "challenge": "pk1", "side": "attack"}
    ]
    assert parse_orders("help [b]秋分[/b]", seen).orders[0]["side"] == "defend"
    fighter = text_context(run.state, Viewer(role="player", player_id="p3"))
    assert parse_orders("逃跑", fighter).orders == [{"type": "flee"}]
    assert parse_orders("flee", fighter).orders == [{"type": "flee"}]


def test_a_gamble_shows_both_sides_strength_and_the_odds() -> None:
    post = _one("zh", [_pk("defend", 3, 2, {"p1": "lost", "p2": "died"})], pk_loss_power=2)
    assert post.title.startswith("【PK 结果】*冬至* 击败 阿青、白露"), post.title
    text = post.bodies["text"]
    assert "守方获胜：＊冬至＊ 击败 阿青、白露" in text, text
    assert "攻方：阿青、白露（力量合计 3）" in text
    assert "守方：＊冬至＊（力量合计 2）" in text
    # 3 against 2: the attackers had 2/3, so the defenders' win was the 1-in-3 outcome.
    assert "攻方 2/3（约67%），守方 1/3（约33%）" in text
    assert "阿青：失去力量 2" in text and "白露：失去力量 2，阵亡" in text
    en = _one("en", [_pk("defend", 3, 2, {"p1": "lost"})]).bodies["text"]
    assert "attackers 2/3 (about 67%), defenders 1/3 (about 33%)" in en
    assert "阿青: loses 1 power" in en


def test_a_gamble_played_by_the_rules_shows_the_die_that_decided_it() -> None:
    """IS-60: 1 against 1 strength is an even chance; the post shows the roll, and the
    roll agrees with the winner."""
    base = island_day("zh")
    run = Run("island", base.settings, IS_ROSTER, base.seed, local(10), title=base.title)
    run.step("start", DIRECTOR)
    run.now = local(20, 30)
    run.order(actor("p2"), {"type": "pk", "targets": ["p3"]})
    due = run.state["challenges"]["pk1"]["due_at"]
    run.now = datetime.fromisoformat(due)
    run.step("timer", SYSTEM, {"kind": "pk", "key": "pk1", "data": {"challenge": "pk1"}})
    batch = run.batches[-1]
    (resolved,) = [e for e in batch.events if e.kind == "pk_resolved"]
    roll = resolved.data["roll"]
    assert roll["faces"] == 2 and 1 <= roll["drawn"] <= 2
    assert resolved.data["winner"] == ("attack" if roll["drawn"] == 1 else "defend")
    (post,) = [p for p in posts_for_events(run.info(), batch.events, None) if p.kind == "pk_result"]
    assert f"掷骰（1–2）：{roll['drawn']}，1–1 为攻方胜" in post.bodies["text"], post.bodies
    assert post.thread_title is None  # a PK is news, not a stage of the game


def test_a_joiner_is_told_with_the_fight_they_joined() -> None:
    data = {
        "challenge": "pk1",
        "player": "p4",
        "name": "*冬至*",
        "side": "defend",
        "attackers": ["p2"],
        "defenders": ["p3", "p4"],
        "names": {"p2": "白露", "p3": "秋分", "p4": "*冬至*"},
    }
    joined = _one("zh", [PublicEvent(4, AT, "pk_joined", data)])
    assert joined.title.startswith("【PK】*冬至* 加入守方（白露 对 秋分）"), joined.title
    assert "现在：白露 对 秋分、＊冬至＊。" in joined.bodies["text"], joined.bodies["text"]


def test_a_sure_win_says_no_die_was_needed() -> None:
    text = _one("zh", [_pk("attack", 4, 2, {"p4": "fled"})]).bodies["text"]
    assert "攻方力量达到对方两倍，必胜，无需掷骰" in text
    assert "＊冬至＊：败后逃跑，力量未失" in text


def _midnight_at(hour: int) -> PostDraft:
    """Day 1 resolved by the midnight timer at ``hour`` (local): 24 is on time."""
    base = island_day("zh")
    run = Run("island", base.settings, IS_ROSTER, base.seed, local(10), title=base.title)
    run.step("start", DIRECTOR)
    run.now = local(0, 0, local(12).date() + timedelta(days=1)) if hour == 24 else local(hour)
    run.step("timer", SYSTEM, {"kind": "midnight", "key": "midnight", "data": {}})
    batch = run.batches[-1]
    (post,) = [
        p
        for p in posts_for_events(run.info(), batch.events, batch.deadline)
        if p.kind == "daily_report"
    ]
    return post


def test_the_report_title_tells_the_night_and_an_early_run_says_so() -> None:
    on_time = _midnight_at(24)
    assert on_time.title.startswith("【第1天·24:00】平安夜，4人全部存活"), on_time.title
    assert on_time.thread_title == on_time.title  # the thread is renamed after the night
    assert "提前" not in on_time.bodies["text"]
    early = _midnight_at(21)
    assert early.title.startswith("【第1天·提前结算】"), early.title
    assert "导演提前结算了第1天" in early.bodies["text"]
    assert "21:00" in early.bodies["text"]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_island_posts_carry_no_rule_ids_nor_challenge_ids(language: str) -> None:
    posts = game_posts(island_day(language), language, public_url=None)
    kinds = {p.kind for p in posts}
    assert {"pk_challenge", "pk_update", "pk_result", "daily_report"} <= kinds
    for post in posts:
        for fmt in FORMATS:
            body = post.bodies[fmt]
            assert not re.search(r"\bIS-\d", body), (post.kind, body)
            assert not re.search(r"\bpk\d", body), (post.kind, body)
    (opening,) = [p for p in posts if p.kind == "game_started"]
    zone = "北京时间" if language == "zh" else "Beijing time"
    assert zone in opening.bodies["text"]

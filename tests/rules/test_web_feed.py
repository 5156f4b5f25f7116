"""The page's event feed and where its live stream resumes."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from app.web.views import feed


def _page(event_seqs: list[int], game_event_seq: int | None) -> dict[str, Any]:
    at = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    page: dict[str, Any] = {
        "events": [
            {"seq": s, "at": at, "kind": "game_resumed", "data": {}, "audience": ["public"]}
            for s in event_seqs
        ],
        "summary": {"timezone": "Asia/Shanghai", "ruleset": "team_battle"},
        "names": {},
    }
    if game_event_seq is not None:
        page["event_seq"] = game_event_seq
    return page


def test_the_stream_resumes_after_the_game_row_the_page_was_built_from() -> None:
    """An event committed between the page's reads (its game row first, its events last)
    is in the feed but not in the view: the stream must send it again, so the page
    refreshes instead of keeping an old deadline."""
    assert feed(_page([1, 2, 3], game_event_seq=2), "zh")["after"] == 2
    assert feed(_page([1, 2, 3], game_event_seq=3), "zh")["after"] == 3
    assert feed(_page([], game_event_seq=3), "zh")["after"] == 0
    assert feed(_page([1, 2], game_event_seq=None), "zh")["after"] == 2


NAMES = {"p1": "张三", "p2": "李四", "p3": "王五"}


def _island(events: list[tuple[str, dict[str, Any], list[str]]], director: bool) -> dict[str, Any]:
    """A page's events, as ``games_service.events`` gives them: only the director's carry
    their audience."""
    at = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    out = []
    for i, (kind, data, audience) in enumerate(events):
        event: dict[str, Any] = {"seq": i + 1, "at": at, "kind": kind, "data": data}
        if director:
            event["audience"] = audience
        out.append(event)
    return {
        "events": out,
        "summary": {"timezone": "Asia/Shanghai", "ruleset": "island"},
        "names": NAMES,
        "settings": {"items": {"rope": {"name": "绳子"}}, "monster_kinds": {}},
    }


def _texts(page: dict[str, Any], lang: str = "zh") -> list[str]:
    return [line["text"] for line in feed(page, lang)["lines"]]


def test_the_feed_reads_oldest_first_like_a_thread() -> None:
    """A round's result reads top to bottom (the box opens scrolled to its end)."""
    page = _island(
        [
            ("island_started", {"day": 1}, ["public"]),
            ("announcement", {"day": 1, "text": "第一条"}, ["public"]),
            ("announcement", {"day": 1, "text": "第二条"}, ["public"]),
        ],
        director=False,
    )
    assert [line["seq"] for line in feed(page, "zh")["lines"]] == [1, 2, 3]
    assert _texts(page)[1:] == ["公告：第一条", "公告：第二条"]


def test_a_move_seen_from_one_end_never_reads_none() -> None:
    """IS-55: a watcher of the origin only is told the player left, not where to."""
    base = {"player": "p2", "name": "李四", "hidden": False, "via": "move"}
    page = _island(
        [
            ("moved", {**base, "from": [2, 2], "to": None}, ["player:p3"]),
            ("moved", {**base, "from": None, "to": [3, 2]}, ["player:p1"]),
            ("moved", {**base, "from": [2, 2], "to": [3, 2]}, ["director", "player:p2"]),
        ],
        director=False,
    )
    assert _texts(page) == [
        "李四 离开了 (2,2)。",
        "李四 来到 (3,2)。",
        "李四 从 (2,2) 移动到 (3,2)。",
    ]
    assert _texts(page, "en") == [
        "李四 left (2,2).",
        "李四 arrived at (3,2).",
        "李四 moved from (2,2) to (3,2).",
    ]


def test_island_results_read_as_words_and_scenario_names() -> None:
    page = _island(
        [
            ("explored", {"player": "p1", "found": "food", "count": 1}, ["director", "player:p1"]),
            ("explored", {"player": "p1", "found": "nothing"}, ["director", "player:p1"]),
            (
                "explored",
                {"player": "p1", "found": "item", "item": "rope", "count": 1},
                ["player:p1"],
            ),
        ],
        director=False,
    )
    assert _texts(page) == [
        "探索结果：找到食物 1 份。",
        "探索结果：什么也没找到。",
        "探索结果：找到绳子 ×1。",
    ]


def test_the_directors_feed_says_whose_private_line_is_whose() -> None:
    events = [
        ("order_posted", {"type": "assassinate", "target": "p2"}, ["director", "player:p1"]),
        ("night_report", _report("p1", 1), ["player:p1"]),
        ("night_report", _report("p2", 0), ["player:p2"]),
        ("day_report", {"day": 1, "deaths": [], "alive": []}, ["public"]),
    ]
    director = _texts(_island(events, director=True))
    assert director[0] == "致 张三：已提交暗杀（目标 李四）。"
    assert director[1].startswith("致 张三：第 1 天结算报告") and "剩余 1" in director[1]
    assert director[2].startswith("致 李四：第 1 天结算报告") and "剩余 0" in director[2]
    assert not director[3].startswith("致")  # a public line is everyone's
    assert _texts(_island(events, director=True), "en")[0].startswith("To 张三: ")
    player = _texts(_island(events[:2], director=False))
    assert player[0] == "已提交暗杀（目标 李四）。"  # a player's own line needs no name


def _report(pid: str, food_left: int) -> dict[str, Any]:
    return {
        "day": 1,
        "notes": [{"kind": "ate", "food_left": food_left}],
        "stamina": 5,
        "max_stamina": 5,
        "power": 2,
        "hunger": 0,
        "food": food_left,
    }


def test_the_directors_report_and_the_sealed_orders_show_their_content() -> None:
    report = {
        "day": 1,
        "assassinations": [
            {
                "target": "p2",
                "assassins": ["p1"],
                "success": True,
                "guarded": [],
                "counter_kills": [],
            }
        ],
        "deaths": [{"player": "p2", "name": "李四"}],
        "notes": {"p3": [{"kind": "hungry", "hunger": 2}]},
        "story_queue_open": [],
    }
    sealed = {
        "day": 1,
        "sealed": {"p1": [{"id": "o1", "type": "assassinate", "target": "p2"}], "p3": []},
    }
    page = _island(
        [
            ("director_report", report, ["director"]),
            ("receipt_contents", sealed, ["director"]),
        ],
        director=True,
    )
    assert _texts(page) == [
        "第 1 天导演报告：张三 暗杀 李四成功；死亡：李四；王五：没有食物，饥饿度 2。",
        "封存的内容（仅导演可见）：第 1 天：张三：暗杀 李四；王五：无。",
    ]


def _battle(kind: str, data: dict[str, Any], lang: str, line: int = 0) -> str:
    page = {
        "events": [{"seq": 1, "at": datetime(2026, 1, 1, tzinfo=UTC), "kind": kind, "data": data}],
        "summary": {"timezone": "Asia/Shanghai", "ruleset": "team_battle"},
        "names": {},
    }
    text: str = feed(page, lang)["lines"][line]["text"]
    return text


def test_team_battle_lists_read_as_lists_and_sides_by_one_name() -> None:
    shown = {"A": [4, 7, 8, 6, 5], "B": [6, 6, 7, 5, 6], "defaulted": [], "default_rule": "even"}
    assert _battle("deployment_revealed", shown, "zh") == (
        "双方部署公开：甲方 4、7、8、6、5；乙方 6、6、7、5、6。"
    )
    moved = {
        "side": "B",
        "moves": [{"from": 2, "to": 3, "troops": 4}],
        "before": [6, 6, 7, 5, 6],
        "after": [6, 2, 11, 5, 6],
    }
    assert _battle("troops_dispatched", moved, "zh") == (
        "乙方调度：从第2格调 4 到第3格。兵力 6、6、7、5、6 → 6、2、11、5、6。"
    )
    assert _battle("troops_dispatched", moved, "en") == (
        "Side B dispatched: 4 from slot 2 to slot 3. Troops 6, 6, 7, 5, 6 → 6, 2, 11, 5, 6."
    )
    resolved = {"round": 1, "morale": {"A": 15.0, "B": 12.5}}
    assert _battle("round_resolved", resolved, "zh") == "第 1 回合结束：士气 甲方 15 / 乙方 12.5。"


def test_after_the_end_a_spectator_reads_what_each_side_was_told_alone() -> None:
    hidden = [
        {
            "at": "2026-01-01T12:00:00+00:00",
            "kind": "order_submitted",
            "data": {"side": "B", "type": "counter", "body": {"type": "counter", "slot": 2}},
        },
        {
            "at": "2026-01-01T12:00:00+00:00",
            "kind": "disguised_order_announced",
            "data": {"side": "A", "type": "feint", "shown_as": "gather"},
        },
    ]
    lines = [_battle("hidden_events_revealed", {"events": hidden}, "zh", line=i) for i in range(3)]
    assert lines == [
        "全部隐藏信息已公开。",
        "乙方提交了指令：反击（第2格）。",
        "致 甲方：你的疑兵被公布为聚集。",
    ]

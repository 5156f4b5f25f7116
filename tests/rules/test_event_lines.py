"""Every event kind either game (or the service) writes reads, for every audience, as a
sentence a forum reader understands: no None, no Python list or dict, no raw id or code,
and in Chinese no English word except rule IDs, PK and the players' own names.

The payloads below were recorded from the engines' own test games (ids renamed to
Chinese player names); the service's events are written here by hand. A new event kind
fails ``test_every_event_kind_has_a_sample`` until it gets a sample and a line."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from app.web.lines import describe_event
from app.web.views import feed
from tests.rules.test_web_catalogue import event_kinds

APP = Path(__file__).resolve().parents[2] / "app"
PK_EMIT = re.compile(r'_pk_emit\(\s*ctx,\s*ch,\s*"([a-z_]+)"')

NAMES = {
    "p1": "张三",
    "p2": "李四",
    "p3": "王五",
    "p4": "赵六",
    "a1": "阿甲",
    "a2": "阿乙",
    "b1": "阿丙",
}
# The scenario's names for what the recorded games used (the example island's and more).
SETTINGS: dict[str, Any] = {
    "items": {
        "rope": {"name": "绳子"},
        "spear": {"name": "长矛"},
        "gem": {"name": "宝石"},
        "knife": {"name": "小刀"},
    },
    "monster_kinds": {
        "wild_dog": {"name": "野狗"},
        "dog": {"name": "土狗"},
        "wolf": {"name": "狼"},
        "ghost": {"name": "幽灵"},
        "rat": {"name": "老鼠"},
        "titan": {"name": "巨人"},
        "boar": {"name": "野猪"},
    },
}

CAPTURED: list[tuple[str, str, tuple[str, ...], dict[str, Any]]] = [
    ("annihilated", "team_battle", ("public",), {"side": "A", "slot": 1, "by": "resolution"}),
    (
        "ate",
        "island",
        ("director", "player:p1"),
        {"player": "p1", "eaten": 1, "hunger": 0, "food": 0},
    ),
    ("commander_set", "team_battle", ("side:A", "director"), {"side": "A", "player_id": "a1"}),
    (
        "counter",
        "team_battle",
        ("public",),
        {"side": "A", "slot": 1, "band": [1, 1], "roll": 1, "modifiers": [], "damage": 1},
    ),
    (
        "damage",
        "team_battle",
        ("public",),
        {
            "side": "B",
            "slot": 1,
            "case": "higher",
            "judged": [6, 4],
            "band": [1, 2],
            "roll": 2,
            "modifiers": [],
            "damage": 2,
        },
    ),
    (
        "day_report",
        "island",
        ("public",),
        {
            "day": 1,
            "date": "2024-06-01",
            "new_day": 2,
            "deaths": [],
            "alive": [
                {"player": "p1", "name": "张三"},
                {"player": "p2", "name": "李四"},
                {"player": "p3", "name": "王五"},
            ],
        },
    ),
    (
        "death",
        "island",
        ("director", "player:p1"),
        {"player": "p1", "name": "张三", "cause": "director"},
    ),
    (
        "deployment_revealed",
        "team_battle",
        ("public",),
        {"A": [4, 7, 8, 6, 5], "B": [6, 6, 7, 5, 6], "defaulted": [], "default_rule": "even"},
    ),
    (
        "director_action",
        "island",
        ("director", "player:p2"),
        {
            "action": "move_player",
            "args": {"player": "p2", "to": [2, 3]},
            "result": {"player": "p2", "from": [1, 3], "to": [2, 3]},
        },
    ),
    (
        "director_action",
        "island",
        ("director", "player:p3"),
        {
            "action": "move_player",
            "args": {"player": "p3", "to": [5, 3]},
            "result": {"player": "p3", "from": [5, 3], "to": [5, 3]},
        },
    ),
    (
        "director_action",
        "island",
        ("director", "player:p4"),
        {
            "action": "move_player",
            "args": {"player": "p4", "to": [3, 2]},
            "result": {"player": "p4", "from": [3, 1], "to": [3, 2]},
        },
    ),
    ("director_closed_phase", "team_battle", ("public",), {"round": 1, "phase": "battle"}),
    (
        "director_report",
        "island",
        ("director",),
        {
            "day": 1,
            "assassinations": [],
            "deaths": [],
            "deaths_total": 0,
            "notes": {
                "p1": [{"kind": "ate", "food_left": 1}],
                "p2": [{"kind": "ate", "food_left": 1}],
                "p3": [{"kind": "ate", "food_left": 1}],
            },
            "story_queue_open": [],
        },
    ),
    ("director_set_morale", "team_battle", ("public",), {"side": "A", "before": 15, "after": 9}),
    (
        "director_set_troops",
        "team_battle",
        ("public",),
        {"side": "A", "slot": 1, "before": 2, "after": 0, "slots": [0, 2]},
    ),
    (
        "disguised_order_announced",
        "team_battle",
        ("side:A", "director"),
        {
            "order_id": "o3",
            "side": "A",
            "type": "feint",
            "shown_as": "gather",
            "body": {"slot": 2, "type": "feint"},
        },
    ),
    (
        "disguised_order_announced",
        "team_battle",
        ("side:B", "director"),
        {
            "order_id": "o4",
            "side": "B",
            "type": "feigned_defeat",
            "shown_as": "retreat",
            "body": {"slot": 2, "type": "feigned_defeat"},
        },
    ),
    (
        "encounter",
        "island",
        ("director", "player:p4"),
        {"player": "p4", "monster": "ghost", "result": "vanished"},
    ),
    (
        "encounter",
        "island",
        ("director", "player:p1"),
        {
            "player": "p1",
            "monster": "wolf",
            "player_strength": 1,
            "monster_power": 2,
            "result": "lost",
        },
    ),
    (
        "explored",
        "island",
        ("director", "player:p2"),
        {"player": "p2", "found": "item", "item": "gem", "count": 2},
    ),
    (
        "explored",
        "island",
        ("director", "player:p1"),
        {"player": "p1", "found": "story", "story": "q1", "title": "祭坛"},
    ),
    ("explored", "island", ("director", "player:p2"), {"player": "p2", "found": "nothing"}),
    (
        "extra_use_granted",
        "team_battle",
        ("side:A", "director"),
        {"side": "A", "phase": "command", "round": 2},
    ),
    (
        "first_strike",
        "team_battle",
        ("public",),
        {"side": "A", "slot": 3, "band": [1, 2], "roll": 2, "modifiers": [], "damage": 2},
    ),
    ("game_over", "island", ("public",), {"survivors": ["p1"]}),
    (
        "game_over",
        "team_battle",
        ("public",),
        {
            "winner": "A",
            "reason": "morale",
            "round": 2,
            "morale": {"A": 14, "B": 0},
            "troops": {"A": 25, "B": 25},
        },
    ),
    (
        "game_over",
        "team_battle",
        ("public",),
        {
            "winner": "B",
            "reason": "morale",
            "round": 1,
            "morale": {"A": -7, "B": 9},
            "troops": {"A": 28, "B": 23},
        },
    ),
    (
        "game_started",
        "island",
        ("public",),
        {"day": 1, "date": "2024-06-01", "players": ["张三", "李四"]},
    ),
    (
        "gave",
        "island",
        ("director", "player:p1", "player:p2"),
        {"from": "p1", "to": "p2", "item": "rope", "count": 1},
    ),
    (
        "gave",
        "island",
        ("director", "player:p2", "player:p1"),
        {"from": "p2", "to": "p1", "item": "food", "count": 2},
    ),
    (
        "held_move_done",
        "island",
        ("director", "player:p3"),
        {
            "order_id": "m3",
            "to": [1, 1],
            "terrain": "plain",
            "monsters": [],
            "zh": "挂起的移动已完成。",
            "en": "Your held move has completed.",
        },
    ),
    (
        "hunt",
        "island",
        ("director", "player:p1", "player:p2", "player:p3"),
        {
            "monster": "d1",
            "kind": "dog",
            "hunters": ["p1", "p2"],
            "strength": 4,
            "monster_power": 1,
            "result": "won",
            "food": {"p1": 2, "p2": 1},
        },
    ),
    (
        "hunt",
        "island",
        ("director", "player:p4"),
        {
            "monster": "t1",
            "kind": "titan",
            "hunters": ["p4"],
            "strength": 2,
            "monster_power": 100,
            "result": "lost",
            "losses": {"p4": "lost"},
        },
    ),
    (
        "intel",
        "team_battle",
        ("side:A",),
        {
            "source": "spy",
            "order_id": "o5",
            "side": "B",
            "status": "pending",
            "order": {
                "id": "o5",
                "side": "B",
                "type": "counter",
                "body": {"type": "counter", "slot": 5},
                "status": "pending",
            },
        },
    ),
    (
        "monster_attack",
        "island",
        ("director", "player:p1"),
        {
            "monster": "rat",
            "player_strength": 2,
            "monster_power": 0,
            "result": "won",
            "food": 1,
            "monster_id": "r",
            "time": "20:00",
        },
    ),
    (
        "morale_changed",
        "team_battle",
        ("public",),
        {
            "side": "A",
            "penetration_received": 1.0,
            "annihilated_enemy_units": 0,
            "own_units_annihilated": 0,
            "delta": -1.0,
            "before": 15.0,
            "after": 14.0,
            "capped": False,
        },
    ),
    (
        "moved",
        "island",
        ("player:p2",),
        {
            "player": "p1",
            "name": "张三",
            "from": None,
            "to": [2, 1],
            "hidden": False,
            "via": "move",
        },
    ),
    (
        "moved",
        "island",
        ("director", "player:p1"),
        {
            "player": "p1",
            "name": "张三",
            "from": [1, 1],
            "to": [2, 1],
            "hidden": False,
            "via": "move",
        },
    ),
    (
        "moved",
        "island",
        ("director", "player:p2"),
        {
            "player": "p2",
            "name": "李四",
            "from": [1, 3],
            "to": [2, 3],
            "hidden": True,
            "via": "director",
        },
    ),
    (
        "night_encounter",
        "island",
        ("director", "player:p1"),
        {"order_id": "o1", "player": "p1", "at": [2, 1], "monster": "ghost", "result": "vanished"},
    ),
    (
        "night_report",
        "island",
        ("player:p1",),
        {
            "day": 1,
            "new_day": 2,
            "alive": True,
            "notes": [{"kind": "ate", "food_left": 1}],
            "stamina": 5,
            "max_stamina": 5,
            "power": 2,
            "hunger": 0,
            "food": 1,
            "debt": 0,
        },
    ),
    (
        "no_damage",
        "team_battle",
        ("public",),
        {"of": "damage", "side": "A", "slot": 3, "reason": "facing_retreat", "case": "double"},
    ),
    (
        "order_posted",
        "island",
        ("director", "player:p1"),
        {
            "order_id": "a1",
            "type": "assassinate",
            "target": "p4",
            "path": [],
            "follow": False,
            "use_weapon": False,
            "debt": 0,
        },
    ),
    (
        "order_revealed",
        "team_battle",
        ("public",),
        {"order_id": "o3", "side": "B", "type": "stand_firm", "slot": 3, "rule": "TB-51"},
    ),
    (
        "order_revealed",
        "team_battle",
        ("public",),
        {"order_id": "o4", "side": "B", "type": "feigned_defeat", "slot": 2, "rule": "TB-48"},
    ),
    (
        "order_revealed",
        "team_battle",
        ("public",),
        {"order_id": "o6", "side": "A", "type": "counter", "slot": 1, "rule": "TB-32"},
    ),
    (
        "order_revised",
        "island",
        ("director", "player:p1"),
        {"order_id": "a", "target": "p2", "path": ["right"], "follow": False, "use_weapon": False},
    ),
    (
        "order_revised",
        "team_battle",
        ("side:A", "director"),
        {
            "order_id": "o3",
            "side": "A",
            "by": "a2",
            "type": "counter",
            "body": {"type": "counter", "slot": 2},
        },
    ),
    (
        "order_revised",
        "team_battle",
        ("side:B", "director"),
        {
            "order_id": "o5",
            "side": "B",
            "by": "b1",
            "type": "stand_firm",
            "body": {"type": "stand_firm", "slot": 2},
        },
    ),
    (
        "order_seen_through",
        "team_battle",
        ("public",),
        {"side": "A", "order_id": "o3", "order_type": "retreat", "nullified": 1, "rule": "TB-52a"},
    ),
    (
        "order_submitted",
        "team_battle",
        ("side:A", "director"),
        {
            "order_id": "o1",
            "side": "A",
            "by": "a1",
            "type": "deploy",
            "body": {"type": "deploy", "troops": [4, 7, 8, 6, 5]},
            "round": 0,
            "phase": "deployment",
        },
    ),
    (
        "order_voided",
        "team_battle",
        ("side:B", "director"),
        {
            "order_id": "o4",
            "side": "B",
            "type": "hold",
            "code": "morale_too_low",
            "rule": "TB-13",
            "message_zh": "死守是1阶指令，需要士气至少5，己方士气为1。",
            "message_en": "Hold is a tier 1 order and needs morale of at least 5; your morale is 1.",
        },
    ),
    (
        "order_voided",
        "team_battle",
        ("side:B", "director"),
        {
            "order_id": "o4",
            "side": "B",
            "type": "retreat",
            "code": "morale_too_low",
            "rule": "TB-13",
            "message_zh": "撤退是1阶指令，需要士气至少5，己方士气为4.5。",
            "message_en": "Retreat is a tier 1 order and needs morale of at least 5; your morale is 4.5.",
        },
    ),
    (
        "order_voided",
        "team_battle",
        ("side:A", "director"),
        {
            "order_id": "o3",
            "side": "A",
            "type": "first_strike",
            "code": "morale_too_low",
            "rule": "TB-13",
            "message_zh": "先攻是2阶指令，需要士气至少10，己方士气为3。",
            "message_en": "First strike is a tier 2 order and needs morale of at least 10; your morale is "
            "3.",
        },
    ),
    (
        "order_withdrawn",
        "island",
        ("director", "player:p4"),
        {"order_id": "m4", "type": "move", "refund": 1},
    ),
    (
        "order_withdrawn",
        "island",
        ("director", "player:p1"),
        {"order_id": "a", "type": "assassinate", "refund": 0},
    ),
    (
        "order_withdrawn",
        "island",
        ("director", "player:p2"),
        {"order_id": "guard-1", "type": "guard", "refund": 0},
    ),
    (
        "orders_announced",
        "team_battle",
        ("public",),
        {"round": 1, "phase": "command", "orders": []},
    ),
    (
        "orders_nullified",
        "team_battle",
        ("side:B", "director"),
        {
            "side": "B",
            "by": "o3",
            "orders": [
                {"order_id": "o4", "type": "retreat", "body": {"slot": 3, "type": "retreat"}}
            ],
            "rule": "TB-52a",
        },
    ),
    (
        "orders_revealed",
        "team_battle",
        ("public",),
        {
            "orders": [
                {
                    "id": "o1",
                    "side": "A",
                    "round": 0,
                    "phase": "deployment",
                    "type": "deploy",
                    "body": {"troops": [4, 7, 8, 6, 5], "type": "deploy"},
                    "status": "resolved",
                },
                {
                    "id": "o2",
                    "side": "B",
                    "round": 0,
                    "phase": "deployment",
                    "type": "deploy",
                    "body": {"troops": [6, 6, 7, 5, 6], "type": "deploy"},
                    "status": "resolved",
                },
                {
                    "id": "o3",
                    "side": "B",
                    "round": 1,
                    "phase": "battle",
                    "type": "stand_firm",
                    "body": {"slot": 3, "type": "stand_firm"},
                    "status": "resolved",
                },
                {
                    "id": "o4",
                    "side": "A",
                    "round": 1,
                    "phase": "battle",
                    "type": "battle_rest",
                    "body": {"type": "battle_rest"},
                    "status": "resolved",
                },
            ]
        },
    ),
    (
        "penetration",
        "team_battle",
        ("public",),
        {
            "side": "B",
            "slot": 1,
            "difference": 3,
            "dealt": 2,
            "empty_slot": False,
            "modifiers": [],
            "penetration": 1.0,
        },
    ),
    (
        "penetration_total",
        "team_battle",
        ("public",),
        {"side": "B", "sum": 1.0, "units": 1, "total": 1.0},
    ),
    ("phase_closed", "team_battle", ("public",), {"round": 0, "phase": "deployment"}),
    ("phase_opened", "team_battle", ("public",), {"round": 0, "phase": "deployment"}),
    ("pk_fled", "island", ("public",), {"challenge": "pk1", "player": "p2", "name": "李四"}),
    (
        "pk_joined",
        "island",
        ("public",),
        {"challenge": "pk1", "player": "p3", "name": "王五", "side": "attack"},
    ),
    (
        "pk_posted",
        "island",
        ("public",),
        {
            "challenge": "pk1",
            "attackers": ["p1"],
            "defenders": ["p2"],
            "names": {"p1": "张三", "p2": "李四"},
            "due_at": "2024-06-01T12:27:00+00:00",
        },
    ),
    (
        "pk_resolved",
        "island",
        ("public",),
        {
            "challenge": "pk1",
            "attackers": ["p1"],
            "defenders": ["p2"],
            "fled": [],
            "winner": "defend",
            "strengths": {"attack": 2, "defend": 2},
            "losses": {"p1": "lost"},
        },
    ),
    (
        "pk_resolved",
        "island",
        ("public",),
        {
            "challenge": "pk1",
            "attackers": ["p1"],
            "defenders": [],
            "fled": ["p2", "p3"],
            "winner": "attack",
            "by_default": True,
            "losses": {},
        },
    ),
    (
        "pk_resolved",
        "island",
        ("public",),
        {
            "challenge": "pk1",
            "attackers": ["p1"],
            "defenders": ["p2"],
            "fled": [],
            "winner": "attack",
            "strengths": {"attack": 4, "defend": 2},
            "losses": {"p2": "fled"},
        },
    ),
    ("placed", "island", ("director", "player:p1"), {"player": "p1", "at": [1, 1]}),
    (
        "resolution_started",
        "team_battle",
        ("public",),
        {
            "round": 1,
            "slots": {"A": [4, 7, 8, 6, 5], "B": [6, 6, 7, 5, 6]},
            "morale": {"A": 15, "B": 15},
        },
    ),
    (
        "round_resolved",
        "team_battle",
        ("public",),
        {
            "round": 1,
            "slots": {"A": [2, 7, 8, 6, 4], "B": [6, 5, 6, 4, 6]},
            "morale": {"A": 15, "B": 15},
            "penetration": {"A": 0.0, "B": 0.0},
            "annihilated": {"A": 0, "B": 0},
        },
    ),
    ("side_ready", "team_battle", ("side:A", "director"), {"side": "A", "phase": "deployment"}),
    (
        "story_resolved",
        "island",
        ("director", "player:p1"),
        {"queue_id": "q1", "story": "altar", "text": "你找到一块宝石"},
    ),
    (
        "story_triggered",
        "island",
        ("director",),
        {
            "queue_id": "q1",
            "story": "altar",
            "title": "祭坛",
            "text": "祭坛下藏着一条密道",
            "player": "p1",
            "at": [1, 1],
        },
    ),
    (
        "target_moved",
        "island",
        ("director", "player:p1"),
        {
            "order_id": "a",
            "target": "p2",
            "zh": "你的暗杀目标在结算前移动了，你可以更改或撤销（撤销返还体力）。",
            "en": "Your target moved before 24:00: you may change or cancel (cancelling refunds).",
        },
    ),
    (
        "troops_dispatched",
        "team_battle",
        ("public",),
        {
            "side": "A",
            "moves": [{"from": 3, "to": 2, "troops": 4}],
            "before": [4, 7, 8, 6, 5],
            "after": [4, 11, 4, 6, 5],
        },
    ),
    (
        "troops_gathered",
        "team_battle",
        ("public",),
        {
            "side": "A",
            "order": "gather",
            "slot": 2,
            "from_left": 3,
            "from_right": 8,
            "slots": [1, 18, 0, 6, 5],
        },
    ),
]

# Written by the service (app/services, app/scheduler.py, app/publish/receipts.py).
SERVICE: list[tuple[str, str, tuple[str, ...], dict[str, Any]]] = [
    ("game_started", "team_battle", ("public",), {"settings": {"slots": 5, "troops": 30}}),
    ("paused", "team_battle", ("public",), {}),
    ("resumed", "island", ("public",), {}),
    ("deadline_extended", "team_battle", ("public",), {"deadline": "2026-03-01T13:00:00+00:00"}),
    ("deadline_missed", "island", ("director",), {"timer": {"kind": "midnight", "key": "d1"}}),
    ("timer_refused", "island", ("director",), {"timer": {"kind": "monster_check"}}),
    ("timer_failed", "team_battle", ("director",), {"timer": {"kind": "phase_deadline"}}),
    ("player_replaced", "island", ("public",), {"player_id": "p2", "name": "李四"}),
    ("player_replaced", "team_battle", ("public",), {"player_id": "a1"}),
    ("seed_revealed", "team_battle", ("public",), {"seed": "ab12", "seed_commitment": "cd34"}),
    (
        "hidden_events_revealed",
        "team_battle",
        ("public",),
        {
            "events": [
                {
                    "at": "2026-03-01T12:00:00+00:00",
                    "kind": "intel",
                    "data": {"source": "scout", "side": "B", "status": "gone", "order": None},
                },
                {"at": "2026-03-01T12:00:00+00:00", "kind": "intel", "data": {}},
            ]
        },
    ),
    (
        "orders_sealed",
        "island",
        ("public",),
        {"step": 4, "key": "d1", "day": 1, "receipts": [{"owner": "p1", "receipt": "ab"}]},
    ),
    (
        "receipts_opened",
        "team_battle",
        ("public",),
        {"reason": "end", "receipts": [{"key": "r1-command", "owner": "A", "orders": []}]},
    ),
    (
        "receipt_contents",
        "island",
        ("director",),
        {
            "step": 9,
            "key": "d1",
            "day": 1,
            "sealed": {
                "p1": [
                    {
                        "id": "o1",
                        "type": "assassinate",
                        "target": "p2",
                        "path": ["right"],
                        "follow": False,
                        "use_weapon": False,
                    },
                    {"id": "o2", "type": "guard", "target": "p3"},
                ],
                "p2": [],
            },
        },
    ),
    (
        "receipt_contents",
        "team_battle",
        ("director",),
        {
            "step": 5,
            "key": "r1-command",
            "round": 1,
            "phase": "command",
            "sealed": {
                "A": [{"id": "o3", "type": "counter", "body": {"type": "counter", "slot": 2}}],
                "B": [],
            },
        },
    ),
    ("announcement", "island", ("public",), {"day": 1, "text": "今晚有暴风雨"}),
    ("death_announced", "island", ("public",), {"player": "p4", "name": "赵六"}),
    (
        "explored",
        "island",
        ("director", "player:p1"),
        {"player": "p1", "found": "food", "count": 2},
    ),
    (
        "explored",
        "island",
        ("director", "player:p1"),
        {
            "player": "p1",
            "found": "monster",
            "encounter": {"monster": "wild_dog", "result": "won", "food": 1},
        },
    ),
    (
        "moved",
        "island",
        ("player:p3",),
        {
            "player": "p2",
            "name": "李四",
            "from": [2, 2],
            "to": None,
            "hidden": False,
            "via": "move",
        },
    ),
    (
        "hunt",
        "island",
        ("director", "player:p1"),
        {
            "monster": "boars",
            "kind": "boar",
            "hunters": ["p1"],
            "strength": 2,
            "monster_power": 3,
            "result": "lost",
            "losses": {"p1": "died"},
        },
    ),
    (
        "night_report",
        "island",
        ("player:p1",),
        {
            "day": 1,
            "new_day": 2,
            "alive": True,
            "notes": [
                {"kind": "monster_attack", "monster": "boar", "result": "fled", "time": "21:00"},
                {"kind": "counter_kill", "against": "p2", "success": True},
                {"kind": "assassins_revealed", "assassins": ["p2"], "success": False},
                {"kind": "hungry", "hunger": 1},
            ],
            "stamina": 5,
            "max_stamina": 5,
            "power": 2,
            "hunger": 1,
            "food": 0,
            "debt": 0,
        },
    ),
]
SAMPLES = CAPTURED + SERVICE

# Machine text a line may never show as it is (any string in the data that looks like
# an id or a code), except what is the players' or the scenario's own words.
_FREE_TEXT = {"name", "text", "title", "message_zh", "message_en", "zh", "en", "names"}
_CODE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_RULE_ID = re.compile(r"\b(?:TB|IS)-\d+[a-z]?\b")
_ALLOWED_LATIN = {"PK", "vs"}


def _codes(value: Any, key: str = "") -> set[str]:
    if key in _FREE_TEXT:
        return set()
    if isinstance(value, dict):
        found: set[str] = set()
        for k, v in value.items():
            found |= _codes(v, str(k))
            if _CODE.match(str(k)) and str(k) in NAMES:
                found.add(str(k))
        return found
    if isinstance(value, list):
        return set().union(*(_codes(v, key) for v in value)) if value else set()
    if isinstance(value, str) and _CODE.match(value) and len(value) > 1:
        return {value}
    return set()


def _problems(line: str, data: dict[str, Any], lang: str) -> list[str]:
    found = []
    for bad in ("None", "{", "}", "[", "]", "?", "True", "False"):
        if bad in line:
            found.append(f"shows {bad!r}")
    for code in _codes(data):
        if re.search(rf"(?<![A-Za-z0-9_]){re.escape(code)}(?![A-Za-z0-9_])", line, re.I):
            if lang == "en" and not re.search(r"[_0-9]", code):
                continue  # "food", "retreat": plain English in an English line
            found.append(f"shows the raw code {code!r}")
    if lang == "zh":
        words = re.findall(r"[A-Za-z][A-Za-z0-9_]*", _RULE_ID.sub("", line))
        found += [f"English word {w!r}" for w in words if w not in _ALLOWED_LATIN]
    return found


def test_every_event_kind_has_a_sample() -> None:
    kinds = set(event_kinds())
    for path in APP.rglob("*.py"):
        kinds |= set(PK_EMIT.findall(path.read_text(encoding="utf-8")))
    assert {"pk_posted", "pk_resolved", "moved", "receipt_contents"} <= kinds
    assert kinds - {s[0] for s in SAMPLES} == set()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(
    ("kind", "ruleset", "audience", "data"),
    SAMPLES,
    ids=[f"{s[0]}-{i}" for i, s in enumerate(SAMPLES)],
)
def test_each_event_reads_as_a_sentence(
    kind: str, ruleset: str, audience: tuple[str, ...], data: dict[str, Any], lang: str
) -> None:
    line = describe_event(kind, data, lang, ruleset, NAMES, SETTINGS)
    assert line and line != kind
    assert _problems(line, data, lang) == [], line


def _page(events: list[dict[str, Any]], ruleset: str) -> dict[str, Any]:
    return {
        "events": events,
        "summary": {"timezone": "Asia/Shanghai", "ruleset": ruleset},
        "names": NAMES,
        "settings": SETTINGS,
    }


AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("viewer", ["director", "player", "spectator"])
def test_every_audience_reads_every_line(viewer: str, lang: str) -> None:
    """The director's feed carries each event's audience (and names whom a private line
    was for); a player's and a spectator's do not."""
    for ruleset in ("team_battle", "island"):
        events = []
        for i, (kind, rs, audience, data) in enumerate(SAMPLES):
            if rs != ruleset or (viewer == "spectator" and "public" not in audience):
                continue
            event: dict[str, Any] = {"seq": i + 1, "at": AT, "kind": kind, "data": data}
            if viewer == "director":
                event["audience"] = list(audience)
            events.append(event)
        lines = feed(_page(events, ruleset), lang)["lines"]
        # (a spectator's game-over reveal adds a line per revealed event after its own)
        assert len(lines) >= len(events)
        data_of = {e["seq"]: e["data"] for e in events}
        for line in lines:
            assert _problems(line["text"], data_of[line["seq"]], lang) == [], line["text"]


def _lines_of(events: list[Any], ruleset: str, names: dict[str, str], lang: str) -> list[str]:
    page = {
        "events": [
            {"seq": i + 1, "at": AT, "kind": e.kind, "data": e.data, "audience": list(e.audience)}
            for i, e in enumerate(events)
        ],
        "summary": {"timezone": "Asia/Shanghai", "ruleset": ruleset},
        "names": names,
        "settings": SETTINGS,
    }
    return [line["text"] for line in feed(page, lang)["lines"]]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_played_team_battle_reads_clean_on_the_directors_feed(lang: str) -> None:
    from app.rules.base import RuleViolation
    from tests.rules.team_battle.helpers import Game

    game = Game()
    game.deploy()
    orders = [
        ("A", {"type": "dispatch", "moves": [{"from": 3, "to": 2, "troops": 4}]}),
        ("B", {"type": "counter", "slot": 2}),
        ("A", {"type": "hold", "slot": 1}),
        ("B", {"type": "retreat", "slot": 4}),
    ]
    for _round in range(6):
        if game.state["phase"] == "finished":
            break
        for side, body in orders:
            try:
                game.order(side, body)
            except RuleViolation:
                pass  # not in this phase, or not affordable: the next order then
        game.ready_all()
    names = {"a1": "阿甲", "a2": "阿乙", "b1": "阿丙"}
    lines = _lines_of(game.events, "team_battle", names, lang)
    assert len(lines) > 30
    for line, event in zip(lines, game.events, strict=True):
        assert _problems(line, event.data, lang) == [], (event.kind, line)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_played_island_day_reads_clean_on_the_directors_feed(lang: str) -> None:
    from app.rules.base import Player
    from app.rules.island import RULESET
    from tests.rules.island.island_testkit import Game, local

    game = Game(n=4)
    game.roster = [Player(id=f"p{i}", name=NAMES[f"p{i}"]) for i in range(1, 5)]
    game.state = RULESET.initial_state(game.s, game.roster)  # the players by their names
    game.start()
    game.order("p1", {"type": "give", "to": "p2", "item": "food", "count": 1})
    game.order("p3", {"type": "move", "direction": "right"})
    game.order("p4", {"type": "explore"})
    game.order("p1", {"type": "assassinate", "target": "p2"}, now=local(13))
    game.order("p2", {"type": "guard", "target": "p1"}, now=local(13))
    game.midnight()
    events = [e for outcome in game.outcomes for e in outcome.events]
    kinds = {e.kind for e in events}
    assert {"moved", "gave", "order_posted", "night_report", "director_report"} <= kinds
    lines = _lines_of(events, "island", NAMES, lang)
    for line, event in zip(lines, events, strict=True):
        assert _problems(line, event.data, lang) == [], (event.kind, line)
    report = lines[[e.kind for e in events].index("director_report")]
    assert ("暗杀" if lang == "zh" else "assassinated") in report

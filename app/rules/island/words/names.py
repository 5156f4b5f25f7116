"""The names of this game's orders, phases, events, settings and tools (zh, en)."""

from __future__ import annotations

NAMES: dict[str, tuple[str, str]] = {
    "order.move": ("移动", "Move"),
    "order.explore": ("探索", "Explore"),
    "order.flee": ("逃跑", "Flee"),
    "order.eat": ("进食", "Eat"),
    "order.hunt": ("打猎", "Hunt"),
    "order.pk": ("发起PK", "PK"),
    "order.pk_join": ("加入PK", "Join a PK"),
    "order.assassinate": ("暗杀", "Assassinate"),
    "order.guard": ("提防", "Guard"),
    "order.give": ("赠送", "Give"),
    "order.equip": ("装备", "Equip"),
    "phase.setup": ("准备阶段", "Setup"),
    "phase.day": ("白天", "Day"),
    "phase.finished": ("游戏结束", "Game over"),
}

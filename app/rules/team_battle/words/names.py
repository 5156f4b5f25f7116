"""The names of this game's orders, phases, events, settings and tools (zh, en)."""

from __future__ import annotations

NAMES: dict[str, tuple[str, str]] = {
    "order.deploy": ("部署", "Deploy"),
    "order.dispatch": ("调度", "Dispatch"),
    "order.inspire": ("激励", "Inspire"),
    "order.counter": ("反击", "Counter"),
    "order.rest": ("休整", "Rest"),
    "order.blood_battle": ("血战", "Blood battle"),
    "order.scout": ("侦察", "Scout"),
    "order.gather": ("聚集", "Gather"),
    "order.retreat": ("撤退", "Retreat"),
    "order.hold": ("死守", "Hold"),
    "order.battle_rest": ("战斗休整", "Battle rest"),
    "order.pursuit": ("追杀", "Pursuit"),
    "order.feint": ("疑兵", "Feint"),
    "order.surprise": ("奇兵", "Surprise"),
    "order.feigned_defeat": ("诈败", "Feigned defeat"),
    "order.first_strike": ("先攻", "First strike"),
    "order.encircle": ("围歼", "Encircle"),
    "order.stand_firm": ("坚守", "Stand firm"),
    "order.spy": ("间谍", "Spy"),
    "order.see_through": ("识破", "See through"),
    "phase.setup": ("准备阶段", "Setup"),
    "phase.deployment": ("部署阶段", "Deployment"),
    "phase.command": ("统御阶段", "Command phase"),
    "phase.battle": ("战斗阶段", "Battle phase"),
    "phase.response": ("响应阶段", "Response window"),
    "phase.finished": ("游戏结束", "Game over"),
}

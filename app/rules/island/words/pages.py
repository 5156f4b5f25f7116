"""The words of this game's page parts: ``page.<...>`` (zh, en)."""

from __future__ import annotations

from app.rules.island.words.page_events import EVENTS
from app.rules.island.words.page_settings import SETTINGS

PAGES: dict[str, tuple[str, str]] = {
    "page.title": ("另一面", "The Other Side"),
    "page.phase_day": ("白天", "Daytime"),  # the header: "Day 2 · Daytime", not "Day 2 · Day"
    "page.pk_window": ("PK 时段", "PK window"),
    "page.deep_night": ("深夜", "Deep night"),
    "page.text_order_hint": (
        "例如：右移；提防张三；左移并暗杀张三",
        "e.g. move right; guard Zhang San",
    ),
    "page.example_size": (
        "示例岛：{w}×{h} 格，可容纳 {min}–{max} 名玩家。",
        "The example island: {w}×{h} cells, for {min} to {max} players.",
    ),
    "page.scenario_hint": (
        "另一面需要地图等剧本设置；下方填写的设置会覆盖剧本中的同名项。",
        "The island needs a scenario (map and more); settings below override it field by field.",
    ),
    "page.use_example": ("不上传则使用示例岛", "Without a file, the example island is used"),
    # feed lines of this game's events where they differ from the shell's
    "line.game_started": ("游戏开始，第 {day} 天。", "The game has started: day {day}."),
    "line.game_over": ("游戏结束。幸存者：{survivors}。", "Game over. Survivors: {survivors}."),
    "line.order_withdrawn": ("撤回了指令：{order}{detail}。", "Order withdrawn: {order}{detail}."),
    "line.order_withdrawn.refund": ("（返还体力 {refund}）", " ({refund} stamina back)"),
    "line.order_revised": (
        "已修改暗杀（目标 {target}）。",
        "Assassination changed (target {target}).",
    ),
    # the director's timers and running them up to the next 24:00
    "page.audit_advance_to_midnight": (
        "结算到 24:00，依次运行了：{what}",
        "Ran to 24:00: {what}, in order",
    ),
    "page.advance_to_midnight": ("结算到下一个 24:00", "Run to the next 24:00"),
    "page.advance_to_midnight_hint": (
        "依次运行到下一个 24:00 为止的全部计时（野兽检定、PK 与 24:00 结算），如同时间已到。不可撤销。",
        "Runs every timer up to and including the next 24:00 (beast checks, PKs, the 24:00 "
        "settlement), in order, as if the time had come. Cannot be undone.",
    ),
    "page.notice_ran_to_midnight": (
        "已结算到 24:00，依次运行了：{what}。",
        "Ran to 24:00: {what}, in order.",
    ),
    "page.ran_monster_check": ("{time} 的野兽检定", "the {time} beast check"),
    "page.ran_midnight": ("24:00 结算", "the 24:00 settlement"),
    "page.ran_pk": ("一场 PK 的结算", "a PK's resolution"),
    # the words of its page parts
    "page.map": ("地图", "Map"),
    "page.you": ("你", "you"),
    "page.unknown_cell": ("视野外", "out of sight"),
    "page.stamina": ("体力", "Stamina"),
    "page.hunger": ("饥饿", "Hunger"),
    "page.power": ("战力", "Power"),
    "page.ill": ("生病", "Ill"),
    "page.food": ("食物", "Food"),
    "page.inventory": ("物品", "Items"),
    "page.equipped": ("装备", "Equipped"),
    "page.vision": ("视野", "Vision"),
    "page.debt": ("体力欠债", "Stamina debt"),
    "page.position": ("位置", "Position"),
    "page.monsters_here": ("野兽", "Beasts"),
    "page.players_here": ("玩家", "Players"),
    "page.reports": ("私人报告", "Private reports"),
    "page.alive_players": ("存活玩家", "Players alive"),
    "page.dead_players": ("已死亡", "Dead"),
    "page.announcements": ("公告", "Announcements"),
    "page.direction": ("方向", "Direction"),
    "page.dir_up": ("上（北）", "up (north)"),
    "page.dir_down": ("下（南）", "down (south)"),
    "page.dir_left": ("左（西）", "left (west)"),
    "page.dir_right": ("右（东）", "right (east)"),
    "page.hidden_move": ("隐藏移动", "hidden move"),
    "page.follow": ("追踪目标（无论其去向）", "follow the target wherever they go"),
    "page.path": ("路线", "Path"),
    "page.item": ("物品", "Item"),
    "page.to_player": ("给", "To"),
    "page.monster": ("野兽", "Beast"),
    "page.challenge": ("PK", "PK"),
    "page.pk_side": ("加入哪一方", "Which side"),
    "page.pk_attack": ("进攻方", "attackers"),
    "page.pk_defend": ("防守方", "defenders"),
    "page.use_weapon": ("使用有次数限制的武器", "use a limited-use weapon"),
    "page.unequip": ("卸下武器", "unequip"),
    "page.target_moved_note": (
        "目标已移动，可修改或撤销",
        "target moved: you may change or cancel",
    ),
    **SETTINGS,
    **EVENTS,
}

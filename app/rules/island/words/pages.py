"""The words of this game's page parts: ``page.<...>`` (zh, en)."""

from __future__ import annotations

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
    "event.game_started": ("游戏开始，第 {day} 天。", "The game has started: day {day}."),
    "event.game_over": ("游戏结束。幸存者：{survivors}。", "Game over. Survivors: {survivors}."),
    "event.order_withdrawn": ("撤回了指令：{order}{detail}。", "Order withdrawn: {order}{detail}."),
    "event.order_withdrawn.refund": ("（返还体力 {refund}）", " ({refund} stamina back)"),
    "event.order_revised": (
        "已修改暗杀（目标 {target}）。",
        "Assassination changed (target {target}).",
    ),
}

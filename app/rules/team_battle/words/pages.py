"""The words of this game's page parts: ``page.<...>`` (zh, en)."""

from __future__ import annotations

from app.rules.team_battle.words.page_events import EVENTS
from app.rules.team_battle.words.page_settings import SETTINGS

PAGES: dict[str, tuple[str, str]] = {
    "page.title": ("团战", "Team Battle"),
    "page.side_A": ("甲方", "Side A"),
    "page.side_B": ("乙方", "Side B"),
    "page.you_play": ("你是 {name}（{side}）", "You are {name} ({side})"),
    "page.your_orders": ("你方本回合的指令", "Your orders this round"),
    "page.text_order_hint": (
        "例如：部署 4 7 8 6 5；反击2；调度 3→2 4人",
        "e.g. deploy 4 7 8 6 5",
    ),
    # the words of its page parts
    "page.slot_n": ("第{n}格", "Slot {n}"),
    "page.deployed_hidden": ("已部署（未公开）", "deployed (hidden)"),
    "page.morale": ("士气", "Morale"),
    "page.troops": ("兵力", "Troops"),
    "page.total_troops": ("总兵力 {n}", "{n} troops in all"),
    "page.board": ("战场", "Battlefield"),
    "page.ready_mark": ("已就绪", "ready"),
    "page.not_ready": ("未就绪", "not ready"),
    "page.uses_left": ("本阶段剩余指令次数：{n}", "Order uses left this phase: {n}"),
    "page.cooldown_blocked": ("本回合冷却：{orders}", "Cooling down this round: {orders}"),
    "page.intel": ("情报（侦察/间谍）", "Intel (Scout / Spy)"),
    "page.announced": ("本回合已公开的指令", "Orders announced this round"),
    "page.revealed": ("已揭示的隐藏指令", "Hidden orders revealed"),
    "page.order_public": ("公开", "public"),
    "page.order_hidden": ("隐藏", "hidden"),
    "page.order_cost": ("消耗 {n} 次", "costs {n}"),
    "page.order_tier": ("{n} 阶", "tier {n}"),
    "page.deploy_total": (
        "合计必须为 {total}，每格至少 1",
        "Must add up to {total}, at least 1 each",
    ),
    "page.from_slot": ("从", "From"),
    "page.to_slot": ("到", "To"),
    "page.from_left": ("从左邻调入", "From the left neighbour"),
    "page.from_right": ("从右邻调入", "From the right neighbour"),
    "page.odds_hint": (
        "按你所知（己方指令与公开信息）模拟本回合结算 {n} 次；对方未公开的指令不在其中。",
        "This round's resolution simulated {n} times from what you know (your orders and "
        "public facts); the other side's hidden orders are not in it.",
    ),
    "page.odds_hint_exact": (
        "按你所知（己方指令与公开信息）对骰子的全部 {n} 种结果逐一结算；对方未公开的指令不在其中。",
        "Every one of the {n} ways the dice can fall, resolved from what you know (your "
        "orders and public facts); the other side's hidden orders are not in it.",
    ),
    "page.odds_unavailable": (
        "对方部署公开后才能预估。",
        "Available once the opponent's deployment is revealed.",
    ),
    "page.odds_win": ("{side}胜", "{side} wins"),
    "page.odds_continue": ("继续下一回合", "game goes on"),
    "page.odds_expected": ("士气期望 {a} : {b}", "Expected morale {a} : {b}"),
    "page.odds_assumed": ("计入的指令", "Orders taken into account"),
    "page.odds_with_draft": ("含正在填写的指令", "including the order being drafted"),
    "page.moves": ("调动", "Moves"),
    **SETTINGS,
    **EVENTS,
}

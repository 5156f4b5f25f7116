"""The feed's lines of the events the shell writes, and of those every game may write
(a phase opened, an order given); a game's own lines are ``event.<kind>`` in its catalogue."""

from __future__ import annotations

# Every kind of event either game writes, as a line a forum reader understands. Lists read
# as lists ("4、7、8、6、5"), ids as the names the scenario gives them, results as words.
EVENTS: dict[str, tuple[str, str]] = {
    "game_started": ("游戏开始。", "The game has started."),
    "phase_opened": ("{phase}开始。", "{phase} opened."),
    "phase_closed": ("{phase}结束。", "{phase} closed."),
    "order_submitted": (
        "{side}提交了指令：{order}{detail}。",
        "{side} gave an order: {order}{detail}.",
    ),
    "order_revised": (
        "{side}修改了指令：{order}{detail}。",
        "{side} revised an order: {order}{detail}.",
    ),
    "order_withdrawn": (
        "{side}撤回了指令：{order}{detail}。",
        "{side} withdrew an order: {order}{detail}.",
    ),
    "order_voided": ("指令无效：{side}{order}（{why}）", "Order void: {side} {order} ({why})"),
    "game_over": ("游戏结束，{result}。", "Game over. {result}."),
    "paused": ("导演暂停了游戏。", "The director paused the game."),
    "resumed": ("游戏继续。", "The game resumed."),
    "deadline_extended": ("截止时间已延长。", "The deadline was extended."),
    "steps_undone": (
        "更正：导演撤销了结算，原因：{reason}。",
        "Correction: the director undid a resolution. Reason: {reason}.",
    ),
    "seed_revealed": (
        "随机种子已公开，可以验证。",
        "The seed is revealed: the game can be verified.",
    ),
    "hidden_events_revealed": ("全部隐藏信息已公开。", "Everything hidden is now revealed."),
    "player_replaced": ("{name} 由新玩家接替。", "{name} is now played by someone new."),
    "deadline_missed": (
        "截止时间在停机期间错过，游戏已暂停。",
        "A deadline was missed while down; the game is paused.",
    ),
    "timer_refused": ("一个计时器被拒绝。", "A timer was refused."),
    "timer_failed": (
        "一个计时器多次运行出错，已停下；游戏已暂停，等待导演处理。",
        "A timer kept failing and was parked; the game is paused until the director acts.",
    ),
    "orders_sealed": ("隐藏指令已封存，收据已公布。", "Hidden orders sealed; receipts published."),
    "receipts_opened": (
        "收据已开封，任何人都可以核对。",
        "Receipts opened: anyone can check them.",
    ),
    "receipt_contents": (
        "封存的内容（仅导演可见）：{when}：{contents}。",
        "What was sealed (director only), {when}: {contents}.",
    ),
}

"""What players read when a step is refused or an order is voided: Chinese first.

Messages only ever mention the submitting side's own orders and public facts, never the
opponent's hidden information (TB-6; README "Secrets hold").
"""

from __future__ import annotations

from typing import Any

from app.rules.base import RuleViolation

# code -> (message_zh, message_en); str.format fields filled by the caller.
MESSAGES: dict[str, tuple[str, str]] = {
    "bad_side": ("阵营必须是 A（甲）或 B（乙）。", "Side must be 'A' or 'B'."),
    "side_empty": ("{side_zh}还没有玩家。", "Side {side} has no player yet."),
    "not_a_player": ("只有参战方的玩家可以这样做。", "Only a player of a side may do this."),
    "not_commander": (
        "本局只有{side_zh}指挥官可以提交或修改指令。",
        "In this game only Side {side}'s commander may submit or change orders.",
    ),
    "game_finished": ("游戏已经结束。", "The game is over."),
    "not_started": ("游戏尚未开始。", "The game has not started yet."),
    "already_started": ("游戏已经开始。", "The game has already started."),
    "wrong_phase": (
        "{order}指令只能在{need}使用，现在是{now}。",
        "{order_en} can only be given in the {need_en}; it is now the {now_en}.",
    ),
    "unknown_order": ("没有这种指令：{type}。", "There is no order type {type!r}."),
    "bad_order": ("指令格式错误：{detail_zh}", "Malformed order: {detail_en}"),
    "order_disabled": ("本局未启用{order}指令。", "{order_en} is not enabled in this game."),
    "slot_out_of_range": (
        "格子编号必须在 1 到 {slots} 之间，收到 {slot}。",
        "Slot must be between 1 and {slots}; got {slot}.",
    ),
    "no_unit": ("第{slot}格没有部队。", "Slot {slot} holds no unit."),
    "no_target": ("现在没有可以指定的格子。", "There is no slot this order could name now."),
    "not_adjacent": (
        "第{src}格与第{dst}格不相邻。",
        "Slot {src} is not adjacent to slot {dst}.",
    ),
    "not_enough_troops": (
        "第{slot}格只有{have}兵力，无法调出{want}兵力。",
        "Slot {slot} holds only {have} troops; cannot move {want}.",
    ),
    "bad_move": ("调度无效：{detail_zh}", "Invalid dispatch: {detail_en}"),
    "bad_deployment": ("部署无效：{detail_zh}", "Invalid deployment: {detail_en}"),
    "no_order_uses": (
        "本阶段己方的指令次数已用完（共{uses}次，{order}需要{cost}次）。",
        "Your side has no order uses left this phase ({uses} in all; {order_en} needs {cost}).",
    ),
    "morale_too_low": (
        "{order}是{tier}阶指令，需要士气至少{need}，己方士气为{have}。",
        "{order_en} is a tier {tier} order and needs morale of at least {need}; "
        "your morale is {have}.",
    ),
    "cooldown": (
        "上回合已使用过{order}，本回合不能使用。",
        "{order_en} was used last round and cannot be used this round.",
    ),
    "once_per_game": ("{order}一场游戏限用一次。", "{order_en} may be used once per game."),
    "blood_battle_slot": (
        "第{slot}格本回合处于血战，战斗阶段指令不能指定该格。",
        "Slot {slot} is in Blood Battle this round; battle-phase orders may not name it.",
    ),
    "pursuit_not_allowed": ("不能追杀：{detail_zh}", "Pursuit not allowed: {detail_en}"),
    "retreat_not_allowed": (
        "响应阶段只能对被聚集格子相对的己方部队使用额外撤退。",
        "In the response window a Retreat may only be given to your unit facing an "
        "announced Gather.",
    ),
    "not_your_order": ("找不到该指令。", "No such order."),
    "order_not_pending": ("该指令已不能修改或撤回。", "That order can no longer be changed."),
    "order_in_effect": (
        "侦察已经生效，不能修改或撤回。",
        "Scout has already taken effect and cannot be changed or withdrawn.",
    ),
    "duplicate_order_id": ("指令编号重复。", "Duplicate order id."),
    "unknown_action": ("未知的导演操作：{action}。", "Unknown director action {action!r}."),
    "bad_action": ("导演操作无效：{detail_zh}", "Invalid director action: {detail_en}"),
    "unknown_player": ("该方没有这个玩家。", "That side has no such player."),
    "unsupported_step": ("不支持的操作：{kind}。", "Unsupported step kind {kind!r}."),
    "not_director": ("只有导演可以这样做。", "Only the director may do this."),
}

PHASE_NAMES: dict[str, tuple[str, str]] = {
    "setup": ("准备阶段", "setup"),
    "deployment": ("部署阶段", "deployment phase"),
    "command": ("统御阶段", "command phase"),
    "battle": ("战斗阶段", "battle phase"),
    "response": ("响应阶段", "response window"),
    "finished": ("游戏结束", "end of the game"),
}


def order_names(order_type: str) -> dict[str, Any]:
    """Format fields naming an order in both languages."""
    from app.rules.team_battle.orders import ORDERS

    definition = ORDERS.get(order_type)
    zh = definition.name_zh if definition else order_type
    return {"order": zh, "order_en": order_type.replace("_", " ").capitalize()}


# The sides as the rules' original text and every page and post name them (issue 16).
SIDE_NAMES_ZH = {"A": "甲方", "B": "乙方"}


def violation(code: str, rule: str | None, *, status: int = 409, **fields: Any) -> RuleViolation:
    zh, en = MESSAGES[code]
    if "side" in fields:
        fields.setdefault("side_zh", SIDE_NAMES_ZH.get(fields["side"], fields["side"]))
    return RuleViolation(code, rule, zh.format(**fields), en.format(**fields), status=status)


def malformed(detail_zh: str, detail_en: str) -> RuleViolation:
    return violation("bad_order", None, status=422, detail_zh=detail_zh, detail_en=detail_en)

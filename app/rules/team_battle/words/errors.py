"""Refusals and voided orders: ``error.<code>`` (zh, en), ``str.format`` fields filled by
the raising code.

Messages only ever mention the submitting side's own orders and public facts, never the
opponent's hidden information (TB-6; README "Secrets hold").
"""

from __future__ import annotations

ERRORS: dict[str, tuple[str, str]] = {
    "error.bad_side": ("阵营必须是 A（甲）或 B（乙）。", "Side must be 'A' or 'B'."),
    "error.side_empty": ("{side_zh}还没有玩家。", "Side {side} has no player yet."),
    "error.not_a_player": ("只有参战方的玩家可以这样做。", "Only a player of a side may do this."),
    "error.not_commander": (
        "本局只有{side_zh}指挥官可以提交或修改指令。",
        "In this game only Side {side}'s commander may submit or change orders.",
    ),
    "error.game_finished": ("游戏已经结束。", "The game is over."),
    "error.not_started": ("游戏尚未开始。", "The game has not started yet."),
    "error.already_started": ("游戏已经开始。", "The game has already started."),
    "error.wrong_phase": (
        "{order}指令只能在{need}使用，现在是{now}。",
        "{order_en} can only be given in the {need_en}; it is now the {now_en}.",
    ),
    "error.unknown_order": ("没有这种指令：{type}。", "There is no order type {type!r}."),
    "error.bad_order": ("指令格式错误：{detail_zh}", "Malformed order: {detail_en}"),
    "error.order_disabled": ("本局未启用{order}指令。", "{order_en} is not enabled in this game."),
    "error.slot_out_of_range": (
        "格子编号必须在 1 到 {slots} 之间，收到 {slot}。",
        "Slot must be between 1 and {slots}; got {slot}.",
    ),
    "error.no_unit": ("第{slot}格没有部队。", "Slot {slot} holds no unit."),
    "error.no_target": ("现在没有可以指定的格子。", "There is no slot this order could name now."),
    "error.not_adjacent": (
        "第{src}格与第{dst}格不相邻。",
        "Slot {src} is not adjacent to slot {dst}.",
    ),
    "error.not_enough_troops": (
        "第{slot}格只有{have}兵力，无法调出{want}兵力。",
        "Slot {slot} holds only {have} troops; cannot move {want}.",
    ),
    "error.bad_move": ("调度无效：{detail_zh}", "Invalid dispatch: {detail_en}"),
    "error.bad_deployment": ("部署无效：{detail_zh}", "Invalid deployment: {detail_en}"),
    "error.no_order_uses": (
        "本阶段己方的指令次数已用完（共{uses}次，{order}需要{cost}次）。",
        "Your side has no order uses left this phase ({uses} in all; {order_en} needs {cost}).",
    ),
    "error.morale_too_low": (
        "{order}是{tier}阶指令，需要士气至少{need}，己方士气为{have}。",
        "{order_en} is a tier {tier} order and needs morale of at least {need}; "
        "your morale is {have}.",
    ),
    "error.cooldown": (
        "上回合已使用过{order}，本回合不能使用。",
        "{order_en} was used last round and cannot be used this round.",
    ),
    "error.once_per_game": ("{order}一场游戏限用一次。", "{order_en} may be used once per game."),
    "error.blood_battle_slot": (
        "第{slot}格本回合处于血战，战斗阶段指令不能指定该格。",
        "Slot {slot} is in Blood Battle this round; battle-phase orders may not name it.",
    ),
    "error.pursuit_not_allowed": ("不能追杀：{detail_zh}", "Pursuit not allowed: {detail_en}"),
    "error.retreat_not_allowed": (
        "响应阶段只能对被聚集格子相对的己方部队使用额外撤退。",
        "In the response window a Retreat may only be given to your unit facing an "
        "announced Gather.",
    ),
    "error.not_your_order": ("找不到该指令。", "No such order."),
    "error.order_not_pending": ("该指令已不能修改或撤回。", "That order can no longer be changed."),
    "error.order_in_effect": (
        "侦察已经生效，不能修改或撤回。",
        "Scout has already taken effect and cannot be changed or withdrawn.",
    ),
    "error.duplicate_order_id": ("指令编号重复。", "Duplicate order id."),
    "error.unknown_action": ("未知的导演操作：{action}。", "Unknown director action {action!r}."),
    "error.bad_action": ("导演操作无效：{detail_zh}", "Invalid director action: {detail_en}"),
    "error.unknown_player": ("该方没有这个玩家。", "That side has no such player."),
    "error.unsupported_step": ("不支持的操作：{kind}。", "Unsupported step kind {kind!r}."),
    "error.not_director": ("只有导演可以这样做。", "Only the director may do this."),
}

"""Refusals: ``error.<code>`` (zh, en), ``str.format`` fields filled by the raising code.

Texts never name anything the actor may not see.
"""

from __future__ import annotations

ERRORS: dict[str, tuple[str, str]] = {
    "error.bad_side": ("本戏玩家不分阵营，不能指定阵营。", "Island players have no side."),
    "error.roster_full": (
        "名单已满：本剧本可容纳 {fewest}–{most} 名玩家。",
        "The roster is full: this scenario takes {fewest} to {most} players.",
    ),
    "error.bad_roster": ("{zh}", "{en}"),
    "error.unsupported_step": ("不支持的步骤：{kind}。", "Unsupported step kind: {kind}."),
    "error.not_running": ("游戏不在进行中。", "The game is not running."),
    "error.already_started": ("游戏已经开始。", "The game has already started."),
    "error.bad_order": ("指令格式错误：{detail}", "Malformed order: {detail}"),
    "error.unknown_order_type": ("未知的指令类型：{type}。", "Unknown order type: {type}."),
    "error.not_found": ("找不到该对象。", "Not found."),
    "error.no_target": (
        "现在没有可以作为目标的对象。",
        "There is nothing this order could target now.",
    ),
    "error.dead": ("你已经死亡。", "You are dead."),
    "error.not_enough_stamina": ("体力不足（需要 {need}）。", "Not enough stamina (needs {need})."),
    "error.off_map": ("那个方向没有格子。", "There is no cell in that direction."),
    "error.in_pk": ("你正在PK中，结算前不能这样做。", "You are in a PK until it resolves."),
    "error.flee_forbidden": ("此处禁止逃跑。", "Fleeing is forbidden here."),
    "error.nothing_to_flee": ("你现在没有可以逃离的战斗。", "There is no fight to flee from."),
    "error.not_hungry": ("你并不饥饿。", "You are not hungry."),
    "error.no_food": ("食物不足。", "Not enough food."),
    "error.more_than_hunger": (
        "进食只能减少饥饿度，你的饥饿度为 {hunger}，不能吃更多。",
        "Eating lowers hunger; yours is {hunger}, so you cannot eat more than that.",
    ),
    "error.bad_direction": (
        "{key} 只能是 up、down、left、right：只能横移或纵移到相邻格，不能斜向。",
        "'{key}' must be up, down, left or right: moves are orthogonal, never diagonal.",
    ),
    "error.outside_pk_window": (
        "只能在 {start}-24:00 发PK贴。",
        "PKs may only be posted {start}-24:00.",
    ),
    "error.pk_side_full": ("每方最多 {max} 人。", "At most {max} per side."),
    "error.pk_closed": ("该PK已经结束。", "That PK is over."),
    "error.already_in_pk": ("你已经在这场PK中。", "You are already in that PK."),
    "error.self_target": ("不能以自己为目标。", "You cannot target yourself."),
    "error.duplicate_order": (
        "你已对该目标下过此指令。",
        "You already have that order on that target.",
    ),
    "error.cannot_change": (
        "暗杀指令一经发出不可更改，只能撤销（不返还体力）。",
        "An assassination cannot be changed, only cancelled (no refund).",
    ),
    "error.cannot_withdraw": ("该指令不能撤销。", "That order cannot be withdrawn."),
    "error.not_same_cell": ("对方不在你所在的格子。", "They are not in your cell."),
    "error.no_item": ("你没有足够的该物品。", "You do not have enough of that item."),
    "error.not_weapon": ("该物品不是武器。", "That item is not a weapon."),
    "error.proxy_forbidden": (
        "禁止非同阵营玩家之间托管。",
        "Proxy orders between different factions are forbidden.",
    ),
    "error.proxy_invalid": (
        "导演已判定该玩家的托管指令无效。",
        "The director has declared proxy orders for this player invalid.",
    ),
    "error.unknown_action": ("未知的导演操作：{action}。", "Unknown director action: {action}."),
    "error.bad_action": ("导演操作参数错误：{detail}", "Malformed director action: {detail}"),
    "error.director_only": ("只有导演可以这样做。", "Only the director may do that."),
    "error.story_resolved": ("该剧情已经结算。", "That story is already resolved."),
}

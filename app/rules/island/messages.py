"""Player-facing texts (Chinese first, English available) and the RuleViolation factory."""

from __future__ import annotations

from typing import Any

from app.rules.base import RuleViolation

# code -> (status, zh, en). Texts never name anything the actor may not see.
ERRORS: dict[str, tuple[int, str, str]] = {
    "bad_side": (422, "本戏玩家不分阵营，不能指定阵营。", "Island players have no side."),
    "roster_full": (
        409,
        "名单已满：本剧本可容纳 {fewest}–{most} 名玩家。",
        "The roster is full: this scenario takes {fewest} to {most} players.",
    ),
    "bad_roster": (409, "{zh}", "{en}"),
    "unsupported_step": (422, "不支持的步骤：{kind}。", "Unsupported step kind: {kind}."),
    "not_running": (409, "游戏不在进行中。", "The game is not running."),
    "already_started": (409, "游戏已经开始。", "The game has already started."),
    "bad_order": (422, "指令格式错误：{detail}", "Malformed order: {detail}"),
    "unknown_order_type": (422, "未知的指令类型：{type}。", "Unknown order type: {type}."),
    "not_found": (404, "找不到该对象。", "Not found."),
    "no_target": (
        409,
        "现在没有可以作为目标的对象。",
        "There is nothing this order could target now.",
    ),
    "dead": (409, "你已经死亡。", "You are dead."),
    "not_enough_stamina": (409, "体力不足（需要 {need}）。", "Not enough stamina (needs {need})."),
    "off_map": (409, "那个方向没有格子。", "There is no cell in that direction."),
    "in_pk": (409, "你正在PK中，结算前不能这样做。", "You are in a PK until it resolves."),
    "flee_forbidden": (409, "此处禁止逃跑。", "Fleeing is forbidden here."),
    "nothing_to_flee": (409, "你现在没有可以逃离的战斗。", "There is no fight to flee from."),
    "not_hungry": (409, "你并不饥饿。", "You are not hungry."),
    "no_food": (409, "食物不足。", "Not enough food."),
    "more_than_hunger": (
        409,
        "进食只能减少饥饿度，你的饥饿度为 {hunger}，不能吃更多。",
        "Eating lowers hunger; yours is {hunger}, so you cannot eat more than that.",
    ),
    "bad_direction": (
        422,
        "{key} 只能是 up、down、left、right：只能横移或纵移到相邻格，不能斜向。",
        "'{key}' must be up, down, left or right: moves are orthogonal, never diagonal.",
    ),
    "outside_pk_window": (
        409,
        "只能在 {start}-24:00 发PK贴。",
        "PKs may only be posted {start}-24:00.",
    ),
    "pk_side_full": (409, "每方最多 {max} 人。", "At most {max} per side."),
    "pk_closed": (409, "该PK已经结束。", "That PK is over."),
    "already_in_pk": (409, "你已经在这场PK中。", "You are already in that PK."),
    "self_target": (409, "不能以自己为目标。", "You cannot target yourself."),
    "duplicate_order": (
        409,
        "你已对该目标下过此指令。",
        "You already have that order on that target.",
    ),
    "cannot_change": (
        409,
        "暗杀指令一经发出不可更改，只能撤销（不返还体力）。",
        "An assassination cannot be changed, only cancelled (no refund).",
    ),
    "cannot_withdraw": (409, "该指令不能撤销。", "That order cannot be withdrawn."),
    "not_same_cell": (409, "对方不在你所在的格子。", "They are not in your cell."),
    "no_item": (409, "你没有足够的该物品。", "You do not have enough of that item."),
    "not_weapon": (409, "该物品不是武器。", "That item is not a weapon."),
    "proxy_forbidden": (
        409,
        "禁止非同阵营玩家之间托管。",
        "Proxy orders between different factions are forbidden.",
    ),
    "proxy_invalid": (
        409,
        "导演已判定该玩家的托管指令无效。",
        "The director has declared proxy orders for this player invalid.",
    ),
    "unknown_action": (422, "未知的导演操作：{action}。", "Unknown director action: {action}."),
    "bad_action": (422, "导演操作参数错误：{detail}", "Malformed director action: {detail}"),
    "director_only": (403, "只有导演可以这样做。", "Only the director may do that."),
    "story_resolved": (409, "该剧情已经结算。", "That story is already resolved."),
}


def violation(code: str, rule: str | None = None, **fmt: Any) -> RuleViolation:
    status, zh, en = ERRORS[code]
    return RuleViolation(code, rule, zh.format(**fmt), en.format(**fmt), status=status)


# Report texts used in private/public events (templates render them on the forum).
TEXT: dict[str, tuple[str, str]] = {
    "target_moved": (
        "你的暗杀目标在结算前移动了，你可以更改或撤销（撤销返还体力）。",
        "Your target moved before 24:00: you may change or cancel (cancelling refunds).",
    ),
    "assassinated": ("你在夜里被暗杀身亡。", "You were assassinated in the night."),
    "attempt_failed_on_you": (
        "有人试图暗杀你，但失败了。",
        "Someone tried to assassinate you and failed.",
    ),
    "starved": ("你饿死了。", "You starved to death."),
    "died": ("你死了。", "You died."),
    "held_move": (
        "目标格有人正在剧情/打猎/PK中，移动已挂起。",
        "That cell is busy: your move is held.",
    ),
    "held_move_done": ("挂起的移动已完成。", "Your held move has completed."),
}


def text(key: str, **fmt: Any) -> dict[str, str]:
    zh, en = TEXT[key]
    return {"zh": zh.format(**fmt), "en": en.format(**fmt)}

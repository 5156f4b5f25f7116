"""The words of this game's settings and director tools on its pages (zh, en):
``setting.<field>`` its label, ``setting.<field>.help`` its help, ``setting.<field>.<choice>``
a choice's name; ``tool.<action>`` a director tool's name, ``tool.<action>.help`` its help.
"""

from __future__ import annotations

SETTINGS: dict[str, tuple[str, str]] = {
    "setting.start_placement.help": (
        "按剧本：列出的玩家站在剧本给的起始位置，未列出的由种子随机分到空格；随机：所有人都由种子随机分到不同的空格。",
        "As the scenario says: listed players start where it puts them, the others on free "
        "cells drawn from the seed; random: everyone on a different free cell drawn from the "
        "seed.",
    ),
    "setting.max_players.help": (
        "剧本最多容纳的玩家数；留空则每格最多一人。",
        "The most players the scenario takes; empty: one per cell.",
    ),
    "setting.width.help": ("岛的宽度（格）。", "The island's width in cells."),
    "setting.height.help": ("岛的高度（格）。", "The island's height in cells."),
    "setting.default_terrain.help": (
        "剧本未列出的格子的地形。",
        "The terrain of cells the scenario does not list.",
    ),
    "setting.starting_food.help": (
        "每位玩家开局时的食物（规则未写明）。",
        "Food each player starts with (the rules are silent).",
    ),
    "setting.start_power.help": ("每位玩家开局时的战力。", "Each player's power at the start."),
    "setting.start_stamina.help": ("每天恢复到的体力。", "The stamina each player has each day."),
    "setting.base_vision.help": (
        "开局时的视野半径（格）；0 表示只看到自己所在的格子。",
        "Vision radius at the start, in cells; 0 sees only one's own cell.",
    ),
    "setting.pk_window_start.help": (
        "每天 PK 时段（也是野兽出没时段）开始的时间，至 24:00 结束。",
        "When the daily PK window (and the beasts' hours) opens; it ends at 24:00.",
    ),
    "setting.deep_night_start.help": (
        "深夜开始的时间：遭遇更频繁，战斗更危险。",
        "When deep night starts: encounters are likelier and fights harder.",
    ),
    "setting.end_when_alive_at_most.help": (
        "24:00 结算后存活人数不超过此数时游戏结束。",
        "The game ends when this few are alive after 24:00.",
    ),
    "setting.move_cost.help": ("移动一格消耗的体力。", "Stamina a move costs."),
    "setting.explore_cost.help": ("探索消耗的体力。", "Stamina exploring costs."),
    "setting.flee_cost.help": ("逃跑消耗的体力。", "Stamina fleeing costs."),
    "setting.flee_move_cost.help": ("逃跑并移动消耗的体力。", "Stamina fleeing and moving costs."),
    "setting.hunt_cost.help": ("打猎消耗的体力。", "Stamina a hunt costs."),
    "setting.pk_cost.help": ("发起 PK 消耗的体力。", "Stamina posting a PK costs."),
    "setting.pk_join_cost.help": (
        "加入任一方 PK 消耗的体力。",
        "Stamina joining a PK on either side costs.",
    ),
    "setting.assassinate_cost.help": ("暗杀消耗的体力。", "Stamina an assassination costs."),
    "setting.guard_cost.help": ("提防消耗的体力。", "Stamina a guard costs."),
    "setting.eat_cost.help": (
        "进食消耗的体力（规则未写明，默认不消耗）。",
        "Stamina eating costs (the rules are silent; none by default).",
    ),
    "setting.move_shows_both_cells.help": (
        "非隐蔽的移动告知看得见起点或终点的人：关闭则各人只知道视野内的那一格，开启则两格都知道。规则未写明。",
        "A move that is not hidden is told to everyone who sees its start or end: off, each "
        "learns only the cells in their vision; on, both cells. The rules are silent.",
    ),
    "setting.hold_moves_into_busy_cells.help": (
        "移入正被占用的格子时，移动挂起到该格空出。",
        "A move into a busy cell waits until the cell is free.",
    ),
    "setting.refund_cancelled_held_move.help": (
        "撤回挂起中的移动时返还其体力。",
        "Withdrawing a waiting move gives its stamina back.",
    ),
    "setting.refund_withdrawn_guard.help": (
        "24:00 前撤回提防时返还其体力（原规则未写明；撤回暗杀不返还，IS-23）。",
        "Withdrawing a guard before 24:00 gives its stamina back (the original is silent; a "
        "withdrawn assassination gives none back, IS-23).",
    ),
    "setting.story_triggers_once.help": (
        "剧情只对第一个探索到的人触发。",
        "A story triggers only for the first explorer.",
    ),
    "setting.flee_if_lose_default.help": (
        "玩家开局时默认勾选“失败即逃跑”。",
        "Players start with 'flee if I lose' chosen.",
    ),
    "setting.hunt_loss_power.help": ("打猎失败时损失的战力。", "Power a losing hunter loses."),
    "setting.monster_loss_power.help": (
        "被野兽袭击或遭遇战败时损失的战力。",
        "Power lost to a beast's attack or an encounter.",
    ),
    "setting.pk_loss_power.help": ("PK 每位落败者损失的战力。", "Power each loser of a PK loses."),
    "setting.pk_window_enforced.help": (
        "只能在 PK 时段内（至 24:00）发起 PK。",
        "PKs can be posted only in the PK window (until 24:00).",
    ),
    "setting.pk_window_minutes.help": (
        "发起 PK 后随机的响应时间（分钟，最短与最长）。",
        "The random answer time after a PK is posted (minutes, shortest and longest).",
    ),
    "setting.max_pk_side.help": ("PK 每一方最多的人数。", "The most people on each side of a PK."),
    "setting.pk_public.help": (
        "PK 帖及其结果公开（论坛 PK 帖）。",
        "A PK post and its result are public (the forum PK thread).",
    ),
    "setting.pk_participants_locked.help": (
        "PK 结算前参与者不能移动。",
        "PK participants cannot move until it resolves.",
    ),
    "setting.max_assassins.help": (
        "同一目标最多的暗杀者人数。",
        "The most assassins one target can have.",
    ),
    "setting.assassination_kills.help": (
        "暗杀成功即目标死亡。",
        "A successful assassination kills the target.",
    ),
    "setting.assassination_power_loss.help": (
        "暗杀成功但不致死时目标损失的战力。",
        "Power the target loses when a successful assassination does not kill.",
    ),
    "setting.excess_assassins_void.help": (
        "超出上限的暗杀在 24:00 作废（后提交的先作废），而不是提交时拒绝，这样拒绝不会泄露别人的暗杀。",
        "Assassins beyond the limit are voided at 24:00 (latest first) rather than refused, "
        "so a refusal never reveals others' hidden orders.",
    ),
    "setting.tell_target_of_failed_attempt.help": (
        "暗杀未遂时（匿名）告知目标。",
        "A failed attempt is told (anonymously) to its target.",
    ),
    "setting.debt_from_next_refill.help": (
        "体力透支从次日恢复的体力中扣除。",
        "Stamina debt comes off the next day's stamina.",
    ),
    "setting.food_per_day.help": ("每天 24:00 吃掉的食物。", "Food eaten at 24:00 each day."),
    "setting.give_same_cell_only.help": (
        "赠送 / 交易只能在同一格内进行。",
        "Giving and trading only within one cell.",
    ),
    "setting.auto_equip_best_weapon.help": (
        "默认装备战力加成最大的武器。",
        "The weapon with the largest power bonus is equipped by default.",
    ),
    "setting.proxy_idle_days.help": (
        "“判定托管无效”所说的闲置：连续这么多天没有自己下指令。",
        "'Idle' for invalidating proxies: no own order for this many days.",
    ),
    "setting.deep_night_encounter_multiplier.help": (
        "深夜遭遇概率的倍数。",
        "How many times likelier an encounter is in deep night.",
    ),
    "setting.deep_night_power_penalty.help": (
        "深夜遭遇战中损失的战力。",
        "Power lost in a deep-night encounter fight.",
    ),
    "setting.monster_check_times.help": (
        "常驻野兽可能发动袭击的当地时间。",
        "The local times at which resident beasts may attack.",
    ),
    "setting.start_placement.scenario": ("按剧本", "as the scenario says"),
    "setting.start_placement.random": ("随机（由种子决定）", "random (from the seed)"),
    "tool.grant_item.help": ("给玩家一件物品（或食物）。", "Give a player an item (or food)."),
    "tool.take_item.help": (
        "从玩家处收走一件物品（或食物）。",
        "Take an item (or food) from a player.",
    ),
    "tool.set_ill.help": (
        "使玩家生病：体力、体力上限和战力减半。",
        "Make a player ill: stamina, max stamina and power halve.",
    ),
    "tool.cure.help": ("治愈玩家的疾病。", "Cure a player's illness."),
    "tool.move_player.help": (
        "把玩家放到某一格（列、行都从 1 数起）。",
        "Put a player on a cell (column and row from 1).",
    ),
    "tool.forbid_flee.help": (
        "禁止（或允许）在某场 PK 或剧情中逃跑。",
        "Forbid (or allow) fleeing a PK or a story.",
    ),
    "tool.invalidate_proxies.help": (
        "判定托管指令无效（或恢复有效）。",
        "Declare proxy orders invalid (or valid again).",
    ),
    "tool.adjust_stamina.help": ("增减玩家的体力。", "Add to (or take from) a player's stamina."),
    "tool.adjust_power.help": (
        "增减玩家的战力；战力为 0 即死亡。",
        "Add to (or take from) a player's power; power 0 is death.",
    ),
    "tool.adjust_food.help": ("增减玩家的食物。", "Add to (or take from) a player's food."),
    "tool.set_faction.help": ("把玩家划入某个阵营。", "Move a player into a faction."),
    "tool.kill_player.help": ("判定玩家死亡。", "Kill a player."),
    "tool.announce.help": ("发布一条公开公告。", "Post a public announcement."),
    "tool.end_game.help": ("立即结束游戏。", "End the game now."),
}

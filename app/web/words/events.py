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

CAUSES: dict[str, tuple[str, str]] = {
    "assassination": ("暗杀", "assassination"),
    "counter_kill": ("反杀", "a counter-kill"),
    "starvation": ("饥饿", "starvation"),
    "illness": ("疾病", "illness"),
    "hunt": ("打猎", "a hunt"),
    "monster": ("野兽", "a beast"),
    "pk": ("PK", "a PK"),
    "director": ("导演判定", "the director"),
}

# A fight with a beast (IS-52, IS-53) and what a loser's loss came to (IS-13).
FIGHTS: dict[str, tuple[str, str]] = {
    "vanished": ("它没有攻击，离开了", "it did not attack and went away"),
    "won": ("战胜了它，获得食物 {food} 份", "beat it and got {food} food"),
    "lost": ("败给了它，战力下降", "lost to it and lost power"),
    "fled": ("败给了它，逃跑了（保住战力）", "lost to it and fled (power kept)"),
    "died": ("败给了它，死亡", "lost to it and died"),
}
LOSSES: dict[str, tuple[str, str]] = {
    "lost": ("{name} 战力下降", "{name} lost power"),
    "fled": ("{name} 逃跑", "{name} fled"),
    "died": ("{name} 死亡", "{name} died"),
}
MISSING_DEPLOYMENT: dict[str, tuple[str, str]] = {
    "even": (
        "{sides}未按时部署，兵力已平均分配。",
        " {sides} did not deploy in time: troops spread evenly.",
    ),
    "forfeit": ("{sides}未按时部署，判负。", " {sides} did not deploy in time and forfeits."),
}
OK = {True: ("成功", "succeeded"), False: ("失败", "failed")}

NOTES: dict[str, tuple[str, str]] = {
    "assassination": ("你对 {target} 的暗杀{ok}。", "Your assassination of {target} {ok}."),
    "assassins_revealed": ("暗杀你的人：{assassins}。", "Your assassins were: {assassins}."),
    "assassination_missed": ("暗杀目标不在预定位置。", "Your target was not where you struck."),
    "assassination_void": ("暗杀人数已满，你的暗杀无效。", "Too many assassins: yours was void."),
    "counter_kill": ("反杀{ok}。", "Counter-kill {ok}."),
    "counter_kill_against": ("你对 {other} 的反杀{ok}。", "Your counter-kill on {other} {ok}."),
    "counter_kill_by": ("{other} 对你的反杀{ok}。", "{other}'s counter-kill on you {ok}."),
    "night_position": ("你现在位于 {at}。", "You are now at {at}."),
    "ate": ("你吃了 1 份食物，剩余 {food_left}。", "You ate 1 food; {food_left} left."),
    "hungry": ("没有食物，饥饿度 {hunger}。", "No food: hunger {hunger}."),
    "death": ("你死了（{cause}）。", "You died ({cause})."),
    "night_encounter": (
        "夜里在 {at} 遇到{monster}：{fight}。",
        "In the night at {at}, met a {monster}: {fight}.",
    ),
    "monster_attack": ("{time}{monster}来袭：{fight}。", "{time}A {monster} attacked: {fight}."),
}

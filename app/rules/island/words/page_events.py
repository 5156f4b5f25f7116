"""The feed's line for each of this game's events: ``event.<kind>`` (zh, en), ``str.format``
fields filled by the shell's feed (names, phases, orders already in words)."""

from __future__ import annotations

EVENTS: dict[str, tuple[str, str]] = {
    "line.placed": ("{name} 出现在 {at}。", "{name} starts at {at}."),
    "line.moved": (
        "{name} 从 {from_} 移动到 {to}{hidden}。",
        "{name} moved from {from_} to {to}{hidden}.",
    ),
    "line.moved_away": ("{name} 离开了 {from_}。", "{name} left {from_}."),
    "line.moved_in": ("{name} 来到 {to}。", "{name} arrived at {to}."),
    "line.moved_unseen": ("{name} 移动了。", "{name} moved."),
    "line.encounter": (
        "{name} 在路上遇到{monster}：{fight}。",
        "{name} met a {monster} on the way: {fight}.",
    ),
    "line.explored_nothing": ("探索结果：什么也没找到。", "Explored: found nothing."),
    "line.explored_food": ("探索结果：找到食物 {count} 份。", "Explored: found {count} food."),
    "line.explored_item": ("探索结果：找到{item} ×{count}。", "Explored: found {item} × {count}."),
    "line.explored_monster": (
        "探索时遇到{monster}：{fight}。",
        "Explored and met a {monster}: {fight}.",
    ),
    "line.explored_story": ("探索触发了剧情：{title}。", "Exploring started a story: {title}."),
    "line.explored": ("探索完毕。", "Explored."),
    "line.pk_posted": ("{names} 发起 PK。", "PK posted: {names}."),
    "line.pk_joined": ("{name} 加入 PK（{side}）。", "{name} joined the PK ({side})."),
    "line.pk_fled": ("{name} 逃离了 PK。", "{name} fled the PK."),
    "line.pk_resolved": ("PK 结束：{winner}获胜{losses}。", "PK over: the {winner} won{losses}."),
    "line.hunt_won": (
        "{hunters} 打猎{monster}成功，分得食物：{shares}。",
        "{hunters} hunted a {monster} and won; food: {shares}.",
    ),
    "line.hunt_lost": (
        "{hunters} 打猎{monster}失败：{losses}。",
        "{hunters} hunted a {monster} and lost: {losses}.",
    ),
    "line.hunt": ("打猎结束。", "The hunt is over."),
    "line.ate": (
        "进食 {eaten} 份：饥饿 {hunger}，剩余食物 {food}。",
        "Ate {eaten}: hunger {hunger}, {food} food left.",
    ),
    "line.gave": (
        "{giver} 把{item} ×{count} 给了 {to}。",
        "{giver} gave {item} × {count} to {to}.",
    ),
    "line.order_posted": (
        "已提交{order}（目标 {target}）。",
        "{order} submitted (target {target}).",
    ),
    "line.target_moved": (
        "你的暗杀目标在结算前移动了，你可以更改或撤销。",
        "Your target moved before 24:00: you may change or cancel.",
    ),
    "line.held_move_done": ("挂起的移动已完成。", "Your held move has completed."),
    "line.story_triggered": (
        "触发剧情：{title}（{name}，{at}）。{text}",
        "Story triggered: {title} ({name}, {at}). {text}",
    ),
    "line.story_resolved": ("剧情结算：{text}", "Story resolved: {text}"),
    "line.director_action": ("导演操作：{action}{detail}。", "Director action: {action}{detail}."),
    "line.announcement": ("公告：{text}", "Announcement: {text}"),
    "line.death": ("{name} 死亡（{cause}）。", "{name} died ({cause})."),
    "line.death_announced": ("{name} 死亡。", "{name} is dead."),
    "line.monster_attack": (
        "{time}{monster}来袭：{fight}。",
        "{time}A {monster} attacked: {fight}.",
    ),
    "line.night_encounter": (
        "夜里在 {at} 遇到{monster}：{fight}。",
        "In the night at {at}, met a {monster}: {fight}.",
    ),
    "line.night_report": (
        "第 {day} 天结算报告：体力 {stamina}/{max_stamina}，战力 {power}，饥饿 {hunger}，食物 {food}。{notes}",
        "Report for day {day}: stamina {stamina}/{max_stamina}, power {power}, hunger {hunger}, food {food}. {notes}",
    ),
    "line.day_report": (
        "第 {day} 天结束。死亡：{deaths}。存活：{alive}。",
        "Day {day} is over. Dead: {deaths}. Alive: {alive}.",
    ),
    "line.director_report": (
        "第 {day} 天导演报告：{parts}。",
        "Director's report for day {day}: {parts}.",
    ),
    # the words of its feed lines: deaths' causes, fights with beasts, a loser's loss, a night's private notes
    "page.cause.assassination": ("暗杀", "assassination"),
    "page.cause.counter_kill": ("反杀", "a counter-kill"),
    "page.cause.starvation": ("饥饿", "starvation"),
    "page.cause.illness": ("疾病", "illness"),
    "page.cause.hunt": ("打猎", "a hunt"),
    "page.cause.monster": ("野兽", "a beast"),
    "page.cause.pk": ("PK", "a PK"),
    "page.cause.director": ("导演判定", "the director"),
    "page.fight.vanished": ("它没有攻击，离开了", "it did not attack and went away"),
    "page.fight.won": ("战胜了它，获得食物 {food} 份", "beat it and got {food} food"),
    "page.fight.lost": ("败给了它，战力下降", "lost to it and lost power"),
    "page.fight.fled": ("败给了它，逃跑了（保住战力）", "lost to it and fled (power kept)"),
    "page.fight.died": ("败给了它，死亡", "lost to it and died"),
    "page.loss.lost": ("{name} 战力下降", "{name} lost power"),
    "page.loss.fled": ("{name} 逃跑", "{name} fled"),
    "page.loss.died": ("{name} 死亡", "{name} died"),
    "page.note.assassination": (
        "你对 {target} 的暗杀{ok}。",
        "Your assassination of {target} {ok}.",
    ),
    "page.note.assassins_revealed": (
        "暗杀你的人：{assassins}。",
        "Your assassins were: {assassins}.",
    ),
    "page.note.assassination_missed": (
        "暗杀目标不在预定位置。",
        "Your target was not where you struck.",
    ),
    "page.note.assassination_void": (
        "暗杀人数已满，你的暗杀无效。",
        "Too many assassins: yours was void.",
    ),
    "page.note.counter_kill": ("反杀{ok}。", "Counter-kill {ok}."),
    "page.note.counter_kill_against": (
        "你对 {other} 的反杀{ok}。",
        "Your counter-kill on {other} {ok}.",
    ),
    "page.note.counter_kill_by": (
        "{other} 对你的反杀{ok}。",
        "{other}'s counter-kill on you {ok}.",
    ),
    "page.note.night_position": ("你现在位于 {at}。", "You are now at {at}."),
    "page.note.ate": ("你吃了 1 份食物，剩余 {food_left}。", "You ate 1 food; {food_left} left."),
    "page.note.hungry": ("没有食物，饥饿度 {hunger}。", "No food: hunger {hunger}."),
    "page.note.death": ("你死了（{cause}）。", "You died ({cause})."),
    "page.note.night_encounter": (
        "夜里在 {at} 遇到{monster}：{fight}。",
        "In the night at {at}, met a {monster}: {fight}.",
    ),
    "page.note.monster_attack": (
        "{time}{monster}来袭：{fight}。",
        "{time}A {monster} attacked: {fight}.",
    ),
    # the director's night report
    "page.report.assassination": (
        "{assassins} 暗杀 {target}{ok}",
        "{assassins} assassinated {target}: {ok}",
    ),
    "page.report.guarded": ("（提防了 {names}）", " (guarded against {names})"),
    "page.report.counter_kill": ("，反杀 {name}{ok}", ", counter-kill on {name} {ok}"),
    "page.report.no_assassination": ("无暗杀", "no assassination"),
    "page.report.dead": ("死亡：{names}", "dead: {names}"),
    "page.report.stories": ("待结算剧情 {n} 个", "{n} stories to resolve"),
    "page.succeeded": ("成功", "succeeded"),
    "page.failed": ("失败", "failed"),
    "page.allow": ("允许", "allow"),
}

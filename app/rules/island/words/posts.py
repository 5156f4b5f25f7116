"""The words of this game's posts: ``post.<...>`` (zh, en).

Phrases are ``str.format`` patterns of trusted, markup-free text, as the shell's generic post
phrases are: no ``#``, ``>``, ``-``, ``1.`` at the start of a line, no ``*``, ``_``, ``[``; the
post builders escape what fills their fields. Orders and phases are named by ``order.*`` and
``phase.*`` (names.py), shared with the pages.
"""

from __future__ import annotations

POSTS: dict[str, tuple[str, str]] = {
    "post.title.daily_report": (
        "【第{day}天·24:00 报告】{title}",
        "[Day {day} · 24:00 report] {title}",
    ),
    "post.title.pk_result": ("【PK 结果】{title}", "[PK result] {title}"),
    "post.start.intro": (
        "《另一面》开始！第1天（{date}）。以下是玩家名单、本局设置与随机种子承诺。",
        "The Other Side begins: day 1 ({date}). The players, this game's settings and the "
        "seed commitment.",
    ),
    "post.set.map": ("地图", "Map"),
    "post.set.map_value": ("{w}×{h} 格", "{w}×{h} cells"),
    "post.set.timezone": ("时区", "Time zone"),
    "post.set.stamina": ("每日体力", "Stamina per day"),
    "post.set.power": ("初始力量", "Starting power"),
    "post.set.food": ("初始食物 / 每日消耗", "Starting food / eaten per day"),
    "post.set.pk_window": ("PK 时段", "PK window"),
    "post.set.pk_wait": ("PK 响应时间", "PK response window"),
    "post.set.minutes_range": ("{lo}–{hi}分钟", "{lo}–{hi} min"),
    "post.set.deep_night": ("深夜", "Deep night"),
    "post.set.window": ("{start}–24:00", "{start}–24:00"),
    "post.set.daily": ("每日结算", "Daily resolution"),
    "post.set.midnight": ("24:00（暗杀、守卫、饥饿）", "24:00 (assassinations, guards, hunger)"),
    "post.report.intro": (
        "第{day}天（{date}）24:00 结算完毕。",
        "Day {day} ({date}) was resolved at 24:00.",
    ),
    "post.head.deaths": ("【死亡】", "Deaths"),
    "post.deaths.none": ("今夜无人死亡。", "Nobody died tonight."),
    "post.head.alive": ("【存活（{n}人）】", "Alive ({n})"),
    "post.report.next": (
        "第{day}天开始；下次结算：{when}。",
        "Day {day} begins; next resolution: {when}.",
    ),
    "post.pk.head": ("【PK {challenge}】", "PK {challenge}"),
    "post.pk.attack": ("攻方", "Attackers"),
    "post.pk.defend": ("守方", "Defenders"),
    "post.pk.col.side": ("方", "Side"),
    "post.pk.col.members": ("成员", "Members"),
    "post.pk.col.strength": ("力量合计", "Strength"),
    "post.pk.winner": ("{side}获胜（IS-60）。", "The {side} win (IS-60)."),
    "post.pk.by_default": (
        "{side}不战而胜：对方无人应战。",
        "The {side} win by default: nobody is left opposite.",
    ),
    "post.pk.no_winner": ("双方都无人，PK 作废。", "Nobody is left on either side: no result."),
    "post.pk.fled": ("逃离：{names}", "Fled: {names}"),
    "post.loss.lost": ("{name}：失去力量", "{name}: loses power"),
    "post.loss.fled": (
        "{name}：败后逃跑，力量未失（IS-13）",
        "{name}: fled after losing, power kept (IS-13)",
    ),
    "post.loss.died": ("{name}：阵亡", "{name}: died"),
    "post.head.losses": ("【败方】", "The losing side"),
    "post.notice.pk_posted": (
        "{attackers} 向 {defenders} 发起 PK（{challenge}），{when} 结算，期间可加入任一方。",
        "{attackers} challenged {defenders} (PK {challenge}); it resolves at {when} and "
        "anyone may join either side until then.",
    ),
    "post.notice.pk_joined": (
        "{name} 加入 PK {challenge} 的{side}。",
        "{name} joined PK {challenge} with the {side}.",
    ),
    "post.notice.pk_fled": ("{name} 逃离了 PK {challenge}。", "{name} fled PK {challenge}."),
    "post.notice.death": ("{name} 死亡。", "{name} died."),
    "post.notice.announcement": ("导演公告（第{day}天）：", "The director announces (day {day}):"),
    "post.result.survivors": ("幸存者：{names}", "Survivors: {names}"),
    "post.result.nobody": ("无人幸存。", "Nobody survived."),
    "post.result.by_director": ("导演宣布游戏结束。", "The director ended the game."),
    "post.result.end": ("游戏结束。", "The game is over."),
    # Receipts: what a close is called, and the line its receipts open with.
    "post.receipt.sealed": (
        "第{day}天 24:00：每位存活玩家当日的暗杀与守卫指令已封存为回执。",
        "Day {day}, 24:00: each living player's assassinations and guards are sealed into a receipt.",
    ),
    "post.receipt.label": ("第{day}天", "day {day}"),
}

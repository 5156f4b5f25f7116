"""The words of this game's posts: ``post.<...>`` (zh, en).

Phrases are ``str.format`` patterns of trusted, markup-free text, as the shell's generic post
phrases are: no ``#``, ``>``, ``-``, ``1.`` at the start of a line, no ``*``, ``_``, ``[``; the
post builders escape what fills their fields. Orders and phases are named by ``order.*`` and
``phase.*`` (names.py), shared with the pages.
"""

from __future__ import annotations

POSTS: dict[str, tuple[str, str]] = {
    "post.title.daily_report": (
        "【第{day}天·24:00】{story} · {title}",
        "[Day {day} · 24:00] {story} · {title}",
    ),
    "post.title.daily_report_early": (
        "【第{day}天·提前结算】{story} · {title}",
        "[Day {day} · resolved early] {story} · {title}",
    ),
    "post.report.story_deaths": ("{names} 死亡，余{n}人", "{names} died, {n} left"),
    "post.report.story_quiet": ("平安夜，{n}人全部存活", "a quiet night, all {n} alive"),
    "post.report.intro_early": (
        "导演提前结算了第{day}天（{date}）：本次 24:00 结算于 {when} 进行。",
        "The director resolved day {day} ({date}) early: its 24:00 resolution ran at {when}.",
    ),
    "post.zone.beijing": ("北京时间", "Beijing time"),
    "post.title.pk_result": ("【PK 结果】{pk} · {title}", "[PK result] {pk} · {title}"),
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
    "post.title.pk_challenge": ("【PK】{pk} · {title}", "[PK] {pk} · {title}"),
    "post.title.pk_update": ("【PK 动态】{title}", "[PK update] {title}"),
    "post.title.pk_joined": (
        "【PK】{name} 加入{side}（{pk}）· {title}",
        "[PK] {name} joins the {side} ({pk}) · {title}",
    ),
    "post.title.pk_fled": (
        "【PK】{name} 逃离（{pk}）· {title}",
        "[PK] {name} flees ({pk}) · {title}",
    ),
    "post.pk.beat": ("{winners} 击败 {losers}", "{winners} beat {losers}"),
    "post.pk.versus": ("{attackers} 对 {defenders}", "{attackers} vs {defenders}"),
    "post.pk.challenge": (
        "{attackers} 向 {defenders} 发起 PK！",
        "{attackers} challenges {defenders} to a PK!",
    ),
    "post.pk.due": ("结算时间：{when}。", "It resolves at {when}."),
    "post.pk.join_hint": (
        "在此之前，同一格的玩家可下令「帮{attacker}」加入攻方、「帮{defender}」加入守方；"
        "参战者可下令「逃跑」逃离。",
        "Until then anyone in the same cell may order \u201chelp {attacker}\u201d to join the "
        "attackers or \u201chelp {defender}\u201d to join the defenders; a fighter may order "
        "\u201cflee\u201d.",
    ),
    "post.pk.joined": ("{name} 加入{side}。", "{name} joins the {side}."),
    "post.pk.fled_one": ("{name} 逃离了 PK。", "{name} fled the PK."),
    "post.pk.now": ("现在：{fight}。", "Now: {fight}."),
    "post.pk.roll": (
        "掷骰（1–{faces}）：{drawn}，1–{hi} 为攻方胜。",
        "The die (1–{faces}) showed {drawn}; 1–{hi} meant the attackers win.",
    ),
    "post.pk.attack": ("攻方", "attackers"),
    "post.pk.defend": ("守方", "defenders"),
    "post.pk.side_line": (
        "{side}：{names}（力量合计 {strength}）",
        "The {side}: {names} (strength {strength} in all)",
    ),
    "post.pk.side_plain": ("{side}：{names}", "The {side}: {names}"),
    "post.pk.odds": (
        "按力量对比，胜率：攻方 {attack}，守方 {defend}，由掷骰决定。",
        "By strength the odds were: attackers {attack}, defenders {defend}; a die decided.",
    ),
    "post.pk.odds_fraction": ("{num}/{den}（约{pct}%）", "{num}/{den} (about {pct}%)"),
    "post.pk.odds_certain": (
        "{side}力量达到对方两倍，必胜，无需掷骰。",
        "The {side} had twice the other side's strength: a sure win, no die needed.",
    ),
    "post.pk.winner": (
        "{side}获胜：{winners} 击败 {losers}。",
        "The {side} win: {winners} beat {losers}.",
    ),
    "post.pk.by_default": (
        "{side}不战而胜：对方无人应战。",
        "The {side} win by default: nobody is left opposite.",
    ),
    "post.pk.no_winner": ("双方都无人，PK 作废。", "Nobody is left on either side: no result."),
    "post.pk.fled": ("逃离：{names}", "Fled: {names}"),
    "post.loss.lost": ("{name}：失去力量 {n}", "{name}: loses {n} power"),
    "post.loss.fled": (
        "{name}：败后逃跑，力量未失",
        "{name}: fled after losing, power kept",
    ),
    "post.loss.died": ("{name}：失去力量 {n}，阵亡", "{name}: loses {n} power and dies"),
    "post.head.losses": ("【败方】", "The losing side"),
    "post.notice.death": ("{name} 死亡。", "{name} died."),
    "post.notice.announcement": ("导演公告（第{day}天）：", "The director announces (day {day}):"),
    "post.result.survivors": ("幸存者：{names}", "Survivors: {names}"),
    "post.result.nobody": ("无人幸存。", "Nobody survived."),
    "post.result.by_director": ("导演宣布游戏结束。", "The director ended the game."),
    "post.result.end": ("游戏结束。", "The game is over."),
    # Receipts: what a close is called, and the line its receipts open with.
    "post.receipt.label": ("第{day}天", "Day {day}"),
}

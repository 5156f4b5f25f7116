"""Every phrase a post uses, Chinese first, English beside it: one catalogue for all posts.

Phrases are ``str.format`` patterns. They are trusted markup-free text: what fills their
fields is escaped for the post's format first (``Ctx.t``), so a phrase never carries a
name's characters unescaped. Keep phrases free of characters a format would read as markup
at the start of a line (``#``, ``>``, ``-``, ``1.``) and of ``*``, ``_``, ``[``.
"""

from __future__ import annotations

PHRASES: dict[str, tuple[str, str]] = {
    # --- titles (plain text; the channel shows them as thread/post titles) ---------------
    "title.game_started": ("【开局】{title}", "[Start] {title}"),
    "title.phase_opened": ("【{phase}】{title}", "[{phase}] {title}"),
    "title.deployments_revealed": ("【部署公开】{title}", "[Deployments] {title}"),
    "title.round_result": ("【第{round}回合·战果】{title}", "[Round {round} result] {title}"),
    "title.daily_report": ("【第{day}天·24:00 报告】{title}", "[Day {day} · 24:00 report] {title}"),
    "title.pk_result": ("【PK 结果】{title}", "[PK result] {title}"),
    "title.game_finished": ("【终局】{title}", "[Game over] {title}"),
    "title.seed_revealed": ("【种子公开】{title}", "[Seed revealed] {title}"),
    "title.reminder": ("【截止提醒】{title}", "[Deadline reminder] {title}"),
    "title.tally": ("【下令统计】{title}", "[Orders tally] {title}"),
    "title.receipts": ("【指令回执】{title}", "[Order receipts] {title}"),
    "title.notice": ("【公告】{title}", "[Notice] {title}"),
    # --- shared ----------------------------------------------------------------------------
    "footer.range": ("公开事件 #{first}–#{last}", "Public events #{first}–#{last}"),
    "footer.one": ("公开事件 #{first}", "Public event #{first}"),
    "footer.none": ("forumplay", "forumplay"),
    "yes": ("是", "yes"),
    "no": ("否", "no"),
    "none": ("无", "none"),
    # Characters of one width everywhere (no East Asian "ambiguous" ones): text tables align.
    "dash": ("-", "-"),
    "check": ("是", "yes"),
    "cross": ("否", "no"),
    "list_sep": ("、", ", "),
    # The sides as the rules' original text and every page name them (issue 16 item 17).
    "side.A": ("甲方", "Side A"),
    "side.B": ("乙方", "Side B"),
    "player_forum": ("{name}（{forum}）", "{name} ({forum})"),
    "deadline": ("截止时间：{when}", "Deadline: {when}"),
    "deadline_allowed": ("截止时间：{when}，限时{duration}", "Deadline: {when}, {duration} in all"),
    "no_deadline": (
        "本阶段没有截止时间，由导演宣布结束。",
        "This phase has no deadline: the director closes it.",
    ),
    "early_close": (
        "双方全部就绪时提前结算。",
        "It closes early once every side is ready.",
    ),
    "duration.days": ("{n}天", "{n} d"),
    "duration.hours": ("{n}小时", "{n} h"),
    "duration.minutes": ("{n}分钟", "{n} min"),
    "duration.seconds": ("{n}秒", "{n} s"),
    "time": (
        "{date} {weekday} {hm}（{zone}，UTC{offset}）",
        "{weekday} {date} {hm} ({zone}, UTC{offset})",
    ),
    "weekdays": ("周一 周二 周三 周四 周五 周六 周日", "Mon Tue Wed Thu Fri Sat Sun"),
    "head.roster": ("【阵容】", "Roster"),
    "head.settings": ("【设置】", "Settings"),
    "head.seed": ("【种子承诺】", "Seed commitment"),
    "col.side": ("阵营", "Side"),
    "col.players": ("玩家", "Players"),
    "col.player": ("玩家", "Player"),
    "col.setting": ("项目", "Setting"),
    "col.value": ("数值", "Value"),
    "col.slot": ("格", "Slot"),
    "col.total": ("合计", "Total"),
    "col.ordered": ("已下令", "Ordered"),
    "col.ready": ("已就绪", "Ready"),
    "col.round_phase": ("回合·阶段", "Round · phase"),
    "col.order": ("指令", "Order"),
    "col.status": ("状态", "Status"),
    "col.owner": ("归属", "Owner"),
    "col.receipt": ("回执", "Receipt"),
    "seed.commitment_intro": (
        "本局随机种子在开局前已封存，其 SHA-256 承诺值为：",
        "The game's random seed was sealed before the start; its SHA-256 commitment is:",
    ),
    "seed.commitment_note": (
        "游戏结束时公布种子，任何人都可以核对 SHA-256(种子) 等于此值，并重放每一次掷骰。",
        "The seed is published when the game ends: anyone can check that SHA-256(seed) "
        "equals this value and replay every roll.",
    ),
    "seed.revealed": ("本局种子：", "The seed:"),
    "seed.how_commitment": (
        "核对承诺（任意终端）：",
        "Check the commitment (any terminal):",
    ),
    "seed.how_verify": (
        "重放全部步骤与掷骰（应返回 ok 为 true）：",
        "Replay every step and roll (it answers ok: true):",
    ),
    "seed.verify_offline": (
        "服务器地址未公开：可向导演索取本局存档，离线重放验证。",
        "No public address is set: ask the director for the game's archive to replay it offline.",
    ),
    # --- team battle -------------------------------------------------------------------------
    "tb.start.intro": (
        "团战开始！以下是双方阵容、本局设置与随机种子承诺。",
        "The team battle begins: the sides, this game's settings and the seed commitment.",
    ),
    "tb.set.slots": ("格数", "Slots"),
    "tb.set.troops": ("兵力", "Troops"),
    "tb.set.max_morale": ("最大士气", "Maximum morale"),
    "tb.set.per_side": ("甲方 {a} / 乙方 {b}", "Side A {a} / Side B {b}"),
    "tb.set.phase_time": ("{phase}时限", "{phase} time"),
    "tb.set.unlimited": ("不限（导演结束）", "none (the director closes it)"),
    "tb.set.early_close": ("全员就绪提前结算", "Early close when all ready"),
    "tb.set.dice": ("骰子", "Dice"),
    "tb.dice.random": ("随机", "random"),
    "tb.dice.low": ("取下限", "lower bound"),
    "tb.dice.high": ("取上限", "upper bound"),
    "tb.set.missing": ("未部署时", "Missing deployment"),
    "tb.missing.even": ("平均分配", "spread evenly"),
    "tb.missing.forfeit": ("判负", "forfeit"),
    "tb.set.orders": ("启用指令", "Orders enabled"),
    "tb.orders.all": ("全部", "all"),
    "tb.opened.deployment": (
        "部署阶段开始：双方秘密部署兵力，截止后同时公开。",
        "Deployment: both sides deploy in secret; both are revealed when it closes.",
    ),
    "tb.opened.command": (
        "统御阶段开始：可下达调度、激励等统御指令。",
        "Command phase: dispatch, inspire and the other command orders.",
    ),
    "tb.opened.battle": (
        "战斗阶段开始：可下达战斗指令。",
        "Battle phase: battle orders may be given.",
    ),
    "tb.opened.response": (
        "响应阶段开始（TB-5a）：仅下列一方可以响应。",
        "Response window (TB-5a): only the sides below may respond.",
    ),
    "tb.entitled.pursuit": ("{side}可追杀", "{side} may pursue"),
    "tb.entitled.retreat": (
        "{side}可对第{slots}格额外撤退",
        "{side} may retreat slot(s) {slots}",
    ),
    "tb.director_closed": (
        "导演提前结束了{phase}。",
        "The director closed the {phase} early.",
    ),
    "tb.head.announced": ("【{phase}公开指令】", "Public orders of the {phase}"),
    "tb.announced.none": ("双方均无公开指令。", "No public orders."),
    "tb.announced.order": ("{side}：{order}", "{side}: {order}"),
    "tb.head.dispatched": ("【调度结果】", "Dispatches"),
    "tb.dispatched": ("{side}：{before} → {after}", "{side}: {before} → {after}"),
    "tb.head.seen_through": ("【识破】", "See Through"),
    "tb.seen_through": (
        "{side}识破了对方的{order}，该指令本回合无效（TB-52a）。",
        "{side} saw through the opponent's {order}: it has no effect this round (TB-52a).",
    ),
    "tb.move": ("第{src}格→第{dst}格 {n}人", "slot {src} → slot {dst}, {n}"),
    "tb.slot_order": ("{order}（第{slot}格）", "{order} (slot {slot})"),
    "tb.gather_order": (
        "{order}（第{slot}格，左{left} 右{right}）",
        "{order} (slot {slot}, left {left}, right {right})",
    ),
    "tb.all": ("全部", "all"),
    "tb.scout_order": ("{order}（对方第{slot}格）", "{order} (enemy slot {slot})"),
    "tb.see_order": ("{order}（{target}）", "{order} ({target})"),
    "tb.deployed.intro": (
        "双方部署同时公开如下。",
        "Both sides' deployments, revealed together.",
    ),
    "tb.deployed.default": (
        "{side}未在截止前部署，按规则{rule}（TB-10）。",
        "{side} did not deploy in time: {rule} (TB-10).",
    ),
    "tb.head.troops": ("【各格兵力】", "Troops per slot"),
    "tb.col.before_after": ("{side}兵力", "{side}"),
    "tb.col.damage": ("受伤 甲/乙", "Dmg A/B"),
    "tb.col.penetration": ("穿透 甲/乙", "Pen. A/B"),
    "tb.troops_change": ("{before}→{after}", "{before}→{after}"),
    "tb.annihilated_mark": ("{n}（全灭）", "{n} (wiped out)"),
    "tb.totals": (
        "总兵力：甲方 {a_before}→{a_after}，乙方 {b_before}→{b_after}",
        "Total troops: Side A {a_before}→{a_after}, Side B {b_before}→{b_after}",
    ),
    "tb.head.morale": ("【士气】", "Morale"),
    "tb.morale": ("{side}：{before} → {after}（{delta}）", "{side}: {before} → {after} ({delta})"),
    "tb.morale.same": ("{side}：{value}（不变）", "{side}: {value} (unchanged)"),
    "tb.why.penetration": ("受穿透 −{n}", "penetration −{n}"),
    "tb.why.annihilated_enemy": ("歼灭敌军{n}队 +{v}", "{n} enemy unit(s) wiped out +{v}"),
    "tb.why.own_annihilated": ("己方被歼{n}队 −{v}", "{n} own unit(s) wiped out −{v}"),
    "tb.why.capped": ("以最大士气为上限（TB-5）", "capped at maximum morale (TB-5)"),
    "tb.head.penetration": ("【穿透】", "Penetration"),
    "tb.penetration_total": (
        "{side}：穿透合计 {sum} × {units}个单位 = {total}（TB-24）",
        "{side}: penetration {sum} × {units} unit(s) = {total} (TB-24)",
    ),
    "tb.head.revealed": ("【生效的暗令】", "Hidden orders that took effect"),
    "tb.revealed": (
        "{side}：{order}（第{slot}格，{rule}）",
        "{side}: {order} (slot {slot}, {rule})",
    ),
    "tb.head.log": ("【结算明细】", "How it was resolved"),
    "tb.log.gather": (
        "{side}第{slot}格{order}：左侧调入{left}，右侧调入{right}",
        "{side} slot {slot} {order}: {left} in from the left, {right} from the right",
    ),
    "tb.log.first_strike": (
        "{side}第{slot}格先攻：区间 {lo}–{hi}，掷出 {roll}{mods}，造成 {damage} 伤害",
        "{side} slot {slot} first strike: band {lo}–{hi}, rolled {roll}{mods}, {damage} damage",
    ),
    "tb.log.damage": (
        "{side}第{slot}格（判定兵力 {mine} 对 {theirs}，{case}）：区间 {lo}–{hi}，掷出 {roll}{mods}，造成 {damage} 伤害",
        "{side} slot {slot} ({mine} vs {theirs}, {case}): band {lo}–{hi}, rolled {roll}{mods}, {damage} damage",
    ),
    "tb.case.higher": ("兵力较多 TB-20", "more troops TB-20"),
    "tb.case.double": ("两倍以上 TB-21", "double or more TB-21"),
    "tb.case.equal": ("兵力相等 TB-22", "equal troops TB-22"),
    "tb.log.counter": (
        "{side}第{slot}格反击：区间 {lo}–{hi}，掷出 {roll}{mods}，造成 {damage} 伤害",
        "{side} slot {slot} counter: band {lo}–{hi}, rolled {roll}{mods}, {damage} damage",
    ),
    "tb.log.penetration": (
        "{side}第{slot}格穿透：差值 {difference} − 伤害 {dealt}{mods} = {value}",
        "{side} slot {slot} penetrates: difference {difference} − damage {dealt}{mods} = {value}",
    ),
    "tb.log.penetration_empty": (
        "{side}第{slot}格面对空格，穿透 {value}{mods}（TB-23）",
        "{side} slot {slot} faces an empty slot: penetration {value}{mods} (TB-23)",
    ),
    "tb.log.no_damage": (
        "{side}第{slot}格未造成伤害：{reason}",
        "{side} slot {slot} dealt no damage: {reason}",
    ),
    "tb.log.annihilated": ("{side}第{slot}格全灭（TB-53）", "{side} slot {slot} wiped out (TB-53)"),
    "tb.reason.own_retreat": ("己方撤退（TB-42）", "own retreat (TB-42)"),
    "tb.reason.facing_retreat": ("对方撤退（TB-42）", "the opponent retreated (TB-42)"),
    "tb.reason.own_feigned_defeat": ("己方诈败（TB-48）", "own feigned defeat (TB-48)"),
    "tb.reason.facing_feigned_defeat": ("对方诈败（TB-48）", "the opponent feigned defeat (TB-48)"),
    "tb.reason.no_target": ("对面没有部队", "no unit opposite"),
    "tb.reason.no_unit": ("本格没有部队", "no unit here"),
    "tb.mod.pursuit": ("追杀×2", "pursuit ×2"),
    "tb.mod.blood_battle_dealer": ("血战×2", "blood battle ×2"),
    "tb.mod.blood_battle_receiver": ("对方血战×2", "opponent's blood battle ×2"),
    "tb.mod.blood_battle": ("血战×2", "blood battle ×2"),
    "tb.mod.stand_firm": ("坚守减半", "stand firm ½"),
    "tb.mod.hold": ("死守减半", "hold ½"),
    "tb.mod.cap": ("以剩余兵力{value}为上限", "capped at {value} left"),
    "tb.mods": ("（{mods}）→ {value}", " ({mods}) → {value}"),
    "tb.director.morale": (
        "导演将{side}士气由 {before} 调整为 {after}。",
        "The director set {side}'s morale from {before} to {after}.",
    ),
    "tb.director.troops": (
        "导演将{side}第{slot}格兵力由 {before} 调整为 {after}。",
        "The director set {side} slot {slot} from {before} to {after} troops.",
    ),
    "tb.result.winner": ("{side}获胜！", "{side} wins!"),
    "tb.result.draw": ("平局。", "A draw."),
    "tb.reason.morale": ("对方士气归零（TB-60）", "the opponent's morale reached 0 (TB-60)"),
    "tb.reason.troops": ("对方兵力耗尽（TB-60）", "the opponent ran out of troops (TB-60)"),
    "tb.reason.morale_before_troops": (
        "双方同时落败，对方士气先归零（TB-60）",
        "both lost at once; the opponent's morale reached 0 (TB-60)",
    ),
    "tb.reason.lower_morale": (
        "双方同时落败，对方士气更低（TB-60）",
        "both lost at once; the opponent's morale was lower (TB-60)",
    ),
    "tb.reason.more_troops": (
        "士气相同，剩余兵力更多（TB-60）",
        "equal morale, more troops left (TB-60)",
    ),
    "tb.reason.exact_tie": ("双方士气完全相同（TB-60）", "exactly equal morale (TB-60)"),
    "tb.reason.no_deployment": ("未按时部署（TB-10）", "no deployment in time (TB-10)"),
    "tb.final": (
        "第{round}回合结束。士气：甲方 {ma}，乙方 {mb}；兵力：甲方 {ta}，乙方 {tb}。",
        "After round {round}. Morale: Side A {ma}, Side B {mb}; troops: Side A {ta}, Side B {tb}.",
    ),
    "tb.head.all_orders": ("【全部指令公开】", "Every order, revealed"),
    "tb.status.resolved": ("执行", "executed"),
    "tb.status.void": ("作废", "void"),
    "tb.status.nullified": ("被识破", "seen through"),
    "tb.status.pending": ("未结算", "not resolved"),
    # --- island ----------------------------------------------------------------------------
    "is.start.intro": (
        "《另一面》开始！第1天（{date}）。以下是玩家名单、本局设置与随机种子承诺。",
        "The Other Side begins: day 1 ({date}). The players, this game's settings and the "
        "seed commitment.",
    ),
    "is.set.map": ("地图", "Map"),
    "is.set.map_value": ("{w}×{h} 格", "{w}×{h} cells"),
    "is.set.timezone": ("时区", "Time zone"),
    "is.set.stamina": ("每日体力", "Stamina per day"),
    "is.set.power": ("初始力量", "Starting power"),
    "is.set.food": ("初始食物 / 每日消耗", "Starting food / eaten per day"),
    "is.set.pk_window": ("PK 时段", "PK window"),
    "is.set.pk_wait": ("PK 响应时间", "PK response window"),
    "is.set.minutes_range": ("{lo}–{hi}分钟", "{lo}–{hi} min"),
    "is.set.deep_night": ("深夜", "Deep night"),
    "is.set.window": ("{start}–24:00", "{start}–24:00"),
    "is.set.daily": ("每日结算", "Daily resolution"),
    "is.set.midnight": ("24:00（暗杀、守卫、饥饿）", "24:00 (assassinations, guards, hunger)"),
    "is.report.intro": (
        "第{day}天（{date}）24:00 结算完毕。",
        "Day {day} ({date}) was resolved at 24:00.",
    ),
    "is.head.deaths": ("【死亡】", "Deaths"),
    "is.deaths.none": ("今夜无人死亡。", "Nobody died tonight."),
    "is.head.alive": ("【存活（{n}人）】", "Alive ({n})"),
    "is.report.next": (
        "第{day}天开始；下次结算：{when}。",
        "Day {day} begins; next resolution: {when}.",
    ),
    "is.pk.head": ("【PK {challenge}】", "PK {challenge}"),
    "is.pk.attack": ("攻方", "Attackers"),
    "is.pk.defend": ("守方", "Defenders"),
    "is.pk.col.side": ("方", "Side"),
    "is.pk.col.members": ("成员", "Members"),
    "is.pk.col.strength": ("力量合计", "Strength"),
    "is.pk.winner": ("{side}获胜（IS-60）。", "The {side} win (IS-60)."),
    "is.pk.by_default": (
        "{side}不战而胜：对方无人应战。",
        "The {side} win by default: nobody is left opposite.",
    ),
    "is.pk.no_winner": ("双方都无人，PK 作废。", "Nobody is left on either side: no result."),
    "is.pk.fled": ("逃离：{names}", "Fled: {names}"),
    "is.loss.lost": ("{name}：失去力量", "{name}: loses power"),
    "is.loss.fled": (
        "{name}：败后逃跑，力量未失（IS-13）",
        "{name}: fled after losing, power kept (IS-13)",
    ),
    "is.loss.died": ("{name}：阵亡", "{name}: died"),
    "is.head.losses": ("【败方】", "The losing side"),
    "is.notice.pk_posted": (
        "{attackers} 向 {defenders} 发起 PK（{challenge}），{when} 结算，期间可加入任一方。",
        "{attackers} challenged {defenders} (PK {challenge}); it resolves at {when} and "
        "anyone may join either side until then.",
    ),
    "is.notice.pk_joined": (
        "{name} 加入 PK {challenge} 的{side}。",
        "{name} joined PK {challenge} with the {side}.",
    ),
    "is.notice.pk_fled": ("{name} 逃离了 PK {challenge}。", "{name} fled PK {challenge}."),
    "is.notice.death": ("{name} 死亡。", "{name} died."),
    "is.notice.announcement": ("导演公告（第{day}天）：", "The director announces (day {day}):"),
    "is.result.survivors": ("幸存者：{names}", "Survivors: {names}"),
    "is.result.nobody": ("无人幸存。", "Nobody survived."),
    "is.result.by_director": ("导演宣布游戏结束。", "The director ended the game."),
    "is.result.end": ("游戏结束。", "The game is over."),
    # --- service notices ------------------------------------------------------------------
    "notice.paused": (
        "导演暂停了游戏，所有计时停止。",
        "The director paused the game: every clock stops.",
    ),
    "notice.resumed": ("游戏恢复。", "The game resumes."),
    "notice.deadline_extended": ("截止时间延长至 {when}。", "The deadline is extended to {when}."),
    "notice.new_deadline": ("当前截止时间：{when}。", "Current deadline: {when}."),
    # --- receipts ---------------------------------------------------------------------------
    "rc.sealed.tb": (
        "{phase}已截止：各方此时的暗令已封存为回执。",
        "The {phase} has closed: each side's hidden orders are sealed into a receipt.",
    ),
    "rc.sealed.island": (
        "第{day}天 24:00：每位存活玩家当日的暗杀与守卫指令已封存为回执。",
        "Day {day}, 24:00: each living player's assassinations and guards are sealed into a receipt.",
    ),
    "rc.sealed.note": (
        "每一方都有回执（无论有没有下令），回执本身不透露任何内容。你下令时收到的回执应与此一致。",
        "Every owner gets one, orders or none, so a receipt tells nothing. It must match the "
        "receipt you got when you last ordered.",
    ),
    "rc.opened.revealed": (
        "这些指令已公开，公布盐值：任何人都可以核对执行的正是截止前封存的指令。",
        "These orders are revealed, so their salts are published: anyone can check that what "
        "was executed is what was sealed before the deadline.",
    ),
    "rc.opened.end": (
        "游戏结束，公布全部回执的盐值与指令：任何人都可以核对执行的正是截止前封存的指令。",
        "The game is over: every receipt's salt and orders are published, so anyone can check "
        "that what was executed is what was sealed before the deadline.",
    ),
    "rc.opened.item": ("{label} · {owner}", "{label} · {owner}"),
    "rc.salt": ("盐：{salt}", "salt: {salt}"),
    "rc.orders": ("指令：", "orders:"),
    "rc.receipt": ("回执：{receipt}", "receipt: {receipt}"),
    "rc.how": (
        '核对方法：回执 = SHA-256(盐 + ":" + 指令)，例如：',
        'To check: receipt = SHA-256(salt + ":" + orders), e.g.:',
    ),
    "rc.label.tb": ("第{round}回合·{phase}", "round {round} · {phase}"),
    "rc.label.deployment": ("部署阶段", "deployment"),
    "rc.label.island": ("第{day}天", "day {day}"),
    # --- reminders and tallies ----------------------------------------------------------------
    "reminder.line": (
        "距离截止（{when}）不远了，以下玩家尚未下令或就绪：",
        "The deadline ({when}) is near; these players have not ordered or readied yet:",
    ),
    "reminder.nobody": ("所有玩家都已就绪。", "Everyone is ready."),
    "tally.intro": (
        "当前下令与就绪情况（只统计是否下令，不含内容）：",
        "Who has ordered and readied (never what):",
    ),
    "tally.deadline": ("截止时间：{when}", "Deadline: {when}"),
}


def phrase(key: str, language: str) -> str:
    zh, en = PHRASES[key]
    return en if language == "en" else zh

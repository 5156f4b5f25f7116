"""The words of this game's posts: ``post.<...>`` (zh, en).

Phrases are ``str.format`` patterns of trusted, markup-free text, as the shell's generic post
phrases are: no ``#``, ``>``, ``-``, ``1.`` at the start of a line, no ``*``, ``_``, ``[``; the
post builders escape what fills their fields. Orders and phases are named by ``order.*`` and
``phase.*`` (names.py), shared with the pages; ``post.phase.*`` is a phase inside a sentence.
"""

from __future__ import annotations

POSTS: dict[str, tuple[str, str]] = {
    "post.title.phase_opened": ("【{phase}】{title}", "[{phase}] {title}"),
    "post.title.deployments_revealed": ("【部署公开】{title}", "[Deployments] {title}"),
    "post.title.round_result": ("【第{round}回合·战果】{title}", "[Round {round} result] {title}"),
    "post.side.A": ("甲方", "Side A"),
    "post.side.B": ("乙方", "Side B"),
    "post.early_close": (
        "双方全部就绪时提前结算。",
        "It closes early once every side is ready.",
    ),
    # Phases as a sentence names them (the pages' phase.<phase> are title-cased).
    "post.phase.setup": ("准备阶段", "setup"),
    "post.phase.deployment": ("部署阶段", "deployment phase"),
    "post.phase.command": ("统御阶段", "command phase"),
    "post.phase.battle": ("战斗阶段", "battle phase"),
    "post.phase.response": ("响应阶段", "response window"),
    "post.phase.finished": ("游戏结束", "end of the game"),
    "post.start.intro": (
        "团战开始！以下是双方阵容、本局设置与随机种子承诺。",
        "The team battle begins: the sides, this game's settings and the seed commitment.",
    ),
    "post.set.slots": ("格数", "Slots"),
    "post.set.troops": ("兵力", "Troops"),
    "post.set.max_morale": ("最大士气", "Maximum morale"),
    "post.set.per_side": ("甲方 {a} / 乙方 {b}", "Side A {a} / Side B {b}"),
    "post.set.phase_time": ("{phase}时限", "{phase} time"),
    "post.set.unlimited": ("不限（导演结束）", "none (the director closes it)"),
    "post.set.early_close": ("全员就绪提前结算", "Early close when all ready"),
    "post.set.dice": ("骰子", "Dice"),
    "post.dice.random": ("随机", "random"),
    "post.dice.low": ("取下限", "lower bound"),
    "post.dice.high": ("取上限", "upper bound"),
    "post.set.missing": ("未部署时", "Missing deployment"),
    "post.missing.even": ("平均分配", "spread evenly"),
    "post.missing.forfeit": ("判负", "forfeit"),
    "post.set.orders": ("启用指令", "Orders enabled"),
    "post.orders.all": ("全部", "all"),
    "post.opened.deployment": (
        "部署阶段开始：双方秘密部署兵力，截止后同时公开。",
        "Deployment: both sides deploy in secret; both are revealed when it closes.",
    ),
    "post.opened.command": (
        "统御阶段开始：可下达调度、激励等统御指令。",
        "Command phase: dispatch, inspire and the other command orders.",
    ),
    "post.opened.battle": (
        "战斗阶段开始：可下达战斗指令。",
        "Battle phase: battle orders may be given.",
    ),
    "post.opened.response": (
        "响应阶段开始（TB-5a）：仅下列一方可以响应。",
        "Response window (TB-5a): only the sides below may respond.",
    ),
    "post.entitled.pursuit": ("{side}可追杀", "{side} may pursue"),
    "post.entitled.retreat": (
        "{side}可对第{slots}格额外撤退",
        "{side} may retreat slot(s) {slots}",
    ),
    "post.director_closed": (
        "导演提前结束了{phase}。",
        "The director closed the {phase} early.",
    ),
    "post.head.announced": ("【{phase}公开指令】", "Public orders of the {phase}"),
    "post.announced.none": ("双方均无公开指令。", "No public orders."),
    "post.announced.order": ("{side}：{order}", "{side}: {order}"),
    "post.head.dispatched": ("【调度结果】", "Dispatches"),
    "post.dispatched": ("{side}：{before} → {after}", "{side}: {before} → {after}"),
    "post.head.seen_through": ("【识破】", "See Through"),
    "post.seen_through": (
        "{side}识破了对方的{order}，该指令本回合无效（TB-52a）。",
        "{side} saw through the opponent's {order}: it has no effect this round (TB-52a).",
    ),
    "post.move": ("第{src}格→第{dst}格 {n}人", "slot {src} → slot {dst}, {n}"),
    "post.slot_order": ("{order}（第{slot}格）", "{order} (slot {slot})"),
    "post.gather_order": (
        "{order}（第{slot}格，左{left} 右{right}）",
        "{order} (slot {slot}, left {left}, right {right})",
    ),
    "post.all": ("全部", "all"),
    "post.scout_order": ("{order}（对方第{slot}格）", "{order} (enemy slot {slot})"),
    "post.see_order": ("{order}（{target}）", "{order} ({target})"),
    "post.deployed.intro": (
        "双方部署同时公开如下。",
        "Both sides' deployments, revealed together.",
    ),
    "post.deployed.default": (
        "{side}未在截止前部署，按规则{rule}（TB-10）。",
        "{side} did not deploy in time: {rule} (TB-10).",
    ),
    "post.head.troops": ("【各格兵力】", "Troops per slot"),
    "post.col.before_after": ("{side}兵力", "{side}"),
    "post.col.damage": ("受伤 甲/乙", "Dmg A/B"),
    "post.col.penetration": ("穿透 甲/乙", "Pen. A/B"),
    "post.troops_change": ("{before}→{after}", "{before}→{after}"),
    "post.annihilated_mark": ("{n}（全灭）", "{n} (wiped out)"),
    "post.totals": (
        "总兵力：甲方 {a_before}→{a_after}，乙方 {b_before}→{b_after}",
        "Total troops: Side A {a_before}→{a_after}, Side B {b_before}→{b_after}",
    ),
    "post.head.morale": ("【士气】", "Morale"),
    "post.morale": (
        "{side}：{before} → {after}（{delta}）",
        "{side}: {before} → {after} ({delta})",
    ),
    "post.morale.same": ("{side}：{value}（不变）", "{side}: {value} (unchanged)"),
    "post.why.penetration": ("受穿透 −{n}", "penetration −{n}"),
    "post.why.annihilated_enemy": ("歼灭敌军{n}队 +{v}", "{n} enemy unit(s) wiped out +{v}"),
    "post.why.own_annihilated": ("己方被歼{n}队 −{v}", "{n} own unit(s) wiped out −{v}"),
    "post.why.capped": ("以最大士气为上限（TB-5）", "capped at maximum morale (TB-5)"),
    "post.head.penetration": ("【穿透】", "Penetration"),
    "post.penetration_total": (
        "{side}：穿透合计 {sum} × {units}个单位 = {total}（TB-24）",
        "{side}: penetration {sum} × {units} unit(s) = {total} (TB-24)",
    ),
    "post.head.revealed": ("【生效的暗令】", "Hidden orders that took effect"),
    "post.revealed": (
        "{side}：{order}（第{slot}格，{rule}）",
        "{side}: {order} (slot {slot}, {rule})",
    ),
    "post.head.log": ("【结算明细】", "How it was resolved"),
    "post.log.gather": (
        "{side}第{slot}格{order}：左侧调入{left}，右侧调入{right}",
        "{side} slot {slot} {order}: {left} in from the left, {right} from the right",
    ),
    "post.log.first_strike": (
        "{side}第{slot}格先攻：区间 {lo}–{hi}，掷出 {roll}{mods}，造成 {damage} 伤害",
        "{side} slot {slot} first strike: band {lo}–{hi}, rolled {roll}{mods}, {damage} damage",
    ),
    "post.log.damage": (
        "{side}第{slot}格（判定兵力 {mine} 对 {theirs}，{case}）：区间 {lo}–{hi}，掷出 {roll}{mods}，造成 {damage} 伤害",
        "{side} slot {slot} ({mine} vs {theirs}, {case}): band {lo}–{hi}, rolled {roll}{mods}, {damage} damage",
    ),
    "post.case.higher": ("兵力较多 TB-20", "more troops TB-20"),
    "post.case.double": ("两倍以上 TB-21", "double or more TB-21"),
    "post.case.equal": ("兵力相等 TB-22", "equal troops TB-22"),
    "post.log.counter": (
        "{side}第{slot}格反击：区间 {lo}–{hi}，掷出 {roll}{mods}，造成 {damage} 伤害",
        "{side} slot {slot} counter: band {lo}–{hi}, rolled {roll}{mods}, {damage} damage",
    ),
    "post.log.penetration": (
        "{side}第{slot}格穿透：差值 {difference} − 伤害 {dealt}{mods} = {value}",
        "{side} slot {slot} penetrates: difference {difference} − damage {dealt}{mods} = {value}",
    ),
    "post.log.penetration_empty": (
        "{side}第{slot}格面对空格，穿透 {value}{mods}（TB-23）",
        "{side} slot {slot} faces an empty slot: penetration {value}{mods} (TB-23)",
    ),
    "post.log.no_damage": (
        "{side}第{slot}格未造成伤害：{reason}",
        "{side} slot {slot} dealt no damage: {reason}",
    ),
    "post.log.annihilated": (
        "{side}第{slot}格全灭（TB-53）",
        "{side} slot {slot} wiped out (TB-53)",
    ),
    "post.reason.own_retreat": ("己方撤退（TB-42）", "own retreat (TB-42)"),
    "post.reason.facing_retreat": ("对方撤退（TB-42）", "the opponent retreated (TB-42)"),
    "post.reason.own_feigned_defeat": ("己方诈败（TB-48）", "own feigned defeat (TB-48)"),
    "post.reason.facing_feigned_defeat": (
        "对方诈败（TB-48）",
        "the opponent feigned defeat (TB-48)",
    ),
    "post.reason.no_target": ("对面没有部队", "no unit opposite"),
    "post.reason.no_unit": ("本格没有部队", "no unit here"),
    "post.mod.pursuit": ("追杀×2", "pursuit ×2"),
    "post.mod.blood_battle_dealer": ("血战×2", "blood battle ×2"),
    "post.mod.blood_battle_receiver": ("对方血战×2", "opponent's blood battle ×2"),
    "post.mod.blood_battle": ("血战×2", "blood battle ×2"),
    "post.mod.stand_firm": ("坚守减半", "stand firm ½"),
    "post.mod.hold": ("死守减半", "hold ½"),
    "post.mod.cap": ("以剩余兵力{value}为上限", "capped at {value} left"),
    "post.mods": ("（{mods}）→ {value}", " ({mods}) → {value}"),
    "post.director.morale": (
        "导演将{side}士气由 {before} 调整为 {after}。",
        "The director set {side}'s morale from {before} to {after}.",
    ),
    "post.director.troops": (
        "导演将{side}第{slot}格兵力由 {before} 调整为 {after}。",
        "The director set {side} slot {slot} from {before} to {after} troops.",
    ),
    "post.result.winner": ("{side}获胜！", "{side} wins!"),
    "post.result.draw": ("平局。", "A draw."),
    "post.reason.morale": ("对方士气归零（TB-60）", "the opponent's morale reached 0 (TB-60)"),
    "post.reason.troops": ("对方兵力耗尽（TB-60）", "the opponent ran out of troops (TB-60)"),
    "post.reason.morale_before_troops": (
        "双方同时落败，对方士气先归零（TB-60）",
        "both lost at once; the opponent's morale reached 0 (TB-60)",
    ),
    "post.reason.lower_morale": (
        "双方同时落败，对方士气更低（TB-60）",
        "both lost at once; the opponent's morale was lower (TB-60)",
    ),
    "post.reason.more_troops": (
        "士气相同，剩余兵力更多（TB-60）",
        "equal morale, more troops left (TB-60)",
    ),
    "post.reason.exact_tie": ("双方士气完全相同（TB-60）", "exactly equal morale (TB-60)"),
    "post.reason.no_deployment": ("未按时部署（TB-10）", "no deployment in time (TB-10)"),
    "post.final": (
        "第{round}回合结束。士气：甲方 {ma}，乙方 {mb}；兵力：甲方 {ta}，乙方 {tb}。",
        "After round {round}. Morale: Side A {ma}, Side B {mb}; troops: Side A {ta}, Side B {tb}.",
    ),
    "post.head.all_orders": ("【全部指令公开】", "Every order, revealed"),
    "post.status.resolved": ("执行", "executed"),
    "post.status.void": ("作废", "void"),
    "post.status.nullified": ("被识破", "seen through"),
    "post.status.pending": ("未结算", "not resolved"),
    # Receipts: what a close is called, and the line its receipts open with.
    "post.receipt.sealed": (
        "{phase}已截止：各方此时的暗令已封存为回执。",
        "The {phase} has closed: each side's hidden orders are sealed into a receipt.",
    ),
    "post.receipt.label": ("第{round}回合·{phase}", "round {round} · {phase}"),
    "post.receipt.deployment": ("部署阶段", "deployment"),
}

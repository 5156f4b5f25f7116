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
    # Orders as the pages and the grammar name them where they differ from order.* names.
    "post.order.dispatch": ("调兵", "Dispatch"),
    "post.side_short.A": ("甲", "A"),
    "post.side_short.B": ("乙", "B"),
    "post.slot_line": ("{slot}号位：甲 {a}｜乙 {b}{notes}", "Slot {slot}: A {a} · B {b}{notes}"),
    "post.slot_notes": ("（{notes}）", " ({notes})"),
    "post.note.lost": ("{side}损{n}", "{side} lost {n}"),
    "post.note.pen": ("{side}穿透{n}", "{side} penetrates {n}"),
    "post.moved_out": ("{n}（调出{moved}）", "{n} (moved out {moved})"),
    "post.moved_in": ("{n}（调入{moved}）", "{n} (moved in {moved})"),
    # The round's headline: its story in one line.
    "post.story.round": ("第{round}回合：{story}", "Round {round}: {story}"),
    "post.story.wiped": ("{side}{slots}号位全灭", "{side} slot {slots} wiped out"),
    "post.story.morale_broken": ("{side}士气跌破0", "{side}'s morale falls below 0"),
    "post.story.morale_zero": ("{side}士气归零", "{side}'s morale reaches 0"),
    "post.story.losses": ("甲方损失{a}人，乙方损失{b}人", "Side A loses {a}, Side B loses {b}"),
    "post.story.quiet": ("双方均无损失", "no losses on either side"),
    "post.story.winner": ("{story}——{side}获胜！", "{story} — {side} wins!"),
    "post.story.draw": ("{story}——平局。", "{story} — a draw."),
    "post.story.sep": ("，", ", "),
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
    "post.set.line": ("{label}：{value}", "{label}: {value}"),
    "post.set.slots": ("号位数", "Slots"),
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
        "统御阶段开始：可下达调兵、激励等统御指令。",
        "Command phase: dispatch, inspire and the other command orders.",
    ),
    "post.opened.battle": (
        "战斗阶段开始：可下达战斗指令。",
        "Battle phase: battle orders may be given.",
    ),
    "post.opened.response": (
        "响应阶段开始：只有下面列出的一方可以响应，其余指令已截止。",
        "Response window: only the side(s) below may respond; every other order is closed.",
    ),
    "post.entitled.pursuit": (
        "{side}可对{slots}号位下令追杀（对方在此公开撤退）——前提是{side}本回合没有下过战斗阶段指令，否则会被拒绝",
        "{side} may order a Pursuit at slot {slots} (the opponent announced a Retreat there), "
        "provided {side} gave no battle-phase order this round; otherwise it is refused",
    ),
    "post.entitled.retreat": (
        "{side}可对{slots}号位追加撤退（对方向此处聚集）",
        "{side} may add a Retreat at slot {slots} (the opponent gathers there)",
    ),
    "post.director_closed": (
        "导演提前结束了{phase}。",
        "The director closed the {phase} early.",
    ),
    "post.head.announced": ("【{phase}公开指令】", "Public orders of the {phase}"),
    "post.announced.none": ("双方均无公开指令。", "No public orders."),
    "post.announced.order": ("{side}：{order}", "{side}: {order}"),
    "post.head.dispatched": ("【调兵结果】", "Dispatches"),
    "post.dispatched": ("{side}：{changes}", "{side}: {changes}"),
    "post.dispatched.slot": ("{slot}号位 {before}→{after}", "slot {slot} {before}→{after}"),
    "post.head.seen_through": ("【识破】", "See Through"),
    "post.seen_through": (
        "{side}识破了对方的{order}，该指令本回合无效。",
        "{side} saw through the opponent's {order}: it has no effect this round.",
    ),
    "post.move": ("{src}号位→{dst}号位 {n}人", "slot {src} → slot {dst}, {n} troops"),
    "post.slot_order": ("{order} {slot}号位", "{order} slot {slot}"),
    "post.gather_order": (
        "{order} {slot}号位（左侧调{left}，右侧调{right}）",
        "{order} slot {slot} ({left} from the left, {right} from the right)",
    ),
    "post.all": ("全部", "all"),
    "post.scout_order": ("{order} 敌方{slot}号位", "{order} enemy slot {slot}"),
    "post.see_order": ("{order} {target}", "{order} {target}"),
    "post.deployed.intro": (
        "双方部署同时公开如下。",
        "Both sides' deployments, revealed together.",
    ),
    "post.deployed.slot": ("{slot}号位：甲 {a}｜乙 {b}", "Slot {slot}: A {a} · B {b}"),
    "post.deployed.total": ("合计：甲方 {a}，乙方 {b}", "In all: Side A {a}, Side B {b}"),
    "post.deployed.default": (
        "{side}未在截止前部署，按规则{rule}。",
        "{side} did not deploy in time: {rule}.",
    ),
    "post.head.troops": ("【各号位兵力】", "Troops per slot"),
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
    "post.why.capped": ("已达士气上限", "capped at maximum morale"),
    "post.head.penetration": ("【穿透】", "Penetration"),
    "post.penetration_total": (
        "{side}：穿透合计 {sum} × {units}个单位 = {total}",
        "{side}: penetration {sum} × {units} unit(s) = {total}",
    ),
    "post.head.revealed": ("【生效的暗令】", "Hidden orders that took effect"),
    "post.revealed": (
        "{side}：{order} {slot}号位",
        "{side}: {order} slot {slot}",
    ),
    "post.head.log": ("【结算明细】", "How it was resolved"),
    "post.log.gather": (
        "{side}{slot}号位{order}：左侧调入{left}人，右侧调入{right}人",
        "{side} slot {slot} {order}: {left} in from the left, {right} from the right",
    ),
    "post.log.first_strike": (
        "{side}{slot}号位先攻：区间 {lo}–{hi}，掷出 {roll}{mods}，敌损 {damage}",
        "{side} slot {slot} first strike: band {lo}–{hi}, rolled {roll}{mods}, enemy loses {damage}",
    ),
    "post.log.damage": (
        "{side}{slot}号位（{mine} 对 {theirs}，{case}）：区间 {lo}–{hi}，掷出 {roll}{mods}，敌损 {damage}",
        "{side} slot {slot} ({mine} vs {theirs}, {case}): band {lo}–{hi}, rolled {roll}{mods}, enemy loses {damage}",
    ),
    "post.case.higher": ("兵力较多", "more troops"),
    "post.case.double": ("两倍以上", "double or more"),
    "post.case.equal": ("兵力相等", "equal troops"),
    "post.log.counter": (
        "{side}{slot}号位反击：区间 {lo}–{hi}，掷出 {roll}{mods}，敌损 {damage}",
        "{side} slot {slot} counter: band {lo}–{hi}, rolled {roll}{mods}, enemy loses {damage}",
    ),
    "post.log.penetration": (
        "{side}{slot}号位穿透：差值 {difference} − 敌损 {dealt}{mods} = {value}",
        "{side} slot {slot} penetrates: difference {difference} − enemy losses {dealt}{mods} = {value}",
    ),
    "post.log.penetration_empty": (
        "{side}{slot}号位对面无兵，穿透 {value}{mods}",
        "{side} slot {slot} faces no one: penetration {value}{mods}",
    ),
    "post.log.no_damage": (
        "{side}{slot}号位未造成损失：{reason}",
        "{side} slot {slot} inflicted no losses: {reason}",
    ),
    "post.log.annihilated": (
        "{side}{slot}号位全灭",
        "{side} slot {slot} wiped out",
    ),
    "post.reason.own_retreat": ("己方撤退", "own retreat"),
    "post.reason.facing_retreat": ("对方撤退", "the opponent retreated"),
    "post.reason.own_feigned_defeat": ("己方诈败", "own feigned defeat"),
    "post.reason.facing_feigned_defeat": (
        "对方诈败",
        "the opponent feigned defeat",
    ),
    "post.reason.no_target": ("对面没有部队", "no unit opposite"),
    "post.reason.no_unit": ("本号位没有部队", "no unit here"),
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
        "导演将{side}{slot}号位兵力由 {before} 调整为 {after}。",
        "The director set {side} slot {slot} from {before} to {after} troops.",
    ),
    "post.result.winner": ("{side}获胜！", "{side} wins!"),
    "post.result.draw": ("平局。", "A draw."),
    "post.reason.morale": ("对方士气耗尽。", "The opponent's morale ran out."),
    "post.reason.troops": ("对方兵力耗尽。", "The opponent ran out of troops."),
    "post.reason.morale_before_troops": (
        "双方同时落败，对方士气先归零。",
        "Both lost at once; the opponent's morale reached 0.",
    ),
    "post.reason.lower_morale": (
        "双方同时落败，对方士气更低。",
        "Both lost at once; the opponent's morale was lower.",
    ),
    "post.reason.more_troops": (
        "士气相同，剩余兵力更多。",
        "Equal morale, more troops left.",
    ),
    "post.reason.both_out_of_troops": (
        "双方同时兵力耗尽。",
        "Both ran out of troops at once.",
    ),
    "post.reason.exact_tie": ("双方士气完全相同。", "Exactly equal morale."),
    "post.reason.no_deployment": ("未按时部署。", "No deployment in time."),
    "post.final": (
        "第{round}回合结束。士气：甲方 {ma}，乙方 {mb}；兵力：甲方 {ta}，乙方 {tb}。",
        "After round {round}. Morale: Side A {ma}, Side B {mb}; troops: Side A {ta}, Side B {tb}.",
    ),
    "post.head.all_orders": ("【全部指令公开】", "Every order, revealed"),
    "post.orders.intro": ("按回合与阶段，一条一行：", "By round and phase, one a line:"),
    "post.orders.at": ("第{round}回合·{phase}", "Round {round} · {phase}"),
    "post.orders.line": ("{side}：{order}", "{side}: {order}"),
    "post.orders.line_status": ("{side}：{order}（{status}）", "{side}: {order} ({status})"),
    "post.status.void": ("作废", "void"),
    "post.status.nullified": ("被识破", "seen through"),
    "post.status.pending": ("未结算", "not resolved"),
    # Receipts: what a close is called, and the line its receipts open with.
    "post.receipt.label": ("第{round}回合·{phase}", "Round {round} · {phase}"),
    "post.receipt.deployment": ("部署阶段", "Deployment"),
}

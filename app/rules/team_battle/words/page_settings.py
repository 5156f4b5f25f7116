"""The words of this game's settings and director tools on its pages (zh, en):
``setting.<field>`` its label, ``setting.<field>.help`` its help, ``setting.<field>.<choice>``
a choice's name; ``tool.<action>`` a director tool's name, ``tool.<action>.help`` its help.
"""

from __future__ import annotations

SETTINGS: dict[str, tuple[str, str]] = {
    "setting.slots.help": (
        "每方并排的格子数。",
        "How many slots stand side by side for each side.",
    ),
    "setting.troops.help": (
        "导演为每方设定的总兵力（甲方、乙方）。",
        "Each side's troop total, set by the director.",
    ),
    "setting.deployment_seconds.help": ("部署阶段的时长。", "How long the deployment phase lasts."),
    "setting.command_seconds.help": ("统御阶段的时长。", "How long the command phase lasts."),
    "setting.battle_seconds.help": ("战斗阶段的时长。", "How long the battle phase lasts."),
    "setting.response_seconds.help": (
        "战斗阶段之后响应阶段的时长。",
        "How long the response window after the battle phase lasts.",
    ),
    "setting.response_window.help": (
        "战斗阶段后开放响应阶段，可在其中下额外撤退（TB-41）和追杀（TB-45）；关闭则没有响应阶段，两者都不能下，回合立即结算。",
        "After the battle phase a response window opens for the extra Retreat (TB-41) and "
        "Pursuit (TB-45); when off there is none, so neither can be given and the round "
        "resolves at once.",
    ),
    "setting.early_close_when_ready.help": (
        "所有阵营都就绪后，阶段提前结束。",
        "A phase closes early once every side is ready.",
    ),
    "setting.enabled_orders.help": (
        "导演可增减指令；未启用的指令会被拒绝。",
        "The director may add or remove orders; an order not in play is refused.",
    ),
    "setting.commander_only.help": (
        "只有本方指定的指挥官（导演工具“指定指挥官”）可以提交、修改、撤回指令或就绪；未指定时任何成员都可以。",
        "Only the side's commander (set with the director tool) may submit, revise, withdraw "
        "or ready; without one, any member may.",
    ),
    "setting.missing_deployment.help": (
        "部署阶段结束时仍未部署的一方：兵力尽量平均分到各格（余数给靠左的格子），或直接判负（双方都未部署则平局）。规则未写明。",
        "A side that has not deployed when the phase closes: its troops are spread as evenly "
        "as possible (the left slots take the remainder), or it loses (both missing: a draw). "
        "The rules are silent.",
    ),
    "setting.dice.help": (
        "每个伤害区间取随机值，或固定取下限 / 上限（TB-20、TB-21、TB-22、TB-32、TB-49）。",
        "Every damage band gives a random roll, or always its lower / upper bound (TB-20, "
        "TB-21, TB-22, TB-32, TB-49).",
    ),
    "setting.double_band_lower_rounding.help": (
        "“半数至全数”区间的下限：半数向上取整或向下取整。",
        "The lower bound of the band d/2 – d: ⌈d/2⌉ (up) or ⌊d/2⌋ (down).",
    ),
    "setting.halving_rounding.help": (
        "坚守减半后的单位伤害如何取整。",
        "How a unit damage halved by Stand Firm is rounded.",
    ),
    "setting.hold_halves_exactly.help": (
        "死守减半后的穿透可以是小数（士气精确计算）；关闭则按“减半取整”取整。",
        "A penetration halved by Hold may be fractional (morale is exact); when off it is "
        "rounded as halving is.",
    ),
    "setting.whole_morale.help": (
        "关闭：士气精确计算，可有小数。开启：士气只取整数——最大士气 ⌊总兵力/2⌋，歼灭 ⌊最大士气/5⌋（TB-53），死守减半的穿透按“减半取整”（TB-27）。",
        "Off: morale is exact, fractions allowed. On: whole numbers only — max morale "
        "⌊total/2⌋, an annihilation ⌊max/5⌋ (TB-53), Hold's halved penetration rounded as "
        "halving is (TB-27).",
    ),
    "setting.quarter_band_rounding.help": (
        "“1 至兵力四分之一”区间的上限：兵力 ÷ 4 向下取整（至少为 1）或向上取整（另见 TB-32、TB-49）。",
        "The band 1 – troops/4 tops out at max(1, ⌊troops/4⌋) (down) or ⌈troops/4⌉ (up) "
        "(also TB-32, TB-49).",
    ),
    "setting.damage_overflow.help": (
        "超出对方单位剩余兵力的伤害：作废，或在穿透时（己方兵力不少于对方两倍）计入本单位的穿透（TB-23）。",
        "Damage beyond the lower unit's troops is lost, or added to the striking unit's "
        "penetration when it penetrates, h ≥ 2l (TB-23).",
    ),
    "setting.halve_before_doubling.help": (
        "坚守的 ½（TB-51）在追杀、血战的 ×2 之后（关闭）或之前（开启）计算；只影响奇数伤害。",
        "Stand Firm's ½ (TB-51) comes after Pursuit and Blood Battle ×2 (off) or before them "
        "(on); it matters for odd damage.",
    ),
    "setting.morale_cap.help": (
        "获得的士气（合计后）不超过最大士气。",
        "Morale gained is capped at maximum morale (after summing).",
    ),
    "setting.tier1_morale_thirds.help": (
        "一阶指令需要士气 ≥ 最大士气 × 此数 ÷ 3。",
        "Tier 1 orders need morale ≥ max morale × this ÷ 3.",
    ),
    "setting.tier2_morale_thirds.help": (
        "二阶指令需要士气 ≥ 最大士气 × 此数 ÷ 3。",
        "Tier 2 orders need morale ≥ max morale × this ÷ 3.",
    ),
    "setting.recheck_morale_at_close.help": (
        "士气门槛在提交时检查，阶段结束时再查一次（不满足的指令作废）。",
        "The morale gate is checked on submission and again at the close (failing orders are "
        "voided).",
    ),
    "setting.penetration_counts_positive_only.help": (
        "只有穿透大于 0 的单位计入倍数。",
        "A unit counts for the multiplier only if its penetration is above 0.",
    ),
    "setting.blood_battle_doubles_penetration.help": (
        "血战也使本单位的穿透伤害加倍。",
        "Blood Battle also doubles its unit's penetration damage.",
    ),
    "setting.extra_retreat_free.help": (
        "对抗聚集时获得的额外撤退不计入指令数，也不受士气门槛限制（关闭则适用一阶门槛）。",
        "The extra Retreat against a Gather is outside the order count and the morale gate "
        "(when off, the tier 1 gate applies).",
    ),
    "setting.pursuit_must_face_retreat.help": (
        "追杀的单位必须正对已公布的撤退（或伪装成撤退的诈败）。",
        "The pursuing unit must face an announced Retreat (or a Feigned Defeat shown as one).",
    ),
    "setting.first_strike_timing.help": (
        "先攻在聚集 / 奇兵的移动之后或之前生效；总在结算之前。",
        "First Strike is applied after or before the Gather / Surprise moves; always before "
        "resolution.",
    ),
    "setting.first_strike_annihilates.help": (
        "被先攻打空的单位算作被歼灭（TB-53）。",
        "A unit emptied by First Strike counts as annihilated (TB-53).",
    ),
    "setting.scout_locks_on_submit.help": (
        "侦察一提交即生效，此后不能再修改或撤回。",
        "Scout takes effect once submitted and can then no longer be revised or withdrawn.",
    ),
    "setting.draw_on_exact_tie.help": (
        "双方同时落败且士气完全相同时判平局；关闭则剩余兵力多的一方获胜（兵力也相同仍为平局）。",
        "Both sides lose with exactly equal morale: a draw; when off, the side with more "
        "troops left wins (equal troops: still a draw).",
    ),
    "setting.both_out_of_troops.help": (
        "双方同时兵力耗尽而都还有士气时：士气低者负（与双方士气同时归零时一样），或判平局。规则未写明。",
        "Both sides run out of troops at once with morale left: the lower morale loses (as "
        "when both reach 0 morale), or a draw. The rules are silent.",
    ),
    "setting.missing_deployment.even": ("平均分配兵力", "spread the troops evenly"),
    "setting.missing_deployment.forfeit": ("判负", "the side loses"),
    "setting.dice.random": ("随机", "random roll"),
    "setting.dice.low": ("总取下限", "always the lower bound"),
    "setting.dice.high": ("总取上限", "always the upper bound"),
    "setting.double_band_lower_rounding.up": ("向上取整", "round up"),
    "setting.double_band_lower_rounding.down": ("向下取整", "round down"),
    "setting.halving_rounding.up": ("向上取整", "round up"),
    "setting.halving_rounding.down": ("向下取整", "round down"),
    "setting.quarter_band_rounding.up": ("向上取整", "round up"),
    "setting.quarter_band_rounding.down": ("向下取整", "round down"),
    "setting.damage_overflow.lost": ("作废", "lost"),
    "setting.damage_overflow.penetration": ("计入穿透", "added to penetration"),
    "setting.first_strike_timing.after_moves": ("在移动之后", "after the moves"),
    "setting.first_strike_timing.before_moves": ("在移动之前", "before the moves"),
    "setting.both_out_of_troops.lower_morale_loses": ("士气低者负", "the lower morale loses"),
    "setting.both_out_of_troops.draw": ("平局", "a draw"),
    "tool.set_morale.help": (
        "设定一方的士气（最多一位小数）。",
        "Set a side's morale (one decimal place at most).",
    ),
    "tool.set_troops.help": (
        "部署公开后，设定一方某一格的兵力。",
        "Set the troops of one slot of a side, once deployments are revealed.",
    ),
    "tool.set_commander.help": (
        "指定一方的指挥官，或取消（选“无”）。",
        "Name the side's commander, or none.",
    ),
}

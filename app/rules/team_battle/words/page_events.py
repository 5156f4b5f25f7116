"""The feed's line for each of this game's events: ``event.<kind>`` (zh, en), ``str.format``
fields filled by the shell's feed (names, phases, orders already in words)."""

from __future__ import annotations

EVENTS: dict[str, tuple[str, str]] = {
    "line.side_ready": ("{side}已就绪。", "{side} is ready."),
    "line.deployment_revealed": (
        "双方部署公开：{side_A} {A}；{side_B} {B}。{defaulted}",
        "Deployments revealed: {side_A} {A}; {side_B} {B}.{defaulted}",
    ),
    "line.orders_announced": ("公开指令：{orders}。", "Orders announced: {orders}."),
    "line.orders_announced_none": ("{phase}没有公开指令。", "No public orders in the {phase}."),
    "line.troops_dispatched": (
        "{side}调度：{moves}。兵力 {before} → {after}。",
        "{side} dispatched: {moves}. Troops {before} → {after}.",
    ),
    "line.extra_use_granted": (
        "{side}下回合多一次{phase}指令。",
        "{side} gets one more {phase} order next round.",
    ),
    "line.order_seen_through": ("{side}识破了{order}。", "{side} saw through {order}."),
    "line.orders_nullified": (
        "{side}的{orders}被识破，没有效果。",
        "{side}'s {orders} was seen through: no effect.",
    ),
    "line.resolution_started": (
        "第 {round} 回合战斗结算开始。",
        "Round {round}: resolution begins.",
    ),
    "line.damage": (
        "{side}第{slot}格造成 {damage} 点伤害。",
        "{side} slot {slot} dealt {damage} damage.",
    ),
    "line.counter": (
        "{side}第{slot}格反击造成 {damage} 点伤害。",
        "{side} slot {slot} countered for {damage}.",
    ),
    "line.first_strike": (
        "{side}第{slot}格先攻造成 {damage} 点伤害。",
        "{side} slot {slot} struck first for {damage}.",
    ),
    "line.penetration": (
        "{side}第{slot}格穿透 {penetration}。",
        "{side} slot {slot} penetrated for {penetration}.",
    ),
    "line.penetration_total": ("{side}穿透合计 {total}。", "{side} penetration in all: {total}."),
    "line.troops_gathered": (
        "{side}聚集到第{slot}格（左邻调入 {from_left}，右邻调入 {from_right}）。",
        "{side} gathered into slot {slot} ({from_left} from the left, {from_right} from the right).",
    ),
    "line.no_damage": ("{side}第{slot}格未造成伤害。", "{side} slot {slot} dealt no damage."),
    "line.annihilated": ("{side}第{slot}格全灭。", "{side} slot {slot} was annihilated."),
    "line.morale_changed": (
        "{side}士气 {before} → {after}。",
        "{side} morale {before} → {after}.",
    ),
    "line.round_resolved": (
        "第 {round} 回合结束：士气 {side_A} {mA} / {side_B} {mB}。",
        "Round {round} over: morale {side_A} {mA} / {side_B} {mB}.",
    ),
    "line.order_revealed": (
        "隐藏指令生效：{side}{order}（第{slot}格）。",
        "Hidden order took effect: {side} {order} (slot {slot}).",
    ),
    "line.orders_revealed": ("全部指令公开。", "All orders revealed."),
    "line.intel": (
        "情报：{side}{order}{detail}（{status}）。",
        "Intel: {side} {order}{detail} ({status}).",
    ),
    "line.intel_gone": (
        "情报：{side}撤回了被侦察到的指令。",
        "Intel: {side} withdrew the order that was seen.",
    ),
    "line.intel_plain": ("情报：{side}{order}{detail}。", "Intel: {side} {order}{detail}."),
    "line.disguised_order_announced": (
        "你的{order}被公布为{shown}。",
        "Your {order} was announced as {shown}.",
    ),
    "line.commander_set": ("{side}指挥官：{name}。", "{side}'s commander: {name}."),
    "line.director_set_morale": (
        "导演将{side}士气设为 {after}。",
        "The director set {side} morale to {after}.",
    ),
    "line.director_set_troops": (
        "导演将{side}第{slot}格兵力设为 {after}。",
        "The director set {side} slot {slot} to {after}.",
    ),
    "line.director_closed_phase": ("导演结束了当前阶段。", "The director closed the phase."),
    # the words of its feed lines: a deployment missed
    "page.missing_deployment.even": (
        "{sides}未按时部署，兵力已平均分配。",
        " {sides} did not deploy in time: troops spread evenly.",
    ),
    "page.missing_deployment.forfeit": (
        "{sides}未按时部署，判负。",
        " {sides} did not deploy in time and forfeits.",
    ),
}

"""Team Battle (团战) posts, built from public events only."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from markupsafe import Markup

from app.publish.context import Ctx, Section
from app.publish.formats import plain
from app.publish.groups import Group
from app.rules.team_battle.messages import PHASE_NAMES
from app.rules.team_battle.orders import ORDER_TYPES, ORDERS

SIDES = ("A", "B")
Built = tuple[str, list[Section]]


def phase_name(ctx: Ctx, phase: str) -> str:
    zh, en = PHASE_NAMES.get(phase, (phase, phase))
    return en if ctx.lang == "en" else zh


def order_name(ctx: Ctx, order_type: str) -> str:
    definition = ORDERS.get(order_type)
    if ctx.lang == "en" or definition is None:
        return order_type.replace("_", " ").capitalize()
    return definition.name_zh


def order_text(ctx: Ctx, order_type: str, body: dict[str, Any]) -> Markup:
    """An order with what it names: 调度（第3格→第2格 4人）, 反击（第2格）…"""
    name = order_name(ctx, order_type)
    target = ORDERS[order_type].target if order_type in ORDERS else "none"
    if target == "troops":
        return Markup(f"{name} ") + ctx.fmt.esc(" / ".join(str(n) for n in body.get("troops", [])))
    if target == "moves":
        moves = [ctx.t("tb.move", src=m["from"], dst=m["to"], n=m["troops"]) for m in body["moves"]]
        return ctx.fmt.esc(name) + Markup(" ") + ctx.join(moves)
    if target == "gather":
        all_ = ctx.t("tb.all")
        left = body.get("from_left")
        right = body.get("from_right")
        return ctx.t(
            "tb.gather_order",
            order=name,
            slot=body["slot"],
            left=all_ if left is None else left,
            right=all_ if right is None else right,
        )
    if target == "enemy_slot":
        return ctx.t("tb.scout_order", order=name, slot=body["slot"])
    if target in ("own_slot", "own_unit"):
        return ctx.t("tb.slot_order", order=name, slot=body["slot"])
    if target == "order_type":
        return ctx.t("tb.see_order", order=name, target=order_name(ctx, body["order_type"]))
    return ctx.fmt.esc(name)


def title_phase(ctx: Ctx, round_no: int, phase: str) -> str:
    if phase == "deployment":
        return phase_name(ctx, phase)
    if ctx.lang == "en":
        return f"Round {round_no} · {phase_name(ctx, phase)}"
    return f"第{round_no}回合·{phase_name(ctx, phase)}"


# ----- game_started ----------------------------------------------------------------------
def game_started(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    s = ctx.game.settings
    roster_rows = []
    for side in SIDES:
        members = [
            ctx.t("player_forum", name=p.name, forum=p.forum_name)
            if p.forum_name and p.forum_name != p.name
            else ctx.fmt.esc(p.name)
            for p in ctx.game.roster
            if p.side == side
        ]
        roster_rows.append([ctx.side(side), ctx.join(members) if members else ctx.t("none")])
    troops = s.get("troops", {"A": 0, "B": 0})
    per_side = ctx.t("tb.set.per_side", a=troops["A"], b=troops["B"])
    max_morale = ctx.t("tb.set.per_side", a=troops["A"] / 2, b=troops["B"] / 2)
    rows: list[list[Any]] = [
        [ctx.t("tb.set.slots"), s.get("slots")],
        [ctx.t("tb.set.troops"), per_side],
        [ctx.t("tb.set.max_morale"), max_morale],
    ]
    for phase in ("deployment", "command", "battle", "response"):
        seconds = s.get(f"{phase}_seconds")
        value = ctx.duration(seconds) if seconds else ctx.t("tb.set.unlimited")
        rows.append([ctx.t("tb.set.phase_time", phase=phase_name(ctx, phase)), value])
    early = ctx.t("yes" if s.get("early_close_when_ready", True) else "no")
    rows.append([ctx.t("tb.set.early_close"), early])
    rows.append([ctx.t("tb.set.dice"), ctx.t(f"tb.dice.{s.get('dice', 'random')}")])
    rows.append(
        [ctx.t("tb.set.missing"), ctx.t(f"tb.missing.{s.get('missing_deployment', 'even')}")]
    )
    enabled = s.get("enabled_orders", list(ORDER_TYPES))
    if set(enabled) >= set(ORDER_TYPES):
        shown = ctx.t("tb.orders.all")
    else:
        shown = ctx.join([order_name(ctx, o) for o in ORDER_TYPES if o in enabled])
    rows.append([ctx.t("tb.set.orders"), shown])
    sections = [
        Section(lines=[ctx.t("tb.start.intro")]),
        Section(
            title=ctx.t("head.roster"),
            table=([ctx.t("col.side"), ctx.t("col.players")], roster_rows),
        ),
        Section(
            title=ctx.t("head.settings"), table=([ctx.t("col.setting"), ctx.t("col.value")], rows)
        ),
        commitment_section(ctx),
    ]
    return ctx.raw("title.game_started", title=ctx.game.title), sections


def commitment_section(ctx: Ctx) -> Section:
    return Section(
        title=ctx.t("head.seed"),
        lines=[ctx.t("seed.commitment_intro")],
        code=ctx.game.seed_commitment,
        quote=[ctx.t("seed.commitment_note")],
    )


# ----- context: what closed before the headline ---------------------------------------------
def context_sections(ctx: Ctx, group: Group) -> list[Section]:
    out: list[Section] = []
    for closed in group.of("director_closed_phase"):
        out.append(
            Section(lines=[ctx.t("tb.director_closed", phase=phase_name(ctx, closed["phase"]))])
        )
    for announced in group.of("orders_announced"):
        lines = [
            ctx.t(
                "tb.announced.order",
                side=ctx.side(o["side"]),
                order=order_text(ctx, o["type"], o["body"]),
            )
            for o in announced["orders"]
        ]
        out.append(
            Section(
                title=ctx.t("tb.head.announced", phase=phase_name(ctx, announced["phase"])),
                items=lines,
                lines=[] if lines else [ctx.t("tb.announced.none")],
            )
        )
    dispatched = group.of("troops_dispatched")
    if dispatched:
        out.append(
            Section(
                title=ctx.t("tb.head.dispatched"),
                items=[
                    ctx.t(
                        "tb.dispatched",
                        side=ctx.side(d["side"]),
                        before=" ".join(str(n) for n in d["before"]),
                        after=" ".join(str(n) for n in d["after"]),
                    )
                    for d in dispatched
                ],
            )
        )
    seen = group.of("order_seen_through")
    if seen:
        out.append(
            Section(
                title=ctx.t("tb.head.seen_through"),
                items=[
                    ctx.t(
                        "tb.seen_through",
                        side=ctx.side(s["side"]),
                        order=order_name(ctx, s["order_type"]),
                    )
                    for s in seen
                ],
            )
        )
    return out


# ----- phase_opened -------------------------------------------------------------------------
def phase_opened(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    opened = group.first("phase_opened") or {}
    event = group.event("phase_opened")
    phase, round_no = opened.get("phase", ""), opened.get("round", 0)
    lines = [ctx.t(f"tb.opened.{phase}")]
    entitled = opened.get("entitled") or {}
    items = []
    for side in SIDES:
        rights = entitled.get(side) or {}
        if rights.get("pursuit"):
            items.append(ctx.t("tb.entitled.pursuit", side=ctx.side(side)))
        if rights.get("retreat_slots"):
            slots = ctx.join([str(n) for n in rights["retreat_slots"]])
            items.append(ctx.t("tb.entitled.retreat", side=ctx.side(side), slots=slots))
    lines.extend(deadline_lines(ctx, deadline, event.at if event else None))
    sections = [*context_sections(ctx, group), Section(lines=lines, items=items)]
    title = ctx.raw(
        "title.phase_opened", phase=title_phase(ctx, round_no, phase), title=ctx.game.title
    )
    return title, sections


def deadline_lines(ctx: Ctx, deadline: datetime | None, opened_at: datetime | None) -> list[Markup]:
    if deadline is None:
        return [ctx.t("no_deadline")]
    lines = []
    if opened_at is not None and deadline > opened_at:
        allowed = ctx.duration((deadline - opened_at).total_seconds())
        lines.append(
            ctx.fmt.bold(ctx.t("deadline_allowed", when=ctx.when(deadline), duration=allowed))
        )
    else:
        lines.append(ctx.fmt.bold(ctx.t("deadline", when=ctx.when(deadline))))
    if ctx.game.settings.get("early_close_when_ready", True):
        lines.append(ctx.t("early_close"))
    return lines


# ----- deployments_revealed ---------------------------------------------------------------
def deployments_revealed(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    revealed = group.first("deployment_revealed") or {}
    slots = len(revealed.get("A", []))
    headers = [ctx.t("col.side"), *[str(i) for i in range(1, slots + 1)], ctx.t("col.total")]
    rows = [[ctx.side(s), *revealed[s], sum(revealed[s])] for s in SIDES]
    notes = [
        ctx.t(
            "tb.deployed.default",
            side=ctx.side(side),
            rule=ctx.t(f"tb.missing.{revealed.get('default_rule', 'even')}"),
        )
        for side in revealed.get("defaulted", [])
    ]
    sections = [
        *context_sections(ctx, group),
        Section(lines=[ctx.t("tb.deployed.intro")], table=(headers, rows)),
    ]
    if notes:
        sections.append(Section(lines=notes))
    return ctx.raw("title.deployments_revealed", title=ctx.game.title), sections


# ----- round_result -------------------------------------------------------------------------
def _mods(ctx: Ctx, modifiers: Sequence[Any]) -> Markup:
    if not modifiers:
        return Markup("")
    names = []
    for name, _factor, value in modifiers:
        if name == "cap":
            names.append(ctx.t("tb.mod.cap", value=value))
        else:
            names.append(ctx.t(f"tb.mod.{name}"))
    final = modifiers[-1][2]
    return ctx.t("tb.mods", mods=ctx.fmt.join(names, " "), value=final)


def _log_line(ctx: Ctx, kind: str, e: dict[str, Any]) -> Markup | None:
    side = ctx.side(e["side"]) if "side" in e else Markup("")
    if kind == "troops_gathered":
        return ctx.t(
            "tb.log.gather",
            side=side,
            slot=e["slot"],
            order=order_name(ctx, e["order"]),
            left=e["from_left"],
            right=e["from_right"],
        )
    if kind in ("first_strike", "counter"):
        lo, hi = e["band"]
        return ctx.t(
            f"tb.log.{kind}",
            side=side,
            slot=e["slot"],
            lo=lo,
            hi=hi,
            roll=e["roll"],
            mods=_mods(ctx, e["modifiers"]),
            damage=e["damage"],
        )
    if kind == "damage":
        lo, hi = e["band"]
        mine, theirs = e["judged"]
        return ctx.t(
            "tb.log.damage",
            side=side,
            slot=e["slot"],
            mine=mine,
            theirs=theirs,
            case=ctx.t(f"tb.case.{e['case']}"),
            lo=lo,
            hi=hi,
            roll=e["roll"],
            mods=_mods(ctx, e["modifiers"]),
            damage=e["damage"],
        )
    if kind == "penetration":
        key = "tb.log.penetration_empty" if e.get("empty_slot") else "tb.log.penetration"
        return ctx.t(
            key,
            side=side,
            slot=e["slot"],
            difference=e["difference"],
            dealt=e["dealt"],
            mods=_mods(ctx, e["modifiers"]),
            value=e["penetration"],
        )
    if kind == "no_damage":
        return ctx.t(
            "tb.log.no_damage", side=side, slot=e["slot"], reason=ctx.t(f"tb.reason.{e['reason']}")
        )
    if kind == "annihilated":
        return ctx.t("tb.log.annihilated", side=side, slot=e["slot"])
    return None


def round_result(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    start = group.first("resolution_started") or {}
    end = group.first("round_resolved") or {}
    round_no = end.get("round", start.get("round", 0))
    after: dict[str, list[int]] = end["slots"]
    before: dict[str, list[int]] = start.get("slots") or after
    n = len(after["A"])
    dealt: dict[str, list[Any]] = {s: [0] * n for s in SIDES}  # damage taken per side, slot
    pen: dict[str, list[Any]] = {s: [0.0] * n for s in SIDES}
    wiped = {s: [False] * n for s in SIDES}
    for e in group.events:
        d = e.data
        if e.kind in ("damage", "counter", "first_strike"):
            target = "B" if d["side"] == "A" else "A"
            dealt[target][d["slot"] - 1] += d["damage"]
        elif e.kind == "penetration":
            pen[d["side"]][d["slot"] - 1] += d["penetration"]
        elif e.kind == "annihilated":
            wiped[d["side"]][d["slot"] - 1] = True
    # Five columns, so the table still fits a phone: each side's troops, then who took how
    # much damage and who penetrated how far, "A / B".
    headers = [
        ctx.t("col.slot"),
        ctx.t("tb.col.before_after", side=ctx.side("A")),
        ctx.t("tb.col.before_after", side=ctx.side("B")),
        ctx.t("tb.col.damage"),
        ctx.t("tb.col.penetration"),
    ]
    rows = []
    for i in range(n):

        def change(side: str, i: int = i) -> Markup:
            text = ctx.t("tb.troops_change", before=before[side][i], after=after[side][i])
            if wiped[side][i]:
                return ctx.fmt.color(ctx.t("tb.annihilated_mark", n=text), "red")
            if after[side][i] < before[side][i]:
                return ctx.fmt.color(text, "red")
            return text

        def pair(values: dict[str, list[Any]], i: int = i) -> Markup:
            shown = [plain(values[s][i]) if values[s][i] else ctx.t("dash") for s in SIDES]
            return ctx.fmt.join(shown, " / ")

        rows.append([i + 1, change("A"), change("B"), pair(dealt), pair(pen)])
    totals = ctx.t(
        "tb.totals",
        a_before=sum(before["A"]),
        a_after=sum(after["A"]),
        b_before=sum(before["B"]),
        b_after=sum(after["B"]),
    )
    sections = [*context_sections(ctx, group)]
    sections.append(Section(title=ctx.t("tb.head.troops"), table=(headers, rows)))
    sections.append(Section(lines=[ctx.fmt.bold(totals)]))
    sections.append(Section(title=ctx.t("tb.head.morale"), items=morale_lines(ctx, group, end)))
    pen_totals = [
        ctx.t(
            "tb.penetration_total",
            side=ctx.side(p["side"]),
            sum=p["sum"],
            units=p["units"],
            total=p["total"],
        )
        for p in group.of("penetration_total")
    ]
    if pen_totals:
        sections.append(Section(title=ctx.t("tb.head.penetration"), items=pen_totals))
    revealed = [
        ctx.t(
            "tb.revealed",
            side=ctx.side(r["side"]),
            order=order_name(ctx, r["type"]),
            slot=r["slot"],
            rule=r["rule"],
        )
        for r in group.of("order_revealed")
    ]
    if revealed:
        sections.append(Section(title=ctx.t("tb.head.revealed"), items=revealed))
    log = [line for e in group.events if (line := _log_line(ctx, e.kind, e.data)) is not None]
    if log:
        sections.append(Section(title=ctx.t("tb.head.log"), items=log, numbered=True))
    return ctx.raw("title.round_result", round=round_no, title=ctx.game.title), sections


def morale_lines(ctx: Ctx, group: Group, end: dict[str, Any]) -> list[Markup]:
    changes = {m["side"]: m for m in group.of("morale_changed")}
    lines = []
    for side in SIDES:
        m = changes.get(side)
        if m is None:
            lines.append(ctx.t("tb.morale.same", side=ctx.side(side), value=end["morale"][side]))
            continue
        why = []
        if m["penetration_received"]:
            why.append(ctx.t("tb.why.penetration", n=m["penetration_received"]))
        # TB-53: each annihilated unit is worth a fifth of the side's own maximum morale.
        total = ctx.game.settings.get("troops", {}).get(side, 0)
        fifth = (total * 10 // 2 // 5) / 10
        for key, units in (
            ("tb.why.annihilated_enemy", m["annihilated_enemy_units"]),
            ("tb.why.own_annihilated", m["own_units_annihilated"]),
        ):
            if units:
                why.append(ctx.t(key, n=units, v=plain(round(units * fifth, 1))))
        if m["capped"]:
            why.append(ctx.t("tb.why.capped"))
        delta = m["after"] - m["before"]
        sign = "+" if delta > 0 else ("−" if delta < 0 else "±")
        shown = Markup(sign) + ctx.fmt.esc(plain(round(abs(delta), 1)))
        reason = ctx.fmt.join([shown, *why], "；" if ctx.lang == "zh" else "; ")
        text = ctx.t(
            "tb.morale", side=ctx.side(side), before=m["before"], after=m["after"], delta=reason
        )
        lines.append(ctx.fmt.color(text, "red") if delta < 0 else text)
    return lines


# ----- game_finished ------------------------------------------------------------------------
def game_finished(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    over = group.first("game_over")
    sections: list[Section] = []
    if over is not None:
        winner = over["winner"]
        if winner == "draw":
            headline = ctx.t("tb.result.draw")
        else:
            headline = ctx.t("tb.result.winner", side=ctx.side(winner))
        reason = ctx.t(f"tb.reason.{over['reason']}")
        final = ctx.t(
            "tb.final",
            round=over["round"],
            ma=over["morale"]["A"],
            mb=over["morale"]["B"],
            ta=over["troops"]["A"],
            tb=over["troops"]["B"],
        )
        sections.append(Section(lines=[ctx.fmt.heading(headline), reason, final]))
    revealed = group.first("orders_revealed")
    if revealed is not None and revealed["orders"]:
        rows = []
        for o in revealed["orders"]:
            status = o.get("status", "resolved")
            key = f"tb.status.{status}"
            rows.append(
                [
                    f"{o['round']}·{phase_name(ctx, o['phase'])}",
                    ctx.side(o["side"]),
                    order_text(ctx, o["type"], o["body"]),
                    ctx.t(key)
                    if status in ("resolved", "void", "nullified", "pending")
                    else status,
                ]
            )
        headers = [
            ctx.t("col.round_phase"),
            ctx.t("col.side"),
            ctx.t("col.order"),
            ctx.t("col.status"),
        ]
        sections.append(Section(title=ctx.t("tb.head.all_orders"), table=(headers, rows)))
    return ctx.raw("title.game_finished", title=ctx.game.title), sections


def director_notice(ctx: Ctx, kind: str, data: dict[str, Any]) -> Markup | None:
    if kind == "director_set_morale":
        return ctx.t(
            "tb.director.morale",
            side=ctx.side(data["side"]),
            before=data["before"],
            after=data["after"],
        )
    if kind == "director_set_troops":
        return ctx.t(
            "tb.director.troops",
            side=ctx.side(data["side"]),
            slot=data["slot"],
            before=data["before"],
            after=data["after"],
        )
    if kind == "director_closed_phase":
        return ctx.t("tb.director_closed", phase=phase_name(ctx, data["phase"]))
    return None


BUILDERS = {
    "game_started": game_started,
    "phase_opened": phase_opened,
    "deployments_revealed": deployments_revealed,
    "round_result": round_result,
    "game_finished": game_finished,
}

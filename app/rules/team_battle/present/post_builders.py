"""Team Battle (团战) posts, built from public events only: the start, the phases opening
(with what their close revealed), the deployments, the end and the director's notices. The
round result is in :mod:`.post_round`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from markupsafe import Markup

from app.kit.post_parts import Ctx, Group, Section, commitment_section
from app.kit.posts import Built
from app.rules.team_battle.order_types import ORDER_TYPES
from app.rules.team_battle.present.post_text import (
    SIDES,
    order_text,
    phase_name,
    post_order,
    round_phase,
    signed,
    title_phase,
)


# ----- game_started ----------------------------------------------------------------------
def game_started(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    s = ctx.game.settings
    roster_rows = []
    for side in SIDES:
        members = [ctx.player(p) for p in ctx.game.roster if p.side == side]
        roster_rows.append([ctx.side(side), ctx.join(members) if members else ctx.t("none")])
    troops = s.get("troops", {"A": 0, "B": 0})
    per_side = ctx.t("post.set.per_side", a=troops["A"], b=troops["B"])
    max_morale = ctx.t("post.set.per_side", a=troops["A"] / 2, b=troops["B"] / 2)
    rows: list[list[Any]] = [
        [ctx.t("post.set.slots"), s.get("slots")],
        [ctx.t("post.set.troops"), per_side],
        [ctx.t("post.set.max_morale"), max_morale],
    ]
    for phase in ("deployment", "command", "battle", "response"):
        seconds = s.get(f"{phase}_seconds")
        value = ctx.duration(seconds) if seconds else ctx.t("post.set.unlimited")
        rows.append([ctx.t("post.set.phase_time", phase=phase_name(ctx, phase)), value])
    early = ctx.t("yes" if s.get("early_close_when_ready", True) else "no")
    rows.append([ctx.t("post.set.early_close"), early])
    rows.append([ctx.t("post.set.dice"), ctx.t(f"post.dice.{s.get('dice', 'random')}")])
    rows.append(
        [ctx.t("post.set.missing"), ctx.t(f"post.missing.{s.get('missing_deployment', 'even')}")]
    )
    enabled = s.get("enabled_orders", list(ORDER_TYPES))
    if set(enabled) >= set(ORDER_TYPES):
        shown = ctx.t("post.orders.all")
    else:
        shown = ctx.join([post_order(ctx, o) for o in ORDER_TYPES if o in enabled])
    rows.append([ctx.t("post.set.orders"), shown])
    sections = [
        Section(lines=[ctx.t("post.start.intro")]),
        # Lines, not two-column tables: a forum without table borders runs the cells together.
        Section(title=ctx.t("head.roster"), items=[line(ctx, *row) for row in roster_rows]),
        Section(title=ctx.t("head.settings"), items=[line(ctx, *row) for row in rows]),
        commitment_section(ctx),
    ]
    return ctx.raw("title.game_started", title=ctx.game.title), sections


def line(ctx: Ctx, label: Any, value: Any) -> Markup:
    return ctx.t("post.set.line", label=label, value=value)


# ----- context: what closed before the headline ---------------------------------------------
def context_sections(ctx: Ctx, group: Group) -> list[Section]:
    out: list[Section] = []
    for closed in group.of("director_closed_phase"):
        out.append(
            Section(lines=[ctx.t("post.director_closed", phase=phase_name(ctx, closed["phase"]))])
        )
    for announced in group.of("orders_announced"):
        lines = [
            ctx.t(
                "post.announced.order",
                side=ctx.side(o["side"]),
                order=order_text(ctx, o["type"], o["body"]),
            )
            for o in announced["orders"]
        ]
        out.append(
            Section(
                title=ctx.t("post.head.announced", phase=phase_name(ctx, announced["phase"])),
                items=lines,
                lines=[] if lines else [ctx.t("post.announced.none")],
            )
        )
    dispatched = group.of("troops_dispatched")
    if dispatched:
        out.append(
            Section(
                title=ctx.t("post.head.dispatched"),
                items=[
                    ctx.t(
                        "post.dispatched",
                        side=ctx.side(d["side"]),
                        changes=ctx.join(
                            [
                                ctx.t("post.dispatched.slot", slot=i + 1, before=b, after=a)
                                for i, (b, a) in enumerate(
                                    zip(d["before"], d["after"], strict=False)
                                )
                                if b != a
                            ]
                        ),
                    )
                    for d in dispatched
                ],
            )
        )
    seen = group.of("order_seen_through")
    if seen:
        out.append(
            Section(
                title=ctx.t("post.head.seen_through"),
                items=[
                    ctx.t(
                        "post.seen_through",
                        side=ctx.side(s["side"]),
                        order=post_order(ctx, s["order_type"]),
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
    items = entitled_lines(ctx, group, opened.get("entitled") or {})
    sections = [
        *context_sections(ctx, group),
        Section(lines=[ctx.t(f"post.opened.{phase}")], items=items),
        Section(lines=deadline_lines(ctx, deadline, event.at if event else None)),
    ]
    title = ctx.raw(
        "post.title.phase_opened", phase=title_phase(ctx, round_no, phase), title=ctx.game.title
    )
    return title, sections


def entitled_lines(ctx: Ctx, group: Group, entitled: dict[str, Any]) -> list[Markup]:
    """Who may respond, where and on what condition. The window is judged on public facts
    (TB-5a), so a Pursuit is offered on the condition the rules check at the order: the side
    gave no battle-phase order this round, hidden or not; the post cannot know, so it says so.
    """
    retreats: dict[str, list[int]] = {side: [] for side in SIDES}
    for announced in group.of("orders_announced"):
        for o in announced["orders"]:
            if o["type"] == "retreat" and o["body"].get("slot") not in retreats[o["side"]]:
                retreats[o["side"]].append(o["body"]["slot"])
    items = []
    for side in SIDES:
        rights = entitled.get(side) or {}
        facing = sorted(retreats["B" if side == "A" else "A"])
        if rights.get("pursuit") and facing:
            slots = ctx.fmt.join([str(n) for n in facing], "、" if ctx.lang == "zh" else ", ")
            items.append(ctx.t("post.entitled.pursuit", side=ctx.side(side), slots=slots))
        if rights.get("retreat_slots"):
            sep = "、" if ctx.lang == "zh" else ", "
            slots = ctx.fmt.join([str(n) for n in rights["retreat_slots"]], sep)
            items.append(ctx.t("post.entitled.retreat", side=ctx.side(side), slots=slots))
    return items


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
        lines.append(ctx.t("post.early_close"))
    return lines


# ----- deployments_revealed ---------------------------------------------------------------
def deployments_revealed(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    revealed = group.first("deployment_revealed") or {}
    # One line per slot, the two sides' units facing each other as they will fight.
    rows = [
        ctx.t("post.deployed.slot", slot=i + 1, a=a, b=b)
        for i, (a, b) in enumerate(zip(revealed.get("A", []), revealed.get("B", []), strict=False))
    ]
    total = ctx.t("post.deployed.total", a=sum(revealed.get("A", [])), b=sum(revealed.get("B", [])))
    notes = [
        ctx.t(
            "post.deployed.default",
            side=ctx.side(side),
            rule=ctx.t(f"post.missing.{revealed.get('default_rule', 'even')}"),
        )
        for side in revealed.get("defaulted", [])
    ]
    sections = [
        *context_sections(ctx, group),
        Section(lines=[ctx.t("post.deployed.intro")], items=rows),
        Section(lines=[total]),
    ]
    if notes:
        sections.append(Section(lines=notes))
    return ctx.raw("post.title.deployments_revealed", title=ctx.game.title), sections


# ----- game_finished ------------------------------------------------------------------------
def game_finished(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    over = group.first("game_over")
    sections: list[Section] = []
    if over is not None:
        winner = over["winner"]
        if winner == "draw":
            headline = ctx.t("post.result.draw")
        else:
            headline = ctx.t("post.result.winner", side=ctx.side(winner))
        reason = ctx.t(f"post.reason.{over['reason']}")
        final = ctx.t(
            "post.final",
            round=over["round"],
            ma=signed(over["morale"]["A"]),
            mb=signed(over["morale"]["B"]),
            ta=over["troops"]["A"],
            tb=over["troops"]["B"],
        )
        sections.append(Section(lines=[ctx.fmt.heading(headline), reason, final]))
    revealed = group.first("orders_revealed")
    if revealed is not None and revealed["orders"]:
        head = Section(title=ctx.t("post.head.all_orders"), lines=[ctx.t("post.orders.intro")])
        sections.append(head)
        sections.extend(all_orders(ctx, revealed["orders"]))
    return ctx.raw("title.game_finished", title=ctx.game.title), sections


def all_orders(ctx: Ctx, orders: list[dict[str, Any]]) -> list[Section]:
    """Every order of the game, one line each under its round and phase (a phone reads a
    line; a four-column table wraps there). Only an order that did not simply take effect
    says so."""
    sections: list[Section] = []
    at = None
    for o in orders:
        when = round_phase(ctx, o["round"], o["phase"])
        if when != at:
            sections.append(Section(title=ctx.fmt.esc(when)))
            at = when
        status = o.get("status", "resolved")
        fields = {"side": ctx.side(o["side"]), "order": order_text(ctx, o["type"], o["body"])}
        if status == "resolved":
            line = ctx.t("post.orders.line", **fields)
        else:
            key = f"post.status.{status}"
            shown = ctx.t(key) if ctx.has(key) else ctx.fmt.esc(status)
            line = ctx.t("post.orders.line_status", status=shown, **fields)
        sections[-1].items.append(line)
    return sections


def director_notice(ctx: Ctx, kind: str, data: dict[str, Any]) -> Markup | None:
    if kind == "director_set_morale":
        return ctx.t(
            "post.director.morale",
            side=ctx.side(data["side"]),
            before=signed(data["before"]),
            after=signed(data["after"]),
        )
    if kind == "director_set_troops":
        return ctx.t(
            "post.director.troops",
            side=ctx.side(data["side"]),
            slot=data["slot"],
            before=data["before"],
            after=data["after"],
        )
    if kind == "director_closed_phase":
        return ctx.t("post.director_closed", phase=phase_name(ctx, data["phase"]))
    return None

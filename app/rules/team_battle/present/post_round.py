"""Team Battle's round result post: troops per slot, morale, penetration, the revealed hidden
orders and the whole resolution log of the round."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from markupsafe import Markup

from app.kit.formats import plain
from app.kit.post_parts import Ctx, Group, Section
from app.kit.posts import Built
from app.rules.team_battle.present.post_builders import context_sections
from app.rules.team_battle.present.post_text import SIDES, post_order, signed
from app.rules.team_battle.resolve import judge_victory


# ----- round_result -------------------------------------------------------------------------
def _mods(ctx: Ctx, modifiers: Sequence[Any]) -> Markup:
    if not modifiers:
        return Markup("")
    names = []
    for name, _factor, value in modifiers:
        if name == "cap":
            names.append(ctx.t("post.mod.cap", value=value))
        else:
            names.append(ctx.t(f"post.mod.{name}"))
    final = modifiers[-1][2]
    return ctx.t("post.mods", mods=ctx.fmt.join(names, " "), value=final)


def _log_line(ctx: Ctx, kind: str, e: dict[str, Any]) -> Markup | None:
    side = ctx.side(e["side"]) if "side" in e else Markup("")
    if kind == "troops_gathered":
        return ctx.t(
            "post.log.gather",
            side=side,
            slot=e["slot"],
            order=post_order(ctx, e["order"]),
            left=e["from_left"],
            right=e["from_right"],
        )
    if kind in ("first_strike", "counter"):
        lo, hi = e["band"]
        return ctx.t(
            f"post.log.{kind}",
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
            "post.log.damage",
            side=side,
            slot=e["slot"],
            mine=mine,
            theirs=theirs,
            case=ctx.t(f"post.case.{e['case']}"),
            lo=lo,
            hi=hi,
            roll=e["roll"],
            mods=_mods(ctx, e["modifiers"]),
            damage=e["damage"],
        )
    if kind == "penetration":
        key = "post.log.penetration_empty" if e.get("empty_slot") else "post.log.penetration"
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
            "post.log.no_damage",
            side=side,
            slot=e["slot"],
            reason=ctx.t(f"post.reason.{e['reason']}"),
        )
    if kind == "annihilated":
        return ctx.t("post.log.annihilated", side=side, slot=e["slot"])
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
    moved: dict[str, list[int]] = {s: [0] * n for s in SIDES}  # troops gathered in (+) / out (−)
    for e in group.events:
        d = e.data
        if e.kind in ("damage", "counter", "first_strike"):
            target = "B" if d["side"] == "A" else "A"
            dealt[target][d["slot"] - 1] += d["damage"]
        elif e.kind == "penetration":
            pen[d["side"]][d["slot"] - 1] += d["penetration"]
        elif e.kind == "annihilated":
            wiped[d["side"]][d["slot"] - 1] = True
        elif e.kind == "troops_gathered":
            i, row = d["slot"] - 1, moved[d["side"]]
            row[i] += d["from_left"] + d["from_right"]
            if i > 0:
                row[i - 1] -= d["from_left"]
            if i < n - 1:
                row[i + 1] -= d["from_right"]
    # One line per slot, not a five-column table: a table wider than a phone's screen is
    # unreadable there, and a line reads the same on every forum and in a chat.
    rows = []
    for i in range(n):

        def change(side: str, i: int = i) -> Markup:
            text = ctx.t("post.troops_change", before=before[side][i], after=after[side][i])
            if wiped[side][i]:
                return ctx.fmt.color(ctx.t("post.annihilated_mark", n=text), "red")
            shift = moved[side][i]
            if shift:
                # A slot that gathered out is emptied by its own side, not wiped out.
                key = "post.moved_in" if shift > 0 else "post.moved_out"
                text = ctx.t(key, n=text, moved=abs(shift))
            if dealt[side][i]:
                return ctx.fmt.color(text, "red")
            return text

        notes = [
            ctx.t(key, side=ctx.t(f"post.side_short.{side}"), n=plain(values[side][i]))
            for key, values in (("post.note.lost", dealt), ("post.note.pen", pen))
            for side in SIDES
            if values[side][i]
        ]
        shown = ctx.t("post.slot_notes", notes=ctx.join(notes)) if notes else Markup("")
        rows.append(ctx.t("post.slot_line", slot=i + 1, a=change("A"), b=change("B"), notes=shown))
    totals = ctx.t(
        "post.totals",
        a_before=sum(before["A"]),
        a_after=sum(after["A"]),
        b_before=sum(before["B"]),
        b_after=sum(after["B"]),
    )
    story = headline(ctx, group, round_no, end, wiped, dealt)
    sections = [Section(lines=[ctx.fmt.heading(story)]), *context_sections(ctx, group)]
    sections.append(Section(title=ctx.t("post.head.troops"), items=rows))
    sections.append(Section(lines=[ctx.fmt.bold(totals)]))
    sections.append(Section(title=ctx.t("post.head.morale"), items=morale_lines(ctx, group, end)))
    pen_totals = [
        ctx.t(
            "post.penetration_total",
            side=ctx.side(p["side"]),
            sum=p["sum"],
            units=p["units"],
            total=p["total"],
        )
        for p in group.of("penetration_total")
    ]
    if pen_totals:
        sections.append(Section(title=ctx.t("post.head.penetration"), items=pen_totals))
    revealed = [
        ctx.t(
            "post.revealed",
            side=ctx.side(r["side"]),
            order=post_order(ctx, r["type"]),
            slot=r["slot"],
        )
        for r in group.of("order_revealed")
    ]
    if revealed:
        sections.append(Section(title=ctx.t("post.head.revealed"), items=revealed))
    log = [line for e in group.events if (line := _log_line(ctx, e.kind, e.data)) is not None]
    if log:
        sections.append(Section(title=ctx.t("post.head.log"), items=log, numbered=True))
    return ctx.raw("post.title.round_result", round=round_no, title=ctx.game.title), sections


def morale_lines(ctx: Ctx, group: Group, end: dict[str, Any]) -> list[Markup]:
    changes = {m["side"]: m for m in group.of("morale_changed")}
    lines = []
    for side in SIDES:
        m = changes.get(side)
        if m is None:
            value = signed(end["morale"][side])
            lines.append(ctx.t("post.morale.same", side=ctx.side(side), value=value))
            continue
        why = []
        if m["penetration_received"]:
            why.append(ctx.t("post.why.penetration", n=m["penetration_received"]))
        # TB-53: each annihilated unit is worth a fifth of the side's own maximum morale.
        total = ctx.game.settings.get("troops", {}).get(side, 0)
        fifth = (total * 10 // 2 // 5) / 10
        for key, units in (
            ("post.why.annihilated_enemy", m["annihilated_enemy_units"]),
            ("post.why.own_annihilated", m["own_units_annihilated"]),
        ):
            if units:
                why.append(ctx.t(key, n=units, v=plain(round(units * fifth, 1))))
        if m["capped"]:
            why.append(ctx.t("post.why.capped"))
        delta = m["after"] - m["before"]
        sign = "+" if delta > 0 else ("−" if delta < 0 else "±")
        shown = Markup(sign) + ctx.fmt.esc(plain(round(abs(delta), 1)))
        reason = ctx.fmt.join([shown, *why], "；" if ctx.lang == "zh" else "; ")
        text = ctx.t(
            "post.morale",
            side=ctx.side(side),
            before=signed(m["before"]),
            after=signed(m["after"]),
            delta=reason,
        )
        lines.append(ctx.fmt.color(text, "red") if delta < 0 else text)
    return lines


def headline(
    ctx: Ctx,
    group: Group,
    round_no: int,
    end: dict[str, Any],
    wiped: dict[str, list[bool]],
    dealt: dict[str, list[Any]],
) -> Markup:
    """The round's story in one line: 第2回合：乙方2、3号位全灭，乙方士气跌破0——甲方获胜！"""
    parts: list[Markup] = []
    sep = "、" if ctx.lang == "zh" else ", "
    for side in SIDES:
        slots = [str(i + 1) for i, gone in enumerate(wiped[side]) if gone]
        if slots:
            joined = ctx.fmt.join(slots, sep)
            parts.append(ctx.t("post.story.wiped", side=ctx.side(side), slots=joined))
    for side in SIDES:
        morale = end.get("morale", {}).get(side, 1)
        if morale < 0:
            parts.append(ctx.t("post.story.morale_broken", side=ctx.side(side)))
        elif morale == 0:
            parts.append(ctx.t("post.story.morale_zero", side=ctx.side(side)))
    if not parts:
        lost = {side: sum(dealt[side]) for side in SIDES}
        if any(lost.values()):
            parts.append(ctx.t("post.story.losses", a=lost["A"], b=lost["B"]))
        else:
            parts.append(ctx.t("post.story.quiet"))
    story = ctx.t(
        "post.story.round", round=round_no, story=ctx.fmt.join(parts, ctx.phrase("post.story.sep"))
    )
    winner = round_winner(ctx, end)
    if winner == "draw":
        return ctx.t("post.story.draw", story=story)
    if winner is not None:
        return ctx.t("post.story.winner", story=story, side=ctx.side(winner))
    return story


def round_winner(ctx: Ctx, end: dict[str, Any]) -> str | None:
    """Who this round's end made the winner, judged as the rules judge it (TB-60) from the
    public morale and troops the round ended with; None while the game goes on."""
    if "morale" not in end:
        return None
    settings = ctx.game.settings
    winner, _reason = judge_victory(
        [round(float(end["morale"][s]) * 10) for s in SIDES],
        [sum(end["slots"][s]) for s in SIDES],
        bool(settings.get("draw_on_exact_tie", True)),
        settings.get("both_out_of_troops") == "draw",
    )
    return winner

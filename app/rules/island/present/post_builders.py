"""The Other Side (《另一面》) posts, built from public events only."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from markupsafe import Markup

from app.kit.post_parts import Ctx, Group, Section, commitment_section
from app.kit.posts import Builder, Built


def game_started(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    s = ctx.game.settings
    started = group.first("game_started") or {}
    date = ctx.local_date(started["date"]) if started.get("date") else ""
    players = [[i + 1, ctx.player(p)] for i, p in enumerate(ctx.game.roster)]
    lo, hi = s.get("pk_window_minutes", (20, 40))
    rows: list[list[Any]] = [
        [ctx.t("post.set.map"), ctx.t("post.set.map_value", w=s.get("width"), h=s.get("height"))],
        [ctx.t("post.set.timezone"), ctx.game.timezone],
        [ctx.t("post.set.stamina"), s.get("start_stamina")],
        [ctx.t("post.set.power"), s.get("start_power")],
        [ctx.t("post.set.food"), f"{s.get('starting_food')} / {s.get('food_per_day', 1)}"],
        [ctx.t("post.set.pk_window"), ctx.t("post.set.window", start=s.get("pk_window_start"))],
        [ctx.t("post.set.pk_wait"), ctx.t("post.set.minutes_range", lo=lo, hi=hi)],
        [ctx.t("post.set.deep_night"), ctx.t("post.set.window", start=s.get("deep_night_start"))],
        [ctx.t("post.set.daily"), ctx.t("post.set.midnight")],
    ]
    sections = [
        Section(lines=[ctx.t("post.start.intro", date=date)]),
        Section(title=ctx.t("head.roster"), table=(["#", ctx.t("col.player")], players)),
        Section(
            title=ctx.t("head.settings"), table=([ctx.t("col.setting"), ctx.t("col.value")], rows)
        ),
        commitment_section(ctx),
    ]
    if deadline is not None:
        sections[0].lines.append(ctx.fmt.bold(ctx.t("deadline", when=ctx.when(deadline))))
    return ctx.raw("title.game_started", title=ctx.game.title), sections


def daily_report(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    report = group.first("day_report") or {}
    day = report.get("day", 0)
    date = ctx.local_date(report["date"]) if report.get("date") else ""
    deaths = [ctx.fmt.color(d["name"], "red") for d in report.get("deaths", [])]
    alive = [ctx.fmt.esc(a["name"]) for a in report.get("alive", [])]
    sections = [
        Section(lines=[ctx.t("post.report.intro", day=day, date=date)]),
        Section(
            title=ctx.t("post.head.deaths"),
            items=deaths,
            lines=[] if deaths else [ctx.t("post.deaths.none")],
        ),
        Section(title=ctx.t("post.head.alive", n=len(alive)), lines=[ctx.join(alive)]),
    ]
    if deadline is not None:
        next_day = report.get("new_day", day + 1)
        sections.append(
            Section(
                lines=[
                    ctx.fmt.bold(ctx.t("post.report.next", day=next_day, when=ctx.when(deadline)))
                ]
            )
        )
    return ctx.raw("post.title.daily_report", day=day, title=ctx.game.title), sections


def pk_result(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    pk = group.first("pk_resolved") or {}
    sides = {"attack": pk.get("attackers", []), "defend": pk.get("defenders", [])}
    strengths = pk.get("strengths") or {}
    rows = [
        [
            ctx.t(f"post.pk.{side}"),
            ctx.names(members),
            strengths.get(side, ctx.t("dash")),
        ]
        for side, members in sides.items()
    ]
    winner = pk.get("winner")
    lines: list[Markup] = []
    if winner is None:
        lines.append(ctx.t("post.pk.no_winner"))
    elif pk.get("by_default"):
        lines.append(ctx.fmt.bold(ctx.t("post.pk.by_default", side=ctx.t(f"post.pk.{winner}"))))
    else:
        lines.append(ctx.fmt.bold(ctx.t("post.pk.winner", side=ctx.t(f"post.pk.{winner}"))))
    if pk.get("fled"):
        lines.append(ctx.t("post.pk.fled", names=ctx.names(pk["fled"])))
    losses = [
        ctx.t(f"post.loss.{outcome}", name=ctx.name(pid))
        for pid, outcome in (pk.get("losses") or {}).items()
    ]
    headers = [
        ctx.t("post.pk.col.side"),
        ctx.t("post.pk.col.members"),
        ctx.t("post.pk.col.strength"),
    ]
    sections = [
        Section(
            title=ctx.t("post.pk.head", challenge=pk.get("challenge", "")), table=(headers, rows)
        ),
        Section(lines=lines),
    ]
    if losses:
        sections.append(Section(title=ctx.t("post.head.losses"), items=losses))
    return ctx.raw("post.title.pk_result", title=ctx.game.title), sections


def game_finished(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    over = group.first("game_over")
    sections: list[Section] = []
    if over is not None:
        survivors = over.get("survivors", [])
        lines = [
            ctx.t("post.result.by_director" if over.get("by") == "director" else "post.result.end")
        ]
        if survivors:
            lines.append(
                ctx.fmt.heading(ctx.t("post.result.survivors", names=ctx.names(survivors)))
            )
        else:
            lines.append(ctx.t("post.result.nobody"))
        sections.append(Section(lines=lines))
    return ctx.raw("title.game_finished", title=ctx.game.title), sections


def notice_line(ctx: Ctx, kind: str, data: dict[str, Any]) -> Markup | None:
    if kind == "pk_posted":
        when = datetime.fromisoformat(data["due_at"])
        names = data.get("names", {})
        return ctx.t(
            "post.notice.pk_posted",
            attackers=ctx.join([names.get(p, ctx.name(p)) for p in data["attackers"]]),
            defenders=ctx.join([names.get(p, ctx.name(p)) for p in data["defenders"]]),
            challenge=data["challenge"],
            when=ctx.when(when),
        )
    if kind == "pk_joined":
        return ctx.t(
            "post.notice.pk_joined",
            name=data["name"],
            challenge=data["challenge"],
            side=ctx.t(f"post.pk.{data['side']}"),
        )
    if kind == "pk_fled":
        return ctx.t("post.notice.pk_fled", name=data["name"], challenge=data["challenge"])
    if kind == "death_announced":
        return ctx.t("post.notice.death", name=data["name"])
    if kind == "announcement":
        return ctx.t("post.notice.announcement", day=data.get("day", ""))
    return None


BUILDERS: dict[str, Builder] = {
    "game_started": game_started,
    "daily_report": daily_report,
    "pk_result": pk_result,
    "game_finished": game_finished,
}

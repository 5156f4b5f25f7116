"""The Other Side (《另一面》) posts, built from public events only."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from markupsafe import Markup

from app.kit.post_parts import Ctx, Group, Section, commitment_section
from app.kit.posts import Builder, Built
from app.rules.island.present import post_pk

# The zones a reader knows by another name (what the pages call it).
_ZONE_NAMES = {"Asia/Shanghai": "post.zone.beijing"}


def zone_name(ctx: Ctx) -> str:
    """The game's time zone as a reader names it: 北京时间 for Asia/Shanghai."""
    key = _ZONE_NAMES.get(ctx.game.timezone)
    return ctx.raw(key) if key else ctx.game.timezone


def game_started(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    s = ctx.game.settings
    started = group.first("game_started") or {}
    date = ctx.local_date(started["date"]) if started.get("date") else ""
    players = [[i + 1, ctx.player(p)] for i, p in enumerate(ctx.game.roster)]
    lo, hi = s.get("pk_window_minutes", (20, 40))
    rows: list[list[Any]] = [
        [ctx.t("post.set.map"), ctx.t("post.set.map_value", w=s.get("width"), h=s.get("height"))],
        [ctx.t("post.set.timezone"), zone_name(ctx)],
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


def _ran_early(ctx: Ctx, group: Group, report: dict[str, Any]) -> datetime | None:
    """When the 24:00 report was run before the day's midnight (by the director), the
    moment it ran; on time (or late) None. The rules mark the report ``early``."""
    event = group.event("day_report")
    return event.at if event is not None and report.get("early") else None


def daily_report(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    report = group.first("day_report") or {}
    day = report.get("day", 0)
    date = ctx.local_date(report["date"]) if report.get("date") else ""
    dead = [str(d["name"]) for d in report.get("deaths", [])]
    deaths = [ctx.fmt.color(name, "red") for name in dead]
    alive = [ctx.fmt.esc(a["name"]) for a in report.get("alive", [])]
    sep = ctx.raw("list_sep")
    if dead:
        story = ctx.raw("post.report.story_deaths", names=sep.join(dead), n=len(alive))
    else:
        story = ctx.raw("post.report.story_quiet", n=len(alive))
    early = _ran_early(ctx, group, report)
    intro = (
        ctx.t("post.report.intro_early", day=day, date=date, when=ctx.when(early))
        if early is not None
        else ctx.t("post.report.intro", day=day, date=date)
    )
    sections = [
        Section(lines=[intro]),
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
    key = "post.title.daily_report_early" if early is not None else "post.title.daily_report"
    return ctx.raw(key, day=day, story=story, title=ctx.game.title), sections


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
    if kind == "death_announced":
        return ctx.t("post.notice.death", name=data["name"])
    if kind == "announcement":
        return ctx.t("post.notice.announcement", day=data.get("day", ""))
    return None


BUILDERS: dict[str, Builder] = {
    "game_started": game_started,
    "daily_report": daily_report,
    "pk_challenge": post_pk.pk_challenge,
    "pk_update": post_pk.pk_update,
    "pk_result": post_pk.pk_result,
    "game_finished": game_finished,
}

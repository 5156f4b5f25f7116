"""The toy duel's posts (see :mod:`app.kit.posts`): a post when a round opens, the round's
result when it closes, the end, and a shout as a notice."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from markupsafe import Markup

from app.kit.post_parts import Ctx, Group, Section, commitment_section
from app.kit.posts import Built, GamePosts, Posts


def _hand(ctx: Ctx, hand: str | None) -> Markup:
    return ctx.t(f"order.throw.{hand}") if hand else ctx.t("post.no_throw")


def _scores(ctx: Ctx, scores: dict[str, int]) -> Section:
    rows: list[list[Any]] = [[ctx.name(pid), n] for pid, n in scores.items()]
    return Section(
        title=ctx.t("page.scoreboard"),
        table=([ctx.t("post.col.player"), ctx.t("post.col.points")], rows),
    )


def game_started(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    rounds = ctx.game.settings.get("rounds", 0)
    players = [ctx.player(p) for p in ctx.game.roster]
    sections = [
        Section(lines=[ctx.t("post.start_intro", rounds=rounds)], items=players),
        commitment_section(ctx),
    ]
    return ctx.raw("post.start_title", title=ctx.game.title), sections


def round_opened(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    opened = group.first("round_opened") or {}
    lines = [ctx.t("event.round_opened", round=opened.get("round", 0))]
    if deadline is not None:
        lines.append(ctx.fmt.bold(ctx.t("post.deadline", when=ctx.when(deadline))))
    return ctx.raw("post.round_open_title", round=opened.get("round", 0)), [Section(lines=lines)]


def round_result(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    closed = group.first("round_closed") or {}
    throws: dict[str, str | None] = closed.get("throws", {})
    lines = [
        ctx.t("post.round_line", name=ctx.name(pid), hand=_hand(ctx, h))
        for pid, h in throws.items()
    ]
    verdict: list[Markup] = []
    if group.first("director_closed_round") is not None:
        verdict.append(ctx.t("post.closed_by_director"))
    if closed.get("winner"):
        verdict.append(ctx.t("post.round_winner", name=ctx.name(closed["winner"])))
    else:
        verdict.append(ctx.t("post.round_nobody"))
    if closed.get("tie_broken"):
        verdict.append(ctx.t("post.tie_broken"))
    sections = [
        Section(items=lines),
        Section(lines=verdict),
        _scores(ctx, closed.get("scores", {})),
    ]
    return ctx.raw("post.round_title", round=closed.get("round", 0)), sections


def game_finished(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    over = group.first("game_over") or {}
    winner = over.get("winner")
    if winner and winner != "draw":
        line = ctx.t("post.final_winner", name=ctx.name(winner))
    else:
        line = ctx.t("post.final_draw")
    return ctx.raw("post.final_title"), [
        Section(lines=[line]),
        _scores(ctx, over.get("scores", {})),
    ]


def notice_line(ctx: Ctx, kind: str, data: dict[str, Any]) -> Markup | None:
    if kind == "shouted":
        return ctx.t("event.shouted", name=data.get("name", ""), taunt=data.get("taunt", ""))
    return None


POSTS: Posts = GamePosts(
    headlines={"round_opened": "round_opened", "round_closed": "round_result"},
    context=frozenset({"director_closed_round"}),
    notices=frozenset({"shouted"}),
    closes=frozenset({"round_closed"}),
    builders={
        "game_started": game_started,
        "round_opened": round_opened,
        "round_result": round_result,
        "game_finished": game_finished,
    },
    sides=False,
    others=True,
    line=notice_line,
)

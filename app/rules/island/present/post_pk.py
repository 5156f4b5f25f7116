"""The island's PK posts: the challenge, who joined or fled, and the result with its odds.

A PK is named by its fighters ("白露 对 秋分"), never by its id; the result shows each side's
strength, the chance the IS-60 table gave each side and the amount each loser lost, so a
reader can see why a coin flip went the way it did.
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Any

from markupsafe import Markup

from app.kit.post_parts import Ctx, Group, Section
from app.kit.posts import Built
from app.rules.island.tables import pk_win_chance


def _members(ctx: Ctx, data: dict[str, Any], key: str, without: Any = None) -> list[str]:
    names = data.get("names") or {}
    return [str(names.get(p, ctx.name(p))) for p in data.get(key, []) if p != without]


def fighters(ctx: Ctx, data: dict[str, Any], without: Any = None) -> str:
    """The PK named by its fighters: "白露 对 秋分" (plain text, for titles); ``without``
    leaves out the one a title is already about."""
    return ctx.raw(
        "post.pk.versus",
        attackers=ctx.raw("list_sep").join(_members(ctx, data, "attackers", without)),
        defenders=ctx.raw("list_sep").join(_members(ctx, data, "defenders", without)),
    )


def _odds(ctx: Ctx, chance: Fraction) -> Markup:
    return ctx.t(
        "post.pk.odds_fraction",
        num=chance.numerator,
        den=chance.denominator,
        pct=round(chance * 100),
    )


def _odds_line(ctx: Ctx, attack: int, defend: int) -> Markup:
    """The chance the table gave each side: a sure thing said so, a gamble as fractions."""
    chance = pk_win_chance(attack, defend)
    if chance in (0, 1):
        side = "attack" if chance == 1 else "defend"
        return ctx.t("post.pk.odds_certain", side=ctx.t(f"post.pk.{side}"))
    return ctx.t("post.pk.odds", attack=_odds(ctx, chance), defend=_odds(ctx, 1 - chance))


def _roll_line(ctx: Ctx, attack: int, defend: int, roll: Any) -> Markup | None:
    """The die that decided a gamble: its faces, what it showed, which faces meant the
    attackers (a sure thing has no roll worth showing)."""
    chance = pk_win_chance(attack, defend)
    if not isinstance(roll, dict) or chance in (0, 1):
        return None
    faces = int(roll.get("faces", 0))
    wins = chance * faces
    if faces < 2 or wins.denominator != 1:
        return None
    return ctx.t("post.pk.roll", faces=faces, drawn=roll.get("drawn"), hi=int(wins))


def pk_challenge(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    data = group.first("pk_posted") or {}
    lines = [
        ctx.fmt.bold(
            ctx.t(
                "post.pk.challenge",
                attackers=ctx.join(_members(ctx, data, "attackers")),
                defenders=ctx.join(_members(ctx, data, "defenders")),
            )
        )
    ]
    if data.get("due_at"):
        lines.append(ctx.t("post.pk.due", when=ctx.when(datetime.fromisoformat(data["due_at"]))))
    attackers, defenders = _members(ctx, data, "attackers"), _members(ctx, data, "defenders")
    if attackers and defenders:  # the orders that join a side name one of its fighters
        lines.append(ctx.t("post.pk.join_hint", attacker=attackers[0], defender=defenders[0]))
    return ctx.raw("post.title.pk_challenge", pk=fighters(ctx, data), title=ctx.game.title), [
        Section(lines=lines)
    ]


def pk_update(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    items: list[Markup] = []
    for e in group.events:
        if e.kind == "pk_joined":
            side = ctx.t(f"post.pk.{e.data.get('side', 'attack')}")
            items.append(ctx.t("post.pk.joined", name=e.data.get("name", ""), side=side))
        elif e.kind == "pk_fled":
            items.append(ctx.t("post.pk.fled_one", name=e.data.get("name", "")))
    last = group.events[-1].data if group.events else {}
    lines = [ctx.t("post.pk.now", fight=fighters(ctx, last))] if last.get("attackers") else []
    title = ctx.raw("post.title.pk_update", title=ctx.game.title)
    if len(group.events) == 1:  # one fighter joined or fled: the title says who, in which PK
        e = group.events[0]
        title = ctx.raw(
            f"post.title.{e.kind}",
            name=e.data.get("name", ""),
            side=ctx.raw(f"post.pk.{e.data.get('side', 'attack')}"),
            pk=fighters(ctx, e.data, without=e.data.get("player")),
            title=ctx.game.title,
        )
    return title, [Section(items=items), Section(lines=lines)]


def _loss(ctx: Ctx, pid: str, outcome: str, amount: int) -> Markup:
    return ctx.t(f"post.loss.{outcome}", name=ctx.name(pid), n=amount)


def pk_result(ctx: Ctx, group: Group, deadline: datetime | None) -> Built:
    pk = group.first("pk_resolved") or {}
    strengths = pk.get("strengths") or {}
    winner = pk.get("winner")
    sides = {"attack": pk.get("attackers", []), "defend": pk.get("defenders", [])}
    lines: list[Markup] = []
    if winner is None:
        headline = ctx.t("post.pk.no_winner")
    else:
        losing = "defend" if winner == "attack" else "attack"
        key = "post.pk.by_default" if pk.get("by_default") else "post.pk.winner"
        headline = ctx.t(
            key,
            side=ctx.t(f"post.pk.{winner}"),
            winners=ctx.names(sides[winner]),
            losers=ctx.names(sides[losing]),
        )
    lines.append(ctx.fmt.bold(headline))
    side_lines: list[Markup] = []
    for side, members in sides.items():
        if side in strengths:
            side_lines.append(
                ctx.t(
                    "post.pk.side_line",
                    side=ctx.t(f"post.pk.{side}"),
                    names=ctx.names(members),
                    strength=strengths[side],
                )
            )
        else:
            side_lines.append(
                ctx.t("post.pk.side_plain", side=ctx.t(f"post.pk.{side}"), names=ctx.names(members))
            )
    if "attack" in strengths and "defend" in strengths and winner is not None:
        attack, defend = int(strengths["attack"]), int(strengths["defend"])
        side_lines.append(_odds_line(ctx, attack, defend))
        roll = _roll_line(ctx, attack, defend, pk.get("roll"))
        if roll is not None:
            side_lines.append(roll)
    if pk.get("fled"):
        side_lines.append(ctx.t("post.pk.fled", names=ctx.names(pk["fled"])))
    amount = int(ctx.game.settings.get("pk_loss_power", 1))
    losses = [_loss(ctx, pid, outcome, amount) for pid, outcome in (pk.get("losses") or {}).items()]
    sections = [Section(lines=lines), Section(items=side_lines)]
    if losses:
        sections.append(Section(title=ctx.t("post.head.losses"), items=losses))
    story = fighters(ctx, pk)
    if winner is not None and not pk.get("by_default"):  # the title says who beat whom
        sep = ctx.raw("list_sep")
        story = ctx.raw(
            "post.pk.beat",
            winners=sep.join(_members(ctx, pk, "attackers" if winner == "attack" else "defenders")),
            losers=sep.join(_members(ctx, pk, "defenders" if winner == "attack" else "attackers")),
        )
    title = ctx.raw("post.title.pk_result", pk=story, title=ctx.game.title)
    return title, sections

"""The receipts post: one short line per close — the receipts sealed there, each shortened
to what a reader compares by eye — and one line when they can be checked, linking the
spectator page, which re-checks every receipt and roll (``/g/<id>?verify=1``). The full
receipts fold away where the format can fold ([spoiler] in BBCode); Markdown forums (no
``<details>`` in Misago) and chats get the link. No JSON, no shell, no salts in a post: the
page shows those. The game's sealer names its closes and the receipts' owners
(:mod:`app.kit.receipts`)."""

from __future__ import annotations

from markupsafe import Markup

from app.kit.post_parts import Ctx, Group, Section
from app.publish.receipts import sealer_of

SHORT = 12  # hex digits shown in the thread: 48 bits, plenty to tell two receipts apart


def short(receipt: str) -> str:
    return receipt[:SHORT] + "…" if len(receipt) > SHORT else receipt


def grouped(receipt: str) -> str:
    """A whole receipt in groups of 16 digits: it wraps on a phone and still reads."""
    return " ".join(receipt[i : i + 16] for i in range(0, len(receipt), 16))


def check_line(ctx: Ctx) -> Markup:
    """Where a reader checks: the spectator page, or the director's archive."""
    url = ctx.page_url(f"/g/{ctx.game.id}?verify=1")
    if url is None:
        return ctx.t("rc.check_offline")
    return ctx.t("rc.check", link=ctx.fmt.link(url, ctx.phrase("rc.check_label")))


def receipts_post(ctx: Ctx, group: Group) -> tuple[str, list[Section]]:
    """A post of receipts alone (a close that opened nothing else to post)."""
    return ctx.raw("title.receipts", title=ctx.game.title), receipt_sections(ctx, group)


def receipt_sections(ctx: Ctx, group: Group, within: bool = False) -> list[Section]:
    """The receipts of the group's closes, as the last sections of a post. ``within``: in
    the post of the close that sealed them (so a close adds no post of its own), headed
    【收据】; the end post has linked the spectator page already."""
    sealer = sealer_of(ctx.game.ruleset)
    sep = ctx.t("rc.sep")
    lines: list[Markup] = []
    folded: list[Markup] = []
    for sealed in group.of("orders_sealed"):
        label = sealer.label(ctx, sealed)
        owners = [
            sealer.owner(ctx, r["owner"]) + Markup(" ") + ctx.fmt.mono(short(r["receipt"]))
            for r in sealed["receipts"]
        ]
        lines.append(ctx.t("rc.sealed_line", label=label, receipts=sep.join(owners)))
        folded.extend(
            ctx.t(
                "rc.full",
                label=label,
                owner=sealer.owner(ctx, r["owner"]),
                receipt=grouped(r["receipt"]),
            )
            for r in sealed["receipts"]
        )
    for opened in group.of("receipts_opened"):
        labels: list[Markup] = []
        for item in opened["receipts"]:
            label = sealer.label(ctx, sealer.label_of_key(item["key"]))
            if label not in labels:
                labels.append(label)
        key = "rc.opened_end" if opened.get("reason") == "end" else "rc.opened_line"
        lines.append(ctx.t(key, labels=ctx.join(labels), n=len(opened["receipts"])))
    if not lines:
        return []
    if not (within and group.kind == "game_finished"):
        lines.append(check_line(ctx))
    sections = [Section(title=ctx.t("head.receipts") if within else None, lines=lines)]
    fold = ctx.fmt.fold(ctx.phrase("rc.fold"), ctx.fmt.lines(folded)) if folded else Markup("")
    if fold:
        sections.append(Section(lines=[fold]))
    return sections

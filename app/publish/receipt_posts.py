"""The receipts post: the receipts sealed at a close, and the salts and orders opened once
those orders are revealed (see ``receipts.py``). The game's sealer names its closes and the
receipts' owners (:mod:`app.kit.receipts`)."""

from __future__ import annotations

from markupsafe import Markup

from app.kit.post_parts import Ctx, Group, Section
from app.publish.receipts import canonical_orders, sealer_of


def receipts_post(ctx: Ctx, group: Group) -> tuple[str, list[Section]]:
    sealer = sealer_of(ctx.game.ruleset)
    sections: list[Section] = []
    for sealed in group.of("orders_sealed"):
        items = [
            sealer.owner(ctx, r["owner"])
            + Markup("：" if ctx.lang == "zh" else ": ")
            + ctx.fmt.mono(r["receipt"])
            for r in sealed["receipts"]
        ]
        sections.append(
            Section(
                title=sealer.label(ctx, sealed),
                lines=[sealer.sealed_intro(ctx, sealed)],
                items=items,
                quote=[ctx.t("rc.sealed.note")],
            )
        )
    for opened in group.of("receipts_opened"):
        intro = ctx.t("rc.opened.end" if opened.get("reason") == "end" else "rc.opened.revealed")
        sections.append(Section(lines=[intro]))
        for item in opened["receipts"]:
            label = sealer.label(ctx, sealer.label_of_key(item["key"]))
            owner = sealer.owner(ctx, item["owner"])
            sections.append(
                Section(
                    title=ctx.t("rc.opened.item", label=label, owner=owner),
                    lines=[
                        ctx.t("rc.salt", salt=ctx.fmt.mono(item["salt"])),
                        ctx.t("rc.receipt", receipt=ctx.fmt.mono(item["receipt"])),
                        ctx.t("rc.orders"),
                    ],
                    code=canonical_orders(item["orders"]),
                )
            )
        if opened["receipts"]:
            first = opened["receipts"][0]
            example = (
                "printf '%s:%s' '"
                + first["salt"]
                + "' '"
                + canonical_orders(first["orders"]).replace("'", "'\\''")
                + "' | sha256sum"
            )
            sections.append(Section(lines=[ctx.t("rc.how")], code=example))
    return ctx.raw("title.receipts", title=ctx.game.title), sections

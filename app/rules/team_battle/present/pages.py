"""Team Battle's pages (see :mod:`app.kit.pages`): the board both sides face, the side's orders
of the round, the ready button, the slot and troop widgets and the odds preview."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.kit.pages import Field, Line, Pages, Part, Translate, order_name
from app.rules.team_battle.odds import preview
from app.rules.team_battle.present import board as parts
from app.rules.team_battle.present import lines
from app.rules.team_battle.words import WORDS

JSON = dict[str, Any]
_ODDS_PHASES = ("command", "battle", "response")


class TeamBattlePages(Pages):
    templates = Path(__file__).resolve().parent / "templates" / "pages"
    sides = parts.SIDES

    def side_name(self, side: str | None, t: Translate) -> str:
        return parts.side_label(side, t)

    def header_bits(self, view: Mapping[str, Any], t: Translate) -> list[str]:
        return [t("round_n", n=view["round"])] if view.get("round") else []

    def you_play(self, you: Mapping[str, Any], t: Translate, name: str) -> str:
        if you.get("side"):
            return t("page.you_play", name=name, side=parts.side_label(you.get("side"), t))
        return super().you_play(you, t, name)

    def own_orders_title(self, t: Translate) -> str:
        return t("page.your_orders")

    def text_order_hint(self, t: Translate) -> str:
        return t("page.text_order_hint")

    def spectator_parts(self, page: Mapping[str, Any], t: Translate, lang: str) -> list[Part]:
        view = page["view"]
        me = view.get("you", {}).get("side")
        return [Part("team_battle/board.html", parts.board(view, me, t, lang))]

    def console_parts(self, page: Mapping[str, Any], t: Translate, lang: str) -> list[Part]:
        view = page["view"]
        orders = [
            {
                "side": parts.side_label(o["side"], t),
                "round": o["round"],
                "phase": t(f"phase.{o['phase']}"),
                "name": order_name(WORDS, o["type"], lang),
                "body": parts.body_text(
                    {k: v for k, v in o["body"].items() if k != "type"}, t, lang
                ),
                "status": t(f"order_status_{o['status']}"),
                "by": page["names"].get(str(o.get("player_id")), ""),
            }
            for o in reversed(view.get("orders", []))
        ]
        board = parts.board(view, view.get("you", {}).get("side"), t, lang)
        return [Part("team_battle/console.html", {"board": board, "all_orders": orders})]

    def event_line(self, line: Line) -> str | None:
        return lines.event_line(line)

    def own_orders(self, page: Mapping[str, Any], t: Translate, lang: str) -> list[JSON]:
        view = page["view"]
        return parts.own_orders(view, (view.get("you") or {}).get("side"), t, lang)

    def ready(self, view: Mapping[str, Any]) -> bool | None:
        sides = view.get("sides") or {}
        ready: bool | None = (sides.get((view.get("you") or {}).get("side")) or {}).get("ready")
        return ready

    def can_ready(self, view: Mapping[str, Any]) -> bool:
        return view.get("phase") not in ("finished", None)

    def order_tags(self, entry: Mapping[str, Any], t: Translate) -> list[str]:
        tags = [t("page.order_public") if entry.get("public") else t("page.order_hidden")]
        if entry.get("tier"):
            tags.append(t("page.order_tier", n=entry["tier"]))
        if entry.get("cost", 1) > 1:
            tags.append(t("page.order_cost", n=entry["cost"]))
        return tags

    def order_field(
        self,
        kind: str,
        name: str,
        prop: Mapping[str, Any],
        root: Mapping[str, Any],
        choices: Any,
        base: dict[str, Any],
        page: Mapping[str, Any],
        t: Translate,
        lang: str,
    ) -> Field | None:
        return parts.order_field(name, prop, root, choices or {}, base, t, lang)

    def has_odds(self, view: Mapping[str, Any]) -> bool:
        return view.get("phase") in _ODDS_PHASES

    def odds(
        self,
        view: Mapping[str, Any],
        draft: list[JSON],
        rng: random.Random,
        rounds: int,
        replacing: str | None,
        t: Translate,
        lang: str,
    ) -> Part | None:
        side = view.get("you", {}).get("side")
        if side is None:  # not a side's player: nothing to preview until there is one
            return Part("team_battle/odds.html", {"odds": None})
        result = preview(dict(view), side, draft, rng, rounds, replacing=replacing)
        return Part("team_battle/odds.html", {"odds": parts.odds_model(result, side, t, lang)})


PAGES: Pages = TeamBattlePages()

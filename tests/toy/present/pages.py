"""The toy duel's pages (see :mod:`app.kit.pages`): the score and past rounds for everyone,
the player's own throw, the director's view of both throws, the hand as a choice in words."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.kit.pages import Field, Pages, Part, Translate

JSON = dict[str, Any]
HERE = Path(__file__).resolve().parent
HANDS = ("rock", "paper", "scissors")


def _hand(hand: str | None, t: Translate) -> str:
    return t(f"order.throw.{hand}") if hand else t("page.no_throw")


def _names(view: Mapping[str, Any]) -> dict[str, str]:
    return {p["id"]: p["name"] for p in view.get("players", [])}


def _sep(lang: str) -> str:
    return ", " if lang == "en" else "、"


def _score(view: Mapping[str, Any], t: Translate, lang: str) -> JSON:
    names = _names(view)
    history = []
    for h in view.get("history", []):
        throws = _sep(lang).join(
            t("page.hand_of", name=names.get(pid, "?"), hand=_hand(hand, t))
            for pid, hand in h["throws"].items()
        )
        winner = names.get(h["winner"] or "", "")
        if not winner:
            result = t("page.nobody")
        elif h.get("tie_broken"):
            result = t("page.winner_by_lot", name=winner)
        else:
            result = t("page.winner_is", name=winner)
        history.append(t("page.history_line", round=h["round"], throws=throws, result=result))
    final = ""
    if view.get("phase") == "finished":
        won = view.get("winner")
        final = (
            t("page.final_draw")
            if won in (None, "draw")
            else t("page.final_winner", name=names.get(won, "?"))
        )
    return {
        "scores": [{"name": names.get(pid, "?"), "points": n} for pid, n in view["scores"].items()],
        "history": history,
        "shouts": [
            t("event.shouted", name=names.get(s["player_id"], "?"), taunt=s["taunt"])
            for s in view.get("shouts", [])
        ],
        "final": final,
    }


def _pending(view: Mapping[str, Any], player_id: str) -> str | None:
    for order in view.get("orders") or []:
        if order["player_id"] == player_id and order["status"] == "pending":
            return str(order["body"]["hand"])
    return None


class ToyPages(Pages):
    templates = HERE / "templates" / "pages"

    def header_bits(self, view: Mapping[str, Any], t: Translate) -> list[str]:
        if not view.get("round"):
            return []
        return [t("page.round_of", round=view["round"], rounds=view["rounds"])]

    def you_play(self, you: Mapping[str, Any], t: Translate, name: str) -> str:
        return t("page.you_play", name=name)

    def own_orders_title(self, t: Translate) -> str:
        return t("page.your_orders")

    def text_order_hint(self, t: Translate) -> str:
        return t("page.text_order_hint")

    def spectator_parts(self, page: Mapping[str, Any], t: Translate, lang: str) -> list[Part]:
        return [Part("toy_duel/score.html", _score(page["view"], t, lang))]

    def player_parts(self, page: Mapping[str, Any], t: Translate, lang: str) -> list[Part]:
        view = page["view"]
        me = str((view.get("you") or {}).get("id"))
        return [
            Part("toy_duel/score.html", _score(view, t, lang)),
            Part("toy_duel/mine.html", {"throw": _hand(_pending(view, me), t)}),
        ]

    def console_parts(self, page: Mapping[str, Any], t: Translate, lang: str) -> list[Part]:
        view = page["view"]
        ready = view.get("ready") or {}
        throws = [
            {
                "name": p["name"],
                "hand": _hand(_pending(view, p["id"]), t),
                "ready": t("page.ready") if ready.get(p["id"]) else t("page.not_ready"),
            }
            for p in view.get("players", [])
        ]
        playing = view["phase"] == "throwing"
        return [
            Part("toy_duel/score.html", _score(view, t, lang)),
            Part("toy_duel/console.html", {"throws": throws, "playing": playing}),
        ]

    def own_orders(self, page: Mapping[str, Any], t: Translate, lang: str) -> list[JSON]:
        return [
            {
                "id": o["id"],
                "type": o["type"],
                "name": t("order.throw"),
                "body": _hand(o["body"]["hand"], t),
                "status": t(f"order_status_{o['status']}"),
                "note": "",
                "changeable": o["status"] == "pending",
                "revisable": o["status"] == "pending",
            }
            for o in page["view"].get("orders") or []
        ]

    def ready(self, view: Mapping[str, Any]) -> bool | None:
        me = (view.get("you") or {}).get("id")
        return bool((view.get("ready") or {}).get(me))

    def can_ready(self, view: Mapping[str, Any]) -> bool:
        return view.get("phase") == "throwing"

    def order_tags(self, entry: Mapping[str, Any], t: Translate) -> list[str]:
        return [t("page.tag.public" if entry.get("public") else "page.tag.hidden")]

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
        labelled = {**base, "label": t(f"page.field.{name}"), "help": ""}
        if name == "hand":
            options = [(hand, t(f"order.throw.{hand}")) for hand in HANDS]
            return Field(kind="select", options=options, **labelled)
        if name == "taunt":
            return Field(kind="text", **labelled)
        return None


PAGES: Pages = ToyPages()

"""The Other Side's pages (see :mod:`app.kit.pages`): the map (none for spectators: the public
knows no cell, IS-55), who lives, the player's own numbers and standing orders, the evening
windows in the header, the director's full map and tables, the scenario on the new-game form."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.kit.pages import Field, Line, NewGame, Pages, Part, Translate, order_name
from app.rules.island.present import grid, lines
from app.rules.island.scenario import load_scenario
from app.rules.island.settings import player_range
from app.rules.island.words import WORDS

JSON = dict[str, Any]
HERE = Path(__file__).resolve().parent
EXAMPLE_SCENARIO = HERE.parents[3] / "scenarios" / "island-example.yaml"


@functools.cache
def _example() -> dict[str, int]:
    """The example scenario's size and how many players it takes (IS-4), for the form."""
    settings = load_scenario(EXAMPLE_SCENARIO.read_text(encoding="utf-8"))
    fewest, most = player_range(settings)
    return {"width": settings.width, "height": settings.height, "min": fewest, "max": most}


class IslandPages(Pages):
    templates = HERE / "templates" / "pages"
    action_numbers = ("stamina", "power", "food", "hunger")
    irreversible_tools = frozenset({"kill_player", "end_game"})

    def header_bits(self, view: Mapping[str, Any], t: Translate) -> list[str]:
        return [t("day_n", n=view["day"])] if view.get("day") else []

    def phase_label(self, phase: str, t: Translate) -> str | None:
        return t("page.phase_day") if phase == "day" else None

    def time_window(self, view: Mapping[str, Any], clock: str) -> str | None:
        """The evening windows (IS-3), from the times the public view announces."""
        start, deep = view.get("pk_window_start"), view.get("deep_night_start")
        if not isinstance(start, str) or not isinstance(deep, str):
            return None
        if clock >= deep:
            return "page.deep_night"
        if clock >= start:
            return "page.pk_window"
        return None

    def text_order_hint(self, t: Translate) -> str:
        return t("page.text_order_hint")

    def _map(self, page: Mapping[str, Any], t: Translate) -> list[Part]:
        view = page["view"]
        if view.get("visible_cells") is not None or view.get("all_players"):
            return [Part("island/map.html", grid.grid(view, page["settings"], t))]
        return []

    def spectator_parts(self, page: Mapping[str, Any], t: Translate, lang: str) -> list[Part]:
        view = page["view"]
        shown = self._map(page, t)
        people = {
            "alive": view.get("players", []),
            "dead": view.get("dead", []),
            "announcements": view.get("announcements", []),
        }
        shown.append(Part("island/people.html", people))
        return shown

    def player_parts(self, page: Mapping[str, Any], t: Translate, lang: str) -> list[Part]:
        stats = Part("island/stats.html", grid.stats(page["view"], page["settings"], t))
        return [*self._map(page, t), stats]

    def console_parts(self, page: Mapping[str, Any], t: Translate, lang: str) -> list[Part]:
        view = page["view"]
        if view.get("visible_cells") is None and not view.get("all_players"):
            return []
        names = page["names"]
        data: dict[str, Any] = {
            "map": grid.grid(view, page["settings"], t),
            "players_table": [],
            "orders": [],
            "stories": [],
        }
        if view.get("all_players"):
            items = page["settings"].get("items", {})
            data["players_table"] = [
                {
                    "name": p["name"],
                    "at": "({},{})".format(*p["at"]) if p.get("at") else "",
                    "alive": p["alive"],
                    "stamina": f"{p['stamina']}/{p['max_stamina']}",
                    "power": p["effective_power"],
                    "hunger": p["hunger"],
                    "ill": p["ill"],
                    "food": p["food"],
                    "inventory": "、".join(
                        f"{items.get(k, {}).get('name') or k}×{v}"
                        for k, v in p["inventory"].items()
                    ),
                }
                for p in view["all_players"].values()
            ]
            data["stories"] = [q for q in view.get("story_queue", []) if q["status"] == "open"]
            data["orders"] = [
                {
                    "who": names.get(o["player"], o["player"]),
                    "name": order_name(WORDS, o["type"], lang),
                    "target": names.get(str(o.get("target")), "") if o.get("target") else "",
                    "status": t(f"order_status_{o['status']}"),
                }
                for o in view.get("orders", {}).values()
                if o["status"] in ("pending", "held")
            ]
        return [Part("island/console.html", data)]

    def event_line(self, line: Line) -> str | None:
        return lines.event_line(line)

    def own_orders(self, page: Mapping[str, Any], t: Translate, lang: str) -> list[JSON]:
        return grid.own_orders(page["view"], page["names"], t, lang)

    def alive(self, view: Mapping[str, Any]) -> bool:
        return bool(view.get("alive"))

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
        return grid.order_field(kind, name, prop, choices or [], base, page, t, lang)

    def new_game(self, t: Translate) -> NewGame:
        # The map and tables come from the scenario file: no advanced settings on the form.
        part = Part("island/scenario.html", {"example": _example()})
        return NewGame(parts=[part], settings_folded=True, advanced_settings=False)

    def example_scenario(self) -> str | None:
        return EXAMPLE_SCENARIO.read_text(encoding="utf-8")


PAGES: Pages = IslandPages()

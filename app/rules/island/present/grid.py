"""The Other Side's page parts as plain data: the map, the player's numbers, their standing
orders and the order widgets, for the partials in ``templates/pages`` (see
:mod:`app.kit.pages`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.kit.pages import Field, Translate, order_name
from app.rules.island.words import WORDS

JSON = dict[str, Any]
DIRECTIONS = ("up", "down", "left", "right")


def grid(view: Mapping[str, Any], settings: Mapping[str, Any], t: Translate) -> JSON:
    """The grid: cells in vision with what is seen there, the rest out of sight."""
    width, height = int(view["width"]), int(view["height"])
    terrains = settings.get("terrains", {})
    kinds = settings.get("monster_kinds", {})
    seen: dict[tuple[int, int], Mapping[str, Any]] = {
        (c["at"][0], c["at"][1]): c for c in view.get("visible_cells", [])
    }
    director_cells: dict[tuple[int, int], list[str]] = {}
    for p in (view.get("all_players") or {}).values():
        if p.get("alive") and p.get("at"):
            director_cells.setdefault((p["at"][0], p["at"][1]), []).append(p["name"])
    director_monsters: dict[tuple[int, int], list[JSON]] = {}
    for m in (view.get("monsters") or {}).values() if "all_players" in view else []:
        if m.get("count", 0) > 0:
            director_monsters.setdefault((m["at"][0], m["at"][1]), []).append(m)
    here = tuple(view["position"]) if view.get("position") else None
    rows = []
    for y in range(1, height + 1):
        cells = []
        for x in range(1, width + 1):
            cell = seen.get((x, y))
            terrain_id = cell["terrain"] if cell else _terrain(settings, x, y)
            visible = cell is not None or "all_players" in view
            cells.append(
                {
                    "x": x,
                    "y": y,
                    "visible": visible,
                    "terrain": terrain_id if visible else "",
                    "terrain_name": terrains.get(terrain_id, {}).get("name") or terrain_id
                    if visible
                    else "",
                    "label": f"({x},{y})" + ("" if visible else " " + t("page.unknown_cell")),
                    "here": here == (x, y),
                    # "★ you" marks the viewer's own cell; the others there by name.
                    "players": [p["name"] for p in cell["players"] if p["id"] != view.get("me")]
                    if cell
                    else director_cells.get((x, y), []),
                    "monsters": [
                        f"{kinds.get(m['kind'], {}).get('name') or m['kind']}×{m['count']}"
                        for m in (cell or {}).get("monsters", [])
                        or director_monsters.get((x, y), [])
                    ],
                    "busy": bool(cell and cell.get("busy")),
                }
            )
        rows.append(cells)
    return {"rows": rows, "width": width, "fit": width <= 8}


def _terrain(settings: Mapping[str, Any], x: int, y: int) -> str:
    for cell in settings.get("cells", []):
        if list(cell.get("at", [])) == [x, y]:
            return str(cell.get("terrain"))
    return str(settings.get("default_terrain", "plain"))


def stats(view: Mapping[str, Any], settings: Mapping[str, Any], t: Translate) -> JSON:
    items = settings.get("items", {})
    inventory = [
        {"id": k, "name": items.get(k, {}).get("name") or k, "count": v}
        for k, v in (view.get("inventory") or {}).items()
    ]
    equipped = view.get("equipped")
    return {
        "stamina": view.get("stamina"),
        "max_stamina": view.get("max_stamina"),
        "power": view.get("power"),
        "hunger": view.get("hunger"),
        "ill": view.get("ill"),
        "alive": view.get("alive"),
        "food": view.get("food"),
        "debt": view.get("debt"),
        "vision": view.get("vision"),
        "position": "({},{})".format(*view["position"]) if view.get("position") else "",
        "inventory": inventory,
        "equipped": (items.get(equipped, {}).get("name") or equipped) if equipped else t("none"),
    }


def own_orders(
    view: Mapping[str, Any], names: Mapping[str, str], t: Translate, lang: str
) -> list[JSON]:
    out = []
    for order in view.get("orders", []) or []:
        out.append(
            {
                "id": order["id"],
                "type": order["type"],
                "name": order_name(WORDS, order["type"], lang),
                "body": _body(order, names, t, lang),
                "status": t(f"order_status_{order['status']}"),
                "note": t("page.target_moved_note") if order.get("target_moved") else "",
                "changeable": order["status"] in ("pending", "held"),
                "revisable": bool(order.get("target_moved")),
            }
        )
    return out


def _body(order: Mapping[str, Any], names: Mapping[str, str], t: Translate, lang: str) -> str:
    """What a standing order is about: "李四，路线 右", "→ (3,2)"."""
    parts = []
    if order.get("target"):
        parts.append(names.get(str(order["target"]), t("player")))
    if order.get("path"):
        route = "→".join(t(f"page.dir_{d}") for d in order["path"] if d in DIRECTIONS)
        parts.append(f"{t('page.path')} {route}")
    if order.get("follow"):
        parts.append(t("page.follow"))
    dest = order.get("dest")
    if isinstance(dest, list) and len(dest) == 2:
        parts.append(f"→ ({dest[0]},{dest[1]})")
    return (", " if lang == "en" else "，").join(parts)


def order_field(
    kind: str,
    name: str,
    prop: Mapping[str, Any],
    choices: list[Any],
    base: dict[str, Any],
    page: Mapping[str, Any],
    t: Translate,
    lang: str,
) -> Field | None:
    names = page["names"]
    view = page["view"]
    items = page["settings"].get("items", {})

    def who(pid: Any) -> str:
        return names.get(str(pid), str(pid))

    if name == "direction":
        allowed = choices if kind == "move" else list(DIRECTIONS)
        options = [(d, t(f"page.dir_{d}")) for d in allowed]
        if kind == "flee":
            base["required"] = False
            options = [("", t("optional")), *options]
        return Field(kind="select", options=options, **base)
    if name == "target" and kind == "assassinate":
        options = [(c["target"], who(c["target"])) for c in choices]
        return Field(kind="select", options=options, **base)
    if name == "path" and kind == "assassinate":
        paths = sorted({",".join(c["path"]) for c in choices})
        options = [
            (p, "→".join(t(f"page.dir_{d}") for d in p.split(",")) if p else t("none"))
            for p in paths
        ]
        return Field(kind="select", options=options, **{**base, "required": False})
    if name == "target":
        return Field(kind="select", options=[(c, who(c)) for c in choices], **base)
    if name == "targets":
        return Field(kind="checkboxes", options=[(c, who(c)) for c in choices], **base)
    if name == "to":
        return Field(kind="select", options=[(c, who(c)) for c in choices], **base)
    if name == "monster":
        kinds = page["settings"].get("monster_kinds", {})
        monsters = {
            m["id"]: m["kind"] for c in view.get("visible_cells", []) for m in c.get("monsters", [])
        }
        options = [
            (c, str(kinds.get(monsters.get(c, ""), {}).get("name") or monsters.get(c) or c))
            for c in choices
        ]
        return Field(kind="select", options=options, **base)
    if name == "challenge":
        # A PK reads as who is in it ("张三 vs 李四"), never as its id.
        known = {
            str(ch.get("id")): ch
            for ch in [*(view.get("challenges") or []), *(view.get("public_challenges") or [])]
        }
        sep = ", " if lang == "en" else "、"

        def fight(cid: str) -> str:
            ch = known.get(cid)
            if not ch:
                return t("page.challenge")
            return " vs ".join(
                sep.join(who(p) for p in ch.get(k) or []) or t("none")
                for k in ("attackers", "defenders")
            )

        ids = sorted({c["challenge"] for c in choices})
        return Field(kind="select", options=[(c, fight(c)) for c in ids], **base)
    if name == "side" and kind == "pk_join":
        return Field(
            kind="select",
            options=[("attack", t("page.pk_attack")), ("defend", t("page.pk_defend"))],
            **base,
        )
    if name == "item" and kind == "equip":
        options = [(c, items.get(c, {}).get("name") or c) for c in choices]
        return Field(
            kind="select",
            options=[*options, ("", t("page.unequip"))],
            **{**base, "required": False},
        )
    if name == "item":
        goods = [("food", t("page.food"))] if (view.get("food") or 0) > 0 else []
        goods += [(k, items.get(k, {}).get("name") or k) for k in (view.get("inventory") or {})]
        return Field(kind="select", options=goods, **base)
    if name in ("count", "food"):
        return Field(kind="number", minimum=1, value=1, **base)
    return None

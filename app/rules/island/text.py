"""Island orders in words: ``orders.lark`` read into order bodies, and the echo.

"左移并暗杀张三" → ``{"type": "assassinate", "target": "<张三's id>", "path": ["left"]}``
(IS-22), echoed "暗杀：张三（先向左移动）". Names are looked up in what the player may
see: the roster, the items they hold, the monsters and PKs in sight. Pure: reads text
only; whether an order is allowed now is for the rules when it is submitted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lark import Token, Tree

from app.rules.base import JSON, Named, ParsedOrders, TextContext, Viewer
from app.rules.island.core import settings_of
from app.rules.island.schema import ORDER_NAMES
from app.rules.textorders import (
    MAX_TEXT_CHARS,
    Guess,
    Lookup,
    Normalized,
    Problems,
    TextGrammar,
    drop_defaults,
    join_echo,
    normalize,
    number,
    subtrees,
    tokens,
    too_long,
)

GRAMMAR = TextGrammar("app.rules.island", "orders.lark")

# Optional fields and the value that means the same as leaving them out (API.md).
DEFAULTS: dict[str, dict[str, Any]] = {
    "move": {"hidden": False},
    "flee": {"direction": None},
    "eat": {"food": 1},
    "hunt": {"with": [], "use_weapon": False},
    "pk": {"use_weapon": False},
    "pk_join": {"use_weapon": False},
    "assassinate": {"path": [], "follow": False, "use_weapon": False},
    "give": {"count": 1},
}

# Food is an item named "food" in orders (IS-35, IS-36), whatever the scenario.
FOOD = Named("food", ("食物", "粮食", "口粮", "干粮", "food"))

_DIRECTIONS = {"UP": "up", "DOWN": "down", "LEFT": "left", "RIGHT": "right"}
_DIRECTION_WORDS = {
    "up": ("向上", "up"),
    "down": ("向下", "down"),
    "left": ("向左", "left"),
    "right": ("向右", "right"),
}
# The echo names an order as the catalogue does in Chinese, but a PK as the grammar writes it
# ("PK：张三"), and in English in its own words.
_ECHO_ZH: dict[str, str] = {"pk": "PK"}
NAMES_EN: dict[str, str] = {
    "move": "Move",
    "explore": "Explore",
    "flee": "Flee",
    "eat": "Eat",
    "hunt": "Hunt",
    "pk": "PK",
    "pk_join": "Join PK",
    "assassinate": "Assassinate",
    "guard": "Guard against",
    "give": "Give",
    "equip": "Equip",
}


def text_context(state: JSON, viewer: Viewer) -> TextContext:
    """What a player may name, and only what their own view shows (IS-55): the roster
    (public), food and the items they hold, the resident monsters in sight (those in their
    own cell preferred), the PKs in sight. So reading a text never tells a player that a
    monster or an item exists beyond what they could see anyway."""
    s = settings_of(state)
    roster = tuple(Named(pid, (state["players"][pid]["name"],)) for pid in state["player_order"])
    player = state["players"].get(viewer.player_id or "")
    if viewer.role != "player" or player is None or player["at"] is None:
        # Before the start nobody holds or sees anything yet: names only.
        return TextContext(roster=roster, me=viewer.player_id, items=(FOOD,))
    from app.rules.island.view import view

    seen = view(state, viewer)
    held = sorted({*seen["inventory"], *([seen["equipped"]] if seen["equipped"] else [])})
    items = tuple(
        _named(item_id, s.items[item_id].name if item_id in s.items else "") for item_id in held
    )
    kinds = {m.id: m.kind for m in s.monsters}
    monsters: list[Named] = []
    here: list[str] = []
    for cell in seen["visible_cells"]:
        for m in cell["monsters"]:
            kind = kinds.get(m["id"], m["kind"])
            kind_name = s.monster_kinds[kind].name if kind in s.monster_kinds else ""
            monsters.append(Named(m["id"], tuple(n for n in (kind_name, kind, m["id"]) if n)))
            if cell["at"] == seen["position"]:
                here.append(m["id"])
    challenges = tuple(
        (c["id"], tuple(c["attackers"]), tuple(c["defenders"])) for c in seen["challenges"]
    )
    return TextContext(
        roster=roster,
        me=viewer.player_id,
        items=(FOOD, *items),
        monsters=tuple(monsters),
        here=tuple(here),
        challenges=challenges,
    )


def _named(thing_id: str, name: str) -> Named:
    return Named(thing_id, (name, thing_id) if name else (thing_id,))


@dataclass
class _Reader:
    """One text's lookups and problems while its tree becomes bodies."""

    context: TextContext
    source: Normalized
    problems: Problems

    def __post_init__(self) -> None:
        me = (self.context.me,) if self.context.me else ()
        self.players = Lookup(self.context.roster, public=True, never_guess=me)
        self.items = Lookup(self.context.items)
        self.monsters = Lookup(self.context.monsters, prefer=self.context.here)

    def name(self, lookup: Lookup, token: Token) -> str | None:
        found = lookup.resolve(self.source.source(token.start_pos or 0, token.end_pos or 0))
        if isinstance(found, Guess):
            self.problems.guess(found)
            return None
        return found

    def who(self, node: Tree[Token]) -> str | None:
        return self.name(self.players, _only_token(node))

    def text_of(self, node: Tree[Token]) -> str:
        return self.source.source(node.meta.start_pos, node.meta.end_pos)

    def explain(self, node: Tree[Token], zh: str, en: str) -> None:
        self.problems.explain(self.text_of(node), zh, en)


def _only_token(node: Tree[Token]) -> Token:
    found = list(tokens(node))
    assert found, node
    return found[0]


def vocabulary(context: TextContext) -> dict[str, str]:
    """The game's names as grammar terminals (see orders.lark)."""
    return {
        "PLAYER": Lookup(context.roster).pattern(),
        "ITEM": Lookup(context.items).pattern(),
        "MONSTER": Lookup(context.monsters).pattern(),
    }


def parse_orders(text: str, context: TextContext) -> ParsedOrders:
    if len(text) > MAX_TEXT_CHARS:
        raise too_long()
    source = normalize(text)
    problems = Problems()
    reader = _Reader(context, source, problems)
    orders: list[JSON] = []
    for sentence, tree in GRAMMAR.read(source, problems, vocabulary(context)):
        reader.source = sentence
        for node in tree.children:
            if isinstance(node, Tree):
                orders.extend(_order(node, reader))
    if problems:
        raise problems.violation()
    orders = [drop_defaults(o, DEFAULTS) for o in orders]
    zh, en = join_echo([echo(o, context) for o in orders])
    return ParsedOrders(orders=orders, echo_zh=zh, echo_en=en)


def _direction(node: Tree[Token]) -> str:
    for token in tokens(node):
        if token.type in _DIRECTIONS:
            return _DIRECTIONS[token.type]
    raise AssertionError(node)


def _steps(node: Tree[Token]) -> int:
    found = subtrees(node, "steps")
    return _count(found[0]) if found else 1


def _count(steps: Tree[Token]) -> int:
    """How many steps "两格", "2 steps", "twice" say."""
    token = tokens(steps)[0]
    if token.type == "TWICE":
        return 2
    if token.type == "THRICE":
        return 3
    return max(1, number(steps))


def _order(node: Tree[Token], reader: _Reader) -> list[JSON]:
    kind = node.data
    if kind == "proxy":
        who = reader.who(subtrees(node, "who")[0])
        inner = [c for c in node.children if isinstance(c, Tree) and c.data != "who"][0]
        return [{**body, "for": who} for body in _order(inner, reader)]
    if kind == "move":
        hidden = any(t.type == "HIDDEN" for t in tokens(node))
        step: JSON = {"type": "move", "direction": _direction(node), "hidden": hidden}
        return [dict(step) for _ in range(_steps(node))]
    if kind == "explore":
        return [{"type": "explore"}]
    if kind == "flee":
        return [{"type": "flee", "direction": None}]
    if kind == "flee_to":
        # Flee + move is one cell (IS-13); "逃跑并向左走两格" goes on with plain moves.
        direction = _direction(node)
        more = [{"type": "move", "direction": direction, "hidden": False}] * (_steps(node) - 1)
        return [{"type": "flee", "direction": direction}, *[dict(m) for m in more]]
    if kind == "flee_setting":
        return [{"type": "flee", "standing": tokens(node)[0].type == "FLEE_ON"}]
    if kind == "eat":
        counts = subtrees(node, "count")
        return [{"type": "eat", "food": number(counts[0]) if counts else 1}]
    if kind == "hunt":
        return [_hunt(node, reader)]
    if kind == "pk":
        targets = [reader.who(w) for w in subtrees(node, "who")]
        return [{"type": "pk", "targets": targets, "use_weapon": _weapon(node)}]
    if kind == "pk_join":
        return _pk_join(node, reader)
    if kind == "assassinate":
        return [_assassinate(node, reader)]
    if kind == "guard":
        return [{"type": "guard", "target": reader.who(subtrees(node, "who")[0])}]
    if kind == "give":
        gift = subtrees(node, "gift")[0]
        counts = subtrees(gift, "count")
        return [
            {
                "type": "give",
                "to": reader.who(subtrees(node, "who")[0]),
                "item": reader.name(reader.items, _only_token(subtrees(gift, "thing")[0])),
                "count": number(counts[0]) if counts else 1,
            }
        ]
    if kind == "equip":
        item = reader.name(reader.items, _only_token(subtrees(node, "thing")[0]))
        return [{"type": "equip", "item": item}]
    if kind == "unequip":
        return [{"type": "equip", "item": None}]
    raise AssertionError(f"unexpected order node {kind}")


def _weapon(node: Tree[Token]) -> bool:
    return bool(subtrees(node, "use_weapon"))


def _hunt(node: Tree[Token], reader: _Reader) -> JSON:
    body: JSON = {"type": "hunt", "monster": None}
    prey = subtrees(node, "prey")
    named = list(tokens(prey[0])) if prey else []
    if named:
        body["monster"] = reader.name(reader.monsters, named[0])
    elif len(reader.context.here) == 1:
        body["monster"] = reader.context.here[0]  # "打猎": the one monster in your cell
    else:
        reader.explain(
            node,
            "请写明打哪只野兽。" if reader.context.here else "你所在的格子里没有看到野兽。",
            "Say which monster to hunt." if reader.context.here else "No monster in sight here.",
        )
    partners = [reader.who(w) for p in subtrees(node, "players") for w in subtrees(p, "who")]
    body["with"] = [p for p in partners if p is not None]
    body["use_weapon"] = _weapon(node)
    return body


def _pk_join(node: Tree[Token], reader: _Reader) -> list[JSON]:
    challenges = reader.context.challenges
    ids = [str(t) for t in tokens(node) if t.type == "CHALLENGE"]
    named = subtrees(node, "who")
    helped = reader.who(named[0]) if named else None
    against = any(t.type == "AGAINST" for t in tokens(node))
    side: str | None = None
    if subtrees(node, "attack_side"):
        side = "attack"
    elif subtrees(node, "defend_side"):
        side = "defend"
    chosen: tuple[str, tuple[str, ...], tuple[str, ...]] | None = None
    candidates = [c for c in challenges if not ids or c[0] == ids[0]]
    if helped is not None:
        candidates = [c for c in candidates if helped in c[1] or helped in c[2]]
    if ids and not candidates:
        # An id the player typed: the rules answer whether it exists.
        chosen = (ids[0], (), ())
    elif len(candidates) == 1:
        chosen = candidates[0]
    if chosen is None:
        reader.explain(
            node,
            "请写明加入哪一场PK（如 pk3）。",
            "Say which PK to join (e.g. pk3).",
        )
        return []
    if side is None and helped is not None and (helped in chosen[1] or helped in chosen[2]):
        on_attack = helped in chosen[1]
        side = "attack" if on_attack != against else "defend"
    if side is None:
        reader.explain(
            node,
            "请写明加入哪一方：攻方还是守方。",
            "Say which side to join: attack or defend.",
        )
        return []
    return [{"type": "pk_join", "challenge": chosen[0], "side": side, "use_weapon": _weapon(node)}]


def _assassinate(node: Tree[Token], reader: _Reader) -> JSON:
    path: list[str] = []
    for route in subtrees(node, "path"):
        for piece in route.children:
            if isinstance(piece, Tree) and piece.data == "move_step":
                path.append(_direction(piece))
            elif isinstance(piece, Tree) and piece.data == "steps":
                path.extend([path[-1]] * (_count(piece) - 1))
    return {
        "type": "assassinate",
        "target": reader.who(subtrees(node, "who")[0]),
        "path": path,
        "follow": bool(subtrees(node, "follow")),
        "use_weapon": _weapon(node),
    }


# --- the echo: the understanding in canonical words -----------------------------------------
def echo(order: JSON, context: TextContext) -> tuple[str, str]:
    """How an order reads back: "暗杀：张三（先向左移动）" / "Assassinate: 张三 (moving left first)"."""
    names = {n.id: n.name for n in (*context.roster, *context.items, *context.monsters)}

    def name(value: Any) -> str:
        return names.get(str(value), str(value))

    kind = order["type"]
    zh, en = _ECHO_ZH.get(kind) or ORDER_NAMES[kind][0], NAMES_EN[kind]
    if kind == "move":
        d_zh, d_en = _DIRECTION_WORDS[order["direction"]]
        if order.get("hidden"):
            zh_text, en_text = f"隐藏{zh}：{d_zh}", f"{en} (hidden): {d_en}"
        else:
            zh_text, en_text = f"{zh}：{d_zh}", f"{en}: {d_en}"
    elif kind == "flee" and "standing" in order:
        on = order["standing"]
        zh_text = "输了就逃跑：" + ("开" if on else "关")
        en_text = "Flee if I lose: " + ("on" if on else "off")
    elif kind == "flee" and order.get("direction"):
        d_zh, d_en = _DIRECTION_WORDS[order["direction"]]
        zh_text, en_text = f"逃跑并移动：{d_zh}", f"Flee and move: {d_en}"
    elif kind == "eat":
        food = order.get("food", 1)
        zh_text, en_text = f"{zh}：{food}", f"{en}: {food} food"
    elif kind == "hunt":
        monster = order["monster"]
        zh_text = f"{zh}：{name(monster)}（{monster}）"
        en_text = f"{en}: {name(monster)} ({monster})"
        if order.get("with"):
            zh_text += "，同行：" + "、".join(name(p) for p in order["with"])
            en_text += ", with " + ", ".join(name(p) for p in order["with"])
    elif kind == "pk":
        zh_text = f"{zh}：" + "、".join(name(t) for t in order["targets"])
        en_text = f"{en}: " + ", ".join(name(t) for t in order["targets"])
    elif kind == "pk_join":
        side_zh, side_en = (
            ("攻方", "attacking") if order["side"] == "attack" else ("守方", "defending")
        )
        zh_text = f"{zh}：{order['challenge']}（{side_zh}）"
        en_text = f"{en}: {order['challenge']} ({side_en} side)"
    elif kind == "assassinate":
        zh_text, en_text = f"{zh}：{name(order['target'])}", f"{en}: {name(order['target'])}"
        if order.get("path"):
            steps = [_DIRECTION_WORDS[d] for d in order["path"]]
            zh_text += "（先" + "、".join(s[0] for s in steps) + "移动）"
            en_text += " (moving " + ", ".join(s[1] for s in steps) + " first)"
        if order.get("follow"):
            zh_text += "（跟随）"
            en_text += " (following them)"
    elif kind == "guard":
        zh_text, en_text = f"{zh}：{name(order['target'])}", f"{en}: {name(order['target'])}"
    elif kind == "give":
        count = order.get("count", 1)
        zh_text = f"{zh}：{name(order['to'])}，{name(order['item'])}×{count}"
        en_text = f"{en}: {count} × {name(order['item'])} to {name(order['to'])}"
    elif kind == "equip" and order.get("item") is None:
        zh_text, en_text = "卸下武器", "Unequip"
    elif kind == "equip":
        zh_text, en_text = f"{zh}：{name(order['item'])}", f"{en}: {name(order['item'])}"
    else:
        zh_text, en_text = zh, en
    if order.get("use_weapon"):
        zh_text += "（使用限次武器）"
        en_text += " (using a limited-use weapon)"
    if order.get("for"):
        zh_text, en_text = (
            f"替{name(order['for'])}{zh_text}",
            f"For {name(order['for'])}: {en_text}",
        )
    return zh_text, en_text

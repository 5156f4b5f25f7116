"""Team Battle orders in words: ``orders.lark`` read into order bodies, and the echo.

"调兵 3→2 4人；反击2" → ``[{"type": "dispatch", "moves": [{"from": 3, "to": 2, "troops": 4}]},
{"type": "counter", "slot": 2}]``, echoed "调兵：3号位→2号位，4人；反击：2号位". Pure: reads
text only; whether the orders are allowed now is for ``validate`` when they are submitted.
"""

from __future__ import annotations

from dataclasses import dataclass

from lark import Token, Tree

from app.rules.base import JSON, ParsedOrders, RuleViolation, TextContext, Viewer
from app.rules.team_battle.messages import order_names
from app.rules.team_battle.order_types import ORDERS
from app.rules.textorders import (
    MAX_TEXT_CHARS,
    Normalized,
    Problems,
    TextGrammar,
    drop_defaults,
    join_echo,
    merge_adjacent,
    normalize,
    number,
    subtrees,
    tokens,
    too_long,
)

GRAMMAR = TextGrammar("app.rules.team_battle", "orders.lark")

# Optional fields and the value that means the same as leaving them out (TB-40, TB-47).
DEFAULTS: dict[str, dict[str, object]] = {
    "gather": {"from_left": None, "from_right": None},
    "surprise": {"from_left": None, "from_right": None},
}

# Players call Dispatch 调兵; the echo says it as they do.
_ECHO_NAME_ZH = {"dispatch": "调兵"}


@dataclass(frozen=True, slots=True)
class BoardContext(TextContext):
    """Team Battle orders name slots and order types, never a player; ``slots`` is how many
    slots each side has (TB-2), so a slot beyond the board is refused as the text is read."""

    slots: int | None = None


def text_context(state: JSON, viewer: Viewer) -> TextContext:
    slots = (state.get("settings") or {}).get("slots")
    return BoardContext(me=viewer.player_id, slots=int(slots) if slots else None)


def parse_orders(text: str, context: TextContext) -> ParsedOrders:
    if len(text) > MAX_TEXT_CHARS:
        raise too_long()
    problems = Problems()
    off_board: list[tuple[str, str, str]] = []
    orders: list[JSON] = []
    for sentence, tree in GRAMMAR.read(normalize(text), problems):
        for node in tree.children:
            if isinstance(node, Tree):
                body = _order(node, sentence, problems)
                if body is not None:
                    off_board.extend(_off_board(body, context, sentence, node))
                    orders.append(drop_defaults(body, DEFAULTS))
    if problems:
        for words, zh, en in off_board:
            problems.explain(words, zh, en)
        raise problems.violation()
    if off_board:
        raise RuleViolation(
            "slot_out_of_range",
            "TB-2",
            "".join(f"「{words}」：{zh}" for words, zh, _ in off_board),
            " ".join(f'"{words}": {en}' for words, _, en in off_board),
            status=422,
            extra={"off_board": [words for words, _, _ in off_board]},
        )
    orders = merge_adjacent(orders, "deploy", "troops")
    orders = _one_dispatch(orders)
    zh, en = join_echo([echo(o) for o in orders])
    return ParsedOrders(orders=orders, echo_zh=zh, echo_en=en)


def _slots_outside(body: JSON, slots: int) -> tuple[list[int], list[tuple[int, str]]]:
    """The slots an order names beyond a board of ``slots`` (its slot, a Dispatch's ends),
    and the edges a Gather or Surprise would take troops from: (slot, "left"|"right") with
    no neighbour there (TB-40, TB-47)."""
    named = [int(m[end]) for m in body.get("moves", []) for end in ("from", "to")]
    edges: list[tuple[int, str]] = []
    if "slot" in body:
        slot = int(body["slot"])
        named.append(slot)
        for key, side, neighbour in (
            ("from_left", "left", slot - 1),
            ("from_right", "right", slot + 1),
        ):
            if body.get(key) and 1 <= slot <= slots and not 1 <= neighbour <= slots:
                edges.append((slot, side))
    return sorted({n for n in named if not 1 <= n <= slots}), edges


def _off_board(
    body: JSON, context: TextContext, source: Normalized, node: Tree[Token]
) -> list[tuple[str, str, str]]:
    """TB-2: a slot beyond the board ("侦察 9号位" with five slots) is refused as the text is
    read (422, naming it), not when the order is judged (409): (words, zh, en), or nothing."""
    slots = context.slots if isinstance(context, BoardContext) else None
    if slots is None:
        return []
    outside, edges = _slots_outside(body, slots)
    if not outside and not edges:
        return []
    zh: list[str] = []
    en: list[str] = []
    if outside:
        zh.append("没有" + "、".join(f"{n}号位" for n in outside))
        en.append("there is no slot " + ", ".join(map(str, outside)))
    for slot, side in edges:
        zh.append(f"{slot}号位{'左' if side == 'left' else '右'}边没有位置")
        en.append(f"slot {slot} has no neighbour on the {side}")
    words = source.source(node.meta.start_pos, node.meta.end_pos)
    return [
        (
            words,
            "，".join(zh) + f"，每方只有1–{slots}号位。",
            "; ".join(en).capitalize() + f": each side has slots 1–{slots}.",
        )
    ]


def _one_dispatch(orders: list[JSON]) -> list[JSON]:
    """A side gives one Dispatch a phase, naming up to two moves (TB-30): every move
    written in one text belongs to the first Dispatch."""
    out: list[JSON] = []
    first: JSON | None = None
    for order in orders:
        if order["type"] == "dispatch" and first is not None:
            first["moves"] = [*first["moves"], *order["moves"]]
            continue
        if order["type"] == "dispatch":
            first = {**order, "moves": list(order["moves"])}
            order = first
        out.append(order)
    return out


def _kind(token_type: str) -> str:
    kind = token_type.removeprefix("KW_").lower()
    assert kind in ORDERS, token_type
    return kind


def _keywords(node: Tree[Token]) -> list[str]:
    return [_kind(t.type) for t in tokens(node) if t.type.startswith("KW_")]


def _slot(node: Tree[Token]) -> int:
    return number(subtrees(node, "slot")[0])


def _troops(node: Tree[Token]) -> int:
    found = [t for t in node.children if isinstance(t, Tree) and t.data in ("troops", "troops_u")]
    return number(found[0])


def _order(node: Tree[Token], source: Normalized, problems: Problems) -> JSON | None:
    kind = node.data
    if kind in ("deploy", "bare_deploy"):
        return _deploy(node, source, problems)
    if kind == "move":
        src, dst = (number(s) for s in subtrees(node, "slot"))
        return {"type": "dispatch", "moves": [{"from": src, "to": dst, "troops": _troops(node)}]}
    if kind == "plain":
        return {"type": _keywords(node)[0]}
    if kind == "battle_rest":
        return {"type": "battle_rest"}
    if kind in ("slot_order", "scout"):
        return {"type": _keywords(node)[0], "slot": _slot(node)}
    if kind == "gather":
        body: JSON = {"type": _keywords(node)[0], "slot": _slot(node)}
        for side in ("from_left", "from_right"):
            for option in subtrees(node, side):
                amount = subtrees(option, "troops")
                body[side] = number(amount[0]) if amount else None
        return body
    if kind == "see_through":
        return {"type": "see_through", "order_type": _keywords(node)[1]}
    raise AssertionError(f"unexpected order node {kind}")


def _deploy(node: Tree[Token], source: Normalized, problems: Problems) -> JSON | None:
    by_slot = subtrees(node, "slot_troops")
    if not by_slot:
        return {"type": "deploy", "troops": [number(t) for t in subtrees(node, "troops")]}
    placed: dict[int, int] = {}
    for entry in by_slot:
        where, troops = [t for t in entry.children if isinstance(t, Tree)]
        slot = number(where)
        if slot in placed:
            break
        placed[slot] = number(troops)
    else:
        if sorted(placed) == list(range(1, len(placed) + 1)):
            return {"type": "deploy", "troops": [placed[s] for s in sorted(placed)]}
    # Slots named twice or skipped: the deployment is not a complete list.
    problems.partial(source.source(node.meta.start_pos, node.meta.end_pos))
    return None


# --- the echo: the understanding in canonical words -----------------------------------------
def _names(kind: str) -> tuple[str, str]:
    names = order_names(kind)
    return _ECHO_NAME_ZH.get(kind, names["order"]), names["order_en"]


def _amount(value: object) -> tuple[str, str]:
    if value is None:
        return "全部", "all"
    return f"{value}人", f"{value}"


def echo(order: JSON) -> tuple[str, str]:
    """How an order reads back: "调兵：3号位→2号位，4人" / "Dispatch: slot 3 → slot 2, 4 troops"."""
    kind = order["type"]
    zh, en = _names(kind)
    if kind == "deploy":
        troops = order["troops"]
        return f"{zh}：{'，'.join(map(str, troops))}", f"{en}: {', '.join(map(str, troops))}"
    if kind == "dispatch":
        moves = order["moves"]
        zh_moves = "、".join(f"{m['from']}号位→{m['to']}号位，{m['troops']}人" for m in moves)
        en_moves = " and ".join(
            f"slot {m['from']} → slot {m['to']}, {m['troops']} troops" for m in moves
        )
        return f"{zh}：{zh_moves}", f"{en}: {en_moves}"
    if kind == "scout":
        return f"{zh}：敌方{order['slot']}号位", f"{en}: enemy slot {order['slot']}"
    if kind == "see_through":
        seen_zh, seen_en = _names(order["order_type"])
        return f"{zh}：{seen_zh}", f"{en}: {seen_en}"
    if "slot" in order:
        zh_text, en_text = f"{zh}：{order['slot']}号位", f"{en}: slot {order['slot']}"
        if kind in DEFAULTS and ("from_left" in order or "from_right" in order):
            left_zh, left_en = _amount(order.get("from_left"))
            right_zh, right_en = _amount(order.get("from_right"))
            zh_text += f"（左侧调{left_zh}，右侧调{right_zh}）"
            en_text += f" ({left_en} from the left, {right_en} from the right)"
        return zh_text, en_text
    return zh, en

"""The toy duel's orders in words: "出石头" / "throw rock", "喊 你输定了" / "shout you lose".

One order a line (or separated by ；/;). Reads text only, never the rules.
"""

from __future__ import annotations

import re

from app.rules.base import JSON, ParsedOrders, RuleViolation
from tests.toy.words import WORDS

_HANDS: dict[str, str] = {
    "石头": "rock",
    "拳头": "rock",
    "rock": "rock",
    "布": "paper",
    "paper": "paper",
    "剪刀": "scissors",
    "scissors": "scissors",
}
_THROW = re.compile(r"^(?:出|throw\s+)?\s*(\S+)$", re.IGNORECASE)
_SHOUT = re.compile(r"^(?:喊话?|shout)[\s:：]+(.+)$", re.IGNORECASE | re.DOTALL)


def parse_orders(source: str) -> ParsedOrders:
    orders: list[JSON] = []
    echo_zh: list[str] = []
    echo_en: list[str] = []
    unknown: list[str] = []
    for line in (part.strip() for part in re.split(r"[\n;；]", source)):
        if not line:
            continue
        shout = _SHOUT.match(line)
        if shout:
            said = shout.group(1).strip()[:140]
            orders.append({"type": "shout", "taunt": said})
            echo_zh.append(f"{WORDS['order.shout'][0]}：{said}")
            echo_en.append(f"{WORDS['order.shout'][1]}: {said}")
            continue
        throw = _THROW.match(line)
        hand = _HANDS.get(throw.group(1).lower()) if throw else None
        if hand is None:
            unknown.append(line)
            continue
        orders.append({"type": "throw", "hand": hand})
        zh, en = WORDS[f"order.throw.{hand}"]
        echo_zh.append(f"{WORDS['order.throw'][0]}：{zh}")
        echo_en.append(f"{WORDS['order.throw'][1]}: {en}")
    if unknown or not orders:
        words = unknown or [source.strip()]
        zh, en = WORDS["error.not_understood"]
        raise RuleViolation(
            "not_understood",
            None,
            zh.format(words="、".join(words)),
            en.format(words=", ".join(words)),
            status=422,
            extra={"unknown": words, "candidates": []},
        )
    return ParsedOrders(orders=orders, echo_zh="；".join(echo_zh), echo_en="; ".join(echo_en))

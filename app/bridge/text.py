"""Reading a forum post: what the poster wrote themselves, and whether it is orders. Pure.

- Quoted text is someone else's words: Misago's and Discourse's ``[quote]…[/quote]``
  (BBCode, nested too) and Markdown ``>`` lines are dropped before anything is read.
- A link code (``FP-XXXXXXXX``, shown on the player's page) links the poster's account.
- Each remaining line is read by the game's own grammar. A line it does not understand at
  all is chatter and is passed over (the thread is where players talk); a line it partly
  understands ("调兵 3→2 4人 冲啊") is an order gone wrong, and the poster is told.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from app.rules.base import JSON, ParsedOrders, RuleViolation
from app.rules.textorders import squash

_QUOTE_OPEN = re.compile(r"\[quote(?:=[^\]]*)?\]", re.IGNORECASE)
_QUOTE_CLOSE = re.compile(r"\[/quote\]", re.IGNORECASE)
# A link code: "FP-" and eight letters or digits from an alphabet without look-alikes.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
LINK_CODE = re.compile(rf"\bFP-[{CODE_ALPHABET}]{{8}}\b", re.IGNORECASE)
# What is left of a line once its unknown words are taken out, when it was all chatter.
_NOTHING_READ = re.compile(r"[\W_]*")


def own_words(raw: str) -> str:
    """The post without what it quotes: ``[quote]`` blocks (nested) and ``>`` lines."""
    out: list[str] = []
    depth = 0
    position = 0
    pattern = re.compile(f"{_QUOTE_OPEN.pattern}|{_QUOTE_CLOSE.pattern}", re.IGNORECASE)
    for match in pattern.finditer(raw):
        if depth == 0:
            out.append(raw[position : match.start()])
        depth = max(0, depth - 1) if match.group(0).startswith("[/") else depth + 1
        position = match.end()
    if depth == 0:
        out.append(raw[position:])
    lines = "".join(out).splitlines()
    return "\n".join(line for line in lines if not line.lstrip().startswith(">"))


def link_code(text: str) -> str | None:
    found = LINK_CODE.search(text)
    return found.group(0).upper() if found else None


@dataclass
class Reading:
    """What a post says: its orders and their echo, or the problem with it."""

    orders: list[JSON] = field(default_factory=list)
    echo_zh: list[str] = field(default_factory=list)
    echo_en: list[str] = field(default_factory=list)
    problem: RuleViolation | None = None

    @property
    def said_anything(self) -> bool:
        return bool(self.orders) or self.problem is not None


def read_post(text: str, parse: Callable[[str], ParsedOrders]) -> Reading:
    """Read each line with ``parse`` (the game's grammar for this poster). Chatter lines
    are skipped; the first line that is an order gone wrong makes the whole post a
    problem (a post changes nothing unless all of it can be done)."""
    reading = Reading()
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            parsed = parse(line)
        except RuleViolation as violation:
            if is_chatter(line, violation):
                continue
            return Reading(problem=violation)
        reading.orders.extend(parsed.orders)
        reading.echo_zh.append(parsed.echo_zh)
        reading.echo_en.append(parsed.echo_en)
    return reading


def is_chatter(line: str, violation: RuleViolation) -> bool:
    """Nothing of the line was understood (or it is far too long to be an order)."""
    if violation.code == "text_too_long":
        return True
    if violation.code != "not_understood" or violation.extra.get("candidates"):
        return False
    rest = squash(line)
    for word in violation.extra.get("unknown", []):
        rest = rest.replace(squash(str(word)), "", 1)
    return _NOTHING_READ.fullmatch(rest) is not None

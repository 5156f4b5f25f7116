"""The words of this game's page parts: ``page.<...>`` (zh, en)."""

from __future__ import annotations

PAGES: dict[str, tuple[str, str]] = {
    "page.title": ("团战", "Team Battle"),
    "page.side_A": ("甲方", "Side A"),
    "page.side_B": ("乙方", "Side B"),
    "page.you_play": ("你是 {name}（{side}）", "You are {name} ({side})"),
    "page.your_orders": ("你方本回合的指令", "Your orders this round"),
    "page.text_order_hint": (
        "例如：部署 4 7 8 6 5；反击2；调度 3→2 4人",
        "e.g. deploy 4 7 8 6 5",
    ),
}

"""A game's sealing of hidden orders into receipts: protocol and kit defaults."""

from __future__ import annotations

from typing import Protocol


class Sealer(Protocol):
    """Placeholder: the sealing protocol is defined here."""

"""The Other Side's receipts (see :mod:`app.kit.receipts`)."""

from __future__ import annotations

from app.kit.receipts import Sealer

SEALER: Sealer | None = None

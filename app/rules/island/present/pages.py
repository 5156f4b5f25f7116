"""The Other Side's pages (see :mod:`app.kit.pages`)."""

from __future__ import annotations

from app.kit.pages import Pages

PAGES: Pages | None = None

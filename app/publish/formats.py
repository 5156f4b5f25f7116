"""The three post formats live in the kit (:mod:`app.kit.formats`), beside the post parts a
game's builders write with; the shell's importers find them here too."""

from __future__ import annotations

from app.kit.formats import FORMATTERS, Format, defang_links, display_width, plain

__all__ = ["FORMATTERS", "Format", "defang_links", "display_width", "plain"]

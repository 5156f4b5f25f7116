"""What a post is made from and the per-format context builders write with: they live in the
kit (:mod:`app.kit.post_parts`) so that a game's own post builders can use them."""

from __future__ import annotations

from app.kit.post_parts import Ctx, GameInfo, Group, PostDraft, PublicEvent, RosterEntry, Section

__all__ = ["Ctx", "GameInfo", "Group", "PostDraft", "PublicEvent", "RosterEntry", "Section"]

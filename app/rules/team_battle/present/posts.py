"""Team Battle's posts (see :mod:`app.kit.posts`)."""

from __future__ import annotations

from app.kit.posts import Posts

POSTS: Posts | None = None

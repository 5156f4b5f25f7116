"""The pages, one module per part of the site; importing this registers every route on
``router`` in the order they are matched (the console's catch-all controls last)."""

from __future__ import annotations

from fastapi import APIRouter

from app.web.routes import (
    accounts,
    console,
    console_signups,
    controls,
    new_game,
    player,
    public,
    publishing,
    safety,
    signup,
)
from app.web.routes.base import (
    STATIC,
    _order_schema,
    failure_page,
    is_page,
    render,
    templates,
)
from app.web.routes.player import _odds_draft

router = APIRouter(include_in_schema=False)
# In the order they are matched: the console's catch-all controls last.
for part in (
    public,
    accounts,
    signup,
    player,
    new_game,
    console,
    console_signups,
    publishing,
    safety,
    controls,
):
    router.include_router(part.router)

__all__ = [
    "STATIC",
    "accounts",
    "_odds_draft",
    "_order_schema",
    "console",
    "console_signups",
    "controls",
    "failure_page",
    "is_page",
    "new_game",
    "player",
    "public",
    "publishing",
    "render",
    "router",
    "signup",
    "templates",
]

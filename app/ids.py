"""The ids this service makes for its rows (games, players, orders, posts…), and the test that
a string could be one. Neutral: any layer may import it (the publishing outbox as well as the
services), so making an id never ties one package to another.
"""

from __future__ import annotations

import re
import secrets


def new_id(nbytes: int = 9) -> str:
    """Random, unguessable ids: sequential ids would leak how many orders others made."""
    return secrets.token_urlsafe(nbytes).replace("-", "x").replace("_", "y")


# Every id this service makes (``new_id``) fits this; anything else names nothing, so it is
# a 404 without asking the database (and a NUL byte never reaches PostgreSQL).
_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def could_be_id(value: str) -> bool:
    return _ID.fullmatch(value) is not None

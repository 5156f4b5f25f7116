"""The error body every route answers with, and which statuses each route declares.

Every error is ``application/problem+json`` (RFC 9457) with a stable ``code``; routes list
their possible statuses with :func:`problems`, and ``app/api/openapi.py`` files them under
that media type.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

PROBLEM_JSON = "application/problem+json"

_MEANING: dict[int, str] = {
    400: "The request body could not be read (not UTF-8 text).",
    401: "No token, or a token that belongs to nobody in this game (`unauthorized`), or "
    "not the admin token where one is required (`admin_required`).",
    403: "The token is valid but may not do this (`forbidden`…).",
    404: "No such game, order or thing — or one the caller may not see, or an id this "
    "service could never have made (`not_found`).",
    409: "The rules or the game's phase do not allow it now; `rule` names the rule broken "
    "(or a request with the same Idempotency-Key is still running: retry).",
    413: "The request body (or a scenario in it, 512 KiB at most) is too large.",
    422: "Malformed request: `errors` names each field (`invalid_body`, `invalid_order`…).",
    429: "Too many requests from here just now (`too_many_signups`, sign-in attempts): wait the time the message names; nothing was changed.",
    503: "The database is unreachable for now; nothing was changed. Retry later.",
}


class Problem(BaseModel):
    """An error, as ``application/problem+json``. ``detail`` is in Chinese unless the
    request asked for English (``Accept-Language: en``)."""

    type: str = Field(description="`/problems/<code>`", examples=["/problems/wrong_phase"])
    title: str
    status: int
    detail: str = Field(description="What went wrong, in words a player understands.")
    code: str = Field(description="A stable machine code", examples=["wrong_phase"])
    rule: str | None = Field(None, description="The rule broken, e.g. `TB-13`.")
    errors: list[str] | None = Field(
        None, description="For a malformed request: each field and what is wrong with it."
    )


def problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route that may answer these error statuses."""
    return {status: {"model": Problem, "description": _MEANING[status]} for status in statuses}


# The statuses most routes share: every route under /games/{game_id} may find no game (404),
# refuse a malformed request (422) or find the database away (503); a caller's token is
# checked wherever one is read (401). Only a route that reads a body meets 400 and 413.
GAME_READ = problems(401, 404, 422, 503)
GAME_ACTION = problems(401, 403, 404, 409, 422, 503)
GAME_WRITE = problems(400, 401, 403, 404, 409, 413, 422, 503)

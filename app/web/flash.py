"""What a form post leaves for the page it redirects to (post/redirect/get).

A page form that is refused must not answer from its POST address: Back would then ask
to resend the form. Instead the route stores the refusal, and what was typed, in a
short-lived cookie scoped to the page it redirects to, and redirects (303) there; the
page's GET takes the flash (once) and shows it. A success that has something to say
(what an action did, a result) travels the same way.

The cookie is HttpOnly and lives two minutes. It holds only what this browser itself
just sent or was just told, so it needs no signature: a forged one can only show its
own browser a message. Its size is capped; a flash too large keeps its message and
drops the typed values.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

import orjson
from fastapi import Request
from starlette.responses import Response

FLASH_COOKIE = "fp_flash"
FLASH_MAX_AGE = 120
FLASH_MAX_BYTES = 3000


def _encode(data: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(orjson.dumps(data)).decode().rstrip("=")


def set_flash(response: Response, request: Request, path: str, data: dict[str, Any]) -> None:
    """Leave ``data`` for the next GET of ``path`` (a page address, no query)."""
    value = _encode(data)
    if len(value) > FLASH_MAX_BYTES:
        value = _encode({k: v for k, v in data.items() if k != "form"})
    response.set_cookie(
        FLASH_COOKIE,
        value,
        max_age=FLASH_MAX_AGE,
        path=path,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def peek_flash(request: Request) -> dict[str, Any] | None:
    """The flash this request carries, if it is readable."""
    raw = request.cookies.get(FLASH_COOKIE)
    if not raw:
        return None
    try:
        data = orjson.loads(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))
    except (binascii.Error, ValueError, orjson.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def clear_flash(request: Request, response: Response, path: str) -> None:
    """Clear the flash a page has just shown (read it first with :func:`peek_flash`)."""
    if FLASH_COOKIE in request.cookies:
        response.delete_cookie(FLASH_COOKIE, path=path, httponly=True, samesite="lax")

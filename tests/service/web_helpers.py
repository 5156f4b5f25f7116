"""Helpers for the web-page tests: a browser-like client (cookies, CSRF) over the ASGI app."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from httpx import AsyncClient, Response

from app.api.security import CSRF_COOKIE

Browser = Callable[[], AsyncClient]  # the `browser` fixture: a new browser per call

CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')


def csrf_of(page: Response) -> str:
    found = CSRF_META.search(page.text)
    assert found, page.text[:500]
    return found.group(1)


async def browse(http: AsyncClient, path: str, **kw: Any) -> Response:
    """GET a page as a browser would (the CSRF cookie is kept by the client)."""
    return await http.get(path, **kw)


async def post_form(
    http: AsyncClient, path: str, data: dict[str, Any] | None = None, csrf: str | None = None
) -> Response:
    """POST a form with the browser's CSRF token (read from its cookie jar by default)."""
    token = csrf if csrf is not None else http.cookies.get(CSRF_COOKIE, "")
    return await http.post(path, data={"csrf": token, **(data or {})})


async def join(http: AsyncClient, invite_url: str) -> Response:
    """Open an invite link and confirm it, as a player would."""
    await browse(http, invite_url)
    return await post_form(http, invite_url)


def session_cookie(response: Response, game_id: str) -> str | None:
    for header in response.headers.get_list("set-cookie"):
        if header.startswith(f"fp_s_{game_id}="):
            return header
    return None

"""Browser security in one place: the session and CSRF cookies, and the page headers.

A browser proves who it is with an HttpOnly session cookie per game and role: a player's
is ``fp_s_<game id>``, a director's ``fp_d_<game id>``, so a player may hold seats in
several games and a link to a player page never reads, replaces or clears the director's
session (nor the other way round). A cookie is only ever cleared by a POST (signing out). Cookie-authenticated requests that change
something must also carry the CSRF token (double-submit: the ``fp_csrf`` cookie, which a
page on another site can neither read nor set, echoed in a form field or the
``X-CSRF-Token`` header). Bearer-token clients are not browsers and need neither.
"""

from __future__ import annotations

import hmac
import secrets

from fastapi import Request
from starlette.responses import Response

from app.errors import AppError

CSRF_COOKIE = "fp_csrf"
CSRF_HEADER = "x-csrf-token"
CSRF_FIELD = "csrf"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SESSION_MAX_AGE = 60 * 60 * 24 * 90  # a game may run for weeks

# No inline script or style anywhere: every page's code and look come from /static.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


def session_cookie_name(game_id: str) -> str:
    return f"fp_s_{game_id}"


def director_cookie_name(game_id: str) -> str:
    return f"fp_d_{game_id}"


def is_https(request: Request) -> bool:
    return request.url.scheme == "https"


def _set(response: Response, request: Request, name: str, token: str) -> None:
    response.set_cookie(
        name,
        token,
        max_age=SESSION_MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=is_https(request),
    )


def _clear(response: Response, request: Request, name: str) -> None:
    response.delete_cookie(name, path="/", httponly=True, samesite="lax", secure=is_https(request))


# A player's session and the director's live in cookies of their own (one browser may hold
# both): a player's link never touches the director's session, nor the other way round.
def session_token_from_cookie(request: Request, game_id: str) -> str | None:
    return request.cookies.get(session_cookie_name(game_id)) or None


def set_session_cookie(response: Response, request: Request, game_id: str, token: str) -> None:
    _set(response, request, session_cookie_name(game_id), token)


def director_token_from_cookie(request: Request, game_id: str) -> str | None:
    return request.cookies.get(director_cookie_name(game_id)) or None


def set_director_cookie(response: Response, request: Request, game_id: str, token: str) -> None:
    _set(response, request, director_cookie_name(game_id), token)


def clear_director_cookie(response: Response, request: Request, game_id: str) -> None:
    _clear(response, request, director_cookie_name(game_id))


# A sign-up's own token (issue 20), for the sign-up page to show its status (waitlisted,
# pending, offered a seat) and withdraw it; a seat taken is a player session besides.
def signup_cookie_name(game_id: str) -> str:
    return f"fp_u_{game_id}"


def signup_token_from_cookie(request: Request, game_id: str) -> str | None:
    return request.cookies.get(signup_cookie_name(game_id)) or None


def set_signup_cookie(response: Response, request: Request, game_id: str, token: str) -> None:
    _set(response, request, signup_cookie_name(game_id), token)


def csrf_token(request: Request) -> str:
    """The browser's CSRF token: its cookie's value, or a new one that the response
    must then set (``ensure_csrf_cookie``)."""
    existing = request.cookies.get(CSRF_COOKIE)
    if existing:
        return existing
    fresh: str | None = getattr(request.state, "new_csrf", None)
    if fresh is None:
        fresh = secrets.token_urlsafe(24)
        request.state.new_csrf = fresh
    return fresh


def ensure_csrf_cookie(request: Request, response: Response) -> None:
    fresh = getattr(request.state, "new_csrf", None)
    if fresh and not request.cookies.get(CSRF_COOKIE):
        response.set_cookie(
            CSRF_COOKIE,
            fresh,
            max_age=SESSION_MAX_AGE,
            path="/",
            httponly=True,
            samesite="strict",
            secure=is_https(request),
        )


def csrf_failed() -> AppError:
    return AppError(
        403,
        "csrf_failed",
        "页面已过期或请求来源不明，请刷新页面后重试。",
        "This page has expired or the request came from elsewhere; reload and try again.",
    )


def check_csrf(request: Request, sent: str | None) -> None:
    """Refuse a cookie-authenticated change whose token does not match the cookie."""
    expected = request.cookies.get(CSRF_COOKIE)
    if not expected or not sent or not hmac.compare_digest(expected, sent):
        raise csrf_failed()


def page_headers(response: Response) -> None:
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"  # invite codes never leak onwards
    response.headers["X-Frame-Options"] = "DENY"
    response.headers.setdefault("Cache-Control", "no-store")

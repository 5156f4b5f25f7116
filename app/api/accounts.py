"""Accounts (issue 21): passkey ceremonies, "my games", personal tokens, the record."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials
from pydantic import BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts import passkeys, service, tokens
from app.accounts.errors import not_signed_in
from app.accounts.models import Account
from app.accounts.record import account_record, sign_up_record
from app.api.deps import CHECKED_IDS, Token, _bearer, now, run, run_game, transact
from app.api.problems import problems
from app.api.security import CSRF_HEADER, SAFE_METHODS, check_csrf, is_https
from app.models import Game
from app.services.auth import Principal

router = APIRouter(prefix="/api/v1", tags=["accounts"])
ACCOUNT = problems(400, 401, 403, 404, 409, 422, 429, 503)
Credential = Annotated[dict[str, Any], Body(description="The credential's toJSON().")]


class NewAccount(BaseModel):
    name: str = Field(
        "", max_length=100, description="How directors see you (a new account needs one)."
    )


class Recovery(BaseModel):
    code: str = Field(min_length=1, max_length=64)


class NewToken(BaseModel):
    name: str = Field(min_length=1, max_length=100)
    scopes: list[Literal["read", "play", "direct"]] = Field(min_length=1, max_length=3)


class AccountSettings(BaseModel):
    share_record: bool = Field(description="Directors reviewing your sign-ups see your record.")


class PasskeyOptions(BaseModel):
    """WebAuthn Level 3 JSON options, for ``parseCreationOptionsFromJSON`` /
    ``parseRequestOptionsFromJSON``."""

    publicKey: dict[str, Any]  # noqa: N815 - the WebAuthn JSON name


class AccountRef(BaseModel):
    id: str
    name: str


class Registered(BaseModel):
    account: AccountRef
    recovery_codes: list[str] | None = Field(
        None, description="A new account's recovery codes: shown this once."
    )


class SignedIn(BaseModel):
    account: AccountRef
    bound: int = Field(description="Seats of this browser newly bound to the account.")


class PasskeyInfo(BaseModel):
    id: int
    created_at: datetime
    last_used_at: datetime | None


class TokenInfo(BaseModel):
    id: str
    name: str
    scopes: list[str]
    created_at: datetime


class AccountDetails(BaseModel):
    id: str
    name: str
    share_record: bool
    created_at: datetime
    passkeys: list[PasskeyInfo]
    tokens: list[TokenInfo]
    recovery_codes_left: int


class RecoveryCodes(BaseModel):
    recovery_codes: list[str] = Field(description="Shown this once.")


class Done(BaseModel):
    done: bool = True


class MyGame(BaseModel):
    game_id: str
    title: str
    role: Literal["director", "co_director", "player"]
    status: str
    player_name: str | None = None


class CreatedToken(BaseModel):
    id: str
    name: str
    scopes: list[str]
    token: str = Field(description="Shown once.")


class Record(BaseModel):
    games_played: int
    games_finished: int
    games_dropped: int
    deadlines: int
    deadlines_met: int
    deadlines_met_share: float | None


class SignUpRecord(Record):
    player_id: str
    name: str


def relying_party(request: Request) -> passkeys.RelyingParty:
    return passkeys.relying_party(request.app.state.settings.public_url, str(request.base_url))


def client_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _browser_post(request: Request) -> None:
    """Every ceremony and every cookie-authenticated change carries the CSRF token."""
    if request.method not in SAFE_METHODS:
        check_csrf(request, request.headers.get(CSRF_HEADER))


def account_cookie(request: Request) -> str | None:
    return request.cookies.get(service.ACCOUNT_COOKIE) or None


def set_account_cookie(response: Response, request: Request, secret: str) -> None:
    response.set_cookie(
        service.ACCOUNT_COOKIE,
        secret,
        max_age=60 * 60 * 24 * 90,
        path="/",
        httponly=True,
        samesite="lax",
        secure=is_https(request),
    )


async def signed_in_account(request: Request, session: AsyncSession) -> Account:
    """The caller's account: the browser's account cookie (changes need the CSRF token)."""
    secret = account_cookie(request)
    if secret is None:  # a bearer token acts in games; it never manages the account
        raise not_signed_in()
    _browser_post(request)
    return await service.require_account(session, secret)


# --- passkey ceremonies -----------------------------------------------------------------------
@router.post("/accounts/passkeys/register/begin", response_model=PasskeyOptions, responses=ACCOUNT)
async def register_begin(request: Request, body: NewAccount) -> JSONResponse:
    """Options to create a passkey: a new account, or (signed in) another passkey."""
    _browser_post(request)

    async def action(session: AsyncSession) -> Any:
        account = await service.signed_in(session, account_cookie(request))
        return await passkeys.register_begin(
            session, relying_party(request), body.name, account, client_of(request), now(request)
        )

    return await run(request, action)


@router.post(
    "/accounts/passkeys/register/finish",
    status_code=201,
    response_model=Registered,
    responses=ACCOUNT,
)
async def register_finish(request: Request, credential: Credential) -> JSONResponse:
    """Keep the new passkey; a new account is signed in and shown its recovery codes once."""
    _browser_post(request)

    async def action(session: AsyncSession) -> Any:
        at = now(request)
        account, created = await passkeys.register_finish(
            session, relying_party(request), credential, at
        )
        out: dict[str, Any] = {"account": {"id": account.id, "name": account.name}}
        if created:
            out["recovery_codes"] = await service.new_recovery_codes(session, account.id)
            out["secret"] = await service.start_session(
                session, account.id, account_cookie(request), at
            )
            await service.bind_seats(session, account.id, request.cookies, at)
        return out

    out = await transact(request, action)
    secret = out.pop("secret", None)
    response = JSONResponse(jsonable_encoder(out), status_code=201)
    if secret:
        set_account_cookie(response, request, secret)
    return response


@router.post("/accounts/passkeys/login/begin", response_model=PasskeyOptions, responses=ACCOUNT)
async def login_begin(request: Request) -> JSONResponse:
    """Options to sign in with any passkey of this site."""
    _browser_post(request)

    async def action(session: AsyncSession) -> Any:
        return await passkeys.login_begin(
            session, relying_party(request), client_of(request), now(request)
        )

    return await run(request, action)


async def _sign_in(request: Request, account_of: Any) -> JSONResponse:
    async def action(session: AsyncSession) -> Any:
        at = now(request)
        account = await account_of(session, at)
        secret = await service.start_session(session, account.id, account_cookie(request), at)
        bound = await service.bind_seats(session, account.id, request.cookies, at)
        return {"account": {"id": account.id, "name": account.name}, "bound": bound}, secret

    out, secret = await transact(request, action)
    response = JSONResponse(jsonable_encoder(out))
    set_account_cookie(response, request, secret)
    return response


@router.post("/accounts/passkeys/login/finish", response_model=SignedIn, responses=ACCOUNT)
async def login_finish(request: Request, credential: Credential) -> JSONResponse:
    """Sign in: a new session cookie, and the seats this browser holds bound to the account."""
    _browser_post(request)

    async def account_of(session: AsyncSession, at: Any) -> Account:
        return await passkeys.login_finish(session, relying_party(request), credential, at)

    return await _sign_in(request, account_of)


@router.post("/accounts/recovery", response_model=SignedIn, responses=ACCOUNT)
async def recover(request: Request, body: Recovery) -> JSONResponse:
    """Sign in with a recovery code (spent): then add a passkey for this device."""
    _browser_post(request)
    await transact(
        request,
        lambda s: passkeys.note_attempt(s, "recovery", client_of(request), now(request)),
    )

    async def account_of(session: AsyncSession, at: Any) -> Account:
        return await service.redeem_recovery_code(session, body.code, at)

    return await _sign_in(request, account_of)


@router.post("/accounts/signout", response_model=Done, responses=ACCOUNT)
async def sign_out(request: Request) -> Response:
    """End this browser's account session (its game sessions stay)."""
    _browser_post(request)
    secret = account_cookie(request)
    if secret:
        await transact(request, lambda s: service.end_session(s, secret, now(request)))
    response = JSONResponse({"done": True})
    response.delete_cookie(service.ACCOUNT_COOKIE, path="/", httponly=True, samesite="lax")
    return response


# --- the account ------------------------------------------------------------------------------
@router.get("/me", response_model=AccountDetails, responses=ACCOUNT)
async def me(request: Request) -> JSONResponse:
    """The signed-in account: its passkeys, tokens and settings."""

    async def action(session: AsyncSession) -> Any:
        return await service.describe(session, await signed_in_account(request, session))

    return await run(request, action, read_only=True)


BearerCredentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


@router.get("/me/games", response_model=list[MyGame], responses=ACCOUNT)
async def my_games(request: Request, credentials: BearerCredentials) -> JSONResponse:
    """Every game the account (or, without one, this browser's sessions) holds a seat in."""
    bearer = credentials.credentials if credentials else None

    async def action(session: AsyncSession) -> Any:
        account_id: str | None
        if bearer is not None:
            account_id = await tokens.token_account(session, bearer)
            if account_id is None:
                from app.errors import unauthorized

                raise unauthorized()
            games = await service.account_seats(session, account_id)
        else:
            account = await service.signed_in(session, account_cookie(request))
            account_id = account.id if account else None
            games = await service.my_games(session, account_id, request.cookies)
        return [
            {k: g[k] for k in ("game_id", "title", "role", "status", "player_name")} for g in games
        ]

    return await run(request, action, read_only=True)


@router.put("/me/settings", response_model=AccountSettings, responses=ACCOUNT)
async def settings(request: Request, body: AccountSettings) -> JSONResponse:
    """Whether directors reviewing your sign-ups may see your record."""

    async def action(session: AsyncSession) -> Any:
        account = await signed_in_account(request, session)
        service.set_share_record(account, body.share_record)
        return {"share_record": account.share_record}

    return await run(request, action)


@router.post("/me/recovery-codes", status_code=201, response_model=RecoveryCodes, responses=ACCOUNT)
async def recovery_codes(request: Request) -> JSONResponse:
    """New recovery codes, shown once; the earlier ones stop working."""

    async def action(session: AsyncSession) -> Any:
        account = await signed_in_account(request, session)
        return {"recovery_codes": await service.new_recovery_codes(session, account.id)}

    return await run(request, action, status_code=201)


@router.delete("/me", response_model=Done, responses=ACCOUNT)
async def delete_me(request: Request) -> Response:
    """Delete the account; its seats stay in their games as plain seats."""

    async def action(session: AsyncSession) -> Any:
        await service.delete_account(session, await signed_in_account(request, session))

    await transact(request, action)
    response = JSONResponse({"done": True})
    response.delete_cookie(service.ACCOUNT_COOKIE, path="/", httponly=True, samesite="lax")
    return response


@router.get("/me/record", response_model=Record, responses=ACCOUNT)
async def my_record(request: Request) -> JSONResponse:
    """Your record across games, as a director would see it if you share it."""

    async def action(session: AsyncSession) -> Any:
        return await account_record(session, (await signed_in_account(request, session)).id)

    return await run(request, action, read_only=True)


@router.post("/me/tokens", status_code=201, response_model=CreatedToken, responses=ACCOUNT)
async def create_token(request: Request, body: NewToken) -> JSONResponse:
    """A personal API token for all your games (shown once, stored hashed)."""

    async def action(session: AsyncSession) -> Any:
        account = await signed_in_account(request, session)
        return await tokens.create_token(
            session, account.id, body.name, list(body.scopes), now(request)
        )

    return await run(request, action, status_code=201)


@router.delete("/me/tokens/{token_id}", response_model=Done, responses=ACCOUNT)
async def revoke_token(request: Request, token_id: str) -> Response:
    """Revoke a personal token: it stops working at once."""

    async def action(session: AsyncSession) -> Any:
        account = await signed_in_account(request, session)
        await tokens.revoke_token(session, account.id, token_id, now(request))

    await transact(request, action)
    return JSONResponse({"done": True})


# --- the director's view of a sign-up ---------------------------------------------------------
@router.get(
    "/games/{game_id}/players/{player_id}/record",
    response_model=SignUpRecord,
    responses=problems(401, 403, 404, 422, 503),
    dependencies=CHECKED_IDS,
)
async def player_record(
    request: Request, game_id: str, player_id: str, token: Token
) -> JSONResponse:
    """A player's record in earlier games, when their account shares it (director)."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await sign_up_record(session, game, principal, player_id)

    return await run_game(request, game_id, token, action, lock=False)

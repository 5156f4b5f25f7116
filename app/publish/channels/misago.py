"""``misago``: a bot account posts in a Misago forum thread through Misago's JSON API.

Misago has no API keys: the bot signs in like a browser. ``GET /`` sets the ``csrftoken``
cookie; ``POST /api/auth/ {username, password}`` (with ``X-CSRFToken``) signs in and rotates
that cookie, so it is read again afterwards. Then ``POST /api/threads/ {category, title,
post}`` opens a thread, ``POST /api/threads/{tid}/posts/ {post}`` replies, ``PUT
/api/threads/{tid}/posts/{pid}/ {post}`` edits the bot's own post. Reading: ``GET
/api/threads/{tid}/posts/?page=N`` (HTML in ``content``; the last post of a page repeats as
the first of the next) and the raw Markdown of any post from ``GET
/api/threads/{tid}/posts/reply_editor/?reply={pid}``.

Cookies are kept per (forum, bot account) by this module and sent explicitly, never left
in the shared HTTP client's jar, so two channels on one forum cannot mix their sessions.
Ordinary members may not post twice within 3 seconds: make the bot a moderator (moderators
skip flood protection); if it is not, that refusal is retried after 3 seconds.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar

import httpx
from pydantic import BaseModel, Field, model_validator

from app.publish.channels.base import (
    ChannelConfig,
    ChannelError,
    FinalError,
    Outgoing,
    RemoteId,
    RetryableError,
    Sent,
    Sleep,
    as_dict,
    best_effort,
    fail_for_status,
    json_body,
    request,
    send_parts,
    short,
    split_body,
)
from app.publish.urls import ChannelUrl, base_url
from app.rules.types import Line

# Misago's default post_length_max and thread_title_length_max (forum settings).
POST_LIMIT = 60_000
TITLE_LIMIT = 90
FLOOD_WAIT_SECONDS = 3.0
_FLOOD_MESSAGE = "so quickly after previous one"  # Misago's flood-protection refusal


class MisagoConfig(ChannelConfig):
    base_url: ChannelUrl
    username: Annotated[Line, Field(min_length=1, max_length=254)]
    password: Annotated[Line, Field(min_length=1, max_length=500)]
    thread_id: RemoteId | None = None
    category_id: RemoteId | None = None
    # Rename the thread as the game moves on (【第2回合·统御阶段】…); the bot needs the
    # right to edit the thread (its own, or as a moderator), else the title stays.
    follow_title: bool = True

    @model_validator(mode="after")
    def _where(self) -> MisagoConfig:
        if self.thread_id is None and self.category_id is None:
            raise ValueError("give thread_id (post there) or category_id (open a thread there)")
        return self


@dataclass(frozen=True)
class ForumPost:
    """One post of a Misago thread as the forum bridge reads it."""

    id: int
    author: str | None  # the poster's user name at posting time
    author_id: int | None  # None for a deleted account
    html: str | None  # rendered content (None when hidden from the reader)
    raw: str | None  # the Markdown as typed (when asked for)
    posted_on: str
    updated_on: str | None
    edits: int  # how many times it was edited
    is_hidden: bool  # hidden by a moderator ("deleted" for the players)
    is_unapproved: bool
    url: str | None


@dataclass
class _Session:
    """One account's cookies on one forum, shared by every client of that account."""

    cookies: dict[str, str] = field(default_factory=dict)
    generation: int = 0  # how many sign-ins so far (0: none yet)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class MisagoClient:
    """A signed-in Misago account (the bot, or a test's player) over a shared httpx client."""

    kind = "misago"

    def __init__(
        self,
        base: str,
        username: str,
        password: str,
        http: httpx.AsyncClient,
        session: _Session | None = None,
    ) -> None:
        self.root = base_url(base)
        self.username = username
        self._password = password
        self._http = http
        self._session = session if session is not None else _Session()

    # -- writing ---------------------------------------------------------------------

    async def start_thread(self, category_id: int, title: str, post: str) -> dict[str, Any]:
        """Open a thread; Misago answers ``{"id", "title", "url"}``."""
        answer = await self._call(
            "POST",
            "/api/threads/",
            {"category": category_id, "title": title[:TITLE_LIMIT], "post": post},
        )
        if not isinstance(answer.get("id"), int):
            raise FinalError(f"misago: unexpected answer opening a thread: {short(str(answer))}")
        return answer

    async def reply(self, thread_id: int, post: str) -> dict[str, Any]:
        """Post a reply; Misago answers with the new post (``id``, ``url.index``, …)."""
        return await self._call("POST", f"/api/threads/{thread_id}/posts/", {"post": post})

    async def edit(self, thread_id: int, post_id: int, post: str) -> dict[str, Any]:
        return await self._call("PUT", f"/api/threads/{thread_id}/posts/{post_id}/", {"post": post})

    async def retitle(self, thread_id: int, title: str) -> dict[str, Any]:
        """Rename a thread (Misago's thread PATCH: a list of JSON-patch-like ops)."""
        ops = [{"op": "replace", "path": "title", "value": title[:TITLE_LIMIT]}]
        return await self._call("PATCH", f"/api/threads/{thread_id}/", ops)

    async def thread(self, thread_id: int) -> dict[str, Any]:
        return await self._call("GET", f"/api/threads/{thread_id}/")

    # -- reading ---------------------------------------------------------------------

    async def posts_page(
        self, thread_id: int, page: int
    ) -> tuple[list[dict[str, Any]], int | None]:
        """One page of a thread's posts (events left out) and the next page's number."""
        answer = await self._call("GET", f"/api/threads/{thread_id}/posts/?page={page}")
        post_set = as_dict(answer.get("post_set"))
        results = [
            post
            for post in post_set.get("results", [])
            if isinstance(post, dict) and not post.get("is_event")
        ]
        following = post_set.get("next")
        return results, following if isinstance(following, int) else None

    async def raw(self, thread_id: int, post_id: int) -> str:
        """The Markdown of a post as it was typed."""
        answer = await self._call(
            "GET", f"/api/threads/{thread_id}/posts/reply_editor/?reply={post_id}"
        )
        return str(answer.get("post", ""))

    async def read_thread(self, thread_id: int, with_raw: bool = True) -> list[ForumPost]:
        """Every visible post of the thread in order (a deleted post is simply absent)."""
        seen: dict[int, dict[str, Any]] = {}
        page: int | None = 1
        while page is not None:
            results, page = await self.posts_page(thread_id, page)
            for post in results:
                seen.setdefault(int(post["id"]), post)
        posts = []
        for post_id in sorted(seen):
            post = seen[post_id]
            raw = await self.raw(thread_id, post_id) if with_raw else None
            posts.append(self._forum_post(post, raw))
        return posts

    def _forum_post(self, post: dict[str, Any], raw: str | None) -> ForumPost:
        poster = as_dict(post.get("poster"))
        url = as_dict(post.get("url"))
        index = url.get("index")
        return ForumPost(
            id=int(post["id"]),
            author=post.get("poster_name"),
            author_id=poster.get("id"),
            html=post.get("content"),
            raw=raw,
            posted_on=str(post.get("posted_on")),
            updated_on=post.get("updated_on"),
            edits=int(post.get("edits") or 0),
            is_hidden=bool(post.get("is_hidden")),
            is_unapproved=bool(post.get("is_unapproved")),
            url=f"{self.root}{index}" if isinstance(index, str) else None,
        )

    def absolute(self, path: str | None) -> str | None:
        return f"{self.root}{path}" if isinstance(path, str) and path.startswith("/") else None

    # -- the session -----------------------------------------------------------------

    async def sign_in(self) -> None:
        """Sign in afresh; the new cookies replace the session's only once it worked."""
        cookies: dict[str, str] = {}
        page = await self._send("GET", "/", cookies=cookies)
        fail_for_status(self.kind, page, "the forum's front page did not load")
        if "csrftoken" not in cookies:
            raise FinalError(f"misago: {self.root}/ set no csrftoken cookie: is it a Misago forum?")
        credentials = {"username": self.username, "password": self._password}
        response = await self._send("POST", "/api/auth/", credentials, cookies=cookies)
        if response.status_code in (400, 403):
            raise FinalError(
                f"misago: signing in as {self.username} failed: {_detail(json_body(response))}"
            )
        fail_for_status(self.kind, response, _detail(json_body(response)))
        self._session.cookies = cookies  # csrftoken as rotated by the sign-in
        self._session.generation += 1

    async def _signed_in(self, stale: int | None = None) -> tuple[int, bool]:
        """The session's generation, signing in first when there is none yet (or when the
        one given turned out stale). One sign-in at a time per session: concurrent sends
        for two channels of the same account wait for it instead of signing in twice."""
        async with self._session.lock:
            current = self._session.generation
            if current == 0 or current == stale:
                await self.sign_in()
                return self._session.generation, True
            return current, False

    async def _call(self, method: str, path: str, payload: Any = None) -> dict[str, Any]:
        """A request as the signed-in account; signs in first, and once more if the
        session has expired (a 403 from a session that was not new)."""
        generation, fresh = await self._signed_in()
        response = await self._send(method, path, payload)
        answer = json_body(response)
        if response.status_code == 403 and not fresh and not _is_flood(answer):
            await self._signed_in(stale=generation)
            response = await self._send(method, path, payload)
            answer = json_body(response)
        if response.status_code == 403 and _is_flood(answer):
            raise RetryableError(
                f"misago: {_detail(answer)} (make the bot a moderator to lift this)",
                retry_after=FLOOD_WAIT_SECONDS,
            )
        fail_for_status(self.kind, response, _detail(answer))
        return as_dict(answer)

    async def _send(
        self,
        method: str,
        path: str,
        payload: Any = None,
        cookies: dict[str, str] | None = None,
    ) -> httpx.Response:
        jar = self._session.cookies if cookies is None else cookies
        headers = {"Accept": "application/json", "Referer": f"{self.root}/"}
        if jar:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in jar.items())
        if method != "GET" and "csrftoken" in jar:
            headers["X-CSRFToken"] = jar["csrftoken"]
        kwargs: dict[str, Any] = {"headers": headers, "secrets": (self._password,)}
        if payload is not None:
            kwargs["json"] = payload
        response = await request(self.kind, self._http, method, f"{self.root}{path}", **kwargs)
        for cookie in response.cookies.jar:
            if cookie.value is not None:
                jar[cookie.name] = cookie.value
        return response


def _detail(answer: Any) -> str:
    """Misago's error text: ``{"detail"}``, or field errors ``{"post": ["…"], …}``."""
    if not isinstance(answer, dict):
        return ""
    if "detail" in answer:
        return str(answer["detail"])
    texts = []
    for name, errors in answer.items():
        if isinstance(errors, list):
            texts.append(f"{name}: " + " ".join(str(error) for error in errors))
    return "; ".join(texts)


def _is_flood(answer: Any) -> bool:
    return isinstance(answer, dict) and _FLOOD_MESSAGE in str(answer.get("detail", ""))


class MisagoAdapter:
    kind: ClassVar[str] = "misago"
    default_format: ClassVar[str] = "markdown"
    config_model: ClassVar[type[BaseModel]] = MisagoConfig
    secret_fields: ClassVar[tuple[str, ...]] = ("password",)
    url_fields: ClassVar[tuple[str, ...]] = ("base_url",)

    def __init__(self, sleep: Sleep = asyncio.sleep) -> None:
        self.sleep = sleep
        # Signed-in sessions per (forum, account, password): one sign-in serves many posts.
        self._sessions: dict[tuple[str, str, str], _Session] = {}

    def client(self, config: dict[str, Any], http: httpx.AsyncClient) -> MisagoClient:
        """The bot's client for a channel config (the forum bridge reads with it too)."""
        settings = MisagoConfig.model_validate(config)
        key = (base_url(settings.base_url), settings.username, settings.password)
        session = self._sessions.setdefault(key, _Session())
        return MisagoClient(settings.base_url, settings.username, settings.password, http, session)

    async def send(
        self, message: Outgoing, config: dict[str, Any], http: httpx.AsyncClient
    ) -> Sent:
        settings = MisagoConfig.model_validate(config)
        client = self.client(config, http)
        thread: dict[str, Any] = {"id": settings.thread_id}

        async def send_one(index: int, part: str) -> Sent:
            if thread["id"] is None:
                return await self._open_thread(client, settings, message.title, part, thread)
            answer = await client.reply(thread["id"], part)
            url = as_dict(answer.get("url"))
            post_id = answer.get("id")
            return Sent(
                None if post_id is None else str(post_id), client.absolute(url.get("index"))
            )

        def updates() -> dict[str, Any]:
            opened = settings.thread_id is None and thread["id"] is not None
            return {"thread_id": thread["id"]} if opened else {}

        parts = split_body(message.body, POST_LIMIT)
        opening = thread["id"] is None
        try:
            first = (await send_parts(parts, send_one, self.sleep))[0]
        except ChannelError as error:
            error.config_updates = updates()
            raise
        if message.thread_title and settings.follow_title and not opening:
            await best_effort(client.retitle(thread["id"], message.thread_title), self.kind)
        return Sent(first.remote_id, first.remote_url, updates())

    async def edit(
        self, remote_id: str, body: str, config: dict[str, Any], http: httpx.AsyncClient
    ) -> None:
        """Edit the bot's own post (a withdrawn one, app/publish/withdraw.py)."""
        settings = MisagoConfig.model_validate(config)
        if settings.thread_id is None:
            raise FinalError("misago: the channel has no thread to edit a post in")
        client = self.client(config, http)
        await client.edit(settings.thread_id, int(remote_id), body[:POST_LIMIT])

    async def _open_thread(
        self,
        client: MisagoClient,
        settings: MisagoConfig,
        title: str,
        part: str,
        thread: dict[str, Any],
    ) -> Sent:
        assert settings.category_id is not None  # the config model guarantees one of the two
        answer = await client.start_thread(settings.category_id, title, part)
        thread["id"] = answer["id"]
        thread_url = client.absolute(answer.get("url"))
        # The thread exists now: whatever happens next, the delivery must not be retried
        # (that would open a second thread). Look up the opening post's id, best effort.
        try:
            results, _ = await client.posts_page(answer["id"], 1)
        except (RetryableError, FinalError):
            return Sent(None, thread_url)
        if not results:
            return Sent(None, thread_url)
        first = results[0]
        url = as_dict(first.get("url"))
        return Sent(str(first["id"]), client.absolute(url.get("index")) or thread_url)

"""The forum bridge against fake forums (httpx.MockTransport built from Misago's and
Discourse's documented APIs): a linked player's public orders posted in the thread are
submitted as theirs, edits revise them, deletions withdraw them, quotes and strangers
order nothing, hidden orders are refused, and each post revision counts once."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from httpx import AsyncClient

from app.bridge.reader import ForumReader
from app.clock import FakeClock
from app.publish.worker import DeliveryWorker
from tests.service.helpers import Game, ok, problem, team_battle, tick
from tests.service.publish_helpers import posts
from tests.service.web_helpers import browse, join

FORUM = "http://127.0.0.1:9"
THREAD = 7
DEPLOY = {"type": "deploy", "troops": [6, 6, 6, 6, 6]}


@dataclass
class FakeMisago:
    """Misago's JSON API, as much as the bridge and the bot use of it."""

    posts: dict[int, dict[str, Any]] = field(default_factory=dict)
    next_id: int = 100
    thread: int = THREAD  # where players post now

    def say(self, author: str, raw: str, thread: int | None = None) -> int:
        self.next_id += 1
        where = self.thread if thread is None else thread
        self.posts[self.next_id] = {
            "author": author,
            "raw": raw,
            "edits": 0,
            "hidden": False,
            "thread": where,
        }
        return self.next_id

    def edit(self, post_id: int, raw: str) -> None:
        self.posts[post_id]["raw"] = raw
        self.posts[post_id]["edits"] += 1

    def by(self, author: str) -> list[str]:
        return [p["raw"] for p in self.posts.values() if p["author"] == author]

    def handler(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        found = re.match(r"/api/threads/(\d+)/", path)
        if found and int(found.group(1)) != THREAD:
            thread = int(found.group(1))
            path = path.replace(f"/api/threads/{thread}/", f"/api/threads/{THREAD}/")
        else:
            thread = THREAD
        if path == "/":
            return httpx.Response(200, headers={"Set-Cookie": "csrftoken=abc; Path=/"})
        if path == "/api/auth/":
            return httpx.Response(200, json={"id": 1}, headers={"Set-Cookie": "sessionid=s1"})
        if path == f"/api/threads/{THREAD}/posts/reply_editor/":
            return httpx.Response(
                200, json={"post": self.posts[int(request.url.params["reply"])]["raw"]}
            )
        if path == f"/api/threads/{THREAD}/posts/" and request.method == "GET":
            results = [
                {
                    "id": pid,
                    "poster_name": p["author"],
                    "poster": {"id": 1},
                    "content": "<p>…</p>",
                    "posted_on": "2026-01-01T12:00:00Z",
                    "updated_on": None,
                    "edits": p["edits"],
                    "is_hidden": p["hidden"],
                    "is_unapproved": False,
                    "url": {"index": f"/t/game/{THREAD}/post/{pid}/"},
                }
                for pid, p in sorted(self.posts.items())
                if p["thread"] == thread
            ]
            return httpx.Response(200, json={"post_set": {"results": results, "next": None}})
        if path == f"/api/threads/{THREAD}/posts/" and request.method == "POST":
            pid = self.say("bot", json.loads(request.content)["post"], thread)
            return httpx.Response(
                200, json={"id": pid, "url": {"index": f"/t/g/{THREAD}/post/{pid}/"}}
            )
        return httpx.Response(404, json={"detail": "not found"})


@pytest.fixture
def misago() -> FakeMisago:
    return FakeMisago()


@dataclass
class Bridge:
    game: Game
    client: AsyncClient
    clock: FakeClock
    forum: FakeMisago
    reader: ForumReader
    http: httpx.AsyncClient

    async def read(self) -> int:
        return await self.reader.poll(self.game.id)

    async def deliver(self) -> None:
        app = self.client.app  # type: ignore[attr-defined]
        worker = DeliveryWorker(
            app.state.sessionmaker, self.clock, app.state.settings, http=self.http
        )
        while await worker.run_once():
            pass

    async def orders(self, who: str) -> list[dict[str, Any]]:
        """The side's orders of this phase (the deployments left out)."""
        found = ok(await self.game.get("/orders", who))
        return [o for o in found if o["type"] != "deploy"]

    async def replies(self) -> list[str]:
        return [
            p["bodies"]["markdown"] for p in await posts(self.game) if p["kind"] == "forum_reply"
        ]


async def command_phase(client: AsyncClient, clock: FakeClock) -> Game:
    game = await team_battle(client)
    await game.order("a1", DEPLOY)
    await game.order("b1", DEPLOY)
    await tick(client, clock, 3600)
    assert (await game.view())["phase"] == "command"
    return game


async def misago_bridge(
    client: AsyncClient, clock: FakeClock, forum: FakeMisago, names: dict[str, str] | None = None
) -> Bridge:
    """A team battle in its command phase, reading a (fake) Misago thread; a1 and b1
    are linked to forum accounts; the thread already holds a post from before."""
    game = await command_phase(client, clock)
    for player, forum_name in (names or {"a1": "alice", "b1": "bob"}).items():
        ok(
            await game.http.patch(
                f"{game.url}/players/{game.players[player]['id']}",
                headers={"Authorization": f"Bearer {game.director}"},
                json={"forum_name": forum_name},
            )
        )
    config = {"base_url": FORUM, "username": "bot", "password": "pw", "thread_id": THREAD}
    channel = ok(
        await game.post("/channels", "director", {"kind": "misago", "name": "f", "config": config}),
        201,
    )
    forum.say("alice", "调兵 1→2 1人")  # before reading started: not an order
    ok(await game.put("/forum", "director", {"channel_id": channel["id"], "read_orders": True}))
    http = httpx.AsyncClient(transport=httpx.MockTransport(forum.handler))
    app = client.app  # type: ignore[attr-defined]
    reader = ForumReader(lambda: app.state.sessionmaker, clock, app.state.settings, http=http)
    bridge = Bridge(game, client, clock, forum, reader, http)
    assert await bridge.read() == 0  # the baseline
    return bridge


async def test_a_linked_players_public_order_is_submitted_and_answered(
    client: AsyncClient, clock: FakeClock, misago: FakeMisago
) -> None:
    b = await misago_bridge(client, clock, misago)
    misago.say("alice", "调兵 3→2 4人")
    assert await b.read() == 1
    (order,) = await b.orders("a2")  # the side's orders: a1 gave it for side A
    assert order["body"] == {"type": "dispatch", "moves": [{"from": 3, "to": 2, "troops": 4}]}
    assert order["player_id"] == b.game.players["a1"]["id"]
    assert await b.orders("b1") == []
    await b.deliver()
    (reply,) = misago.by("bot")
    assert reply.startswith("@alice") and "调兵：3号位→2号位，4人" in reply
    assert reply.index("已收到指令") < reply.index("Orders received")  # Chinese first
    # Where the receipt is, and no receipt in public: it would show when hidden orders change.
    assert "你的暗令收据只在你自己的玩家页面上" in reply
    assert not re.search(r"[0-9a-f]{12}", reply)


async def test_an_edit_revises_and_a_deletion_withdraws(
    client: AsyncClient, clock: FakeClock, misago: FakeMisago
) -> None:
    b = await misago_bridge(client, clock, misago)
    post = misago.say("alice", "调兵 3→2 4人")
    await b.read()
    misago.edit(post, "调兵 3→2 5人")
    assert await b.read() == 1
    (order,) = await b.orders("a1")
    assert order["body"]["moves"] == [{"from": 3, "to": 2, "troops": 5}]
    history = ok(await b.game.get(f"/orders/{order['id']}/history", "a1"))
    assert [h["action"] for h in history] == ["submit", "revise"]
    misago.edit(post, "算了，先不动")  # the orders taken out of the post: withdrawn
    await b.read()
    (order,) = await b.orders("a1")
    assert order["status"] == "withdrawn"
    misago.edit(post, "调兵 3→2 4人")  # and put back: a new order
    await b.read()
    assert sorted(o["status"] for o in await b.orders("a1")) == ["pending", "withdrawn"]
    misago.posts[post]["hidden"] = True  # deleted by the player (hidden for readers)
    assert await b.read() == 1
    assert [o["status"] for o in await b.orders("a1")] == ["withdrawn", "withdrawn"]
    assert "帖子已删除" in (await b.replies())[-1]


async def test_quotes_chatter_and_strangers_order_nothing(
    client: AsyncClient, clock: FakeClock, misago: FakeMisago
) -> None:
    b = await misago_bridge(client, clock, misago)
    misago.say("bob", '[quote="@alice"]\n调兵 3→2 4人\n[/quote]\n你这是送人头')
    misago.say("bob", "> 调兵 3→2 4人\n哈哈")
    misago.say("bob", "今天天气不错，大家加油！")
    misago.say("mallory", "调兵 3→2 4人")  # a forum account linked to no player
    assert await b.read() == 4
    assert await b.orders("a1") == [] and await b.orders("b1") == []
    assert await b.replies() == []


async def test_a_hidden_order_posted_in_public_is_refused_with_a_warning(
    client: AsyncClient, clock: FakeClock, misago: FakeMisago
) -> None:
    b = await misago_bridge(client, clock, misago)
    misago.say("alice", "调兵 3→2 4人\n反击2")
    await b.read()
    assert await b.orders("a1") == []  # neither the Counter nor the Dispatch beside it
    (reply,) = await b.replies()
    assert "暗令" in reply and "hidden order" in reply
    events = await b.game.events("director")
    assert not any(e["kind"] == "order_submitted" and "counter" in json.dumps(e) for e in events)


async def test_an_order_gone_wrong_is_answered_with_the_problem(
    client: AsyncClient, clock: FakeClock, misago: FakeMisago
) -> None:
    b = await misago_bridge(client, clock, misago)
    misago.say("alice", "调兵 3→2 4人 冲啊")  # a word the grammar does not know
    misago.say("alice", "调兵 3→2 40人")  # read, but the rules refuse it
    await b.read()
    assert await b.orders("a1") == []
    first, second = await b.replies()
    assert "冲啊" in first and "指令未被接受" in first
    assert "指令未被接受" in second and "Orders not accepted" in second


async def test_each_revision_counts_once_across_readers(
    client: AsyncClient, clock: FakeClock, misago: FakeMisago
) -> None:
    b = await misago_bridge(client, clock, misago)
    misago.say("alice", "调兵 3→2 4人")
    app = client.app  # type: ignore[attr-defined]
    other = ForumReader(lambda: app.state.sessionmaker, clock, app.state.settings, http=b.http)
    first = await b.read()
    assert await other.poll(b.game.id) == 0 and await b.read() == 0  # nothing new
    assert first == 1
    # A replica that listed the thread before the first one recorded it reads it again:
    # the (game, post, revision) row makes that a no-op.
    from app.bridge.service import ForumMessage

    post_id = max(misago.posts)
    again = ForumMessage(str(post_id), "0", "alice", "调兵 3→2 4人", None)
    assert await other.read(b.game.id, again) == "seen"
    assert len(await b.orders("a1")) == 1
    assert len(await b.replies()) == 1


async def test_the_poll_timer_reads_the_thread_after_its_transaction(
    client: AsyncClient, clock: FakeClock, misago: FakeMisago
) -> None:
    from app.bridge import reader as reader_module

    b = await misago_bridge(client, clock, misago)
    reader_module.install(b.reader)
    misago.say("alice", "调兵 3→2 4人")
    await tick(client, clock, 30)  # the poll is due every poll_seconds (30)
    await b.reader.drain()
    assert len(await b.orders("a1")) == 1


async def test_an_order_after_the_deadline_is_refused(
    client: AsyncClient, clock: FakeClock, misago: FakeMisago
) -> None:
    b = await misago_bridge(client, clock, misago)
    misago.say("alice", "调兵 3→2 4人")
    clock.advance(3600)  # the command phase's deadline passed; not resolved yet
    await b.read()
    assert await b.orders("a1") == []
    assert "截止时间已过" in (await b.replies())[0]


async def test_a_link_code_from_the_player_page_links_the_poster(
    client: AsyncClient, clock: FakeClock, misago: FakeMisago
) -> None:
    b = await misago_bridge(client, clock, misago, names={"b1": "bob"})
    code = await link_code(b.game, "a1")
    misago.say("carol", "调兵 3→2 4人")  # not linked yet: ignored
    misago.say("carol", f"绑定 {code}")
    await b.read()
    misago.say("carol", "调兵 3→2 4人")
    await b.read()
    (order,) = await b.orders("a1")
    assert order["player_id"] == b.game.players["a1"]["id"]
    linked, accepted = await b.replies()
    assert "carol" in linked and "a1" in linked
    misago.say("mallory", f"link {code}")  # a code works once
    await b.read()
    assert "绑定码无效" in (await b.replies())[-1]


async def link_code(game: Game, player: str) -> str:
    """The code the player's own page shows, with how to use it (Chinese first)."""
    invite = ok(await game.post(f"/players/{game.players[player]['id']}/invite", "director"), 201)
    await join(game.http, invite["url"])
    page = (await browse(game.http, f"/play/{game.id}")).text
    found = re.search(r"FP-[A-Z0-9]{8}", page)
    assert found, page
    code = found.group(0)
    assert f"绑定 {code}" in page
    english = await browse(game.http, f"/play/{game.id}", headers={"Accept-Language": "en"})
    assert f"link {code}" in english.text  # the same code until it is used
    return code


async def test_only_the_director_turns_reading_on_and_only_forum_channels(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(client)
    hook = {
        "url": "http://127.0.0.1:9/hook",
        "secret": "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    }
    channel = ok(
        await game.post("/channels", "director", {"kind": "webhook", "name": "h", "config": hook}),
        201,
    )
    body = {"channel_id": channel["id"], "read_orders": True}
    problem(await game.put("/forum", "a1", body), 403, "forbidden")
    problem(await game.put("/forum", "director", body), 422, "channel_not_readable")
    problem(await game.put("/forum", "director", {**body, "channel_id": "nope"}), 404, "not_found")


# ------------------------------------------------------------------------------ Discourse

SECRET = "discourse-webhook-secret"


@dataclass
class FakeDiscourse:
    posts: dict[int, dict[str, Any]] = field(default_factory=dict)
    requests: list[httpx.Request] = field(default_factory=list)
    fail: bool = False

    def handler(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self.fail:
            return httpx.Response(502, text="Bad Gateway")
        found = re.fullmatch(r"/posts/(\d+)\.json", request.url.path)
        if request.method == "GET" and found:
            post = self.posts.get(int(found.group(1)))
            if post is None:
                return httpx.Response(404, json={"errors": ["not found"]})
            return httpx.Response(200, json=post)
        if request.method == "POST" and request.url.path == "/posts.json":
            return httpx.Response(200, json={"id": 999, "topic_id": 55, "post_number": 9})
        return httpx.Response(404, json={"errors": ["not found"]})


def signature(body: bytes, secret: str = SECRET) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


async def test_discourse_webhook_is_verified_then_the_raw_post_fetched(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await command_phase(client, clock)
    ok(
        await game.http.patch(
            f"{game.url}/players/{game.players['a1']['id']}",
            headers={"Authorization": f"Bearer {game.director}"},
            json={"forum_name": "Alice"},
        )
    )
    config = {"base_url": FORUM, "api_key": "k3y", "api_username": "bot", "topic_id": 55}
    channel = ok(
        await game.post(
            "/channels", "director", {"kind": "discourse", "name": "d", "config": config}
        ),
        201,
    )
    body = {"channel_id": channel["id"], "read_orders": True}
    problem(await game.put("/forum", "director", body), 422, "webhook_secret_required")
    shown = ok(await game.put("/forum", "director", {**body, "webhook_secret": SECRET}))
    assert shown["webhook_secret_set"] is True and SECRET not in json.dumps(shown)
    forum = FakeDiscourse()
    app = client.app  # type: ignore[attr-defined]
    app.state.forum_reader.http = httpx.AsyncClient(transport=httpx.MockTransport(forum.handler))
    forum.posts[31] = {
        "id": 31,
        "topic_id": 55,
        "post_number": 4,
        "topic_slug": "game",
        "version": 1,
        "username": "alice",
        "raw": "调兵 3→2 4人",
        "deleted_at": None,
        "hidden": False,
    }
    delivery = json.dumps({"post": {"id": 31, "topic_id": 55, "username": "alice"}}).encode()

    async def hook(payload: bytes, sig: str, event: str = "post_created") -> httpx.Response:
        headers = {
            "X-Discourse-Event-Signature": sig,
            "X-Discourse-Event": event,
            "Content-Type": "application/json",
        }
        return await game.http.post(f"{game.url}/forum/discourse", content=payload, headers=headers)

    async def orders() -> list[dict[str, Any]]:
        return [o for o in ok(await game.get("/orders", "a1")) if o["type"] != "deploy"]

    problem(await hook(delivery, signature(delivery, "wrong")), 401, "bad_signature")
    assert forum.requests == [] and await orders() == []
    assert ok(await hook(delivery, signature(delivery)))["outcome"] == "orders"
    (fetch,) = forum.requests
    assert fetch.headers["Api-Key"] == "k3y" and fetch.headers["Api-Username"] == "bot"
    (order,) = await orders()
    assert order["body"]["moves"] == [{"from": 3, "to": 2, "troops": 4}]
    assert ok(await hook(delivery, signature(delivery)))["outcome"] == "seen"  # redelivered
    forum.posts[31] |= {"version": 2, "raw": "调兵 3→2 6人"}
    assert ok(await hook(delivery, signature(delivery), "post_edited"))["outcome"] == "orders"
    (order,) = await orders()
    assert order["body"]["moves"][0]["troops"] == 6
    forum.posts[31] |= {"version": 3}
    forum.fail = True  # Discourse is away: the delivery fails, to be redelivered
    problem(await hook(delivery, signature(delivery), "post_edited"), 503, "forum_unavailable")
    forum.fail = False
    assert ok(await hook(delivery, signature(delivery), "post_destroyed"))["outcome"] == "withdrawn"
    (order,) = await orders()
    assert order["status"] == "withdrawn"
    other = json.dumps({"post": {"id": 32, "topic_id": 56}}).encode()
    assert ok(await hook(other, signature(other)))["outcome"] == "ignored"  # another topic


@pytest.mark.parametrize(
    ("ruleset", "order", "public"),
    [
        ("team_battle", {"type": "dispatch", "moves": []}, True),  # TB-30 (public)
        ("team_battle", {"type": "feint", "slot": 2}, True),  # TB-46 (read out as a Gather)
        ("team_battle", {"type": "counter", "slot": 2}, False),  # TB-32 (hidden)
        ("team_battle", {"type": "deploy", "troops": [6, 6, 6, 6, 6]}, False),  # TB-10
        ("island", {"type": "move", "direction": "up"}, True),
        ("island", {"type": "move", "direction": "up", "hidden": True}, False),  # IS-10
        ("island", {"type": "assassinate", "target": "x"}, False),  # IS-20
        ("island", {"type": "guard", "target": "x"}, False),  # IS-25
        ("island", {"type": "explore"}, True),
    ],
)
def test_which_orders_may_be_posted_in_public(
    ruleset: str, order: dict[str, Any], public: bool
) -> None:
    from app.rules.registry import get_ruleset

    assert get_ruleset(ruleset).is_public_order(order) is public


async def test_moving_to_another_thread_keeps_the_orders_of_the_first(
    client: AsyncClient, clock: FakeClock, misago: FakeMisago
) -> None:
    b = await misago_bridge(client, clock, misago)
    misago.say("alice", "调兵 3→2 4人")
    await b.read()
    (channel,) = ok(await b.game.get("/channels", "director"))
    body = {"channel_id": channel["id"], "thread_id": THREAD + 1}
    ok(await b.game.put("/forum", "director", body))
    misago.thread = THREAD + 1
    misago.say("bob", "新帖开张")  # already there when reading moves: the baseline
    await b.read()
    misago.say("bob", "调兵 1→2 1人")
    await b.read()
    (mine,) = await b.orders("a1")
    assert mine["status"] == "pending"  # not taken for deleted: it is in the other thread
    assert len(await b.orders("b1")) == 1

"""A webhook receiver that counts what it gets: the far end of the publishing benchmark and
of the end-to-end webhook test.

``python bench/webhook_sink.py --secret whsec_… [--port 0]`` prints ``PORT <n>`` once it
listens. ``POST /hook`` checks the Standard Webhooks signature (``webhook-id``,
``webhook-timestamp``, ``webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">``)
and counts each ``webhook-id``; ``GET /stats`` answers the counts; ``GET /posts`` every
accepted body in arrival order. A bare ASGI app (no framework): it must not be the
bottleneck of what it measures.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import hmac
import json
import socket
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import uvicorn

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def signature(secret: str, msg_id: str, timestamp: str, body: bytes) -> str:
    key = base64.b64decode(secret.removeprefix("whsec_"))
    mac = hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode()


class WebhookSink:
    def __init__(self, secret: str) -> None:
        self.secret = secret
        self.ids: Counter[str] = Counter()
        self.bodies: list[dict[str, Any]] = []
        self.ids_of_post: dict[str, set[str]] = {}  # post id → the webhook-ids it came under
        self.bad_signatures = 0
        self.first_at: float | None = None
        self.last_at: float | None = None

    def stats(self) -> dict[str, Any]:
        return {
            "received": sum(self.ids.values()),
            "unique": len(self.ids),
            "duplicates": sum(n - 1 for n in self.ids.values() if n > 1),
            "bad_signatures": self.bad_signatures,
            "posts_under_two_ids": sum(1 for ids in self.ids_of_post.values() if len(ids) > 1),
            "first_at": self.first_at,
            "last_at": self.last_at,
        }

    def accept(self, headers: dict[str, str], body: bytes) -> bool:
        msg_id = headers.get("webhook-id", "")
        timestamp = headers.get("webhook-timestamp", "")
        expected = signature(self.secret, msg_id, timestamp, body)
        given = headers.get("webhook-signature", "").split(" ")
        if not msg_id or not any(hmac.compare_digest(expected, g) for g in given):
            self.bad_signatures += 1
            return False
        self.ids[msg_id] += 1
        self.bodies.append(json.loads(body))
        post_id = str(self.bodies[-1].get("post", {}).get("id"))
        self.ids_of_post.setdefault(post_id, set()).add(msg_id)
        self.last_at = time.time()
        if self.first_at is None:
            self.first_at = self.last_at
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the sender died mid-request (the crash run): nothing was delivered
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        answer: Any
        if scope["method"] == "POST" and scope["path"] == "/hook":
            headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
            status, answer = (
                (204, None) if self.accept(headers, body) else (401, {"error": "bad signature"})
            )
        elif scope["path"] == "/stats":
            status, answer = 200, self.stats()
        elif scope["path"] == "/posts":
            status, answer = 200, self.bodies
        else:
            status, answer = 404, {"error": "not found"}
        payload = b"" if answer is None else json.dumps(answer).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": payload})


def free_socket(backlog: int | None = None) -> socket.socket:
    """A socket bound to a port the OS chose (never a fixed port), listening if ``backlog``
    is given (a server handed it with ``--fd`` does not listen itself).

    With TCP_NODELAY, which the connections it accepts inherit. Without it each answer's
    second write (uvicorn sends the head and the body apart) waited for the client's
    delayed ACK: 40 ms a request on a kept-alive connection. The event loop sets it on
    the connections of a socket it made itself (``--port``), not on one made like this."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    if backlog is not None:
        sock.listen(backlog)
    return sock


async def serve_in_process(sink: WebhookSink) -> tuple[uvicorn.Server, asyncio.Task[None], int]:
    """Run the sink in this event loop; returns once it listens."""
    sock = free_socket()
    port = int(sock.getsockname()[1])
    config = uvicorn.Config(sink, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    for _ in range(1000):  # bounded: a busy machine may take a while
        if server.started:
            return server, task, port
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    raise TimeoutError("the webhook sink did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--secret", required=True)
    args = parser.parse_args()
    sock = free_socket()
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(
        WebhookSink(args.secret),
        log_level="warning",
        access_log=False,
        lifespan="off",
        loop="uvloop",
        http="httptools",
    )
    asyncio.run(uvicorn.Server(config).serve(sockets=[sock]))


if __name__ == "__main__":
    main()

"""The workers' shared HTTP client, against a real local server: a pass of 100 sends at once
keeps its connections for the next pass, and a proxy named in the environment is used."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import httpx
import pytest

from app.publish.channels import LanedTransport, make_http_client

OK = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"


@dataclass
class Server:
    """An HTTP/1.1 server that counts the connections it accepts (keep-alive: each one
    answers as many requests as it is sent) and remembers every request line."""

    port: int = 0
    connections: int = 0
    request_lines: list[str] = field(default_factory=list)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                self.request_lines.append(lines[0])
                length = next(
                    (
                        int(v)
                        for k, _, v in (x.partition(":") for x in lines[1:])
                        if k.strip().lower() == "content-length"
                    ),
                    0,
                )
                await reader.readexactly(length)
                writer.write(OK)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    state = Server()
    listener = await asyncio.start_server(state.handle, "127.0.0.1", 0)
    state.port = listener.sockets[0].getsockname()[1]
    try:
        yield state
    finally:
        listener.close()
        await listener.wait_closed()


@pytest.fixture
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """No proxy named in the environment: the client's own connections are used."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.usefixtures("no_proxy")
async def test_a_pass_of_100_sends_reuses_the_connections_of_the_last_one(
    server: Server,
) -> None:
    url = f"http://127.0.0.1:{server.port}/hook"
    async with make_http_client(allow_private_urls=True) as http:
        for _ in range(3):  # three delivery passes, each of 100 sends at once
            answers = await asyncio.gather(*(http.post(url, content=b"{}") for _ in range(100)))
            assert [a.status_code for a in answers] == [200] * 100
    assert len(server.request_lines) == 300
    # 300 sends over at most 100 connections: never more at once (a platform may refuse
    # more), and a pass after the first opens none anew — against a platform, each new
    # connection is a TLS handshake.
    assert server.connections <= 100


async def test_a_proxy_named_in_the_environment_is_used(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{server.port}")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    async with make_http_client(allow_private_urls=True) as http:
        answer = await http.post("http://hooks.example.org/hook", content=b"{}")
    assert answer.status_code == 200
    # The request reached the proxy, which is asked for the whole URL.
    assert server.request_lines == ["POST http://hooks.example.org/hook HTTP/1.1"]


@pytest.mark.usefixtures("no_proxy")
async def test_a_failed_connection_frees_its_lane() -> None:
    probe = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = probe.sockets[0].getsockname()[1]
    probe.close()
    await probe.wait_closed()  # nothing listens on that port now
    async with make_http_client(allow_private_urls=True) as http:
        for _ in range(150):  # more failures than the lanes hold connections
            with pytest.raises(httpx.ConnectError):
                await http.post(f"http://127.0.0.1:{port}/hook", content=b"{}")
        transport = http._transport  # what the lanes count in flight
        assert isinstance(transport, LanedTransport)
        assert transport._in_flight == [0] * 20  # a lane that leaked would be shunned

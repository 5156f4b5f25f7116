"""The private-address guard refuses every special-purpose address (issue 16 item 33).

Python's ``is_global`` let through 192.0.0.8 and IPv6 addresses that embed a refused IPv4
address (IPv4-compatible, NAT64, 6to4...); the delivery worker then sent to them. Each is
refused when a channel is created (its literal host, or what its name resolves to) and
again just before each delivery (DNS may answer differently by then).
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from httpx import AsyncClient

from app.clock import FakeClock
from app.publish import urls
from app.publish.channels import make_http_client
from app.publish.worker import DeliveryWorker
from tests.service.helpers import Game, ok, problem, team_battle
from tests.service.publish_helpers import WEBHOOK_SECRET, posts

REFUSED = [
    "192.0.0.8",  # IETF protocol assignments: not globally reachable
    "192.0.0.170",  # NAT64 discovery
    "192.31.196.1",  # AS112
    "198.18.0.1",  # benchmarking
    "203.0.113.9",  # documentation
    "240.0.0.1",  # reserved
    "::127.0.0.1",  # IPv4-compatible loopback
    "::ffff:10.0.0.1",  # IPv4-mapped private
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b:1::a00:1",  # local-use NAT64
    "2002:7f00:1::",  # 6to4 of 127.0.0.1
    "2002:a9fe:a9fe::1",  # 6to4 of the metadata address 169.254.169.254
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo whose client is 127.0.0.1
    "2606:4700::5efe:7f00:1",  # ISATAP interface id carrying 127.0.0.1
    "2001:db8::1",  # documentation
    "100::1",  # discard-only
    "fc00::1",  # unique local
    "fec0::1",  # site-local
    "4000::1",  # not global unicast: never handed out
]
PUBLIC = ["93.184.215.14", "2606:4700:4700::1111"]

HOOK = "hooks.example.org"


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[str]]]:
    """No DNS in tests: names resolve from this table."""
    table = {HOOK: ["93.184.215.14"]}

    def resolve(host: str, port: int) -> list[str]:
        if host not in table:
            raise OSError("Name or service not known")
        return table[host]

    monkeypatch.setattr(urls, "resolve_host", resolve)
    yield table


@pytest.fixture
def guarded(client: AsyncClient) -> Iterator[AsyncClient]:
    """The app with the guard on, as served (the test settings lift it for local sinks)."""
    app = client.app  # type: ignore[attr-defined]
    before = app.state.settings
    app.state.settings = before.model_copy(update={"publish_allow_private_urls": False})
    yield client
    app.state.settings = before


def _url(address: str) -> str:
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}/hook"


async def _add_channel(game: Game, url: str) -> httpx.Response:
    body = {"kind": "webhook", "name": "hook", "config": {"url": url, "secret": WEBHOOK_SECRET}}
    return await game.post("/channels", "director", body)


@pytest.mark.parametrize("address", REFUSED)
async def test_a_channel_at_a_special_address_is_refused(
    guarded: AsyncClient, dns: dict[str, list[str]], address: str
) -> None:
    game = await team_battle(guarded)
    body = problem(await _add_channel(game, _url(address)), 422, "private_url")
    assert body["detail"].startswith("频道地址") and address in body["detail"]
    dns[HOOK] = ["93.184.215.14", address]  # one answer of the name is enough
    body = problem(await _add_channel(game, f"https://{HOOK}/in"), 422, "private_url")
    assert address in body["detail"]
    assert ok(await game.get("/channels", "director")) == []  # nothing was made


@pytest.mark.parametrize("address", PUBLIC)
async def test_a_channel_at_a_public_address_is_accepted(
    guarded: AsyncClient, dns: dict[str, list[str]], address: str
) -> None:
    game = await team_battle(guarded)
    ok(await _add_channel(game, _url(address)), 201)


@pytest.mark.parametrize("address", REFUSED)
async def test_the_worker_refuses_a_name_that_now_resolves_to_a_special_address(
    guarded: AsyncClient, clock: FakeClock, dns: dict[str, list[str]], address: str
) -> None:
    game = await team_battle(guarded)
    ok(await _add_channel(game, f"https://{HOOK}/in"), 201)  # public when it was made
    ok(await game.post("/advance", "director"))  # posts for the channel
    dns[HOOK] = [address]  # and then the name points inside
    sent: list[httpx.Request] = []
    transport = httpx.MockTransport(lambda request: sent.append(request) or httpx.Response(200))
    app = guarded.app  # type: ignore[attr-defined]
    http = make_http_client(allow_private_urls=False, transport=transport)
    try:
        worker = DeliveryWorker(app.state.sessionmaker, clock, app.state.settings, http=http)
        assert await worker.run_once() == 1
    finally:
        await http.aclose()
    assert sent == []  # nothing left the machine
    deliveries = [d for p in await posts(game) for d in p["deliveries"]]
    assert deliveries[0]["status"] == "failed"
    assert address in deliveries[0]["error"] and "private" in deliveries[0]["error"]

"""``forumplay serve`` bounds what a client may send and how slowly (issue 16 item 37).

Served directly, slow headers and bodies were never timed out, and a 200 KB header or
2,000 headers were accepted. Against a real ``python -m app serve`` process on 127.0.0.1
(its timeouts set short for the test): each is refused, and ordinary requests still work.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from tests.service.live_server import served_process

TIMEOUT = 1.0  # the served process's header and body timeouts, in seconds
WAIT = 20.0  # generous bounds on a shared machine


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    port = _free_port()
    database = tmp_path_factory.mktemp("serve") / "forumplay.db"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{database}",
        "SCHEDULER_ENABLED": "false",
        "PUBLISH_WORKER_ENABLED": "false",
        "SERVE_HEADER_TIMEOUT_SECONDS": str(TIMEOUT),
        "SERVE_BODY_TIMEOUT_SECONDS": str(TIMEOUT),
    }
    command = [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(port)]
    base = f"http://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    with served_process(command, env, base, **quiet):
        yield "127.0.0.1", port


def _exchange(address: tuple[str, int], data: bytes) -> bytes:
    """Send ``data`` and read until the server closes the connection. A server that
    refuses midway may reset the connection while the rest is still being sent: what it
    answered before is returned (its answer is read as the bytes arrive)."""
    answer = b""
    with socket.create_connection(address, timeout=WAIT) as sock:
        try:
            sock.sendall(data)
        except (ConnectionResetError, BrokenPipeError):
            pass
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    return answer


def _closed_within(address: tuple[str, int], data: bytes) -> float:
    """Send ``data`` (an unfinished request), then nothing: seconds until the server
    closes the connection (a bounded wait on the socket, never a sleep)."""
    with socket.create_connection(address, timeout=WAIT) as sock:
        sock.sendall(data)
        started = time.monotonic()
        try:
            while sock.recv(65536):
                pass
        except TimeoutError:
            pytest.fail(f"the server kept the connection open for {WAIT:.0f} s")
        return time.monotonic() - started


def test_an_ordinary_request_is_served(served: tuple[str, int]) -> None:
    answer = _exchange(served, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200")


def test_a_200_kb_header_is_refused(served: tuple[str, int]) -> None:
    big = b"X-Big: " + b"a" * 200_000 + b"\r\n"
    answer = _exchange(served, b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + big + b"\r\n")
    assert answer.startswith(b"HTTP/1.1 400") or answer == b"", answer[:100]
    assert b"200 OK" not in answer


def test_2000_headers_are_refused(served: tuple[str, int]) -> None:
    many = b"".join(b"X-%d: 1\r\n" % n for n in range(2000))
    answer = _exchange(served, b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")
    assert answer.startswith(b"HTTP/1.1 400"), answer[:100]


def test_slow_headers_are_timed_out(served: tuple[str, int]) -> None:
    took = _closed_within(served, b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # never ends
    assert took < TIMEOUT + 5


def test_a_slow_body_is_timed_out(served: tuple[str, int]) -> None:
    head = (
        b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n"
    )
    took = _closed_within(served, head + b'{"ruleset": ')  # 12 of 1000 bytes, then nothing
    assert took < TIMEOUT + 5


def test_a_connection_that_opens_and_says_nothing_is_closed(served: tuple[str, int]) -> None:
    took = _closed_within(served, b"")
    assert took < TIMEOUT + 10  # the header timeout, or uvicorn's idle keep-alive (5 s)

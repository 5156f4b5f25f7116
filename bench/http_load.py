"""A small keep-alive HTTP/1.1 POST load generator (the fallback when ``wrk`` is missing).

``python bench/http_load.py SPEC.json`` where the spec is
``{"host", "port", "connections", "duration", "targets": [[path, token], ...], "bodies": [...]}``.
Connection ``i`` cycles through targets ``i, i + connections, ...`` (its own tokens), sends one
request at a time, and the whole run prints one JSON line: requests, non-2xx, errors, and
latency percentiles in microseconds (the same fields the wrk Lua script prints).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, max(0, round(q / 100 * len(sorted_values)) - 1))
    return sorted_values[index]


async def read_response(reader: asyncio.StreamReader) -> int:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    if length:
        await reader.readexactly(length)
    return status


async def connection(
    spec: dict[str, Any], index: int, stop_at: float, latencies: list[float], counts: dict[str, int]
) -> None:
    targets: list[list[str]] = spec["targets"]
    bodies: list[str] = spec["bodies"]
    mine = targets[index :: spec["connections"]] or targets
    host = f"{spec['host']}:{spec['port']}"
    reader, writer = await asyncio.open_connection(spec["host"], spec["port"])
    n = index
    try:
        while time.perf_counter() < stop_at:
            path, token = mine[n % len(mine)]
            body = bodies[n % len(bodies)].encode()
            n += 1
            request = (
                f"POST {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
            ).encode() + body
            started = time.perf_counter()
            writer.write(request)
            try:
                status = await read_response(reader)
            except (asyncio.IncompleteReadError, ConnectionError):
                counts["errors"] += 1
                writer.close()
                reader, writer = await asyncio.open_connection(spec["host"], spec["port"])
                continue
            latencies.append((time.perf_counter() - started) * 1e6)
            counts["requests"] += 1
            if not 200 <= status < 300:
                counts["non2xx"] += 1
    finally:
        writer.close()


async def run(spec: dict[str, Any]) -> dict[str, Any]:
    latencies: list[float] = []
    counts = {"requests": 0, "non2xx": 0, "errors": 0}
    started = time.perf_counter()
    stop_at = started + float(spec["duration"])
    await asyncio.gather(
        *(connection(spec, i, stop_at, latencies, counts) for i in range(spec["connections"]))
    )
    elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "requests": counts["requests"],
        "duration_us": elapsed * 1e6,
        "non2xx": counts["non2xx"],
        "errors": counts["errors"],
        "p50_us": percentile(latencies, 50),
        "p99_us": percentile(latencies, 99),
        "max_us": latencies[-1] if latencies else 0.0,
    }


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    try:
        import uvloop
    except ImportError:
        result = asyncio.run(run(spec))
    else:
        result = uvloop.run(run(spec))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()

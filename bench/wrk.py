"""``wrk`` driven from Python, shared by the HTTP benchmarks: each connection cycles through
its own share of (path, bearer token) targets — GETs, or POSTs of the given JSON bodies —
and the run reports one result (requests, non-2xx, socket errors, latency percentiles in
microseconds: the same fields as ``bench/http_load.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

THREADS = 2


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (Linux ``/proc``): per request,
    steadier than req/s on a shared machine."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def database_cpu_seconds() -> float:
    """CPU time all PostgreSQL processes on this machine have used so far (0 where they
    cannot be read): what a request costs the database, beside what it costs the server."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name = text[text.find("(") + 1 : text.rfind(")")]
        if name.startswith(("postgres", "postmaster")):
            fields = text.rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


LUA = """
local targets = %(targets)s
local bodies = %(bodies)s
local nthreads = %(threads)d
local threads = {}
local counter = 0

function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  mine = {}
  for i = tid + 1, #targets, nthreads do
    table.insert(mine, targets[i])
  end
  n = tid
  non2xx = 0
end

function request()
  n = n + 1
  local t = mine[(n %% #mine) + 1]
  local headers = {}
  if t[2] ~= "" then
    headers["Authorization"] = "Bearer " .. t[2]
  end
  if #bodies == 0 then
    return wrk.format("GET", t[1], headers)
  end
  headers["Content-Type"] = "application/json"
  return wrk.format("POST", t[1], headers, bodies[(n %% #bodies) + 1])
end

function response(status, headers, body)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
  end
end

function done(summary, latency, requests)
  local bad = 0
  for _, thread in ipairs(threads) do
    bad = bad + thread:get("non2xx")
  end
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %%d, "duration_us": %%d, "non2xx": %%d, "errors": %%d, ' ..
    '"p50_us": %%d, "p99_us": %%d, "max_us": %%d}\\n',
    summary.requests, summary.duration, bad, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
"""


def lua_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def run(
    port: int,
    targets: Sequence[tuple[str, str]],
    clients: int,
    seconds: float,
    bodies: Sequence[str] = (),
) -> dict[str, Any]:
    """Load ``127.0.0.1:port`` for ``seconds`` with ``clients`` connections: GET each
    target (path, token; "" for none), or POST ``bodies`` to it when there are any."""
    lua = LUA % {
        "targets": "{" + ",".join(f"{{{lua_string(p)},{lua_string(t)}}}" for p, t in targets) + "}",
        "bodies": "{" + ",".join(lua_string(b) for b in bodies) + "}",
        "threads": THREADS,
    }
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(lua)
        script = f.name
    try:
        command = ["wrk", f"-t{THREADS}", f"-c{clients}", f"-d{max(1, round(seconds))}s"]
        command += ["--timeout", "10s", "-s", script, f"http://127.0.0.1:{port}"]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(script)
    line = next(x for x in out.splitlines() if x.startswith("RESULT "))
    return dict(json.loads(line.removeprefix("RESULT ")))

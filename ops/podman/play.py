"""Play a short Team Battle game against a running forumplay over HTTP, to the end.

Used by ops/podman/image-test.sh against the container image and the compose stack;
standard library only, so it runs with any python3. Exits non-zero on the first surprise.
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from typing import Any


def call(base: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{base}/api/v1{path}", data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise SystemExit(f"{method} {path}: {error.code} {error.read().decode()}") from None


def main(base: str, admin_token: str | None) -> None:
    game = call(
        base,
        "POST",
        "/games",
        admin_token,
        {"ruleset": "team_battle", "title": "容器测试", "settings": {"troops": {"A": 10, "B": 10}}},
    )
    gid, director = game["id"], game["director_token"]
    a = call(base, "POST", f"/games/{gid}/players", director, {"name": "曹操", "side": "A"})[
        "token"
    ]
    b = call(base, "POST", f"/games/{gid}/players", director, {"name": "周瑜", "side": "B"})[
        "token"
    ]
    call(base, "POST", f"/games/{gid}/start", director)
    call(base, "POST", f"/games/{gid}/orders", a, {"type": "deploy", "troops": [2, 2, 2, 2, 2]})
    call(base, "POST", f"/games/{gid}/orders", b, {"type": "deploy", "troops": [1, 1, 1, 1, 6]})
    call(base, "POST", f"/games/{gid}/ready", a)
    call(base, "POST", f"/games/{gid}/ready", b)
    for _ in range(200):
        if call(base, "GET", f"/games/{gid}")["status"] == "finished":
            break
        call(base, "POST", f"/games/{gid}/advance", director)
    else:
        raise SystemExit("the game did not finish within 200 phases")
    view = call(base, "GET", f"/games/{gid}/view")
    verified = call(base, "GET", f"/games/{gid}/verify")
    if not verified["ok"]:
        raise SystemExit(f"verify failed: {verified}")
    print(
        f"played game {gid} to the end: winner {view['winner']}, {verified['steps']} steps verified"
    )


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"), sys.argv[2] if len(sys.argv) > 2 else None)

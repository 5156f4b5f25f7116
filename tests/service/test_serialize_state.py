"""``serialize_state`` writes exactly ``json.dumps``'s text (stored hashes are of it),
whichever of its two ways it takes."""

from __future__ import annotations

import json
import random
import struct
from typing import Any

from app.services.steps import serialize_state


def _reference(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_the_same_text_as_json_dumps() -> None:
    rng = random.Random(23)
    values: list[Any] = [
        1e-05,
        0.0001,
        1e16,
        1e15,
        123456789012345.6,
        5e-324,
        -0.0,
        0.1 + 0.2,
        2**64,
        -(2**63) - 1,
        2**63,
        True,
        None,
        "",
        '\x00\x1f\x7f\u2028 引号"\\',
        "3e5",
        {"1": 1, "b": [1, 2.5]},
        {1: "int key"},
        (1, 2),
        "\U0001f600",
    ]
    for _ in range(5000):
        bits = struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0]
        if bits == bits and abs(bits) != float("inf"):
            values.append(bits)
        values.append(rng.uniform(-1, 1) * 10.0 ** rng.randint(-30, 30))
        values.append(rng.randint(-(2**70), 2**70))
    for value in values:
        assert serialize_state({"v": value, "list": [value]}) == _reference(
            {"v": value, "list": [value]}
        ), value
    assert serialize_state(values) == _reference(values)


def test_key_order_is_kept() -> None:
    state = {"z": 1, "a": {"y": 2, "b": 3}}
    assert serialize_state(state) == '{"z":1,"a":{"y":2,"b":3}}'

"""``copy_state``: a large top-level dict copies each value when first read, and a step
can never change the state it was given, whichever way it reads that dict."""

from __future__ import annotations

import copy
import json
from typing import Any

from app.rules.base import CopiedOnRead, Outcome, copy_state


def _state() -> dict[str, Any]:
    players = {f"p{i}": {"hp": i, "items": [{"id": "knife", "n": 1}]} for i in range(100)}
    return {"settings": {"w": 3}, "players": players, "day": 1, "small": {"a": [1]}}


def _mutate_all(players: Any) -> None:
    for p in players:
        p["hp"] = -1
        p["items"][0]["n"] = 99


def test_large_dicts_are_copied_on_read_small_ones_whole() -> None:
    state = _state()
    out = copy_state(state)
    assert type(out["players"]) is CopiedOnRead
    assert type(out["small"]) is dict and out["small"] is not state["small"]
    assert out["settings"] is state["settings"]


def test_no_way_of_reading_changes_the_input() -> None:
    readers = [
        lambda d: [d[k] for k in d],
        lambda d: list(d.values()),
        lambda d: [v for _, v in d.items()],
        lambda d: [d.get(k) for k in d],
        lambda d: list(dict(d).values()),
        lambda d: list({**d}.values()),
        lambda d: list(d.copy().values()),
        lambda d: list((d | {}).values()),
        lambda d: [d.setdefault(k) for k in list(d)],
        lambda d: [d.pop(k) for k in list(d)],
        lambda d: list(copy.copy(d).values()),
    ]
    for read in readers:
        state = _state()
        before = json.dumps(state)
        out = copy_state(state)
        _mutate_all(read(out["players"]))
        assert json.dumps(state) == before


def test_the_outcome_is_plain_json_sharing_what_was_not_read() -> None:
    state = _state()
    out = copy_state(state)
    out["players"]["p1"]["hp"] = 50
    out["players"]["new"] = {"hp": 0}
    del out["players"]["p2"]
    settled = Outcome(state=out).state
    assert type(settled["players"]) is dict
    assert settled["players"]["p1"]["hp"] == 50 and state["players"]["p1"]["hp"] == 1
    assert settled["players"]["p3"] is state["players"]["p3"]
    assert "p2" not in settled["players"] and "p2" in state["players"]
    assert list(settled["players"])[-1] == "new"
    expected = {k: v for k, v in _state()["players"].items() if k != "p2"}
    expected["p1"]["hp"] = 50
    expected["new"] = {"hp": 0}
    assert json.dumps(settled["players"]) == json.dumps(expected)


def _with_roster() -> dict[str, Any]:
    state = _state()
    state["roster"] = [{"id": f"p{i}", "name": f"n{i}"} for i in range(100)]
    state["order"] = [f"p{i}" for i in range(100)]
    return state


def test_a_large_list_is_copied_only_when_the_step_reads_it() -> None:
    state = _with_roster()
    before = json.dumps(state)
    out = copy_state(state)
    assert out["roster"] is not state["roster"]  # read: copied, whole
    out["roster"][0]["name"] = "changed"
    out["roster"].append({"id": "new"})
    out["order"].reverse()
    assert json.dumps(state) == before
    settled = Outcome(state=out).state
    assert type(settled) is dict and settled["roster"][0]["name"] == "changed"
    assert settled["order"][0] == "p99"


def test_a_large_list_not_read_is_the_input_own_and_the_outcome_plain() -> None:
    state = _with_roster()
    out = copy_state(state)
    out["day"] = 2
    settled = Outcome(state=out).state
    assert type(settled) is dict and type(settled["players"]) is dict
    assert settled["roster"] is state["roster"]  # never read, so never copied
    assert list(settled) == list(state) and settled["day"] == 2 and state["day"] == 1
    assert json.dumps({**settled, "day": 1}) == json.dumps(state)

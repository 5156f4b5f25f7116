"""Every event a game or the service can write reads as a sentence on the pages, in both
languages: no page shows a raw event kind."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.web.messages import _EVENTS, UI, describe_event

APP = Path(__file__).resolve().parents[2] / "app"
EMIT = re.compile(r'emit\(\s*"([a-z_]+)"')
APPEND = re.compile(r'append_event\(\s*session,\s*game,\s*"([a-z_]+)"')
LOGGED = re.compile(r'"kind":\s*"([a-z_]+)"')  # resolution log entries become events
CONSTANT = re.compile(r'^[A-Z]+ = "([a-z_]+)"  # ', re.M)


def event_kinds() -> set[str]:
    kinds: set[str] = set()
    for path in APP.rglob("*.py"):
        if "web" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        kinds |= set(EMIT.findall(text)) | set(APPEND.findall(text))
        if path.name == "resolve.py":
            kinds |= set(LOGGED.findall(text))
        if path.name == "receipts.py":
            kinds |= set(CONSTANT.findall(text))
    kinds |= {"player_replaced", "seed_revealed"}  # written with a computed kind or here
    return kinds


def test_the_event_kinds_are_found() -> None:
    kinds = event_kinds()
    assert {"phase_opened", "damage", "moved", "night_report", "paused"} <= kinds


@pytest.mark.parametrize("kind", sorted(event_kinds()))
def test_each_event_kind_reads_as_a_sentence(kind: str) -> None:
    assert kind in _EVENTS or kind in ("game_started", "game_over"), kind
    for lang in ("zh", "en"):
        for ruleset in ("team_battle", "island"):
            line = describe_event(kind, {}, lang, ruleset, {})
            assert line and line != kind, (kind, lang)


def test_every_ui_string_has_both_languages() -> None:
    for key, (zh, en) in UI.items():
        assert zh and en, key

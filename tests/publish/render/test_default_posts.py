"""A game that brings no posts of its own still gets posts (app/kit/posts.py): a plain post of
its public events in its ``event.<kind>`` words, never a raw event kind, never an empty post;
a game without a sealer seals nothing; a game's own templates come before the shell's."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from app.kit import Presentation
from app.kit.posts import GamePosts
from app.publish import receipts
from app.publish.render import (
    FORMATS,
    GameInfo,
    PublicEvent,
    RosterEntry,
    posts_for_events,
    tally_post,
)
from app.rules.base import Actor, Event
from app.rules.registry import register

AT = datetime(2026, 3, 5, 12, 0, tzinfo=UTC)
NAME = "plain_toy"
WORDS = {
    "event.game_started": ("游戏开始，共{players}人", "The game begins with {players}"),
    "event.coin_flipped": ("{name}掷出了{face}", "{name} flipped {face}"),
    "event.game_over": ("游戏结束", "The game is over"),
    "post.side.red": ("红方", "Red"),
}
ROSTER = (RosterEntry("p1", "Ann", "red", None), RosterEntry("p2", "Bo", None, "bo_forum"))


def info(language: str = "zh", ruleset: str = NAME) -> GameInfo:
    return GameInfo(
        id="g-plain",
        title="Plain",
        ruleset=ruleset,
        timezone="Asia/Shanghai",
        language=language,
        settings={},
        roster=ROSTER,
        seed_commitment="c" * 64,
        public_url=None,
    )


def registered(presentation: Presentation) -> Iterator[None]:
    unregister = register(SimpleNamespace(name=presentation.name), presentation)  # type: ignore[arg-type]
    try:
        yield
    finally:
        unregister()


@pytest.fixture
def plain() -> Iterator[None]:
    yield from registered(Presentation(name=NAME, words=WORDS))


def event(seq: int, kind: str, **data: Any) -> PublicEvent:
    return PublicEvent(seq, AT, kind, data)


def all_bodies(posts: list[Any]) -> str:
    return "\n".join(body for p in posts for body in p.bodies.values())


def test_a_game_without_posts_gets_a_plain_post_of_its_events_words(plain: None) -> None:
    events = [
        event(1, "game_started", players=2),
        event(2, "coin_flipped", name="Ann", face="heads"),
        event(3, "coin_flipped", name="Bo", face="tails"),
        event(4, "game_over"),
        event(5, "seed_revealed", seed="s33d", seed_commitment="c" * 64),
    ]
    posts = posts_for_events(info(), events, None)
    assert [p.kind for p in posts] == ["game_started", "events", "game_finished"]
    assert [p.title for p in posts] == ["【开局】Plain", "【进展】Plain", "【终局】Plain"]
    for post in posts:
        assert sorted(post.bodies) == sorted(FORMATS)
    text = posts[1].bodies["text"]
    assert "Ann掷出了heads" in text and "Bo掷出了tails" in text
    assert "游戏开始，共2人" in posts[0].bodies["text"]
    assert "s33d" in posts[2].bodies["text"]  # the seed and how to verify, as for every game
    assert "游戏结束" in posts[2].bodies["text"] and "公开事件 #5" not in posts[2].bodies["text"]
    english = posts_for_events(info("en"), events, None)
    assert "Ann flipped heads" in english[1].bodies["markdown"]
    for kind in ("coin_flipped", "game_started", "game_over"):
        assert kind not in all_bodies(posts + english)


def test_an_event_without_words_is_still_a_line_never_its_raw_kind(plain: None) -> None:
    posts = posts_for_events(info(), [event(7, "dice_secretly_rolled", n=3)], None)
    assert [p.kind for p in posts] == ["events"]
    assert "公开事件 #7" in posts[0].bodies["bbcode"]
    assert "dice_secretly_rolled" not in all_bodies(posts)
    # Words whose fields the event does not have fall back the same way.
    posts = posts_for_events(info("en"), [event(8, "coin_flipped", name="Ann")], None)
    assert "Public event #8" in posts[0].bodies["text"]


def test_the_service_notices_and_an_unregistered_game_work_plainly() -> None:
    posts = posts_for_events(info(ruleset="nobody_registered_this"), [event(1, "paused")], None)
    assert [p.kind for p in posts] == ["notice"]
    assert "导演暂停了游戏" in posts[0].bodies["text"]
    posts = posts_for_events(info(ruleset="nobody_registered_this"), [event(2, "ping")], None)
    assert "公开事件 #2" in posts[0].bodies["text"]


def test_the_tally_is_per_player_without_sides_and_per_side_with_them(plain: None) -> None:
    """A player reads their character's name (and forum name); in a game of sides a side
    orders as one, so the tally says per side whether it has ordered, once."""
    post = tally_post(info("en"), [(ROSTER[0], True, False), (ROSTER[1], False, True)], None)
    text = post.bodies["text"]
    assert "Side" not in text and "bo_forum" in text
    assert f"{ROSTER[0].name}" in text and "ordered" in text and "not ready" in text
    sided = Presentation(name="sided_toy", words=WORDS, posts=GamePosts(sides=True))
    for _ in registered(sided):
        rows = [(ROSTER[0], True, False), (replace(ROSTER[1], side=ROSTER[0].side), True, False)]
        text = tally_post(info("en", "sided_toy"), rows, None).bodies["text"]
        (line,) = [line for line in text.split("\n") if ROSTER[0].name in line]
        assert ROSTER[1].name in line and line.count("ordered") == 1


def test_a_game_without_a_sealer_seals_nothing(plain: None) -> None:
    events = [Event(kind="phase_closed", data={}, audience=["public"])]
    assert receipts.close_of(NAME, {"phase": "x"}, events) is None
    actor = Actor(role="player", player_id="p1", side=None)
    assert receipts.current_receipt(NAME, "seed", {"phase": "x"}, actor) is None
    found = receipts.step_receipt_events(NAME, "seed", {"phase": "x"}, events, True, 3, [])
    assert found == []


def test_a_games_own_template_comes_before_the_shells(tmp_path: Path) -> None:
    for fmt, ext in (("bbcode", "bbcode"), ("markdown", "md"), ("text", "txt")):
        folder = tmp_path / fmt
        folder.mkdir()
        (folder / f"events.{ext}.j2").write_text(
            f'{{% extends "{fmt}/_post.{ext}.j2" %}}\n'
            "{% block body %}\nOWN TEMPLATE\n{{ super() }}\n{% endblock %}\n",
            encoding="utf-8",
        )
    own = Presentation(name="templated_toy", words=WORDS, posts=GamePosts(templates=str(tmp_path)))
    for _ in registered(own):
        posts = posts_for_events(
            info(ruleset="templated_toy"), [event(1, "coin_flipped", name="A", face="x")], None
        )
        for fmt in FORMATS:
            assert "OWN TEMPLATE" in posts[0].bodies[fmt]
            assert "A掷出了x" in posts[0].bodies[fmt]

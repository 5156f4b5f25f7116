"""The web shell with a game it does not know: the kit's page defaults read plainly (no raw
ids or kinds), and a game's own page parts are found in its package as "<game>/<name>.html"."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from app.kit import Presentation
from app.kit.pages import DEFAULT_PAGES, Pages, Part, Translate
from app.rules.registry import register
from app.web.lines import describe_event
from app.web.messages import game_pages, game_title, game_translator, order_name, phase_name
from app.web.routes import templates
from app.web.views import header

TOY = "toy_game"


class _ToyRuleset:
    name = TOY


def test_a_game_without_pages_gets_the_kits_defaults() -> None:
    assert game_pages(TOY) is DEFAULT_PAGES
    t = game_translator("en", TOY)
    assert DEFAULT_PAGES.spectator_parts({}, t, "en") == []
    assert DEFAULT_PAGES.you_play({}, t, "Ann") == "You are Ann"
    assert DEFAULT_PAGES.own_orders_title(t) == "Your standing orders"
    assert DEFAULT_PAGES.can_ready({"phase": "day"}) is False
    assert DEFAULT_PAGES.odds({}, [], None, 1, None, t, "en") is None  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_games_names_fall_back_to_readable_words(lang: str) -> None:
    assert order_name(TOY, "first_strike", lang) == "First strike"
    assert phase_name(TOY, "night_watch", lang) == "Night watch"
    assert game_title(TOY, lang) == "Toy game"
    line = describe_event("treasure_found", {}, lang, TOY, {})
    assert line == "Treasure found"  # never the raw kind


def test_the_header_of_a_plain_game_shows_its_phase_and_title() -> None:
    page: dict[str, Any] = {
        "summary": {
            "id": "g1",
            "title": "A toy",
            "ruleset": TOY,
            "status": "running",
            "timezone": "UTC",
            "seed_commitment": "c",
        },
        "view": {"phase": "night_watch"},
        "now": datetime(2026, 1, 1, tzinfo=UTC),
    }
    shown = header(page, "en")
    assert (shown["ruleset"], shown["where"]) == ("Toy game", "Night watch")


class _ToyPages(Pages):
    def __init__(self, folder: Path) -> None:
        self.templates = folder

    def spectator_parts(self, page: Any, t: Translate, lang: str) -> list[Part]:
        return [Part(f"{TOY}/score.html", {"score": 3})]


def test_a_games_partial_is_found_in_its_own_package(tmp_path: Path) -> None:
    (tmp_path / "score.html").write_text(
        '<p class="score">{{ t("page.score", n=part.data.score) }}</p>', encoding="utf-8"
    )
    words = {"page.score": ("得分 {n}", "Score {n}"), "page.title": ("玩具", "Toy")}
    presentation = Presentation(name=TOY, words=words, pages=_ToyPages(tmp_path))
    unregister = register(_ToyRuleset(), presentation)  # type: ignore[arg-type]
    try:
        t = game_translator("zh", TOY)
        (part,) = game_pages(TOY).spectator_parts({}, t, "zh")
        html = templates.get_template(part.template).render(t=t, part=part)
        assert html == '<p class="score">得分 3</p>'
        assert game_title(TOY, "en") == "Toy"
    finally:
        unregister()
    assert game_pages(TOY) is DEFAULT_PAGES

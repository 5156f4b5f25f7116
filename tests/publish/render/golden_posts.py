"""The golden posts: every post of a full Team Battle game and of an island day (with a PK
and the 24:00 report), in Chinese and English, plus reminders and tallies.

Files: ``golden/<scenario>/<NN>-<kind>.<ext>`` (``bbcode``, ``md``, ``txt``) and
``golden/<scenario>/index.txt`` (one line per post: number, kind, title).
Regenerate after an intended change with ``UPDATE_GOLDEN=1 pytest tests/publish/render``
and read the diff before committing it; ``scripts/preview_posts.py`` shows them rendered.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from app.publish.formats import FORMATTERS
from app.publish.render import (
    FORMATS,
    PostDraft,
    posts_for_events,
    reminder_post,
    tally_post,
)
from tests.publish.render.engine_runs import IS_ROSTER, TB_ROSTER, Run, island_day, team_battle_game

GOLDEN = Path(__file__).parent / "golden"
PUBLIC_URL = "https://play.example.org"


def game_posts(run: Run, language: str, public_url: str | None = PUBLIC_URL) -> list[PostDraft]:
    info = run.info(language=language, public_url=public_url)
    posts: list[PostDraft] = []
    for batch in run.batches:
        posts.extend(posts_for_events(info, batch.events, batch.deadline))
    return posts


def extras(language: str) -> list[PostDraft]:
    """Reminders (with and without mentions) and tallies, for both rulesets; the receipts
    of a close that opened nothing else (a post of their own)."""
    tb_run = team_battle_game(language)
    tb = tb_run.info(language=language, public_url=None)
    sealed = next(e for b in tb_run.batches for e in b.events if e.kind == "orders_sealed")
    island = island_day(language).info(language=language, public_url=None)
    deadline = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    return [
        reminder_post(
            tb,
            [TB_ROSTER[1], TB_ROSTER[2]],
            deadline,
            mentions=True,
            now=deadline - timedelta(hours=2),
        ),
        reminder_post(
            island,
            [IS_ROSTER[2], IS_ROSTER[3]],
            deadline,
            mentions=False,
            now=deadline - timedelta(minutes=25),
        ),
        reminder_post(tb, [], deadline, mentions=True),
        tally_post(
            tb,
            [(TB_ROSTER[0], True, True), (TB_ROSTER[1], False, False), (TB_ROSTER[2], True, False)],
            deadline,
        ),
        tally_post(island, [(r, i % 2 == 0, i == 0) for i, r in enumerate(IS_ROSTER)], None),
        *posts_for_events(tb_run.info(language=language), [sealed], None),
    ]


SCENARIOS: dict[str, Callable[[], list[PostDraft]]] = {
    "team_battle.zh": lambda: game_posts(team_battle_game("zh"), "zh"),
    "team_battle.en": lambda: game_posts(team_battle_game("en"), "en"),
    "island.zh": lambda: game_posts(island_day("zh"), "zh"),
    "island.en": lambda: game_posts(island_day("en"), "en", public_url=None),
    "extras.zh": lambda: extras("zh"),
    "extras.en": lambda: extras("en"),
}


def files_for(posts: list[PostDraft]) -> dict[str, str]:
    """The golden files of one scenario: name -> content."""
    files: dict[str, str] = {}
    index = []
    for number, post in enumerate(posts, start=1):
        stem = f"{number:02d}-{post.kind}"
        index.append(f"{number:02d} {post.kind} {post.title}")
        for name in FORMATS:
            files[f"{stem}.{FORMATTERS[name].ext}"] = post.bodies[name]
    files["index.txt"] = "\n".join(index) + "\n"
    return files

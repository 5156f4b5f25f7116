"""Golden files: every post kind in every format, from real engine runs.

Regenerate with ``UPDATE_GOLDEN=1 .venv/bin/pytest tests/publish/render`` (then read the
diff); see ``golden_posts.py``."""

from __future__ import annotations

import difflib
import os

import pytest

from app.publish.render import FORMATS
from tests.publish.render.golden_posts import GOLDEN, SCENARIOS, files_for

UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
POST_KINDS = (
    "game_started",
    "phase_opened",
    "deployments_revealed",
    "round_result",
    "daily_report",
    "pk_result",
    "game_finished",
    "reminder",
    "tally",
    "receipts",
    "notice",
)


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_posts_match_their_golden_files(scenario: str) -> None:
    """The posts of a real game are exactly the reviewed golden files."""
    folder = GOLDEN / scenario
    files = files_for(SCENARIOS[scenario]())
    if UPDATE:
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.iterdir():
            if old.name not in files:
                old.unlink()
        for name, content in files.items():
            (folder / name).write_text(content, encoding="utf-8")
    existing = sorted(p.name for p in folder.iterdir()) if folder.exists() else []
    assert existing == sorted(files), "golden files differ in number: UPDATE_GOLDEN=1 to rewrite"
    for name, content in files.items():
        stored = (folder / name).read_text(encoding="utf-8")
        if stored != content:
            diff = "\n".join(
                difflib.unified_diff(
                    stored.splitlines(), content.splitlines(), "golden", "now", lineterm=""
                )
            )
            pytest.fail(f"{scenario}/{name} changed (UPDATE_GOLDEN=1 to accept):\n{diff}")


def test_every_post_kind_has_golden_files_in_every_format() -> None:
    """Each post kind × format is covered by at least one golden file, in both languages."""
    for language in ("zh", "en"):
        names = {p.name for s in SCENARIOS if s.endswith(language) for p in (GOLDEN / s).iterdir()}
        for kind in POST_KINDS:
            for ext in ("bbcode", "md", "txt"):
                assert any(n.endswith(f"-{kind}.{ext}") for n in names), (language, kind, ext)
    assert FORMATS == ("bbcode", "markdown", "text")

"""The project documents its own rules: docs/rules/ names every rule ID and every setting.

The rule IDs are the games' rule sets (Team Battle TB-…, The Other Side IS-…); a newcomer with
only this repository must find each of them, and each setting that changes how a rule plays.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from app.rules.island import IslandSettings
from app.rules.team_battle import TeamBattleSettings

ROOT = Path(__file__).resolve().parents[2]

TB_IDS = [
    *(f"TB-{n}" for n in (1, 2, 3, 4, 5)),
    "TB-5a",
    "TB-6",
    "TB-10",
    *(f"TB-{n}" for n in range(11, 16)),
    *(f"TB-{n}" for n in range(20, 28)),
    *(f"TB-{n}" for n in range(30, 36)),
    *(f"TB-{n}" for n in range(40, 53)),
    "TB-52a",
    "TB-53",
    "TB-60",
]
IS_IDS = [
    *(f"IS-{n}" for n in (1, 2, 3, 4)),
    *(f"IS-{n}" for n in range(10, 16)),
    *(f"IS-{n}" for n in range(20, 27)),
    *(f"IS-{n}" for n in range(33, 41)),
    *(f"IS-{n}" for n in range(50, 54)),
    "IS-55",
    "IS-60",
    "IS-61",
]
GAMES = [
    ("team-battle.md", TB_IDS, TeamBattleSettings),
    ("island.md", IS_IDS, IslandSettings),
]


def _doc(name: str) -> str:
    return (ROOT / "docs" / "rules" / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "ids", "model"), GAMES)
def test_every_rule_id_has_its_paragraph(name: str, ids: list[str], model: type[BaseModel]) -> None:
    """Each rule ID is defined in bold ("**TB-21 …") in its game's rules document."""
    text = _doc(name)
    missing = [rule for rule in ids if not re.search(rf"\*\*{re.escape(rule)}\b", text)]
    assert missing == []


@pytest.mark.parametrize(("name", "ids", "model"), GAMES)
def test_every_setting_is_described(name: str, ids: list[str], model: type[BaseModel]) -> None:
    """Each setting of the game is named in its rules document, with the rule it controls."""
    text = _doc(name)
    missing = [field for field in model.model_fields if f"`{field}`" not in text]
    assert missing == []


@pytest.mark.parametrize(("name", "ids", "model"), GAMES)
def test_every_rule_the_code_cites_is_documented(
    name: str, ids: list[str], model: type[BaseModel]
) -> None:
    """A rule ID the code gives in an error or a setting is one the document defines."""
    prefix = ids[0].split("-")[0]
    package = "team_battle" if prefix == "TB" else "island"
    cited: set[str] = set()
    for path in (ROOT / "app" / "rules" / package).glob("*.py"):
        cited |= set(re.findall(rf"\b{prefix}-\d+a?\b", path.read_text(encoding="utf-8")))
    assert cited and cited <= set(ids)


def test_no_path_outside_the_repository() -> None:
    """The repository stands alone: code, tests, docs and benchmarks cite rule IDs and
    docs/rules/, never a folder outside it."""
    outside = re.compile(r"/work/|\.\./shared|shared/rules")
    offenders = []
    for folder in ("app", "bench", "tests", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".md", ".txt", ".yaml", ".toml") and path != Path(__file__):
                if outside.search(path.read_text(encoding="utf-8")):
                    offenders.append(str(path.relative_to(ROOT)))
    if outside.search((ROOT / "README.md").read_text(encoding="utf-8")):
        offenders.append("README.md")
    assert offenders == []

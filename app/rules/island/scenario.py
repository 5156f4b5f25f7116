"""Load an island scenario (JSON or YAML, text or path) into :class:`IslandSettings`, with
one clear error listing every problem found."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from app.rules.documents import DocumentError, read_document
from app.rules.island.settings import IslandSettings


class ScenarioError(ValueError):
    """A scenario that cannot be used; ``problems`` lists each one."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("invalid island scenario:\n" + "\n".join(f"- {p}" for p in problems))


def _read(source: str | Path) -> Any:
    text: str
    if isinstance(source, Path):
        text = source.read_text(encoding="utf-8")
    elif "\n" not in source and source.strip().endswith((".yaml", ".yml", ".json")):
        path = Path(source.strip())
        if not path.exists():
            raise ScenarioError([f"file not found: {source}"])
        text = path.read_text(encoding="utf-8")
    else:
        text = source
    try:
        return read_document(text)  # capped, no YAML aliases or tags, plain values only
    except DocumentError as error:
        raise ScenarioError(error.problems) from None


def load_scenario(source: str | Path | dict[str, Any]) -> IslandSettings:
    """JSON or YAML text, a path to such a file, or an already parsed mapping."""
    data = source if isinstance(source, dict) else _read(source)
    if not isinstance(data, dict):
        raise ScenarioError(["the scenario must be a mapping of settings"])
    # A scenario file may wrap its settings with a title/description.
    if "settings" in data and isinstance(data["settings"], dict):
        data = data["settings"]
    try:
        return IslandSettings.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = ".".join(str(x) for x in err["loc"])
            msg = str(err["msg"])
            if msg.startswith("Value error, "):
                problems.extend(msg.removeprefix("Value error, ").split("; "))
            else:
                problems.append(f"{loc or '(scenario)'}: {msg}")
        raise ScenarioError(problems) from None

"""Reading a document a user uploaded (a scenario, as JSON or YAML) without letting it
cost more than its size.

YAML can expand a 354-byte text into gigabytes through anchors and aliases ("billion
laughs"), nest deeper than the parser's recursion, and build Python objects JSON has no
word for (``!!binary``, ``!!set``, timestamps). So: a size cap first; JSON is tried first
(faster, no aliases); YAML is then scanned event by event and refused at the first anchor,
alias, explicit tag or nesting beyond ``MAX_DEPTH``, before any node is built; what is
built must be plain JSON values with finite numbers. Pure and blocking: callers on an
event loop run it in a thread.
"""

from __future__ import annotations

import json
import math
from typing import Any

import yaml

MAX_BYTES = 512 * 1024
MAX_DEPTH = 32

try:  # libyaml when installed: the same checks, an order of magnitude faster
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _Loader = yaml.SafeLoader


class DocumentError(ValueError):
    """A document that cannot be read; ``problems`` says why, each prefixed by where."""

    def __init__(self, problems: list[str], too_large: bool = False) -> None:
        self.problems = problems
        self.too_large = too_large
        super().__init__("; ".join(problems))


def check_size(size: int) -> None:
    if size > MAX_BYTES:
        raise DocumentError(
            [f"scenario: {size // 1024} KiB is more than the {MAX_BYTES // 1024} KiB allowed"],
            too_large=True,
        )


def read_document(text: str) -> Any:
    """JSON or YAML text -> plain JSON values, or :class:`DocumentError`."""
    check_size(len(text.encode("utf-8", "surrogatepass")))
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = _read_yaml(text)
    except RecursionError:
        raise DocumentError([f"scenario: nested deeper than {MAX_DEPTH} levels"]) from None
    check_values(data)
    return data


def _read_yaml(text: str) -> Any:
    try:
        depth = 0
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise DocumentError(
                    ["scenario: YAML anchors and aliases (& and *) are not allowed"]
                )
            tag = getattr(event, "tag", None)
            if tag is not None:
                raise DocumentError([f"scenario: the YAML tag {tag} is not allowed"])
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise DocumentError([f"scenario: nested deeper than {MAX_DEPTH} levels"])
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader, checked above
    except yaml.YAMLError as error:
        raise DocumentError([f"scenario: not valid JSON or YAML: {error}"]) from None


def check_values(data: Any) -> None:
    """Refuse what JSON cannot say: keys that are not text, non-finite numbers, dates,
    bytes, sets; and nesting beyond ``MAX_DEPTH``."""
    stack: list[tuple[Any, str, int]] = [(data, "scenario", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise DocumentError([f"{where}: nested deeper than {MAX_DEPTH} levels"])
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise DocumentError([f"{where}: the key {key!r} is not text"])
                stack.append((item, f"{where}.{key}", depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{where}.{i}", depth + 1) for i, item in enumerate(value))
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise DocumentError([f"{where}: {value} is not a finite number"])
        elif value is not None and not isinstance(value, str | int | bool):
            raise DocumentError([f"{where}: a {type(value).__name__} is not a JSON value"])

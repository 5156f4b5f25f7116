"""Forms generated from JSON Schemas, and form posts read back into bodies.

Order forms come from the ruleset's order models (``Ruleset.order_model``), director
tools from its director-action models, and the new-game form from its settings model:
one field per schema property. What may be chosen (slots, targets, directions) comes
from the ruleset's ``available_orders``, so a form offers exactly what would pass.
Reading a post back is driven by the same schema, so a field's type is never guessed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from starlette.datastructures import FormData

from app.kit.pages import Field, properties, resolve

__all__ = [
    "Field",
    "body_from_form",
    "properties",
    "resolve",
    "rule_of",
    "settings_from_form",
    "variants",
]

RULE_ID = re.compile(r"\b(?:TB|IS)-\d+[a-z]?\b")
# A dispatch names at most two units (TB-30): two rows are all a form needs.
LIST_ROWS = 2


def variants(schema: Mapping[str, Any], tag: str) -> dict[str, dict[str, Any]]:
    """A discriminated union's members by tag value (``type`` → the order's schema)."""
    out: dict[str, dict[str, Any]] = {}
    members = schema.get("oneOf") or schema.get("anyOf") or []
    for member in members:
        resolved = resolve(member, schema)
        const = resolved.get("properties", {}).get(tag, {})
        value = const.get("const")
        if value is None and isinstance(const.get("enum"), list) and len(const["enum"]) == 1:
            value = const["enum"][0]
        if value is not None:
            out[str(value)] = resolved
    return out


def rule_of(text: str | None) -> str:
    found = RULE_ID.search(text or "")
    return found.group(0) if found else ""


# --- reading a post back ----------------------------------------------------------------
def _scalar(value: str, schema: Mapping[str, Any]) -> Any:
    kind = schema.get("type")
    if kind == "integer":
        return int(value)
    if kind == "number":
        number = float(value)
        return int(number) if number.is_integer() else number
    if kind == "boolean":
        return value in ("on", "true", "1", "yes")
    return value


def body_from_form(
    form: FormData, schema: Mapping[str, Any], root: Mapping[str, Any], skip: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A request body from a posted form, one schema property at a time. Empty optional
    inputs are left out (the body then means the same as the default). A value that is
    not a number where one is needed raises ValueError."""
    body: dict[str, Any] = {}
    for name, prop, required in properties(schema, root):
        if name in skip:
            continue
        kind = prop.get("type")
        if required and prop.get("nullable") and str(form.get(name) or "") == "":
            body[name] = None  # a required choice of "none" (e.g. unequip, IS-37)
            continue
        if kind == "boolean":
            if form.get(name) is not None:
                body[name] = _scalar(str(form.get(name)), prop)
            continue
        if kind == "array":
            items = resolve(prop.get("items", {}), root)
            if items.get("type") == "object":
                rows = []
                for i in range(LIST_ROWS * 10):
                    row: dict[str, Any] = {}
                    for sub, sub_schema, _ in properties(items, root):
                        key = sub_schema.get("alias") or sub
                        raw = form.get(f"{name}.{i}.{key}")
                        if raw not in (None, ""):
                            row[key] = _scalar(str(raw), sub_schema)
                    if row:
                        rows.append(row)
                if rows:
                    body[name] = rows
                continue
            values = [str(v) for v in form.getlist(name) if str(v) != ""]
            indexed = [
                str(form.get(f"{name}.{i}"))
                for i in range(200)
                if form.get(f"{name}.{i}") not in (None, "")
            ]
            values = values or indexed
            if len(values) == 1 and "," in values[0] and items.get("type") == "string":
                values = values[0].split(",")
            if values:
                body[name] = [_scalar(v, items) for v in values]
            continue
        if kind == "object":
            raw = form.get(name)
            if raw not in (None, ""):
                body[name] = json.loads(str(raw))
            continue
        raw = form.get(name)
        if raw is None or str(raw) == "":
            continue
        body[name] = _scalar(str(raw), prop)
    return body


def settings_from_form(
    form: FormData, schema: Mapping[str, Any], defaults: Mapping[str, Any]
) -> dict[str, Any]:
    """The settings a new-game form asks for: only fields whose value differs from the
    model's default, so a scenario's own values are kept unless the director changed
    them here. Malformed JSON or numbers raise ValueError."""
    out: dict[str, Any] = {}
    for name, prop, _required in properties(schema, schema):
        default = defaults.get(name)
        kind = prop.get("type")
        if f"present.{name}" not in form:
            continue  # not on the form
        value: Any
        if kind == "boolean":
            value = form.get(name) is not None
        elif kind in ("integer", "number"):
            raw = str(form.get(name) or "").strip()
            if raw == "":
                value = None
            else:
                value = _scalar(raw, prop)
        elif (
            kind == "object"
            and isinstance(default, dict)
            and default
            and all(isinstance(v, int) for v in default.values())
        ):
            value = {k: int(str(form.get(f"{name}.{k}") or v)) for k, v in default.items()}
        elif kind == "array" and isinstance(
            resolve(prop.get("items", {}), schema).get("enum"), list
        ):
            value = [str(v) for v in form.getlist(name)]
        elif kind == "string" or isinstance(prop.get("enum"), list):
            value = str(form.get(name) or "")
        else:
            raw = str(form.get(name) or "").strip()
            value = json.loads(raw) if raw else default
        if value != default:
            out[name] = value
    return out

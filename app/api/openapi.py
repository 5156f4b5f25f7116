"""The OpenAPI document, made to tell the truth about errors.

FastAPI files every declared response under ``application/json`` and adds its own JSON
``HTTPValidationError`` for 422; this service answers every error as
``application/problem+json`` (``app/api/problems.py``). ``install`` rewrites the generated
document so that clients and fuzzers see what the service really sends.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from app.api.problems import PROBLEM_JSON, Problem

_PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
_FASTAPI_422 = ("HTTPValidationError", "ValidationError")


def install(app: FastAPI) -> None:
    """Serve the rewritten document at ``/openapi.json`` (and in ``/docs``)."""
    generate = app.openapi  # FastAPI's own; it caches its document on the app

    def openapi() -> dict[str, Any]:
        return problems_as_problem_json(generate())  # idempotent: rewrites in place

    app.openapi = openapi  # type: ignore[method-assign]


def problems_as_problem_json(document: dict[str, Any]) -> dict[str, Any]:
    """File every 4xx/5xx response that is a Problem (or FastAPI's 422, or declared without
    a body) under application/problem+json. An error response declared with a schema of its
    own is a route's deliberate choice and is left as it is."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault(
        "Problem", Problem.model_json_schema(ref_template="#/components/schemas/{model}")
    )
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            for status, response in operation.get("responses", {}).items():
                if status[0] in "45" and _is_problem(response):
                    response["content"] = {PROBLEM_JSON: {"schema": _PROBLEM_REF}}
    for name in _FASTAPI_422:
        schemas.pop(name, None)
    return document


def _is_problem(response: dict[str, Any]) -> bool:
    content = response.get("content")
    if not content:
        return True
    schema = content.get("application/json", content.get(PROBLEM_JSON, {})).get("schema", {})
    name = str(schema.get("$ref", "")).rsplit("/", 1)[-1]
    return name in ("Problem", *_FASTAPI_422)

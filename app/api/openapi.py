"""The OpenAPI document, made to tell the truth about errors.

FastAPI files every declared response under ``application/json`` and adds its own JSON
``HTTPValidationError`` for 422; this service answers every error as
``application/problem+json`` (``app/api/problems.py``). ``install`` rewrites the generated
document once, on first request, so clients and fuzzers see what the service really sends.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from app.api.problems import PROBLEM_JSON, Problem

_PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
_FASTAPI_422 = ("HTTPValidationError", "ValidationError")


def install(app: FastAPI) -> None:
    """Serve the rewritten document at ``/openapi.json`` (and in ``/docs``)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title,
                version=app.version,
                openapi_version=app.openapi_version,
                description=app.description,
                routes=app.routes,
                tags=app.openapi_tags,
                servers=app.servers,
            )
            app.openapi_schema = problems_as_problem_json(document)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def problems_as_problem_json(document: dict[str, Any]) -> dict[str, Any]:
    """File every 4xx/5xx response under application/problem+json with the Problem schema."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault(
        "Problem", Problem.model_json_schema(ref_template="#/components/schemas/{model}")
    )
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            for status, response in operation.get("responses", {}).items():
                if status[0] in "45":
                    response["content"] = {PROBLEM_JSON: {"schema": _PROBLEM_REF}}
    for name in _FASTAPI_422:
        schemas.pop(name, None)
    return document

"""Request bodies whose shape depends on the game's ruleset (orders, director actions).

FastAPI cannot check them — which ruleset applies is known only once the game is loaded —
so the route takes any JSON object and the service checks it against the game's own
ruleset (``app/services/bodies.py``). What the OpenAPI document shows is the full truth
all the same: one of the rulesets' discriminated unions. Order type names may repeat
across rulesets, so each ruleset's union stays whole (``anyOf`` of per-ruleset unions).
"""

from __future__ import annotations

from typing import Annotated, Any, Union

from pydantic import PlainValidator

from app.api.schemas import TextOrders
from app.rules.registry import all_rulesets


def _json_object(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError("must be a JSON object")
    return value


# One order in words (``{"text": "…"}``, issue 10) is one more kind of body.
ORDER_BODIES: tuple[Any, ...] = (
    *(r.order_model.model for r in all_rulesets().values()),
    TextOrders,
)
DIRECTOR_ACTION_BODIES: tuple[Any, ...] = tuple(
    r.director_action_model.model for r in all_rulesets().values()
)

OrderBody = Annotated[
    dict[str, Any],
    PlainValidator(_json_object, json_schema_input_type=Union[ORDER_BODIES]),  # noqa: UP007
]
DirectorActionBody = Annotated[
    dict[str, Any],
    PlainValidator(_json_object, json_schema_input_type=Union[DIRECTOR_ACTION_BODIES]),  # noqa: UP007
]

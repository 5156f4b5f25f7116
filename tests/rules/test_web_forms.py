"""Forms from JSON Schemas and back: what a posted form means, read by the same schema."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel
from starlette.datastructures import FormData

from app.rules.island.settings import IslandSettings
from app.rules.team_battle.settings import TeamBattleSettings
from app.web.forms import body_from_form, settings_from_form, variants
from app.web.views import durations_in, settings_fields


class Move(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    from_: int = Field(alias="from")
    to: int
    troops: int


class Deploy(BaseModel):
    type: Literal["deploy"]
    troops: list[int]


class Dispatch(BaseModel):
    type: Literal["dispatch"]
    moves: list[Move]


class Gather(BaseModel):
    type: Literal["gather"]
    slot: int
    from_left: int | None = None


class Assassinate(BaseModel):
    type: Literal["assassinate"]
    target: str
    path: list[Literal["up", "down", "left", "right"]] | None = None
    follow: bool = False


class Equip(BaseModel):
    type: Literal["equip"]
    item: str | None


class Order(RootModel[Any]):
    root: Annotated[Deploy | Dispatch | Gather | Assassinate | Equip, Field(discriminator="type")]


SCHEMA = Order.model_json_schema()
MEMBERS = variants(SCHEMA, "type")


def read(kind: str, fields: list[tuple[str, str]]) -> dict[str, Any]:
    return body_from_form(FormData(fields), MEMBERS[kind], SCHEMA, skip=("type",))


def test_every_member_of_the_union_is_found_by_its_tag() -> None:
    assert set(MEMBERS) == {"deploy", "dispatch", "gather", "assassinate", "equip"}


def test_lists_rows_optionals_and_nulls_are_read_by_the_schema() -> None:
    assert read("deploy", [(f"troops.{i}", str(n)) for i, n in enumerate([4, 7, 8, 6, 5])]) == {
        "troops": [4, 7, 8, 6, 5]
    }
    # A dispatch row left empty is no move; "from" keeps its alias.
    rows = [("moves.0.from", "3"), ("moves.0.to", "2"), ("moves.0.troops", "4")]
    rows += [("moves.1.from", ""), ("moves.1.to", ""), ("moves.1.troops", "")]
    assert read("dispatch", rows) == {"moves": [{"from": 3, "to": 2, "troops": 4}]}
    # An empty optional number means the default (all, TB-40), so it is left out.
    assert read("gather", [("slot", "2"), ("from_left", "")]) == {"slot": 2}
    # A path chosen as one value; an unchecked box is absent.
    assert read("assassinate", [("target", "p2"), ("path", "left,up")]) == {
        "target": "p2",
        "path": ["left", "up"],
    }
    assert read("assassinate", [("target", "p2"), ("path", ""), ("follow", "on")]) == {
        "target": "p2",
        "follow": True,
    }
    # A required choice that may be none (unequip, IS-37).
    assert read("equip", [("item", "")]) == {"item": None}


def as_posted(simple: list[Any], changes: dict[str, Any]) -> FormData:
    """The form as a browser posts it: every field with its shown value, some changed."""
    posted: list[tuple[str, str]] = []
    for f in simple:
        posted.append((f"present.{f.name}", "1"))
        value = changes.get(f.name, f.value)
        if f.kind == "checkbox":
            if value:
                posted.append((f.name, "on"))
        elif f.kind == "checkboxes":
            posted += [(f.name, str(v)) for v in value]
        elif f.kind == "rows":
            posted += [(c.name, str(changes.get(c.name, c.value))) for c in f.columns]
        elif f.kind == "duration":  # an amount and its unit (minutes or hours)
            amount, unit = changes.get(f.name, f.value)
            posted += [(f.name, str(amount)), (f"{f.name}.unit", str(unit))]
        else:
            posted.append((f.name, "" if value is None else str(value)))
    return FormData(posted)


def test_a_new_game_form_sends_only_what_the_director_changed() -> None:
    schema = TeamBattleSettings.model_json_schema()
    defaults = TeamBattleSettings().model_dump(mode="json")
    simple, _complex = settings_fields(schema, defaults, "zh")
    names = {f.name for f in simple}
    assert {"slots", "troops", "dice", "enabled_orders", "morale_cap"} <= names
    assert all(f.rule for f in simple if f.name in ("slots", "troops", "dice"))
    enabled = [o for o in defaults["enabled_orders"] if o != "spy"]
    form = as_posted(
        simple,
        {
            "troops.A": 20,
            "dice": "high",
            "enabled_orders": enabled,
            "morale_cap": False,
            "battle_seconds": ("90", "60"),
        },
    )
    # Phase lengths are shown in hours (the default day: 24) and sent back in seconds;
    # one left as shown is no change.
    changed = settings_from_form(durations_in(form, schema), schema, defaults)
    assert changed == {
        "troops": {"A": 20, "B": 30},
        "dice": "high",
        "enabled_orders": enabled,
        "morale_cap": False,
        "battle_seconds": 90 * 60,
    }
    TeamBattleSettings.model_validate({**defaults, **changed})


def test_an_island_form_keeps_the_scenario_unless_changed() -> None:
    """Fields not changed on the form are not sent, so the scenario's own values stand."""
    schema = IslandSettings.model_json_schema()
    defaults = IslandSettings().model_dump(mode="json")
    simple, _ = settings_fields(schema, defaults, "en")
    assert settings_from_form(as_posted(simple, {}), schema, defaults) == {}
    changed = settings_from_form(as_posted(simple, {"start_stamina": 7}), schema, defaults)
    assert changed == {"start_stamina": 7}

"""Orders in words over HTTP: ``POST /orders/parse`` reads and changes nothing; ``POST
/orders`` with ``{"text"}`` submits exactly one order through the normal path, so rule
checks, secrecy and events are those of the same order sent as JSON."""

from __future__ import annotations

from typing import Any

from httpx import AsyncClient

from app.clock import FakeClock
from tests.service.helpers import Game, create_game, ok, problem, team_battle
from tests.service.island_helpers import example_text, island_game, pid, quiet_overrides

EN = {"Accept-Language": "en"}


async def parse(game: Game, who: str | None, text: str, **kw: Any) -> Any:
    return await game.post("/orders/parse", who, {"text": text}, **kw)


async def everything(game: Game) -> tuple[Any, Any, Any]:
    """What the director sees: every order, every event, the whole state."""
    return (
        ok(await game.get("/orders", "director")),
        ok(await game.get("/events", "director")),
        ok(await game.get("/view", "director")),
    )


async def to_command_phase(game: Game) -> None:
    await game.order("a1", {"text": "甲方：4，7，8，6，5"})
    await game.order("b1", {"text": "乙方：6，6，7，5，6"})
    await game.ready("a1")
    await game.ready("b1")
    assert (await game.view("a1"))["phase"] == "command"


# --- parse -------------------------------------------------------------------------------
async def test_parse_reads_orders_and_changes_nothing(client: AsyncClient) -> None:
    game = await team_battle(client)
    before = await everything(game)
    read = ok(await parse(game, "a1", "调兵 3→2 4人；反击2"))
    assert read == {
        "orders": [
            {"type": "dispatch", "moves": [{"from": 3, "to": 2, "troops": 4}]},
            {"type": "counter", "slot": 2},
        ],
        "echo": "调兵：3号位→2号位，4人；反击：2号位",
    }
    english = ok(await parse(game, "a1", "调兵 3→2 4人；反击2", headers=EN))
    assert english["echo"] == "Dispatch: slot 3 → slot 2, 4 troops; Counter: slot 2"
    assert await everything(game) == before


async def test_parse_never_judges_the_rules(client: AsyncClient) -> None:
    """Parsing reads text only: an order the rules refuse now still reads (200);
    submitting it is what answers 409."""
    game = await team_battle(client)
    # The deployment phase takes no Counter: it reads all the same.
    assert ok(await parse(game, "a1", "反击2"))["orders"] == [{"type": "counter", "slot": 2}]
    problem(await game.post("/orders", "a1", {"text": "反击2"}), 409, "wrong_phase")


async def test_a_slot_beyond_the_board_is_a_422_naming_it(client: AsyncClient) -> None:
    """TB-2 (issue 16): "侦察 9号位" on a five-slot board read as valid and was refused
    only when judged (409). A slot beyond the board is no order at all: a 422 naming it,
    Chinese first, from /orders/parse and from submitting the words; nothing changes."""
    game = await team_battle(client)
    await to_command_phase(game)
    before = await everything(game)
    cases = {
        "侦察 9号位": (
            "没有9号位，每方只有1–5号位。",
            "There is no slot 9: each side has slots 1–5.",
        ),
        "scout enemy slot 9": ("没有9号位", "There is no slot 9"),
        "调兵 5→6 4人": ("没有6号位", "There is no slot 6"),
        "反击0": ("没有0号位", "There is no slot 0"),
        "聚集1 左2": ("1号位左边没有位置", "Slot 1 has no neighbour on the left"),
        "gather 5 with 2 from the left and 1 from the right": (
            "5号位右边没有位置",
            "Slot 5 has no neighbour on the right",
        ),
    }
    for text, (zh, en) in cases.items():
        body = problem(await parse(game, "a1", text), 422, "slot_out_of_range")
        assert (body["rule"], body["off_board"]) == ("TB-2", [text])
        assert body["detail"].startswith(f"「{text}」：") and zh in body["detail"], body
        english = problem(await parse(game, "a1", text, headers=EN), 422, "slot_out_of_range")
        assert en in english["detail"], english
        sent = problem(await game.post("/orders", "a1", {"text": text}), 422, "slot_out_of_range")
        assert zh in sent["detail"]
    assert await everything(game) == before
    # The edges of the board still read: slot 5, slot 1 taking from the right.
    assert ok(await parse(game, "a1", "侦察5"))["orders"] == [{"type": "scout", "slot": 5}]
    gather = ok(await parse(game, "a1", "聚集1 右2"))["orders"]
    assert gather == [{"type": "gather", "slot": 1, "from_right": 2}]
    # Another board size: a seven-slot game has a slot 7.
    wide = await team_battle(client, {"slots": 7, "troops": {"A": 35, "B": 35}})
    assert ok(await parse(wide, "a1", "侦察7"))["orders"] == [{"type": "scout", "slot": 7}]
    eight = problem(await parse(wide, "a1", "侦察8"), 422, "slot_out_of_range")
    assert "每方只有1–7号位" in eight["detail"]


async def test_words_not_understood_are_named_in_a_422(client: AsyncClient) -> None:
    game = await team_battle(client)
    body = problem(await parse(game, "a1", "反击2 吧啦吧啦"), 422, "not_understood")
    assert body["unknown"] == ["吧啦吧啦"]
    assert "吧啦吧啦" in body["detail"]
    english = problem(await parse(game, "a1", "调兵 3号位", headers=EN), 422, "not_understood")
    assert english["unknown"] == ["调兵 3号位"]
    assert english["detail"] == '"调兵 3号位" is not a complete order.'
    problem(await parse(game, "a1", ""), 422, "invalid_body")
    problem(await parse(game, "a1", "反击\u200b2"), 422, "invalid_body")  # hidden characters


async def test_only_a_player_may_parse(client: AsyncClient) -> None:
    game = await team_battle(client)
    problem(await parse(game, None, "反击2"), 401, "unauthorized")
    problem(await parse(game, "director", "反击2"), 403, "forbidden")


# --- submitting words ----------------------------------------------------------------------
async def test_a_hidden_order_sent_as_words_is_listed_for_its_side_only(
    client: AsyncClient,
) -> None:
    game = await team_battle(client)
    await to_command_phase(game)
    order = await game.order("a1", {"text": "2号位反击"})
    assert (order["type"], order["body"], order["status"]) == (
        "counter",
        {"type": "counter", "slot": 2},
        "pending",
    )
    assert order["echo"] == "反击：2号位"
    listed = ok(await game.get("/orders", "a2"))
    assert [(o["id"], o["body"]) for o in listed if o["type"] == "counter"] == [
        (order["id"], {"type": "counter", "slot": 2})
    ]
    # The other side cannot see it anywhere.
    assert all(o["side"] == "B" for o in ok(await game.get("/orders", "b1")))
    problem(await game.delete(f"/orders/{order['id']}", "b1"), 404, "not_found")
    seen_by_b = [e for e in await game.events("b1") if e["kind"] != "game_started"]
    assert "counter" not in str(seen_by_b)
    assert "counter" in str(await game.events("a2"))


async def test_words_take_the_same_path_as_json(client: AsyncClient) -> None:
    """The same orders as words and as JSON: the same order rows, the same events."""
    in_words = await team_battle(client)
    await to_command_phase(in_words)
    as_json = await team_battle(client)
    await as_json.order("a1", {"type": "deploy", "troops": [4, 7, 8, 6, 5]})
    await as_json.order("b1", {"type": "deploy", "troops": [6, 6, 7, 5, 6]})
    await as_json.ready("a1")
    await as_json.ready("b1")
    await in_words.order("a1", {"text": "从3号位调4人到2号位"})
    await as_json.order("a1", {"type": "dispatch", "moves": [{"from": 3, "to": 2, "troops": 4}]})

    def rows(orders: list[dict[str, Any]]) -> list[str]:
        return sorted(str((o["type"], o["side"], o["status"], o["body"])) for o in orders)

    def events(log: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        ids = ("order_id", "by", "receipts")  # random, or salted, per game
        return [(e["kind"], {k: v for k, v in e["data"].items() if k not in ids}) for e in log]

    words_orders, words_events, _ = await everything(in_words)
    json_orders, json_events, _ = await everything(as_json)
    assert rows(words_orders) == rows(json_orders)
    assert events(words_events) == events(json_events)


async def test_an_order_is_revised_with_words(client: AsyncClient) -> None:
    game = await team_battle(client)
    order = await game.order("a1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    revised = ok(await game.put(f"/orders/{order['id']}", "a2", {"text": "部署 4 7 8 6 5"}))
    assert revised["body"] == {"type": "deploy", "troops": [4, 7, 8, 6, 5]}
    history = ok(await game.get(f"/orders/{order['id']}/history", "a1"))
    assert [h["body"] for h in history if h["action"] == "revise"] == [revised["body"]]


async def test_a_text_with_several_orders_is_refused_whole(client: AsyncClient) -> None:
    game = await team_battle(client)
    await to_command_phase(game)
    before = await everything(game)
    body = problem(
        await game.post("/orders", "a1", {"text": "调兵 3→2 4人；反击2"}), 422, "one_order_only"
    )
    assert len(body["orders"]) == 2
    assert "2" in body["detail"] and "反击：2号位" in body["detail"]
    problem(await game.post("/orders", "a1", {"text": "吧啦吧啦"}), 422, "not_understood")
    problem(await game.post("/orders", "a1", {"text": "反击2", "slot": 3}), 422, "bad_order")
    problem(await game.post("/orders", "a1", {"text": 2}), 422, "bad_order")
    assert await everything(game) == before


async def test_a_text_order_with_an_idempotency_key_is_taken_once(client: AsyncClient) -> None:
    """The one-request path (not the batch) reads words the same way."""
    game = await team_battle(client)
    await to_command_phase(game)
    headers = {"Idempotency-Key": "text-once", "Accept-Language": "en"}
    first = ok(await game.post("/orders", "a1", {"text": "侦察敌方4号"}, headers=headers), 201)
    again = ok(await game.post("/orders", "a1", {"text": "侦察敌方4号"}, headers=headers), 201)
    assert first == again
    assert first["echo"] == "Scout: enemy slot 4"
    assert sorted(o["type"] for o in ok(await game.get("/orders", "a1"))) == ["deploy", "scout"]


# --- the island: names from the roster ---------------------------------------------------------
ISLAND_NAMES = ["张三", "李四", "王五"]


async def island(client: AsyncClient, clock: FakeClock) -> Game:
    """王五 and 李四 share (2,2); 张三 is one cell to their left, in sight (vision 1)."""
    starts = {"张三": [1, 2], "李四": [2, 2], "王五": [2, 2]}
    settings = {**quiet_overrides(), "start_positions": starts, "base_vision": 1}
    return await island_game(client, clock, ISLAND_NAMES, settings)


async def test_island_move_and_assassinate_in_words_is_one_hidden_order(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await island(client, clock)
    order = await game.order("王五", {"text": "左移并暗杀张三"})
    expected = {"type": "assassinate", "target": pid(game, "张三"), "path": ["left"]}
    assert (order["type"], order["body"], order["status"]) == ("assassinate", expected, "pending")
    assert order["echo"] == "暗杀：张三（先向左移动）"
    assert [o["body"] for o in ok(await game.get("/orders", "王五"))] == [expected]
    # Hidden (IS-20): neither the target nor anyone else sees it.
    assert ok(await game.get("/orders", "张三")) == []
    assert ok(await game.get("/orders", "李四")) == []
    assert (await game.view("张三"))["orders"] == []


async def test_island_names_are_matched_exactly_then_fuzzily_else_asked(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await island(client, clock)
    read = ok(await parse(game, "王五", "提防张叁；给李四 2个食物"))
    assert read["orders"] == [
        {"type": "guard", "target": pid(game, "张三")},
        {"type": "give", "to": pid(game, "李四"), "item": "food", "count": 2},
    ]
    assert read["echo"] == "提防：张三；赠送：李四，食物×2"
    unknown = problem(await parse(game, "王五", "暗杀赵六"), 422, "not_understood")
    assert unknown["unknown"] == ["赵六"]
    assert [c["name"] for c in unknown["candidates"]["赵六"]] == ["张三", "李四"]
    assert {c["id"] for c in unknown["candidates"]["赵六"]} == {
        pid(game, "张三"),
        pid(game, "李四"),
    }


async def test_island_name_candidates_never_offer_the_player_typing(
    client: AsyncClient, clock: FakeClock
) -> None:
    """Issue 16: 李四 was asked "可能是：张三、李四、王五" — offered themselves. Whoever
    types, a name that fits nobody offers the others only, in every order that names a
    player; the speaker's own name written out is still read (the rules then answer)."""
    game = await island(client, clock)
    for text in ("暗杀赵六", "pk 赵六", "提防赵六", "给赵六 1个食物", "和赵六一起打猎"):
        unknown = problem(await parse(game, "李四", text), 422, "not_understood")
        assert [c["name"] for c in unknown["candidates"]["赵六"]] == ["张三", "王五"], text
        assert "可能是：张三、王五。" in unknown["detail"], text
        english = problem(await parse(game, "李四", text, headers=EN), 422, "not_understood")
        assert "Perhaps: 张三, 王五." in english["detail"], text
    own = ok(await parse(game, "李四", "提防李四"))
    assert own["orders"] == [{"type": "guard", "target": pid(game, "李四")}]


async def test_island_parse_works_before_the_game_starts(client: AsyncClient) -> None:
    waiting = await create_game(client, "island", quiet_overrides(), scenario=example_text())
    await waiting.add_player("张三")
    await waiting.add_player("李四")
    read = ok(await parse(waiting, "李四", "守护张三"))
    assert read == {
        "orders": [{"type": "guard", "target": pid(waiting, "张三")}],
        "echo": "提防：张三",
    }
    # Submitting must wait for the start: the service answers that, not the reader.
    problem(await waiting.post("/orders", "李四", {"text": "守护张三"}), 409, "not_started")


async def test_island_orders_in_words_from_issue_16(client: AsyncClient, clock: FakeClock) -> None:
    """Issue 16, as the players wrote them: "pk 李四 赵六" (targets side by side) is one PK
    of two; "逃跑并向上移动" is ONE Flee + move (IS-13, 3 stamina), not a Flee and a Move —
    submitted, the rules answer it (no fight to flee here), not "one order at a time"."""
    names = ["张三", "李四", "王五", "赵六"]
    starts = {"张三": [1, 2], "李四": [2, 2], "王五": [2, 2], "赵六": [3, 2]}
    game = await island_game(
        client, clock, names, {**quiet_overrides(), "start_positions": starts, "base_vision": 1}
    )
    for text in ("pk 李四 赵六", "pk 李四，赵六", "挑战 李四 赵六", "challenge 李四 赵六"):
        read = ok(await parse(game, "王五", text))
        assert read == {
            "orders": [{"type": "pk", "targets": [pid(game, "李四"), pid(game, "赵六")]}],
            "echo": "PK：李四、赵六",
        }, text
    for text in ("逃跑并向上移动", "逃跑，向上", "逃跑然后向上走", "flee and move up"):
        read = ok(await parse(game, "王五", text))
        assert read == {"orders": [{"type": "flee", "direction": "up"}], "echo": "逃跑并移动：向上"}
        english = ok(await parse(game, "王五", text, headers=EN))
        assert english["echo"] == "Flee and move: up"
        problem(await game.post("/orders", "王五", {"text": text}), 409, "nothing_to_flee")
    assert (await game.view("王五"))["stamina"] == 5


def test_a_body_with_a_type_is_a_json_order_even_with_a_text_field() -> None:
    """A game's order may have a field named ``text`` (a note, a taunt): only a body without
    ``type`` is read as an order in words."""
    from app.services.text_orders import in_words, text_of

    assert in_words({"text": "调兵 3号位到2号位 4人"})
    assert not in_words({"type": "shout", "text": "你输定了"})
    assert text_of({"type": "shout", "text": "你输定了"}) is None
    assert text_of({"text": "出石头"}) == "出石头"

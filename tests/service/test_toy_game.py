"""The toy duel (tests/toy) end to end over HTTP and the pages, registered at test time:
the proof that a game is a plug-in. Nothing under app/ names it; whatever fails here is a
place where the shell still names the two built-in games instead of asking the registry."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from httpx import AsyncClient, Response

from app.clock import FakeClock
from app.kit import Presentation
from app.rules.registry import register
from tests.service.helpers import Game, create_game, ok, problem, tick
from tests.service.page_text import problems, visible_text
from tests.service.publish_helpers import posts
from tests.service.test_web_sessions import invite
from tests.service.web_helpers import Browser, browse, join, post_form
from tests.toy.engine import EVENT_KINDS, RULESET
from tests.toy.registration import toy_registered
from tests.toy.words import WORDS

ROUND = 600  # seconds per round in these games
ROCK = {"type": "throw", "hand": "rock"}
SCISSORS = {"type": "throw", "hand": "scissors"}
EN = {"Accept-Language": "en"}


@pytest.fixture(autouse=True)
def toy() -> Iterator[str]:
    """The toy duel is a game type for each test of this module, and only then."""
    with toy_registered() as name:
        yield name


async def duel(http: AsyncClient, rounds: int = 2, **settings: Any) -> Game:
    """A started duel between 甲 and 乙."""
    game = await create_game(
        http, RULESET.name, {"rounds": rounds, "round_seconds": ROUND, **settings}
    )
    await game.add_player("甲")
    await game.add_player("乙")
    await game.start()
    return game


def of_kind(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e["data"] for e in events if e["kind"] == kind]


# --- the API ------------------------------------------------------------------------------
async def test_a_duel_is_created_takes_two_players_and_starts(client: AsyncClient) -> None:
    game = await create_game(client, RULESET.name, {"rounds": 2, "round_seconds": ROUND})
    problem(await game.post("/players", "director", {"name": "甲", "side": "A"}), 422, "no_sides")
    await game.add_player("甲")
    await game.add_player("乙")
    problem(await game.post("/players", "director", {"name": "丙"}), 409, "roster_full")
    summary = await game.start()
    assert (summary["ruleset"], summary["status"], summary["phase"]) == (
        RULESET.name,
        "running",
        "throwing",
    )
    assert [p["name"] for p in summary["players"]] == ["甲", "乙"]
    view = await game.view("甲")
    assert (view["round"], view["rounds"], view["phase"]) == (1, 2, "throwing")


async def test_the_round_deadline_is_the_games_deadline(client: AsyncClient) -> None:
    """The summary and the view show when the round closes: the shell must learn the
    game's deadline timer kinds from the game, not from a list of the built-in ones."""
    game = await duel(client)
    summary = await game.summary()
    assert summary["deadline"] is not None, summary
    assert (
        summary["deadline_remaining_seconds"] is None or summary["deadline_remaining_seconds"] > 0
    )
    extended = ok(await game.post("/deadline", "director", {"seconds": 60}))
    assert extended["deadline"] != summary["deadline"]


async def test_an_order_after_the_deadline_before_the_scheduler_ran_is_refused(
    client: AsyncClient, clock: FakeClock
) -> None:
    """The round's deadline counts as the game's deadline for late orders too."""
    game = await duel(client)
    clock.advance(ROUND + 1)  # the deadline passed; the scheduler has not run yet
    problem(await game.post("/orders", "甲", ROCK), 409, "deadline_passed")


async def test_a_public_shout_and_a_hidden_throw_then_the_deadline_closes_the_round(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await duel(client)
    shout = await game.order("乙", {"type": "shout", "taunt": "你输定了"})
    assert shout["status"] == "resolved"
    throw = await game.order("甲", ROCK)
    assert throw["status"] == "pending"

    public = await game.events()
    assert [e["taunt"] for e in of_kind(public, "shouted")] == ["你输定了"]
    assert not of_kind(public, "throw_given")  # hidden from the thread...
    assert not of_kind(await game.events("乙"), "throw_given")  # ...and from the rival
    assert of_kind(await game.events("甲"), "throw_given")[0]["hand"] == "rock"
    assert of_kind(await game.events("director"), "throw_given")[0]["hand"] == "rock"
    assert "rock" not in json.dumps(await game.view("乙"))
    assert "rock" not in json.dumps(await game.view())

    await tick(client, clock, ROUND - 1)
    assert (await game.view())["round"] == 1
    await tick(client, clock, 1)  # the round's deadline
    closed = of_kind(await game.events(), "round_closed")
    assert closed and closed[0]["throws"] == {
        game.players["甲"]["id"]: "rock",
        game.players["乙"]["id"]: None,
    }
    assert closed[0]["by"] == "deadline"
    assert closed[0]["winner"] == game.players["甲"]["id"]  # a lone throw wins
    assert (await game.view())["round"] == 2
    statuses = {o["id"]: o["status"] for o in ok(await game.get("/orders", "甲"))}
    assert statuses[throw["id"]] == "resolved"


async def test_a_throw_is_revised_and_withdrawn_and_the_rival_never_sees_it(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await duel(client)
    throw = await game.order("甲", ROCK)
    revised = ok(await game.put(f"/orders/{throw['id']}", "甲", SCISSORS))
    assert revised["body"] == SCISSORS
    problem(await game.delete(f"/orders/{throw['id']}", "乙"), 404, "not_found")
    ok(await game.delete(f"/orders/{throw['id']}", "甲"))
    for who in ("乙", None):
        seen = json.dumps([await game.events(who), await game.view(who)])
        assert "scissors" not in seen and "rock" not in seen, who
    assert {e["kind"] for e in await game.events("甲")} >= {"throw_revised", "throw_withdrawn"}
    await tick(client, clock, ROUND)
    (closed,) = of_kind(await game.events(), "round_closed")
    assert set(closed["throws"].values()) == {None}  # withdrawn: nobody threw
    assert closed["winner"] is None


async def test_both_players_ready_close_the_round_early(client: AsyncClient) -> None:
    game = await duel(client)
    await game.order("甲", ROCK)
    await game.order("乙", SCISSORS)
    await game.ready("甲")
    assert (await game.view())["round"] == 1
    await game.ready("乙")
    view = await game.view()
    assert view["round"] == 2
    assert view["history"][0]["winner"] == game.players["甲"]["id"]
    assert of_kind(await game.events(), "round_closed")[0]["by"] == "ready"


async def test_the_directors_tool_closes_the_round(client: AsyncClient) -> None:
    game = await duel(client)
    ok(await game.post("/director/actions", "director", {"action": "close_round"}))
    assert (await game.view())["round"] == 2
    problem(
        await game.post("/director/actions", "director", {"action": "explode"}),
        422,
        "unknown_action",
    )


async def test_orders_in_words_are_read_and_given(client: AsyncClient) -> None:
    game = await duel(client)
    read = ok(await game.post("/orders/parse", "甲", {"text": "出剪刀；喊 来吧"}))
    assert read["orders"] == [SCISSORS, {"type": "shout", "taunt": "来吧"}]
    given = await game.order("甲", {"text": "throw paper"})
    assert given["body"] == {"type": "throw", "hand": "paper"}
    assert given["status"] == "pending"
    problem(await game.post("/orders", "甲", {"text": "出火箭"}), 422, "not_understood")


async def test_a_whole_duel_ends_reveals_its_seed_and_verifies(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await duel(client, rounds=2)
    commitment = (await game.summary())["seed_commitment"]
    for _ in range(2):
        await game.order("甲", ROCK)
        await game.order("乙", ROCK)  # a tie each round, broken by the seeded RNG
        await tick(client, clock, ROUND)
    summary = await game.summary()
    assert summary["status"] == "finished"
    assert summary["deadline"] is None
    assert hashlib.sha256(summary["seed"].encode()).hexdigest() == commitment
    final = await game.view()
    assert final["phase"] == "finished" and final["winner"] is not None
    assert all(h["tie_broken"] for h in final["history"])
    problem(await game.post("/orders", "甲", ROCK), 409, "game_finished")
    verified = ok(await game.get("/verify"))
    assert verified["ok"] is True, verified


# --- receipts ---------------------------------------------------------------------------------
def recompute(salt: str, orders: list[dict[str, Any]]) -> str:
    canonical = json.dumps(orders, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(f"{salt}:{canonical}".encode()).hexdigest()


async def test_the_hidden_throw_is_sealed_in_a_receipt_and_opened_at_the_end(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await duel(client, rounds=1)
    throw = await game.order("甲", ROCK)
    mine = throw.get("receipt")
    assert mine is not None, throw  # the reply carries the receipt of what would be sealed
    assert mine["order_ids"] == [throw["id"]]
    shout = await game.order("乙", {"type": "shout", "taunt": "哈"})
    assert shout.get("receipt") is None or shout["receipt"]["order_ids"] == []

    await tick(client, clock, ROUND)
    public = await game.events()
    (sealed,) = of_kind(public, "orders_sealed")
    receipts = {r["owner"]: r["receipt"] for r in sealed["receipts"]}
    assert receipts[mine["owner"]] == mine["receipt"]
    assert len(receipts) == 2  # one per player, orders or none
    opened = {r["owner"]: r for e in of_kind(public, "receipts_opened") for r in e["receipts"]}
    assert (
        recompute(opened[mine["owner"]]["salt"], opened[mine["owner"]]["orders"]) == mine["receipt"]
    )
    assert ok(await game.get("/verify"))["ok"] is True


# --- posts ------------------------------------------------------------------------------------
async def test_a_closed_round_is_posted_in_all_three_formats(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await duel(client)
    await game.order("甲", ROCK)
    await game.order("乙", SCISSORS)
    await tick(client, clock, ROUND)
    made = await posts(game)
    assert made, "the duel's public moments make posts"
    closing = [p for p in made if p["kind"] == "round_result"]  # the duel's own post kind
    assert closing, [p.get("kind") for p in made]
    bodies = closing[0]["bodies"]
    assert set(bodies) == {"bbcode", "markdown", "text"}
    for body in bodies.values():
        assert "石头" in body and "剪刀" in body and "甲" in body
        assert not _raw_kinds(body), body
    assert "[b]" in bodies["bbcode"] or "[" in bodies["bbcode"]
    # the hidden throw made no post before the close
    assert all("throw_given" not in json.dumps(p) for p in made)


# --- pages ------------------------------------------------------------------------------------
def _raw_kinds(text: str) -> list[str]:
    return [k for k in EVENT_KINDS if re.search(rf"\b{k}\b", text)]


async def director(browser: Browser, game: Game) -> AsyncClient:
    laptop = browser()
    await browse(laptop, f"/director/{game.id}")
    signed = await post_form(laptop, f"/director/{game.id}/login", {"token": game.director})
    assert signed.status_code == 303, signed.text[:300]
    return laptop


async def player(browser: Browser, game: Game, who: str) -> AsyncClient:
    phone = browser()
    assert (await join(phone, await invite(game, who))).status_code == 303
    return phone


async def _pages(game: Game, browser: Browser) -> dict[str, tuple[AsyncClient, str]]:
    return {
        "director": (await director(browser, game), f"/director/{game.id}"),
        "player": (await player(browser, game, "甲"), f"/play/{game.id}"),
        "spectator": (browser(), f"/g/{game.id}"),
    }


async def _page(http: AsyncClient, path: str, lang: str) -> Response:
    headers = EN if lang == "en" else {"Accept-Language": "zh-CN"}
    page = await browse(http, path, headers=headers)
    assert page.status_code == 200, (path, page.status_code, page.text[:500])
    return page


async def test_every_role_sees_the_duels_own_page_part_in_both_languages(
    client: AsyncClient, clock: FakeClock, browser: Browser
) -> None:
    game = await duel(client)
    await game.order("乙", {"type": "shout", "taunt": "你输定了"})
    await game.order("甲", ROCK)
    await tick(client, clock, ROUND)
    await game.order("甲", SCISSORS)
    ids = [game.id, *(p["id"] for p in game.players.values())]
    for role, (http, path) in (await _pages(game, browser)).items():
        for lang in ("zh", "en"):
            page = await _page(http, path, lang)
            text = visible_text(page.text)
            index = 1 if lang == "en" else 0
            # the game's own part: its score board, in the page's language
            assert WORDS["page.scoreboard"][index] in text, (role, lang, text[:2000])
            assert WORDS["phase.throwing"][index] in text, (role, lang)
            assert "甲" in text and "乙" in text
            assert not _raw_kinds(text), (role, lang, _raw_kinds(text))
            assert problems(page.text, lang, ids) == [], (role, lang)
            if role == "player":
                assert WORDS["order.throw"][index] in text
                assert WORDS["order.shout"][index] in text
                assert WORDS["page.your_throw"][index] in text
            if role == "spectator":
                # the hidden throw (scissors), not the game's name ("Rock-paper-scissors duel")
                shown = text.replace(WORDS["page.title"][1], "")
                assert "scissors" not in shown and WORDS["order.throw.scissors"][0] not in shown


async def test_the_player_gives_both_orders_from_the_page(
    client: AsyncClient, browser: Browser
) -> None:
    game = await duel(client)
    phone = await player(browser, game, "甲")
    await _page(phone, f"/play/{game.id}", "zh")
    answer = await post_form(phone, f"/play/{game.id}/orders/text", {"text": "出布"})
    assert answer.status_code == 303, answer.text[:500]
    answer = await post_form(phone, f"/play/{game.id}/orders/text", {"text": "喊 我来了"})
    assert answer.status_code == 303, answer.text[:500]
    mine = ok(await game.get("/orders", "甲"))
    assert sorted(o["type"] for o in mine) == ["shout", "throw"]
    page = await _page(phone, f"/play/{game.id}", "zh")
    assert WORDS["order.throw.paper"][0] in visible_text(page.text)


async def test_the_director_creates_a_duel_from_the_new_game_form(
    client: AsyncClient, browser: Browser
) -> None:
    laptop = browser()
    for lang in ("zh", "en"):
        form = await _page(laptop, f"/director/new?ruleset={RULESET.name}", lang)
        text = visible_text(form.text)
        index = 1 if lang == "en" else 0
        assert WORDS["page.title"][index] in text, text[:1500]  # the game's name, not its code
        assert WORDS["setting.rounds"][index] in text  # its settings, by their words
        assert problems(form.text, lang) == [], lang
    made = await post_form(
        laptop, "/director/new", {"ruleset": RULESET.name, "title": "一局猜拳", "rounds": "2"}
    )
    assert made.status_code == 303, made.text[:500]
    game_id = made.headers["location"].split("/")[2]
    summary = ok(await client.get(f"/api/v1/games/{game_id}"))
    assert summary["ruleset"] == RULESET.name, summary


async def test_without_its_own_parts_the_duel_plays_plainly_on_the_kits_defaults(
    client: AsyncClient, clock: FakeClock, browser: Browser
) -> None:
    """Only the rules and the words: the pages show the generic parts, posts are a line per
    event from its words, nothing is sealed, and nothing reads as a raw code."""
    unregister = register(RULESET, Presentation(name=RULESET.name, words=WORDS))
    try:
        game = await duel(client)
        await game.order("乙", {"type": "shout", "taunt": "你输定了"})
        await game.order("甲", ROCK)
        await tick(client, clock, ROUND)
        public = await game.events()
        assert of_kind(public, "round_closed") and not of_kind(public, "orders_sealed")
        made = await posts(game)
        assert made and all(set(p["bodies"]) == {"bbcode", "markdown", "text"} for p in made)
        for post in made:
            assert not _raw_kinds(json.dumps(post["bodies"], ensure_ascii=False)), post["kind"]
        assert any(
            WORDS["event.round_opened"][0].format(round=2) in p["bodies"]["text"] for p in made
        )
        ids = [game.id, *(p["id"] for p in game.players.values())]
        for role, (http, path) in (await _pages(game, browser)).items():
            for lang in ("zh", "en"):
                page = await _page(http, path, lang)
                assert not _raw_kinds(visible_text(page.text)), (role, lang)
                assert problems(page.text, lang, ids) == [], (role, lang)
    finally:
        unregister()

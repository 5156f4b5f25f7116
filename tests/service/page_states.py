"""Games driven over HTTP to each state a game passes through, for the page matrix.

``World(settings, engine, sessionmaker).state(name)`` builds the named state once (one
game per state, each on its own in-process app with its own FakeClock) and returns what
the matrix needs: the game id, every role's cookies (director, each player, a signed-out
player, a player of another game), the internal ids a page must not show, invite links.

Timers are shared by every game in the database (``run_due_timers`` runs them all), so
each new state's game is created 60 days *before* the previous one: moving one state's
clock never reaches a timer of a game built earlier. Player names are Chinese, so English
on a Chinese page is never user data.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest_asyncio
from httpx import ASGITransport, AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.clock import FakeClock
from app.main import create_app
from app.scheduler import run_due_timers
from app.settings import Settings
from tests.service.helpers import TB_SETTINGS, Game, create_game, ok
from tests.service.island_helpers import example_text, local, quiet_overrides
from tests.service.web_helpers import browse, join, post_form
from tests.toy.registration import toy_registered

NAMES = ["张三", "李四", "王五", "赵六", "钱七", "孙八"]
ROLES_OF_PLAYERS = [f"p{i}" for i in range(1, len(NAMES) + 1)]  # p1 = 张三 …
LATEST = datetime(2030, 1, 1, 1, 0, tzinfo=UTC)  # the first state's game starts here

Cookies = dict[str, str]


@dataclass
class State:
    name: str
    ruleset: str
    app: Any
    game_id: str
    director_token: str
    cookies: dict[str, Cookies] = field(default_factory=dict)  # role -> the browser's cookies
    players: dict[str, str] = field(default_factory=dict)  # role (p1…) -> player id
    ids: set[str] = field(default_factory=set)  # what no page may show as text
    invites: dict[str, str] = field(default_factory=dict)  # "valid" / "spent" -> /join/…
    notes: list[str] = field(default_factory=list)  # what could not be reached
    now: datetime | None = None  # the game's clock when the state was reached

    @property
    def roles(self) -> list[str]:
        return list(self.cookies)

    def client(self, role: str, lang: str) -> AsyncClient:
        """A browser of ``role`` in ``lang``: its own copy of the cookies, so a page that
        sets or clears one changes no other row."""
        transport = ASGITransport(app=self.app, raise_app_exceptions=False)
        return AsyncClient(
            transport=transport,
            base_url="http://test",
            cookies=dict(self.cookies.get(role, {})),
            headers={"Accept-Language": "en" if lang == "en" else "zh-CN,zh;q=0.9"},
        )


class Driver:
    """One game on its own app and clock, driven through the API and the pages."""

    def __init__(self, world: World, start: datetime) -> None:
        self.world = world
        self.clock = FakeClock()
        self.clock.set(start)
        self.first = start.date()  # the island's day 1
        self.app = create_app(world.settings, self.clock)
        self.app.state.engine = world.engine
        self.app.state.sessionmaker = world.sessionmaker
        self.http = self.new_client()
        self.game: Game | None = None
        self.joined: dict[str, Cookies] = {}
        self.notes: list[str] = []  # what a builder could not do (shown with a failure)

    def new_client(self) -> AsyncClient:
        transport = ASGITransport(app=self.app, raise_app_exceptions=False)
        client = AsyncClient(transport=transport, base_url="http://test")
        client.app = self.app  # type: ignore[attr-defined]
        self.world.opened.append(client)
        return client

    @property
    def g(self) -> Game:
        assert self.game is not None
        return self.game

    async def create(self, ruleset: str, settings: dict[str, Any], **extra: Any) -> Game:
        self.game = await create_game(self.http, ruleset, settings, title="页面测试局", **extra)
        return self.game

    async def add(self, role: str, side: str | None = None) -> str:
        name = NAMES[ROLES_OF_PLAYERS.index(role)]
        body = await self.g.add_player(name, side)
        self.g.players[role] = body
        return str(body["id"])

    def pid(self, role: str) -> str:
        return str(self.g.players[role]["id"])

    async def invite(self, role: str) -> str:
        body = ok(await self.g.post(f"/players/{self.pid(role)}/invite", "director"), 201)
        return str(body["url"])

    async def sign_in(self, role: str) -> Cookies:
        """The player opens a fresh invite and confirms it in a new browser."""
        phone = self.new_client()
        answer = await join(phone, await self.invite(role))
        assert answer.status_code == 303, (answer.status_code, answer.text[:300])
        self.joined[role] = dict(phone.cookies)
        return self.joined[role]

    async def director_cookies(self) -> Cookies:
        desk = self.new_client()
        await browse(desk, f"/director/{self.g.id}")
        answer = await post_form(desk, f"/director/{self.g.id}/login", {"token": self.g.director})
        assert answer.status_code == 303, (answer.status_code, answer.text[:300])
        return dict(desk.cookies)

    async def start(self) -> None:
        await self.g.start()

    async def advance(self) -> None:
        ok(await self.g.post("/advance", "director"))

    async def status(self) -> dict[str, Any]:
        return await self.g.summary()

    async def try_order(self, role: str, body: dict[str, Any]) -> None:
        """An order that makes the state richer; one refused is noted, not fatal."""
        answer = await self.g.post("/orders", role, body)
        if answer.status_code != 201:
            self.notes.append(f"{role} {body}: {answer.status_code} {answer.text[:120]}")

    async def run_at(self, when: datetime) -> None:
        self.clock.set(when)
        await run_due_timers(self.world.sessionmaker, self.clock)

    async def state(self, name: str, ruleset: str, signed_out: Cookies | None = None) -> State:
        g = self.g
        cookies: dict[str, Cookies] = {"director": await self.director_cookies()}
        cookies.update(self.joined)
        cookies["spectator"] = {}
        if signed_out is not None:
            cookies["signed-out"] = signed_out
        cookies["other-game"] = await self.world.other_game_player()
        ids = {g.id, *(str(p["id"]) for p in g.players.values())}
        for path in ("/orders", "/posts"):
            answer = await g.get(path, "director")
            if answer.status_code == 200 and isinstance(answer.json(), list):
                ids.update(str(row["id"]) for row in answer.json() if "id" in row)
        players = {role: str(p["id"]) for role, p in g.players.items() if role.startswith("p")}
        state = State(
            name, ruleset, self.app, g.id, g.director, cookies, players, ids, now=self.clock.now()
        )
        state.notes.extend(self.notes)
        return state


class World:
    """Every state of the matrix, each built the first time it is asked for."""

    def __init__(
        self,
        settings: Settings,
        engine: AsyncEngine,
        sessionmaker: async_sessionmaker[AsyncSession],
    ) -> None:
        self.settings = settings
        self.engine = engine
        self.sessionmaker = sessionmaker
        self.built: dict[str, State] = {}
        self.opened: list[AsyncClient] = []
        self.games = 0
        self._other: Cookies | None = None

    def driver(self) -> Driver:
        start = LATEST - timedelta(days=60 * self.games)
        self.games += 1
        return Driver(self, start)

    async def close(self) -> None:
        for client in self.opened:
            await client.aclose()

    async def other_game_player(self) -> Cookies:
        """The cookies of a player of a different game (a Team Battle of its own)."""
        if self._other is None:
            d = self.driver()
            await d.create("team_battle", TB_SETTINGS)
            await d.add("p1", "A")
            await d.add("p2", "B")
            self._other = await d.sign_in("p1")
        return self._other

    async def state(self, name: str) -> State:
        if name not in self.built:
            built = await BUILDERS[name](self, name)
            declared = roles_of(name)
            assert sorted(built.roles) == sorted(declared), (name, built.roles, declared)
            self.built[name] = built
        return self.built[name]


def world_settings(database_url: str) -> Settings:
    return Settings(
        database_url=database_url,
        scheduler_enabled=False,  # timers run only when a builder runs them
        publish_worker_enabled=False,
        publish_allow_private_urls=True,
        admin_token=None,
    )


# The matrix modules import these two fixtures: states built once per module.
@pytest_asyncio.fixture(autouse=True, name="_clean_tables")
async def keep_tables() -> AsyncIterator[None]:
    """No emptying of tables between a module's rows (this overrides the suite's per-test
    clean, by name; ``world`` empties them when the module is done)."""
    yield


@pytest_asyncio.fixture(scope="module", name="world")
async def world_fixture(
    database_url: str, engine: AsyncEngine, sessionmaker: async_sessionmaker[AsyncSession]
) -> AsyncIterator[World]:
    from app.tables import METADATA

    built = World(world_settings(database_url), engine, sessionmaker)
    with toy_registered():  # the third game, registered as a plug-in is (tests/toy)
        yield built
    await built.close()
    async with engine.begin() as conn:
        for table in reversed(METADATA.sorted_tables):
            await conn.execute(text(f'DELETE FROM "{table.name}"'))


# --- Team Battle ---------------------------------------------------------------------------
TB_SIDES = {"p1": "A", "p2": "A", "p3": "B", "p4": "B"}


async def _tb(world: World, upto: str, roster: int = 4, joined: int = 4) -> Driver:
    """A Team Battle (high dice: one round decides it) driven to phase ``upto``."""
    d = world.driver()
    await d.create("team_battle", {**TB_SETTINGS, "dice": "high"})
    roles = list(TB_SIDES)[:roster]
    for role in roles:
        await d.add(role, TB_SIDES[role])
    for role in roles[:joined]:
        await d.sign_in(role)
    if upto == "setup":
        return d
    await d.start()
    if upto == "deployment":
        return d
    await d.g.order("p1", {"type": "deploy", "troops": [26, 1, 1, 1, 1]})
    await d.g.order("p3", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    await d.advance()
    if upto == "command":
        return d
    # A public Dispatch (TB-30): its feed line shows the slots before and after.
    await d.try_order("p1", {"type": "dispatch", "moves": [{"from": 1, "to": 2, "troops": 5}]})
    await d.advance()
    if upto == "battle":
        return d
    if upto == "response":
        await d.g.order("p3", {"type": "retreat", "slot": 1})
        await d.advance()
        return d
    for _ in range(40):
        if (await d.status())["status"] == "finished":
            break
        await d.advance()
    return d


async def tb_setup_none(world: World, name: str) -> State:
    d = await _tb(world, "setup", roster=0, joined=0)
    return await d.state(name, "team_battle")


async def tb_setup_some(world: World, name: str) -> State:
    """Two of four seats, one of them confirmed their invite before the start (item 1)."""
    d = await _tb(world, "setup", roster=2, joined=0)
    spent = await d.invite("p1")
    phone = d.new_client()
    assert (await join(phone, spent)).status_code == 303
    d.joined["p1"] = dict(phone.cookies)
    valid = await d.invite("p2")
    state = await d.state(name, "team_battle")
    state.invites = {"spent": spent, "valid": valid}
    return state


async def tb_setup_all(world: World, name: str) -> State:
    d = await _tb(world, "setup")
    return await d.state(name, "team_battle")


def _tb_phase(upto: str) -> Callable[[World, str], Awaitable[State]]:
    async def build(world: World, name: str) -> State:
        d = await _tb(world, upto)
        state = await d.state(name, "team_battle")
        phase = (await d.status()).get("phase")
        if phase != upto and not (upto == "finished" and phase == "finished"):
            state.notes.append(f"asked for phase {upto}, the game is in {phase}")
        return state

    return build


# --- sign-ups (issue 20): players sign up on the page, not by invite -------------------------
async def _sign_up_on_page(d: Driver, role: str) -> None:
    """``role`` signs up on the game's sign-up page in a browser of their own."""
    phone = d.new_client()
    await browse(phone, f"/g/{d.g.id}/signup")
    answer = await post_form(
        phone, f"/g/{d.g.id}/signup", {"name": NAMES[ROLES_OF_PLAYERS.index(role)]}
    )
    assert answer.status_code == 303, (answer.status_code, answer.text[:300])
    d.joined[role] = dict(phone.cookies)


async def _signed_up(d: Driver, name: str, ruleset: str) -> State:
    rows = ok(await d.g.get("/signups", "director"))
    by_name = {row["name"]: row for row in rows}
    for role in d.joined:
        row = by_name[NAMES[ROLES_OF_PLAYERS.index(role)]]
        d.g.players[role] = {"id": row["player_id"] or row["id"], "signup": row["id"]}
    state = await d.state(name, ruleset)
    state.ids.update(str(row["id"]) for row in rows)
    return state


def _signup_state(
    seats: int, roles: tuple[str, ...], then: str = "", ruleset: str = "team_battle"
) -> Callable[[World, str], Awaitable[State]]:
    async def build(world: World, name: str) -> State:
        d = world.driver()
        if ruleset == "island":
            await d.create("island", quiet_overrides(), scenario=example_text())
        else:
            await d.create("team_battle", {**TB_SETTINGS, "dice": "high"})
        ok(await d.g.put("/signup", "director", {"open": True, "max_players": seats}))
        for role in roles:
            await _sign_up_on_page(d, role)
        if then == "closed":
            ok(await d.g.put("/signup", "director", {"open": False, "max_players": seats}))
        if then == "offered":  # started; p1 leaves, the seat is offered to p3 (the backup)
            await d.start()
            rows = ok(await d.g.get("/signups", "director"))
            seat = next(r for r in rows if r["name"] == NAMES[0])
            ok(await d.g.post(f"/players/{seat['player_id']}/drop", "director"))
            del d.joined["p1"]
        return await _signed_up(d, name, ruleset)

    return build


async def tb_paused(world: World, name: str) -> State:
    d = await _tb(world, "command")
    ok(await d.g.post("/pause", "director"))
    return await d.state(name, "team_battle")


async def tb_chat(world: World, name: str) -> State:
    """A chat bot on for the game: p1 linked an account to it by private message (the
    page shows the bot and that p1 is linked), the others have not."""
    from app.chat import bots

    d = await _tb(world, "command")
    config = {
        "bot_token": "123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQ",
        "secret_token": "page-matrix-secret-0123",
        "username": "tuanzhan_bot",
        "api_base": "http://127.0.0.1:9",
    }
    async with world.sessionmaker() as session, session.begin():
        bot = await bots.add_bot(session, "telegram", "团战", config, d.clock.now(), world.settings)
    ok(await d.g.put("/chat", "director", {"bot_ids": [bot["id"]]}))
    pid = d.pid("p1")
    code = ok(await d.g.post(f"/players/{pid}/link-code", "director"), 201)["code"]
    user = {"id": 424242, "is_bot": False, "first_name": "p1"}
    update = {
        "update_id": 1,
        "message": {
            "message_id": 1,
            "from": user,
            "chat": {"id": 424242, "type": "private"},
            "date": 1764633600,
            "text": f"/start {code}",
        },
    }
    headers = {"X-Telegram-Bot-Api-Secret-Token": config["secret_token"]}
    assert (await d.http.post(bot["webhook_path"], json=update, headers=headers)).status_code == 200
    return await d.state(name, "team_battle")


async def tb_replaced(world: World, name: str) -> State:
    """p2's seat went to a new person: p2's old browser must now be signed out."""
    d = await _tb(world, "command")
    old = d.joined.pop("p2")
    ok(await d.g.post(f"/players/{d.pid('p2')}/replace", "director"))
    return await d.state(name, "team_battle", signed_out=old)


async def tb_signed_out(world: World, name: str) -> State:
    """The director signed p2 out of every browser."""
    d = await _tb(world, "command")
    old = d.joined.pop("p2")
    ok(await d.g.post(f"/players/{d.pid('p2')}/revoke-sessions", "director"))
    return await d.state(name, "team_battle", signed_out=old)


async def tb_undone(world: World, name: str) -> State:
    """The director closed the command phase by mistake and undid it (issue 22)."""
    d = await _tb(world, "command")
    await d.advance()
    ok(await d.g.post("/undo", "director", {"steps": 1, "reason": "点错了，提前结束了"}))
    return await d.state(name, "team_battle")


async def tb_sandbox(world: World, name: str) -> State:
    """A sandbox forked from a game in its command phase, its players signed in through
    their invites (the director acting as each): every page says 沙盘."""
    d = await _tb(world, "command")
    forked = ok(await d.g.post("/fork", "director", {}), 201)
    box = Game(http=d.http, id=forked["id"], director=forked["director_token"], created=forked)
    by_name = {p["name"]: p for p in forked["players"]}
    box.players = {role: by_name[NAMES[ROLES_OF_PLAYERS.index(role)]] for role in TB_SIDES}
    d.game, d.joined = box, {}
    for role in TB_SIDES:
        await d.sign_in(role)
    return await d.state(name, "team_battle")


# --- the island ----------------------------------------------------------------------------
async def _island(world: World, roster: int = 6, joined: int = 6, start: bool = True) -> Driver:
    """The example island, no chance events (quiet overrides), started at 09:00 of day 1."""
    d = world.driver()
    first = d.first
    d.clock.set(local(1, 9, first=first))
    await d.create("island", quiet_overrides(), scenario=example_text())
    roles = ROLES_OF_PLAYERS[:roster]
    for role in roles:
        await d.add(role)
    for role in roles[:joined]:
        await d.sign_in(role)
    if start:
        await d.start()
        await d.run_at(local(1, 12, first=first))
    return d


def _at(d: Driver, day: int, h: int, m: int = 0) -> datetime:
    return local(day, h, m, first=d.first)


async def is_setup_none(world: World, name: str) -> State:
    d = await _island(world, 0, 0, start=False)
    return await d.state(name, "island")


async def is_setup_some(world: World, name: str) -> State:
    d = await _island(world, 3, 0, start=False)
    spent = await d.invite("p1")
    phone = d.new_client()
    assert (await join(phone, spent)).status_code == 303
    d.joined["p1"] = dict(phone.cookies)
    valid = await d.invite("p2")
    state = await d.state(name, "island")
    state.invites = {"spent": spent, "valid": valid}
    return state


async def is_setup_all(world: World, name: str) -> State:
    d = await _island(world, start=False)
    return await d.state(name, "island")


async def is_day(world: World, name: str) -> State:
    d = await _island(world)
    return await d.state(name, "island")


async def is_pk_window(world: World, name: str) -> State:
    d = await _island(world)
    await d.run_at(_at(d, 1, 20, 30))
    return await d.state(name, "island")


async def is_deep_night(world: World, name: str) -> State:
    d = await _island(world)
    await d.run_at(_at(d, 1, 22, 30))
    return await d.state(name, "island")


async def _act(d: Driver) -> None:
    """Day 1: moves and explorations (instant actions with feed lines and results)."""
    await d.try_order("p1", {"type": "move", "direction": "right"})
    await d.try_order("p2", {"type": "explore"})
    await d.try_order("p3", {"type": "move", "direction": "up"})
    await d.try_order("p4", {"type": "explore"})
    await d.run_at(_at(d, 1, 15))


async def is_acted(world: World, name: str) -> State:
    d = await _island(world)
    await _act(d)
    return await d.state(name, "island")


async def is_day2(world: World, name: str) -> State:
    """After the first midnight: the day report and the feed of a whole day."""
    d = await _island(world)
    await _act(d)
    await d.run_at(_at(d, 2, 10))
    return await d.state(name, "island")


async def is_paused(world: World, name: str) -> State:
    d = await _island(world)
    ok(await d.g.post("/pause", "director"))
    return await d.state(name, "island")


async def is_dead(world: World, name: str) -> State:
    """The director's tool killed p2 (李四)."""
    d = await _island(world)
    body = {"action": "kill_player", "player": d.pid("p2")}
    ok(await d.g.post("/director/actions", "director", body))
    return await d.state(name, "island")


async def is_replaced(world: World, name: str) -> State:
    d = await _island(world)
    old = d.joined.pop("p2")
    ok(await d.g.post(f"/players/{d.pid('p2')}/replace", "director"))
    return await d.state(name, "island", signed_out=old)


async def is_signed_out(world: World, name: str) -> State:
    d = await _island(world)
    old = d.joined.pop("p2")
    ok(await d.g.post(f"/players/{d.pid('p2')}/revoke-sessions", "director"))
    return await d.state(name, "island", signed_out=old)


async def is_undone(world: World, name: str) -> State:
    """The director ran to 24:00 by mistake (every timer before it too) and undid it all."""
    d = await _island(world)
    ran = ok(await d.g.post("/advance-to-midnight", "director"))
    body = {"steps": len(ran["advanced"]["timers"]), "reason": "提前结算了"}
    ok(await d.g.post("/undo", "director", body))
    return await d.state(name, "island")


async def is_finished(world: World, name: str) -> State:
    d = await _island(world)
    ok(await d.g.post("/director/actions", "director", {"action": "end_game"}))
    return await d.state(name, "island")


# --- the toy duel (tests/toy): a game registered at test time, not named by app/ ----------
TOY_ROUND = 600  # seconds per round


async def _toy(world: World, upto: str) -> Driver:
    """A two-round duel between 张三 (p1) and 李四 (p2), driven to ``upto``."""
    d = world.driver()
    await d.create("toy_duel", {"rounds": 2, "round_seconds": TOY_ROUND})
    for role in ("p1", "p2"):
        await d.add(role)
        await d.sign_in(role)
    if upto == "setup":
        return d
    await d.start()
    await d.try_order("p1", {"type": "throw", "hand": "rock"})  # hidden until the close
    await d.try_order("p2", {"type": "shout", "taunt": "你输定了"})  # public at once
    if upto == "round":
        return d
    await d.try_order("p2", {"type": "throw", "hand": "scissors"})
    await d.run_at(d.clock.now() + timedelta(seconds=TOY_ROUND + 1))  # its deadline
    if upto == "round2":
        return d
    await d.try_order("p1", {"type": "throw", "hand": "paper"})  # 张三 wins 2–0, whatever
    await d.try_order("p2", {"type": "throw", "hand": "rock"})  # the seed (no tie to break)
    await d.run_at(d.clock.now() + timedelta(seconds=TOY_ROUND + 1))
    return d


def _toy_state(upto: str) -> Callable[[World, str], Awaitable[State]]:
    async def build(world: World, name: str) -> State:
        d = await _toy(world, upto)
        if upto == "finished":
            assert (await d.status())["status"] == "finished", d.notes
        return await d.state(name, "toy_duel")

    return build


TB4 = ("p1", "p2", "p3", "p4")
IS6 = tuple(ROLES_OF_PLAYERS)
OUT = "signed-out"
Builder = Callable[[World, str], Awaitable[State]]

# One line per state: its name (the pytest id's first part), its builder, and the roles
# that hold a browser session in it besides the director, the spectator and a player of
# another game (players p1… and "signed-out", a session that no longer counts).
STATES: dict[str, tuple[Builder, tuple[str, ...]]] = {
    "tb-setup_none": (tb_setup_none, ()),
    "tb-setup_some": (tb_setup_some, ("p1",)),
    "tb-setup_all": (tb_setup_all, TB4),
    "tb-deployment": (_tb_phase("deployment"), TB4),
    "tb-command": (_tb_phase("command"), TB4),
    "tb-battle": (_tb_phase("battle"), TB4),
    "tb-response": (_tb_phase("response"), TB4),
    "tb-paused": (tb_paused, TB4),
    "tb-chat": (tb_chat, TB4),
    "tb-replaced": (tb_replaced, ("p1", "p3", "p4", OUT)),
    "tb-signed_out": (tb_signed_out, ("p1", "p3", "p4", OUT)),
    "tb-finished": (_tb_phase("finished"), TB4),
    "tb-undone": (tb_undone, TB4),
    "tb-sandbox": (tb_sandbox, TB4),
    "tb-signup_open": (_signup_state(3, ("p1", "p2")), ("p1", "p2")),
    "tb-signup_waitlisted": (_signup_state(2, ("p1", "p2", "p3")), ("p1", "p2", "p3")),
    "tb-signup_closed": (_signup_state(2, ("p1", "p2"), "closed"), ("p1", "p2")),
    "tb-signup_offered": (_signup_state(2, ("p1", "p2", "p3"), "offered"), ("p2", "p3")),
    "is-signup_open": (_signup_state(6, ("p1",), ruleset="island"), ("p1",)),
    "is-setup_none": (is_setup_none, ()),
    "is-setup_some": (is_setup_some, ("p1",)),
    "is-setup_all": (is_setup_all, IS6),
    "is-day": (is_day, IS6),
    "is-acted": (is_acted, IS6),
    "is-pk_window": (is_pk_window, IS6),
    "is-deep_night": (is_deep_night, IS6),
    "is-day2": (is_day2, IS6),
    "is-paused": (is_paused, IS6),
    "is-dead": (is_dead, IS6),
    "is-replaced": (is_replaced, ("p1", "p3", "p4", "p5", "p6", OUT)),
    "is-signed_out": (is_signed_out, ("p1", "p3", "p4", "p5", "p6", OUT)),
    "is-finished": (is_finished, IS6),
    "is-undone": (is_undone, IS6),
    "toy-setup": (_toy_state("setup"), ("p1", "p2")),
    "toy-round": (_toy_state("round"), ("p1", "p2")),
    "toy-round2": (_toy_state("round2"), ("p1", "p2")),
    "toy-finished": (_toy_state("finished"), ("p1", "p2")),
}
BUILDERS: dict[str, Builder] = {name: built for name, (built, _) in STATES.items()}


def roles_of(state: str) -> list[str]:
    """Every role the matrix reads a state's pages as."""
    return ["director", *STATES[state][1], "spectator", "other-game"]

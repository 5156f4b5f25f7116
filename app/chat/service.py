"""One message to a bot, start to finish, inside the caller's transaction (never commits).

1. The update is claimed in ``chat_seen`` (unique per bot and update key): a replay finds
   the row, or loses the race on the constraint, and gets the first answer again without
   anything being done twice.
2. ``/lang``, ``/help`` and a link code need no seat. An account with no seat gets a short
   answer saying how to link, and nothing else.
3. With seats in several running games the account chooses one (``/game N``, a button,
   or ``#N`` before the orders); with one it is that one.
4. The game is locked and the command or the orders are carried out as the player.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.chat import links
from app.chat import orders as dm
from app.chat.base import Choice, Incoming
from app.chat.bots import game_chat
from app.chat.models import ChatAccountRow, ChatBotRow, ChatLinkRow, ChatSeenRow
from app.chat.signups import GROUP_FIELDS, group_signup
from app.chat.words import say
from app.models import Game, PlayerRow
from app.publish.models import ChannelRow
from app.rules.registry import get_ruleset
from app.services.auth import PlayerInfo, Principal
from app.services.games import load_game
from app.settings import Settings

ACTIVE = ("setup", "running", "paused")


@dataclass
class Answer:
    text: str
    choices: list[Choice] = field(default_factory=list)
    order_ids: list[str] = field(default_factory=list)


async def claim(session: AsyncSession, bot: ChatBotRow, key: str, now: datetime) -> int | None:
    """The id of the update's new row; None when it was acted on already."""
    dialect = session.get_bind().dialect.name
    if dialect in ("postgresql", "sqlite"):  # one statement, no savepoint
        insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
        claimed = await session.scalar(
            insert(ChatSeenRow)
            .values(bot_id=bot.id, key=key, answer=None, at=now)
            .on_conflict_do_nothing(index_elements=["bot_id", "key"])
            .returning(ChatSeenRow.id)
        )
        return claimed
    row = ChatSeenRow(bot_id=bot.id, key=key, answer=None, at=now)
    try:
        async with session.begin_nested():
            session.add(row)
            await session.flush()
    except IntegrityError:
        return None
    return row.id


async def earlier_answer(session: AsyncSession, bot: ChatBotRow, key: str) -> dict[str, Any] | None:
    found = await session.scalar(
        select(ChatSeenRow.answer).where(ChatSeenRow.bot_id == bot.id, ChatSeenRow.key == key)
    )
    return found


async def handle(
    session: AsyncSession, bot: ChatBotRow, incoming: Incoming, now: datetime
) -> Answer:
    account = await links.account_row(session, bot.id, incoming.account, now)
    lang = account.lang
    if incoming.command == "lang":
        account.lang = "en" if incoming.argument.strip().lower().startswith("en") else "zh"
        account.updated_at = now
        return Answer(say("lang_set", account.lang))
    if incoming.command == "help":
        return Answer(say("help", lang))
    if incoming.command == "link":
        return await _link(session, bot, account, incoming, now)
    signed = await group_signup(session, bot, incoming, lang, now)
    if signed is not None:  # 报名 / 退出 / 名单 in a game's group, linked or not
        return Answer(signed)
    seats = [
        s for s in await links.links_of(session, bot.id, incoming.account) if s[2].status in ACTIVE
    ]
    if not seats:
        if not incoming.private and incoming.command is None:
            return Answer("")  # a stranger chatting in a group: not a word
        return Answer(say("how_to_link", lang, how=say(f"how.{bot.kind}", lang)))
    text = incoming.text
    if incoming.command == "game":
        chosen = _pick(seats, incoming.argument)
        if chosen is None:
            return Answer(say("no_game", lang), _choices(seats))
        account.game_id, account.updated_at = chosen[2].id, now
        return Answer(say("game_chosen", lang, game=chosen[2].title, name=chosen[1].name))
    seat = None
    if text.startswith("#"):
        head, _, rest = text[1:].partition(" ")
        seat = _pick(seats, head)
        if seat is not None:
            text = rest.strip()
    if seat is None:
        seat = _current(seats, account)
    if seat is None:
        return Answer(say("which_game", lang), _choices(seats))
    link, player, unlocked = seat
    return await _act(session, unlocked, player, incoming, text, lang, now)


async def _act(
    session: AsyncSession,
    game: Game,
    player: PlayerRow,
    incoming: Incoming,
    text: str,
    lang: str,
    now: datetime,
) -> Answer:
    """Carry out the command or the orders as the player. ``game`` was loaded without a
    lock: the words are read first (CPU work, off the event loop), then the game is
    locked and everything is checked against it as it is then."""
    principal = Principal("player", player=PlayerInfo.of(player))
    settings = await game_chat(session, game.id)
    if settings is None or not settings.dm_orders:
        return Answer(say("dm_off", lang))
    command = incoming.command
    reading = await dm.read(game, principal, text) if command is None else None
    if reading is not None and not incoming.private and not reading.said_anything:
        return Answer("")  # chatter in the group
    if reading is not None and not incoming.private:
        hidden = any(not get_ruleset(game.ruleset).is_public_order(o) for o in reading.orders)
        if not hidden and not await _games_group(session, game.id, incoming.group):
            return Answer("")  # public orders count in the game's own group only
    game = await load_game(session, game.id, lock=True)
    if command == "status":
        return Answer(await dm.status(session, game, principal, lang, now))
    if command == "withdraw":
        return Answer(await dm.withdraw(session, game, principal, incoming.argument, lang, now))
    if command == "ready":
        return Answer(await dm.ready(session, game, principal, lang, now))
    if reading is None:
        return Answer(say("help", lang))
    reply, ids = await dm.submit(session, game, principal, reading, incoming.private, lang, now)
    return Answer(reply, order_ids=ids)


async def _link(
    session: AsyncSession,
    bot: ChatBotRow,
    account: ChatAccountRow,
    incoming: Incoming,
    now: datetime,
) -> Answer:
    lang = account.lang
    done = await links.redeem(session, bot, incoming.account, incoming.chat, incoming.argument, now)
    if done is None:
        return Answer(say("bad_code", lang))
    _, player, game = done
    account.game_id, account.updated_at = game.id, now
    return Answer(say("linked", lang, game=game.title, name=player.name))


Seat = tuple[ChatLinkRow, PlayerRow, Game]


async def _games_group(session: AsyncSession, game_id: str, group: str | None) -> bool:
    """Whether ``group`` is where the game posts (one of its QQ or Telegram channels)."""
    if group is None:
        return False
    rows = await session.scalars(
        select(ChannelRow).where(
            ChannelRow.game_id == game_id,
            ChannelRow.kind.in_(list(GROUP_FIELDS)),
            ChannelRow.removed_at.is_(None),
        )
    )
    return any(str(r.config.get(GROUP_FIELDS[r.kind])) == group for r in rows)


def _pick(seats: list[Seat], argument: str) -> Seat | None:
    """A seat by its number in the list (1-based) or by the start of its game's id."""
    word = argument.strip()
    if not word:
        return None
    if word.isdigit() and 1 <= int(word) <= len(seats):
        return seats[int(word) - 1]
    found = [s for s in seats if s[2].id.startswith(word)]
    return found[0] if len(found) == 1 else None


def _current(seats: list[Seat], account: ChatAccountRow) -> Seat | None:
    if len(seats) == 1:
        return seats[0]
    chosen = [s for s in seats if s[2].id == account.game_id]
    if chosen:
        return chosen[0]
    running = [s for s in seats if s[2].status == "running"]
    return running[0] if len(running) == 1 else None


def _choices(seats: list[Seat]) -> list[Choice]:
    return [
        Choice(f"#{i} {g.title}（{p.name}）", f"game:{i}") for i, (_, p, g) in enumerate(seats, 1)
    ]


async def receive(
    session: AsyncSession,
    kind: str,
    bot_id: str,
    headers: Any,
    body: bytes,
    now: datetime,
    settings: Settings | None = None,
) -> dict[str, Any]:
    """An inbound request from a platform: verified with the bot's own secret (401),
    read (422 when malformed: nothing changes), acted on once, answered in the platform's
    reply shape (``{}``: nothing to say)."""
    from app.chat.base import malformed
    from app.chat.bots import live_bot, open_config, platform

    bot = await live_bot(session, bot_id, kind)
    chosen = platform(kind)
    chosen.verify(open_config(bot, settings), headers, body)
    try:
        payload = json.loads(body)
    except ValueError:
        raise malformed("not JSON") from None
    incoming = chosen.parse(payload)
    if incoming is None:
        return {}
    if isinstance(incoming, dict):
        return incoming  # Discord's PING
    seen = await claim(session, bot, incoming.key, now)
    if seen is None:
        return await earlier_answer(session, bot, incoming.key) or {}
    answer = await handle(session, bot, incoming, now)
    out = chosen.reply(incoming, answer.text, answer.choices) if answer.text else {}
    await session.execute(update(ChatSeenRow).where(ChatSeenRow.id == seen).values(answer=out))
    return out

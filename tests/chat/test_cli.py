"""``forumplay bot add|list|remove``: the way to register a bot when no ADMIN_TOKEN is set;
the bot it registers answers its webhook, and no command prints a secret."""

from __future__ import annotations

import asyncio
import json

from click.testing import Result
from httpx import AsyncClient

from tests.chat.platforms import TG_SECRET, TG_TOKEN, TelegramUser, telegram_config
from tests.service.test_cli import cli, runner


async def forumplay(database_url: str, *args: str) -> Result:
    """The command in a thread of its own; the test's fake platforms live on hosts of their
    own names, so private addresses are allowed as for the service under test."""
    env = {"DATABASE_URL": database_url, "ADMIN_TOKEN": "", "PUBLISH_ALLOW_PRIVATE_URLS": "true"}
    return await asyncio.to_thread(runner.invoke, cli, list(args), env=env)


async def test_bot_add_list_remove_from_the_command_line(
    client: AsyncClient, database_url: str
) -> None:
    added = await forumplay(
        database_url,
        "bot",
        "add",
        "telegram",
        "团战机器人",
        "--config",
        json.dumps(telegram_config()),
    )
    assert added.exit_code == 0, added.output
    bot = json.loads(added.stdout)
    assert bot["webhook_path"] == f"/api/v1/chat/telegram/{bot['id']}"
    user = TelegramUser(client, bot["webhook_path"], user_id=6001)
    assert "/start" in await user.say("你好")  # the sealed secret opens in the service
    listed = await forumplay(database_url, "bot", "list")
    assert [b["id"] for b in json.loads(listed.stdout)] == [bot["id"]]
    for output in (added.output, listed.output):
        assert TG_TOKEN not in output and TG_SECRET not in output
    bad = await forumplay(database_url, "bot", "add", "telegram", "x", "--config", "{}")
    assert bad.exit_code == 1 and "bot_token" in bad.output
    removed = await forumplay(database_url, "bot", "remove", bot["id"])
    assert removed.exit_code == 0, removed.output
    assert json.loads((await forumplay(database_url, "bot", "list")).stdout) == []
    response = await user.post(user.update("你好"))
    assert response.status_code == 404

"""The platforms that let the bot edit its own post get an ``edit``: what each one sends
(Discord webhook messages, Telegram, Discourse; Misago is tested on the real forum in
test_undo_misago.py), and the text a withdrawn post gets in each format."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from app.publish.channels import ADAPTERS
from app.publish.channels.base import FinalError, RetryableError
from app.publish.withdraw import can_edit, withdrawn_text

CONFIGS: dict[str, dict[str, Any]] = {
    "discord": {"webhook_url": "https://discord.com/api/webhooks/1/tok-en", "thread_id": "77"},
    "telegram": {"bot_token": "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ", "chat_id": -1001},
    "discourse": {
        "base_url": "https://forum.example.org",
        "api_key": "k" * 32,
        "api_username": "bot",
        "topic_id": 5,
    },
}


def test_only_platforms_that_allow_it_can_edit() -> None:
    editable = {kind for kind in ADAPTERS if can_edit(ADAPTERS, kind)}
    assert editable == {"misago", "discourse", "discord", "telegram"}


def test_a_withdrawn_post_keeps_its_text_under_the_note() -> None:
    text = withdrawn_text("markdown", "zh", "原来的结算", "点错了", "https://f.example/p/9")
    assert text.startswith("**【已作废】导演撤销了这次结算（原因：点错了）")
    assert "[见更正](https://f.example/p/9)" in text and text.endswith("原来的结算")
    bb = withdrawn_text("bbcode", "en", "old", "oops", None)
    assert bb.startswith("[b]Withdrawn: the director undid") and bb.endswith("old")


@pytest.mark.parametrize(
    ("kind", "method", "path", "field"),
    [
        ("discord", "PATCH", "/api/webhooks/1/tok-en/messages/42", "content"),
        ("telegram", "POST", "/bot123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ/editMessageText", "text"),
        ("discourse", "PUT", "/posts/42.json", "post"),
    ],
)
async def test_each_platform_edits_the_bots_own_post(
    kind: str, method: str, path: str, field: str
) -> None:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"ok": True, "result": {}, "id": "42"})

    async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as http:
        await ADAPTERS[kind].edit("42", "【已作废】…", CONFIGS[kind], http)  # type: ignore[attr-defined]
    (request,) = seen
    assert (request.method, request.url.path) == (method, path)
    body = json.loads(request.content)
    assert "【已作废】" in json.dumps(body[field], ensure_ascii=False)
    if kind == "telegram":
        assert body["message_id"] == 42 and body["chat_id"] == -1001
    if kind == "discord":
        assert request.url.params["thread_id"] == "77"


@pytest.mark.parametrize("kind", sorted(CONFIGS))
async def test_a_refused_edit_is_final_and_a_busy_platform_retryable(kind: str) -> None:
    for status, error in ((403, FinalError), (503, RetryableError)):
        transport = httpx.MockTransport(lambda r, s=status: httpx.Response(s, json={}))
        async with httpx.AsyncClient(transport=transport) as http:
            with pytest.raises(error):
                await ADAPTERS[kind].edit("42", "x", CONFIGS[kind], http)  # type: ignore[attr-defined]

"""Channel configs: validated per kind, private addresses refused, secrets never shown."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.errors import AppError, problem
from app.publish import urls
from app.publish.channels import (
    ADAPTERS,
    REDACTED,
    FinalError,
    RetryableError,
    make_http_client,
    open_config,
    redact,
    seal_config,
    validate_config,
)
from app.settings import Settings
from tests.publish.channels.conftest import outgoing

SECRET = "whsec_" + base64.b64encode(b"0123456789abcdef0123456789abcdef").decode()
VALID: dict[str, dict[str, Any]] = {
    "webhook": {"url": "https://hooks.example.org/in", "secret": SECRET},
    "misago": {
        "base_url": "https://bbs.example.org",
        "username": "bot",
        "password": "misago-password-5d1e",
        "category_id": 3,
    },
    "discourse": {
        "base_url": "https://forum.example.org",
        "api_key": "discourse-key-7f3a",
        "api_username": "bot",
        "topic_id": 4,
    },
    "discord": {"webhook_url": "https://discord.com/api/webhooks/1/tok-en"},
    "telegram": {"bot_token": "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ", "chat_id": -1001},
    "onebot": {
        "base_url": "https://qq.example.org:5700",
        "access_token": "onebot-token-91c2",
        "group_id": 10001,
    },
    "manual": {},
}
PUBLIC = {
    "hooks.example.org",
    "bbs.example.org",
    "forum.example.org",
    "discord.com",
    "api.telegram.org",
    "qq.example.org",
}


@pytest.fixture(autouse=True)
def dns(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """No DNS here: names resolve from this table (public names to a public address)."""
    table = {name: ["93.184.215.14"] for name in PUBLIC}

    def resolve(host: str, port: int) -> list[str]:
        if host not in table:
            raise OSError("Name or service not known")
        return table[host]

    monkeypatch.setattr(urls, "resolve_host", resolve)
    return table


@pytest.mark.parametrize("kind", sorted(VALID))
def test_a_valid_config_is_accepted_for_every_kind(kind: str) -> None:
    stored = validate_config(kind, VALID[kind], allow_private_urls=False)
    for key, value in VALID[kind].items():
        assert stored[key] == value


def test_defaults_are_filled_in() -> None:
    assert (
        validate_config("telegram", VALID["telegram"], False)["api_base"]
        == "https://api.telegram.org"
    )


def zh_and_en(error: AppError) -> tuple[dict[str, Any], dict[str, Any]]:
    return problem(error, english=False), problem(error, english=True)


@pytest.mark.parametrize(
    ("kind", "config", "field"),
    [
        ("webhook", {**VALID["webhook"], "extra": 1}, "extra"),
        ("webhook", {**VALID["webhook"], "secret": "not-whsec"}, "secret"),
        ("webhook", {**VALID["webhook"], "url": "ftp://hooks.example.org"}, "url"),
        ("webhook", {**VALID["webhook"], "url": "https://user:pw@hooks.example.org"}, "url"),
        ("misago", {k: v for k, v in VALID["misago"].items() if k != "category_id"}, "config"),
        ("discord", {"webhook_url": "https://discord.com/channels/1/2"}, "webhook_url"),
        ("telegram", {**VALID["telegram"], "bot_token": "nope"}, "bot_token"),
        ("telegram", {**VALID["telegram"], "chat_id": "no spaces"}, "chat_id"),
        ("onebot", {**VALID["onebot"], "group_id": -5}, "group_id"),
        ("manual", {"url": "https://x"}, "url"),
    ],
)
def test_a_bad_config_is_a_422_naming_the_field(
    kind: str, config: dict[str, Any], field: str
) -> None:
    with pytest.raises(AppError) as raised:
        validate_config(kind, config, allow_private_urls=True)
    zh, en = zh_and_en(raised.value)
    assert zh["status"] == 422 and zh["code"] == "bad_channel_config"
    assert "配置有误" in zh["detail"] and "invalid" in en["detail"]
    assert field in [error["field"] for error in zh["errors"]]


def test_an_unknown_kind_is_a_422() -> None:
    with pytest.raises(AppError) as raised:
        validate_config("myspace", {}, allow_private_urls=True)
    assert raised.value.status == 422 and raised.value.code == "unknown_channel_kind"


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://localhost/hook",
        "http://10.1.2.3/hook",
        "http://192.168.1.20/hook",
        "http://172.20.0.5/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]:8080/",
        "http://[::ffff:127.0.0.1]/",
        "http://[fe80::1]/",
        "http://100.64.0.1/",
        "http://0.0.0.0/",
    ],
)
def test_private_and_loopback_addresses_are_refused(url: str, dns: dict[str, list[str]]) -> None:
    dns["localhost"] = ["127.0.0.1", "::1"]
    with pytest.raises(AppError) as raised:
        validate_config("webhook", {**VALID["webhook"], "url": url}, allow_private_urls=False)
    zh, en = zh_and_en(raised.value)
    assert zh["status"] == 422 and zh["code"] == "private_url" and zh["field"] == "url"
    assert zh["detail"].startswith("频道地址") and "PUBLISH_ALLOW_PRIVATE_URLS" in zh["detail"]
    assert "private" in en["detail"]


def test_a_public_name_that_resolves_to_a_private_address_is_refused(
    dns: dict[str, list[str]],
) -> None:
    dns["intranet.example.org"] = ["93.184.215.14", "10.0.0.7"]  # one private answer is enough
    with pytest.raises(AppError) as raised:
        validate_config(
            "misago", {**VALID["misago"], "base_url": "https://intranet.example.org"}, False
        )
    assert raised.value.code == "private_url" and "10.0.0.7" in raised.value.message_en


def test_a_name_that_does_not_resolve_is_refused() -> None:
    with pytest.raises(AppError) as raised:
        validate_config(
            "discourse", {**VALID["discourse"], "base_url": "https://no-such.example.org"}, False
        )
    assert raised.value.code == "unresolvable_url"
    assert raised.value.message_zh.startswith("无法解析")


def test_private_urls_are_allowed_when_the_setting_says_so() -> None:
    config = {**VALID["onebot"], "base_url": "http://127.0.0.1:5700"}
    assert (
        validate_config("onebot", config, allow_private_urls=True)["base_url"] == config["base_url"]
    )


def test_the_telegram_api_base_is_guarded_too() -> None:
    with pytest.raises(AppError, match="private"):
        validate_config(
            "telegram", {**VALID["telegram"], "api_base": "http://127.0.0.1:8081"}, False
        )


@pytest.mark.parametrize("kind", sorted(VALID))
def test_redact_never_shows_a_secret(kind: str) -> None:
    shown = redact(kind, validate_config(kind, VALID[kind], False))
    for name in ADAPTERS[kind].secret_fields:
        if name in VALID[kind]:
            assert shown[name] == REDACTED
            assert VALID[kind][name] not in json.dumps(shown)


@pytest.mark.parametrize("kind", sorted(VALID))
def test_sealed_configs_hold_no_secret_in_clear_and_open_back(kind: str, tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/forumplay.db")
    config = validate_config(kind, VALID[kind], False)
    sealed = seal_config(kind, config, settings)
    for name in ADAPTERS[kind].secret_fields:
        if name in config:
            assert config[name] not in json.dumps(sealed)
    assert open_config(kind, sealed, settings) == config


# --- the shared HTTP client ------------------------------------------------------------


async def test_the_worker_client_refuses_a_host_that_now_resolves_privately(
    dns: dict[str, list[str]],
) -> None:
    sent: list[httpx.Request] = []
    transport = httpx.MockTransport(lambda request: sent.append(request) or httpx.Response(200))
    config = validate_config("webhook", VALID["webhook"], allow_private_urls=False)
    dns["hooks.example.org"] = ["127.0.0.1"]  # DNS changed after the channel was checked
    async with make_http_client(allow_private_urls=False, transport=transport) as http:
        with pytest.raises(FinalError, match="private address"):
            await ADAPTERS["webhook"].send(outgoing(), config, http)
    assert sent == []  # nothing left the machine


async def test_the_worker_client_retries_when_dns_fails(dns: dict[str, list[str]]) -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(200))
    del dns["hooks.example.org"]
    async with make_http_client(allow_private_urls=False, transport=transport) as http:
        with pytest.raises(RetryableError, match="resolve"):
            await ADAPTERS["webhook"].send(outgoing(), VALID["webhook"], http)


async def test_the_worker_client_sends_to_public_hosts_and_keeps_no_cookies() -> None:
    transport = httpx.MockTransport(
        lambda request: httpx.Response(200, headers={"Set-Cookie": "sessionid=abc; Path=/"})
    )
    async with make_http_client(allow_private_urls=False, transport=transport) as http:
        await ADAPTERS["webhook"].send(outgoing(), VALID["webhook"], http)
        assert len(http.cookies.jar) == 0  # one channel's session never rides along to another


@pytest.mark.parametrize(
    ("kind", "field", "value"),
    [
        ("telegram", "bot_token", "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ\n"),
        ("telegram", "chat_id", "@chibi_game\n"),
        ("discord", "webhook_url", "https://discord.com/api/webhooks/1/tok-en\n"),
    ],
)
def test_a_trailing_line_break_cannot_slip_into_a_request(
    kind: str, field: str, value: str
) -> None:
    with pytest.raises(AppError) as raised:
        validate_config(kind, {**VALID[kind], field: value}, allow_private_urls=True)
    assert field in [error["field"] for error in raised.value.extra["errors"]]

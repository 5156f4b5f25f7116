"""Channel secrets at rest: Fernet with SECRET_KEY, or a key file the embedded default makes."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from cryptography.fernet import Fernet

from app.publish import secrets
from app.settings import Settings


def sqlite_settings(folder: Path, secret_key: str | None = None) -> Settings:
    return Settings(
        database_url=f"sqlite+aiosqlite:///{folder}/forumplay.db", secret_key=secret_key
    )


def test_a_passphrase_encrypts_and_decrypts(tmp_path: Path) -> None:
    settings = sqlite_settings(tmp_path, "correct horse battery staple")
    token = secrets.encrypt("bot-token-123", settings)
    assert "bot-token-123" not in token
    assert secrets.decrypt(token, settings) == "bot-token-123"
    assert not (tmp_path / secrets.KEY_FILE_NAME).exists()  # a set key needs no file


def test_a_fernet_key_is_used_as_it_is(tmp_path: Path) -> None:
    key = Fernet.generate_key().decode()
    token = secrets.encrypt("s3cret", sqlite_settings(tmp_path, key))
    assert Fernet(key.encode()).decrypt(token.encode()) == b"s3cret"


def test_another_key_cannot_read_it_and_says_why(tmp_path: Path) -> None:
    token = secrets.encrypt("s3cret", sqlite_settings(tmp_path, "key one"))
    with pytest.raises(secrets.SecretError, match="SECRET_KEY"):
        secrets.decrypt(token, sqlite_settings(tmp_path, "key two"))


def test_unset_the_key_file_is_made_beside_the_database_private_and_reused(tmp_path: Path) -> None:
    token = secrets.encrypt("api-key-xyz", sqlite_settings(tmp_path))
    key_file = tmp_path / secrets.KEY_FILE_NAME
    assert key_file.exists()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    secrets._fernet.cache_clear()  # as after a restart
    assert secrets.decrypt(token, sqlite_settings(tmp_path)) == "api-key-xyz"
    # a service with another data folder has another key
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(secrets.SecretError):
        secrets.decrypt(token, sqlite_settings(other))

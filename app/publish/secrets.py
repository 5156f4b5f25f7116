"""Channel secrets at rest: Fernet (AES-128-CBC + HMAC-SHA256) with a key from settings.

``SECRET_KEY`` may be a Fernet key (32 url-safe base64 bytes) or any passphrase; a
passphrase is stretched with scrypt, so a short one is still costly to guess. When it is
unset — the embedded default — a random key is created once in a file next to the SQLite
database (mode 0600) and reused, so a restart can still read what was stored. Replicas
that share a PostgreSQL database must share one ``SECRET_KEY``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from functools import lru_cache
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken
from sqlalchemy.engine import make_url

from app.settings import Settings, get_settings

KEY_FILE_NAME = "forumplay-secret.key"
_SCRYPT_SALT = b"forumplay channel secrets v1"


class SecretError(Exception):
    """A stored secret cannot be read with this key (the key changed, or the data)."""


def fernet_key(secret_key: str) -> bytes:
    """The Fernet key for a ``SECRET_KEY`` value: itself if it is one, else derived."""
    candidate = secret_key.strip().encode()
    try:
        if len(base64.urlsafe_b64decode(candidate)) == 32 and len(candidate) == 44:
            return candidate
    except (binascii.Error, ValueError):
        pass
    derived = hashlib.scrypt(secret_key.encode(), salt=_SCRYPT_SALT, n=2**14, r=8, p=1, dklen=32)
    return base64.urlsafe_b64encode(derived)


def key_file(database_url: str) -> Path:
    """Where the embedded default keeps its key: beside the SQLite file, else ./data."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        return Path(url.database).resolve().parent / KEY_FILE_NAME
    return Path("data").resolve() / KEY_FILE_NAME


def load_or_create_key_file(path: Path) -> bytes:
    """Read the key file, or create it (0600) with a new random key; a race between two
    processes creating it at once ends with both using the file that won."""
    try:
        return path.read_bytes().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = Fernet.generate_key()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_bytes().strip()
    with os.fdopen(fd, "wb") as handle:
        handle.write(key + b"\n")
    return key


@lru_cache(maxsize=8)
def _fernet(secret_key: str | None, database_url: str) -> Fernet:
    if secret_key:
        return Fernet(fernet_key(secret_key))
    return Fernet(load_or_create_key_file(key_file(database_url)))


def cipher(settings: Settings | None = None) -> Fernet:
    settings = settings or get_settings()
    return _fernet(settings.secret_key, settings.database_url)


def encrypt(text: str, settings: Settings | None = None) -> str:
    return cipher(settings).encrypt(text.encode()).decode("ascii")


def decrypt(token: str, settings: Settings | None = None) -> str:
    try:
        return cipher(settings).decrypt(token.encode("ascii")).decode()
    except (InvalidToken, UnicodeError) as error:
        raise SecretError(
            "a stored channel secret cannot be decrypted: SECRET_KEY is not the key it "
            "was stored with (set the old key again, or re-create the channel)"
        ) from error

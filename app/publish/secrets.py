"""STAND-IN until i8-channels' Fernet module lands on main (same interface)."""

from __future__ import annotations

import base64

from app.settings import Settings


def encrypt(text: str, settings: Settings | None = None) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode()


def decrypt(token: str, settings: Settings | None = None) -> str:
    return base64.urlsafe_b64decode(token.encode()).decode()

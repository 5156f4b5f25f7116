"""STAND-IN until i8-channels' Fernet module lands on main (same interface)."""

from __future__ import annotations

import base64


def encrypt(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode()


def decrypt(token: str) -> str:
    return base64.urlsafe_b64decode(token.encode()).decode()

"""The channels' credentials, encrypted at rest with Fernet (pyca/cryptography: AES-128-CBC and
HMAC-SHA256) under a key derived from SECRET_KEY; SECRET_KEY_FALLBACKS still decrypt, so a key
rotation does not cut the channels off (MultiFernet encrypts with the first key)."""

from __future__ import annotations

import base64
import hashlib
import json

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings


def _key(secret: str) -> Fernet:
    # A key of its own for this use: SECRET_KEY itself never becomes a Fernet key elsewhere.
    digest = hashlib.sha256(("monopoly.chats.credentials:" + secret).encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def _fernet() -> MultiFernet:
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return MultiFernet([_key(k) for k in keys])


def seal(credentials: dict) -> str:
    return _fernet().encrypt(json.dumps(credentials, sort_keys=True).encode()).decode()


def unseal(token: str) -> dict:
    """The credentials, or {} when they cannot be read (the keys changed without a fallback)."""
    try:
        return json.loads(_fernet().decrypt(token.encode()))
    except (InvalidToken, ValueError):
        return {}

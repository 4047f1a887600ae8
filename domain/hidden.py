"""Hidden information (DESIGN.md): commitments to private values, and who may see a private event.

A private fact is recorded twice over: its owner's private event holds the value (and a salt), while
the public log, like the hash chain, sees only the sealed form (owner + sha256 of the whole event, see
`domain.events.public_form`). A rule that must later prove the value publishes a commitment,
sha256(canonical([value, salt])), and a reveal carries value and salt, which anyone can check here.
"""

from __future__ import annotations

import hashlib
from typing import Any

from domain.actions import HOST
from domain.events import canonical_bytes, is_private, seal

PUBLIC = ""  # the viewer who sees only public facts


def commit(value: Any, salt: bytes) -> bytes:
    """Returns the public commitment to a private value: sha256 of canonical msgpack [value, salt]."""
    return hashlib.sha256(canonical_bytes([value, salt])).digest()


def reveal_matches(commitment: bytes, value: Any, salt: bytes) -> bool:
    """Tells whether a revealed value and salt are the ones committed to."""
    return commit(value, salt) == commitment


def sees(viewer: str, type_name: str, fields: dict[str, Any]) -> bool:
    """Tells whether `viewer` (a player, HOST, or PUBLIC) may see an event's fields."""
    return viewer == HOST or not is_private(type_name) or (bool(viewer) and fields.get("owner") == viewer)


def fields_for(viewer: str, type_name: str, version: int, fields: dict[str, Any]) -> dict[str, Any]:
    """Returns the fields as `viewer` may see them: as recorded, or sealed."""
    return fields if sees(viewer, type_name, fields) else seal(type_name, version, fields)

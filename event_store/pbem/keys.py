"""A person's Ed25519 key pairs for play by e-mail, kept owner-only in the user's config directory.

Each key is two files in the key directory (`NIGHTKEEP_KEYS` overrides the default, which is
`keys/` in the platform's config directory for nightkeep): `NAME.key`, the private key as unencrypted
PKCS#8 PEM, mode 0600, in a directory of mode 0700; and `NAME.pub`, its one-line public text. The
public text is `nightkeep-ed25519 BASE64 NAME`, which `--key NAME=...` takes as it is (or just BASE64).
"""

from __future__ import annotations

import base64
import binascii
import os
import re
from dataclasses import dataclass
from pathlib import Path

import platformdirs
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.errors import UsageError
from domain.signing import KEY_BYTES, fingerprint

KEYS_ENV = "NIGHTKEEP_KEYS"
PREFIX = "nightkeep-ed25519"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def key_dir() -> Path:
    """Returns the directory keys live in."""
    chosen = os.environ.get(KEYS_ENV)
    if chosen:
        try:
            return Path(chosen).expanduser()
        except RuntimeError:  # `~nobody/keys`: pathlib cannot find that user's home
            raise UsageError(f"{KEYS_ENV}={chosen}: no such user's home directory") from None
    return Path(platformdirs.user_config_dir("nightkeep", appauthor=False)) / "keys"


@dataclass(frozen=True)
class KeyPair:
    """One of this user's keys: its name, the private key, and the public key's raw bytes."""

    name: str
    private: Ed25519PrivateKey

    @property
    def public(self) -> bytes:
        """Returns the raw 32-byte public key."""
        return self.private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )

    @property
    def public_text(self) -> str:
        """Returns the public key as one line of text to send to a host or to other players."""
        return public_text(self.public, self.name)

    def sign(self, message: bytes) -> bytes:
        """Signs a message with the private key."""
        return self.private.sign(message)


def public_text(key: bytes, name: str = "") -> str:
    """Returns a public key as its one-line text."""
    encoded = base64.b64encode(key).decode()
    return f"{PREFIX} {encoded} {name}".rstrip()


def parse_public(text: str) -> bytes:
    """Reads a public key from its one-line text (or its base64 alone); UsageError if it is not one."""
    parts = text.strip().split()
    if parts and parts[0] == PREFIX:
        parts = parts[1:]
    if not parts:
        raise UsageError("an empty public key (nightkeep key export NAME prints one)")
    try:
        key = base64.b64decode(parts[0], validate=True)
    except (binascii.Error, ValueError):
        raise UsageError(
            f"{parts[0][:40]!r} is not a public key (nightkeep key export NAME prints one)"
        ) from None
    if len(key) != KEY_BYTES:
        raise UsageError(f"a public key is {KEY_BYTES} bytes, this one is {len(key)}")
    return key


def _check_name(name: str) -> None:
    if not NAME.match(name):
        raise UsageError(f"key name {name[:40]!r}: use 1-64 letters, digits, '.', '_' or '-'")


def new_key(name: str, directory: Path | None = None) -> KeyPair:
    """Makes and stores a new key pair; refuses a name already taken."""
    _check_name(name)
    folder = directory or key_dir()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(folder, 0o700)
    pair = KeyPair(name, Ed25519PrivateKey.generate())
    pem = pair.private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    try:
        # O_EXCL: two makers of the same name cannot both think they made it.
        fd = os.open(folder / f"{name}.key", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise UsageError(f"there is already a key named {name!r} (nightkeep key list)") from None
    with os.fdopen(fd, "wb") as out:
        out.write(pem)
    (folder / f"{name}.pub").write_text(pair.public_text + "\n")
    return pair


def load_key(name: str, directory: Path | None = None) -> KeyPair:
    """Loads one of this user's key pairs by name."""
    _check_name(name)
    path = (directory or key_dir()) / f"{name}.key"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"no key named {name!r} (nightkeep key new {name} makes one)") from None
    try:
        private = serialization.load_pem_private_key(data, password=None)
    except ValueError:
        raise UsageError(f"the key file {path.name} is not a readable private key") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise UsageError(f"the key file {path.name} is not an Ed25519 key")
    return KeyPair(name, private)


def list_keys(directory: Path | None = None) -> list[KeyPair]:
    """Returns every key pair in the key directory, by name."""
    folder = directory or key_dir()
    if not folder.is_dir():
        return []
    return [load_key(p.stem, folder) for p in sorted(folder.glob("*.key"))]


def key_with_public(public: bytes, directory: Path | None = None) -> KeyPair | None:
    """Returns this user's key pair whose public key is `public`, if any."""
    return next((pair for pair in list_keys(directory) if pair.public == public), None)


__all__ = ["KeyPair", "fingerprint", "key_dir", "key_with_public", "list_keys", "load_key", "new_key"]

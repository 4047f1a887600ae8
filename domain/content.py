"""Loads TOML content (boards, decks, characters) that lives next to its ruleset, validated once.

Content files ship inside the package (`domain/rulesets/<ruleset>/<file>.toml`). A group that owns the
printed components can set `NIGHTKEEP_CONTENT_DIR`; a file `$NIGHTKEEP_CONTENT_DIR/<ruleset>/<file>`
then replaces the shipped one. Parsed files and the frozen dataclasses built from them are cached on
the resolved path and its size and modification time, so pointing the variable elsewhere reloads.
Every validation error is one line naming the file and the key, e.g.
`board.toml: spaces[6].draws: expected an integer, got 'x'`.
"""

from __future__ import annotations

import copy
import hashlib
import os
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from domain.errors import ContentError

ENV_VAR = "NIGHTKEEP_CONTENT_DIR"
T = TypeVar("T")
_MISSING: Any = object()


def content_path(ruleset_dir_name: str, filename: str) -> Path:
    """Returns the file a ruleset's content is read from: the override if present, else the shipped one."""
    override = os.environ.get(ENV_VAR)
    if override:
        return _override_path(override, ruleset_dir_name, filename)
    return _shipped_path(ruleset_dir_name, filename)


@lru_cache(maxsize=64)
def _override_path(override: str, ruleset_dir_name: str, filename: str) -> Path:
    # Content is fixed for a process once loaded: the override folder is looked at once per file.
    candidate = Path(override) / ruleset_dir_name / filename
    if candidate.is_file():
        return candidate.resolve()
    return _shipped_path(ruleset_dir_name, filename)


@lru_cache(maxsize=64)
def _shipped_path(ruleset_dir_name: str, filename: str) -> Path:
    # Resolving a package path costs dozens of stat calls; the shipped files never move.
    shipped = resources.files("domain.rulesets") / ruleset_dir_name / filename
    return Path(str(shipped)).resolve()


def _stamp(path: Path) -> tuple[int, int]:
    try:
        info = path.stat()
    except OSError:
        raise ContentError(f"{path.name}: file not found ({path})") from None
    return info.st_mtime_ns, info.st_size


@lru_cache(maxsize=64)
def _parse(path: str, stamp: tuple[int, int]) -> dict[str, Any]:
    name = Path(path).name
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{name}: malformed TOML: {exc}") from None
    except OSError as exc:
        raise ContentError(f"{name}: cannot be read: {exc.strerror}") from None


def load_content(ruleset_dir_name: str, filename: str) -> dict[str, Any]:
    """Returns the parsed TOML of one content file as a fresh dict (the cache stays untouched)."""
    path = content_path(ruleset_dir_name, filename)
    return copy.deepcopy(_parse(str(path), _stamp(path)))


@lru_cache(maxsize=64)
def _build(path: str, build: Callable[[dict[str, Any], str], Any]) -> Any:
    return build(_parse(path, _stamp(Path(path))), Path(path).name)


def load_model(ruleset_dir_name: str, filename: str, build: Callable[[dict[str, Any], str], T]) -> T:
    """Returns the frozen model `build(data, filename)` makes of a content file.

    Content is loaded and validated once per process and file: rules ask for it on every action, and
    an audit re-decides thousands of actions, so the file is not re-checked on disk each time.
    """
    path = content_path(ruleset_dir_name, filename)
    result: T = _build(str(path), build)
    return result


def content_hash(paths: Iterable[Path]) -> str:
    """Returns the sha256 hex over each file's name (`<dir>/<file>`) and bytes, in sorted name order."""
    named = sorted((f"{p.parent.name}/{p.name}", p) for p in paths)
    digest = hashlib.sha256()
    for name, path in named:
        digest.update(name.encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            raise ContentError(f"{path.name}: file not found ({path})") from None
        digest.update(b"\0")
    return digest.hexdigest()


def _kind(value: Any) -> str:
    return repr(value) if isinstance(value, str | int | float | bool) else type(value).__name__


class Section:
    """One table of a content file under validation; every error names the file and the key path."""

    def __init__(self, data: Any, filename: str, path: str = "") -> None:
        self.filename = filename
        self.path = path
        if not isinstance(data, Mapping):
            self.fail("", f"expected a table, got {_kind(data)}")
        self.data: Mapping[str, Any] = data

    def where(self, key: str) -> str:
        """Returns the dotted key path of `key` inside this table."""
        if not key:
            return self.path or "(top level)"
        return f"{self.path}.{key}" if self.path else key

    def fail(self, key: str, message: str) -> NoReturn:
        """Raises a ContentError naming the file and the key."""
        raise ContentError(f"{self.filename}: {self.where(key)}: {message}")

    def _get(self, key: str, default: Any) -> Any:
        if key in self.data:
            return self.data[key]
        if default is _MISSING:
            self.fail(key, "missing")
        return default

    def check_keys(self, allowed: Iterable[str]) -> None:
        """Fails on the first key this table should not have (usually a typo)."""
        known = set(allowed)
        for key in self.data:
            if key not in known:
                self.fail(key, "unknown key")

    def integer(
        self, key: str, default: Any = _MISSING, low: int | None = None, high: int | None = None
    ) -> int:
        """Returns an integer value, checked against the optional bounds."""
        value = self._get(key, default)
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(key, f"expected an integer, got {_kind(value)}")
        if low is not None and value < low:
            self.fail(key, f"expected at least {low}, got {value}")
        if high is not None and value > high:
            self.fail(key, f"expected at most {high}, got {value}")
        return value

    def text(self, key: str, default: Any = _MISSING, choices: Sequence[str] = ()) -> str:
        """Returns a non-empty string value, optionally one of `choices`."""
        value = self._get(key, default)
        if not isinstance(value, str) or not value.strip():
            self.fail(key, f"expected a non-empty string, got {_kind(value)}")
        if choices and value not in choices:
            self.fail(key, f"expected one of {', '.join(choices)}, got {value!r}")
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        """Returns a boolean value."""
        value = self._get(key, default)
        if not isinstance(value, bool):
            self.fail(key, f"expected true or false, got {_kind(value)}")
        return value

    def integers(self, key: str, low: int | None = None, high: int | None = None) -> list[int]:
        """Returns a non-empty list of integers within the optional bounds."""
        value = self._get(key, _MISSING)
        if not isinstance(value, list) or not value:
            self.fail(key, f"expected a non-empty list of integers, got {_kind(value)}")
        for i, item in enumerate(value):
            where = f"{key}[{i}]"
            if not isinstance(item, int) or isinstance(item, bool):
                self.fail(where, f"expected an integer, got {_kind(item)}")
            if (low is not None and item < low) or (high is not None and item > high):
                self.fail(where, f"expected {low}-{high}, got {item}")
        return list(value)

    def tables(self, key: str, default: Any = _MISSING) -> list[Section]:
        """Returns an array of tables as Sections named `key[i]`."""
        value = self._get(key, default)
        if not isinstance(value, list):
            self.fail(key, f"expected an array of tables, got {_kind(value)}")
        return [Section(item, self.filename, f"{self.where(key)}[{i}]") for i, item in enumerate(value)]


def unique_ids(sections: Sequence[Section], key: str = "id", prefix: str = "") -> list[str]:
    """Returns the `key` of every section, failing on a duplicate or a missing `prefix`."""
    seen: set[str] = set()
    ids: list[str] = []
    for section in sections:
        value = section.text(key)
        if prefix and not value.startswith(prefix):
            section.fail(key, f"expected an id starting with {prefix!r}, got {value!r}")
        if value in seen:
            section.fail(key, f"duplicate id {value!r}")
        seen.add(value)
        ids.append(value)
    return ids

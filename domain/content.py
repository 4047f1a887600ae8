"""Loads TOML content (boards, decks, characters) that lives next to its ruleset, validated once.

Content files ship inside the package (`domain/rulesets/<ruleset>/<file>.toml`). A group that owns the
printed components can set `NIGHTKEEP_CONTENT_DIR`; a file `$NIGHTKEEP_CONTENT_DIR/<ruleset>/<file>`
then replaces the shipped one. The folder must exist, every `.toml` in it must be a content file a
ruleset reads (a misspelt name is an error, not silently the shipped file), and a ruleset played with
it must find at least one of its files there. Each file is read once per process (by resolved
path): its hash, its parsed TOML and the frozen dataclasses built from it all come from those
bytes, so the content a game records is the content it is played with; pointing the variable
elsewhere reads the other files.
Every validation error is one line naming the file and the key, e.g.
`board.toml: spaces[6].draws: expected an integer, got 'x'`.
"""

from __future__ import annotations

import copy
import hashlib
import os
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from domain.errors import ContentError
from domain.suggest import did_you_mean

ENV_VAR = "NIGHTKEEP_CONTENT_DIR"
T = TypeVar("T")
_MISSING: Any = object()


def content_path(ruleset_dir_name: str, filename: str) -> Path:
    """Returns the file a ruleset's content is read from: the override if present, else the shipped one."""
    override = os.environ.get(ENV_VAR)
    if override:
        _check_override(override)
        return _override_path(override, ruleset_dir_name, filename)
    return _shipped_path(ruleset_dir_name, filename)


@lru_cache(maxsize=1)
def _shipped_layout() -> dict[str, frozenset[str]]:
    # {folder: its content files}: what an override folder may hold, named as the shipped files are.
    root = resources.files("domain.rulesets")
    return {
        folder.name: frozenset(f.name for f in folder.iterdir() if f.name.endswith(".toml"))
        for folder in root.iterdir()
        if folder.is_dir() and any(f.name.endswith(".toml") for f in folder.iterdir())
    }


@lru_cache(maxsize=8)
def _check_override(override: str) -> None:
    # A mistyped folder or file name would otherwise play the shipped content without a word.
    root = Path(override)
    if not root.is_dir():
        problem = "is not a directory" if root.exists() else "does not exist"
        raise ContentError(f"{ENV_VAR}={override} {problem}")
    layout = _shipped_layout()
    for folder in sorted(root.iterdir()):
        files = sorted(f.name for f in folder.glob("*.toml")) if folder.is_dir() else []
        if files and folder.name not in layout:
            hint = did_you_mean(folder.name, layout)
            known = ", ".join(sorted(layout))
            raise ContentError(f"{ENV_VAR}: {folder.name}/ is no content folder (folders: {known}){hint}")
        for name in files:
            if name not in layout[folder.name]:
                hint = did_you_mean(name, layout[folder.name])
                known = ", ".join(sorted(layout[folder.name]))
                raise ContentError(f"{ENV_VAR}: {folder.name}/{name} is no content file ({known}){hint}")


def _check_override_used(paths: list[Path]) -> None:
    # A content folder that replaces none of a ruleset's files is surely not the one meant.
    override = os.environ.get(ENV_VAR)
    if not override:
        return
    root = Path(override).resolve()
    if not any(path.is_relative_to(root) for path in paths):
        names = ", ".join(f"{p.parent.name}/{p.name}" for p in paths)
        raise ContentError(f"{ENV_VAR}={override} holds none of this ruleset's files ({names})")


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


@lru_cache(maxsize=64)
def _read(path: str) -> bytes:
    # The bytes a process plays with are read once: the content hash and the parsed models both come
    # from them, so a file edited while a process runs cannot make a game's hash lie about its rules.
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise ContentError(f"{Path(path).name}: cannot be read ({exc.strerror or exc}: {path})") from None


@lru_cache(maxsize=64)
def _parse(path: str) -> dict[str, Any]:
    try:
        return tomllib.loads(_read(path).decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ContentError(f"{Path(path).name}: malformed TOML: {exc}") from None


def load_content(ruleset_dir_name: str, filename: str) -> dict[str, Any]:
    """Returns the parsed TOML of one content file as a fresh dict (the cache stays untouched)."""
    path = content_path(ruleset_dir_name, filename)
    return copy.deepcopy(_parse(str(path)))


@lru_cache(maxsize=64)
def _build(path: str, build: Callable[[dict[str, Any], str], Any]) -> Any:
    return build(_parse(path), Path(path).name)


# The models asked for, by (folder, file, builder, override folder in force): the rules ask on every
# action, and one dict lookup is several times cheaper than the path and build caches behind it.
_MODELS: dict[tuple[str, str, Any, str | None], Any] = {}


# The override folder read once by `override_pinned`, innermost last.
_PINNED: list[str | None] = []


@contextmanager
def override_pinned() -> Iterator[None]:
    """Reads the content folder override once for a run of rules that does not change it (an audit
    asks for a model thousands of times, and reading os.environ is most of a cached lookup)."""
    _PINNED.append(os.environ.get(ENV_VAR))
    try:
        yield
    finally:
        _PINNED.pop()


def load_model(ruleset_dir_name: str, filename: str, build: Callable[[dict[str, Any], str], T]) -> T:
    """Returns the frozen model `build(data, filename)` makes of a content file.

    Content is loaded and validated once per process and file: rules ask for it on every action, and
    an audit re-decides thousands of actions, so the file is not re-checked on disk each time.
    """
    key = (ruleset_dir_name, filename, build, _PINNED[-1] if _PINNED else os.environ.get(ENV_VAR))
    model = _MODELS.get(key)
    if model is None:
        model = _MODELS[key] = _build(str(content_path(ruleset_dir_name, filename)), build)
    result: T = model
    return result


def content_hash(paths: Iterable[Path]) -> str:
    """Returns the sha256 hex over each file's name (`<dir>/<file>`) and bytes, in sorted name order.

    The bytes are the ones this process plays with (read once, like the parsed content)."""
    listed = list(paths)
    _check_override_used(listed)
    named = sorted((f"{p.parent.name}/{p.name}", p) for p in listed)
    digest = hashlib.sha256()
    for name, path in named:
        digest.update(name.encode() + b"\0")
        digest.update(_read(str(path)))
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


# Content declared as schemas: a file's shape is a `msgspec.Struct` (frozen, unknown keys refused), so
# what a loader writes by hand is only what a schema cannot say (cross references, orders, counts).
S = TypeVar("S")


def _path_of(where: str) -> str:
    # msgspec says `$.spaces[6].draws`; content errors say `spaces[6].draws`.
    return where.strip("`").removeprefix("$").removeprefix(".")


def convert_content(data: Any, schema: type[S], filename: str) -> S:
    """Returns `data` (parsed TOML) as the schema's frozen structs, or raises a ContentError that
    names the file and the key, e.g. `board.toml: spaces[6].draws: expected `int`, got `str``."""
    import msgspec  # imported with the first content file read: a bare CLI start never pays for it

    try:
        return msgspec.convert(data, type=schema, strict=True)
    except msgspec.ValidationError as exc:
        message, _, where = str(exc).partition(" - at ")
        key = _path_of(where)
        detail = message[:1].lower() + message[1:]
        raise ContentError(f"{filename}: {key}: {detail}" if key else f"{filename}: {detail}") from None


def load_schema(
    ruleset_dir_name: str,
    filename: str,
    schema: type[S],
    check: Callable[[S, str], S] | None = None,
) -> S:
    """Returns a content file converted to `schema` (and passed through `check(model, filename)`, which
    raises ContentError for what the schema cannot say), loaded once per process like `load_model`."""
    builder: Callable[[dict[str, Any], str], S] = _schema_builder(schema, check)  # type: ignore[arg-type]
    return load_model(ruleset_dir_name, filename, builder)


@lru_cache(maxsize=64)
def _schema_builder(
    schema: type[S], check: Callable[[S, str], S] | None
) -> Callable[[dict[str, Any], str], S]:
    # One builder per (schema, check): load_model caches by builder, so the same pair must give the same one.
    def build(data: dict[str, Any], filename: str) -> S:
        model = convert_content(data, schema, filename)
        return check(model, filename) if check is not None else model

    return build

"""Loads TOML content (boards, decks, characters) that lives next to its ruleset, validated once.

Content files ship inside the package (`domain/rulesets/<ruleset>/<file>.toml`). A group that owns the
printed components can set `NIGHTKEEP_CONTENT_DIR`; a file `$NIGHTKEEP_CONTENT_DIR/<ruleset>/<file>`
then replaces the shipped one. The folder must exist, every `.toml` in it must be a content file a
ruleset reads (a misspelt name is an error, not silently the shipped file), and a ruleset played with
it must find at least one of its files there. Each file is read once per process (by resolved
path): its hash, its parsed TOML and the frozen models built from it all come from those
bytes, so the content a game records is the content it is played with; pointing the variable
elsewhere reads the other files.
Each file's shape is declared as a `msgspec.Struct` schema (`load_schema`); every validation error is
one line naming the file and the key, e.g. `board.toml: spaces[6].draws: expected `int`, got `str``.
"""

from __future__ import annotations

import copy
import hashlib
import os
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn, TypeVar, overload

from domain.errors import ContentError
from domain.suggest import did_you_mean

ENV_VAR = "NIGHTKEEP_CONTENT_DIR"
T = TypeVar("T")


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
    key = tuple(listed)
    found = _HASHES.get(key)
    if found is not None:
        return found  # an audit asks once per file it reads: the bytes hashed are read once anyway
    named = sorted((f"{p.parent.name}/{p.name}", p) for p in listed)
    digest = hashlib.sha256()
    for name, path in named:
        digest.update(name.encode() + b"\0")
        digest.update(_read(str(path)))
        digest.update(b"\0")
    found = _HASHES[key] = digest.hexdigest()
    return found


_HASHES: dict[tuple[Path, ...], str] = {}  # content_hash by the paths it was asked for


# Content declared as schemas: a file's shape is a `msgspec.Struct` (frozen, unknown keys refused), so
# what a loader writes by hand is only what a schema cannot say (cross references, orders, counts).
S = TypeVar("S")
M = TypeVar("M")
_FIELD_ERRORS = {"Object contains unknown field": "unknown field", "Object missing required field": "missing"}


def fail(filename: str, key: str, message: str) -> NoReturn:
    """Raises a ContentError naming the file and the key, e.g. `deck.toml: cards[3].encounter: …`."""
    raise ContentError(f"{filename}: {key}: {message}")


def check_ids(ids: Iterable[str], filename: str, key: str, prefix: str) -> None:
    """Fails on the first id of the tables under `key` that lacks `prefix` or repeats an earlier one."""
    seen: set[str] = set()
    for i, value in enumerate(ids):
        if not value.startswith(prefix):
            fail(filename, f"{key}[{i}].id", f"expected an id starting with {prefix!r}, got {value!r}")
        if value in seen:
            fail(filename, f"{key}[{i}].id", f"duplicate id {value!r}")
        seen.add(value)


def _path_of(where: str) -> str:
    # msgspec says `$.spaces[6].draws`; content errors say `spaces[6].draws`.
    return where.strip("`").removeprefix("$").removeprefix(".")


def _known_values(schema: Any, key: str) -> list[Any]:
    # The values a Literal field allows, found by walking the schema along the error's key path.
    from msgspec import inspect

    node: Any = inspect.type_info(schema)
    for step in re.findall(r"[^.\[\]]+|\[\d+\]", key):
        if step.startswith("["):
            node = getattr(node, "item_type", None)
        else:
            node = next((f.type for f in getattr(node, "fields", ()) if f.encode_name == step), None)
    members = node.types if isinstance(node, inspect.UnionType) else (node,)
    return [v for m in members if isinstance(m, inspect.LiteralType) for v in m.values if v != ""]


def _message(raw: str, schema: Any) -> tuple[str, str]:
    # Returns (key, message): a field msgspec names in the message is moved into the key path.
    message, _, where = raw.partition(" - at ")
    key = _path_of(where)
    for prefix, wording in _FIELD_ERRORS.items():
        if message.startswith(prefix):
            name = message.removeprefix(prefix).strip(" `")
            return (f"{key}.{name}" if key else name), wording
    if message.startswith("Invalid enum value"):
        known = ", ".join(map(str, _known_values(schema, key)))
        message += f" (known: {known})" if known else ""
    return key, message[:1].lower() + message[1:]


def convert_content(data: Any, schema: type[S], filename: str) -> S:
    """Returns `data` (parsed TOML) as the schema's frozen structs, or raises a ContentError that
    names the file and the key, e.g. `board.toml: spaces[6].draws: expected `int`, got `str``."""
    import msgspec  # imported with the first content file read: a bare CLI start never pays for it

    try:
        return msgspec.convert(data, type=schema, strict=True)
    except msgspec.ValidationError as exc:
        key, message = _message(str(exc), schema)
        raise ContentError(f"{filename}: {key}: {message}" if key else f"{filename}: {message}") from None


@overload
def load_schema(ruleset_dir_name: str, filename: str, schema: type[S]) -> S: ...
@overload
def load_schema(ruleset_dir_name: str, filename: str, schema: type[S], check: Callable[[S, str], M]) -> M: ...
def load_schema(
    ruleset_dir_name: str,
    filename: str,
    schema: type[S],
    check: Callable[[S, str], Any] | None = None,
) -> Any:
    """Returns a content file converted to `schema` and passed through `check(model, filename)`, which
    raises ContentError for what the schema cannot say and may build the model the rules read from it
    (loaded once per process like `load_model`)."""
    # The rules ask on nearly every step: a model found is one lookup, not three calls.
    pinned = _PINNED[-1] if _PINNED else os.environ.get(ENV_VAR)
    key = (ruleset_dir_name, filename, schema, check, pinned)
    model = _SCHEMA_MODELS.get(key)
    if model is None:
        model = _SCHEMA_MODELS[key] = load_model(ruleset_dir_name, filename, _schema_builder(schema, check))
    return model


# The models load_schema has returned, by (folder, file, schema, check, content override): load_model's
# own, found without making its key.
_SCHEMA_MODELS: dict[tuple[str, str, type, object, str | None], Any] = {}


# One builder per (schema, check): load_model caches by builder, so the same pair must give the same one.
_BUILDERS: dict[tuple[type, object], Callable[[dict[str, Any], str], Any]] = {}


def _schema_builder(
    schema: type[S], check: Callable[[S, str], Any] | None
) -> Callable[[dict[str, Any], str], Any]:
    found = _BUILDERS.get((schema, check))
    if found is not None:
        return found

    def build(data: dict[str, Any], filename: str) -> Any:
        model = convert_content(data, schema, filename)
        return check(model, filename) if check is not None else model

    _BUILDERS[schema, check] = build
    return build

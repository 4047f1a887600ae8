"""docs/replay-format.md and docs/events.md are enough to verify a replay file without nightkeep's code.

This module imports nothing of nightkeep. From the two documents and the content files alone, it
re-implements the canonical encoding, the chain, the field types, the draws, the pile ledger and the
rebuilding of sealed events, and reads replay-format.md's tables (seats and options by ruleset, the
events that end a game, what a draw -1 may be) as a program would; it checks with them every file in
`replays/` and freshly played games of every ruleset in every copy (the host's full log, each player's
copy, the public copy; conftest plays them and hands over the files): every actor is a seat or the
host at the start, every die face, pick and salt is recomputed, every sealed event is
rebuilt and must have its recorded seal, and every commitment opens; in a game played by e-mail,
every signing seat's action and entropy signature is checked as docs/play-by-email.md says.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import struct
import subprocess
import sys
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = sorted((ROOT / "replays").glob("*.nkr"))
CONTENT = ROOT / "domain" / "rulesets"
EVENTS_DOC = ROOT / "docs" / "events.md"

# --- the canonical encoding and the chain (replay-format.md, top and "The hash chain") -----------------


def encode(value) -> bytes:
    """The canonical msgpack of docs/replay-format.md, written from the document."""
    if value is True:
        return b"\xc3"
    if value is False:
        return b"\xc2"
    if isinstance(value, int):
        if 0 <= value < 0x80:
            return bytes([value])
        if -32 <= value < 0:
            return struct.pack(">b", value)
        if value >= 0:
            for marker, fmt, limit in ((0xCC, ">B", 1 << 8), (0xCD, ">H", 1 << 16), (0xCE, ">I", 1 << 32)):
                if value < limit:
                    return bytes([marker]) + struct.pack(fmt, value)
            return b"\xcf" + struct.pack(">Q", value)
        for marker, fmt, limit in ((0xD0, ">b", 1 << 7), (0xD1, ">h", 1 << 15), (0xD2, ">i", 1 << 31)):
            if value >= -limit:
                return bytes([marker]) + struct.pack(fmt, value)
        return b"\xd3" + struct.pack(">q", value)
    if isinstance(value, str):
        raw = value.encode()
        if len(raw) < 32:
            return bytes([0xA0 | len(raw)]) + raw
        return _sized(raw, (0xD9, 0xDA, 0xDB))
    if isinstance(value, bytes):
        return _sized(value, (0xC4, 0xC5, 0xC6))
    if isinstance(value, list):
        head = bytes([0x90 | len(value)]) if len(value) < 16 else _length(len(value), (None, 0xDC, 0xDD))
        return head + b"".join(encode(v) for v in value)
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (0, k) if isinstance(k, int) else (1, k.encode()))
        head = bytes([0x80 | len(value)]) if len(value) < 16 else _length(len(value), (None, 0xDE, 0xDF))
        return head + b"".join(encode(k) + encode(value[k]) for k in keys)
    if isinstance(value, datetime):
        return _timestamp(value)
    raise TypeError(f"not in the format: {value!r}")


def _length(n, markers):
    _, m16, m32 = markers
    return bytes([m16]) + struct.pack(">H", n) if n < 1 << 16 else bytes([m32]) + struct.pack(">I", n)


def _sized(raw, markers):
    m8, m16, m32 = markers
    n = len(raw)
    if n < 1 << 8:
        return bytes([m8, n]) + raw
    return (bytes([m16]) + struct.pack(">H", n) if n < 1 << 16 else bytes([m32]) + struct.pack(">I", n)) + raw


def _timestamp(moment: datetime) -> bytes:
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    seconds = delta.days * 86400 + delta.seconds
    nanos = delta.microseconds * 1000
    if seconds >> 34 == 0:
        if nanos == 0 and seconds < 1 << 32:
            return b"\xd6\xff" + struct.pack(">I", seconds)
        return b"\xd7\xff" + struct.pack(">Q", nanos << 34 | seconds)
    return b"\xc7\x0c\xff" + struct.pack(">Iq", nanos, seconds)


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def seal_of(kind: str, v: int, fields: dict) -> dict:
    return {"owner": fields["owner"], "sealed": sha256(encode([kind, v, fields]))}


def is_sealed(fields: dict) -> bool:
    return set(fields) == {"owner", "sealed"}


# --- docs/events.md: every type's fields, their types and its notes ------------------------------------


@dataclass
class Draw:
    outcome: str
    number: str
    pile: str = ""  # a pick's pile template
    kinds: str = ""  # the field restricting a pick
    faces: str = ""  # a die's field giving its number of faces; neither pile nor faces: a salt

    @property
    def kind(self) -> str:
        return "pick" if self.pile else "die" if self.faces else "salt"


@dataclass
class TypeDoc:
    name: str
    version: int
    fields: dict[str, str]  # field → type in the grammar
    private: bool = False
    draws: list[Draw] = field(default_factory=list)
    moves: list[tuple[str, str, str]] = field(default_factory=list)  # (field, from pile, to pile)
    since: dict[str, int] = field(default_factory=dict)


def read_catalogue() -> dict[str, TypeDoc]:
    types: dict[str, TypeDoc] = {}
    for line in EVENTS_DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if len(cells) != 5 or not cells[0].startswith("`"):
            continue
        name, version, fields_cell, notes_cell, _meaning = cells
        fields = dict(re.findall(r"`([a-z_]+)` ((?:[^,{]|\{[^}]*\})+)(?:, |$)", fields_cell))
        doc = TypeDoc(name.strip("`"), int(version), {k: v.strip() for k, v in fields.items()})
        for note in filter(None, (n.strip() for n in notes_cell.split(";"))):
            if note == "private":
                doc.private = True
            elif m := re.fullmatch(
                r"draws `(\w+)` ← `(\w+)`"
                r"(?: from pile `([^`]+)`(?: of kinds `(\w+)`)?| as dice of `(\w+)` faces| as a salt)",
                note,
            ):
                doc.draws.append(Draw(m[1], m[2], m[3] or "", m[4] or "", m[5] or ""))
            elif m := re.fullmatch(r"moves `(\w+)`(?: from pile `([^`]+)`)?(?: to pile `([^`]+)`)?", note):
                doc.moves.append((m[1], m[2] or "", m[3] or ""))
            elif m := re.fullmatch(r"`(\w+)` since v(\d+)", note):
                doc.since[m[1]] = int(m[2])
            else:
                assert note == "host", f"{doc.name}: a note outside the grammar of events.md: {note!r}"
        types[doc.name] = doc
    return types


CATALOGUE = read_catalogue()


def read_raised() -> dict[str, list[tuple[tuple[int, ...], int]]]:
    """replay-format.md, "Older versions of event types": the class versions raised since 0.2.0, each
    type's raises in order."""
    text = (ROOT / "docs" / "replay-format.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| ([\d.]+) \| v(\d+) \|", text, re.M)
    assert rows, "replay-format.md lists no raised class versions"
    raised: dict[str, list[tuple[tuple[int, ...], int]]] = {}
    for name, since, before in rows:
        raised.setdefault(name, []).append((tuple(int(p) for p in since.split(".")), int(before)))
    return {name: sorted(steps) for name, steps in raised.items()}


RAISED = read_raised()
FORMAT_DOC = (ROOT / "docs" / "replay-format.md").read_text(encoding="utf-8")


def table_after(marker: str) -> list[list[str]]:
    """The rows of the first Markdown table after `marker` in replay-format.md, as cells (header and
    rule left out)."""
    lines = FORMAT_DOC[FORMAT_DOC.index(marker) :].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows


def ticked(cell: str) -> list[str]:
    """The names a cell writes in backticks, in order."""
    return re.findall(r"`([^`]+)`", cell)


def read_seats() -> dict[str, tuple[int, int, set[str]]]:
    """replay-format.md, "Setup": each ruleset's seats (fewest, most) and the options it takes."""
    seats = {}
    for ruleset, count, _character, options in table_after("the number of seats, their characters"):
        low, _, high = count.removeprefix("exactly ").partition(" to ")
        seats[ticked(ruleset)[0]] = (int(low), int(high or low), set(ticked(options)))
    return seats


def read_option_values() -> dict[str, set[str]]:
    """replay-format.md, "Setup", Options: the values each option takes."""
    values = {}
    for names, allowed, _missing, _meaning in table_after("**Options.**"):
        for name in ticked(names):
            values[name] = {v.strip('"') for v in ticked(allowed)}
    return values


def read_game_over() -> dict[str, set[str]]:
    """replay-format.md, "The end of a game": the events that end a game, by ruleset."""
    over: dict[str, set[str]] = {}
    for rulesets, event, _winner in table_after("## The end of a game"):
        for ruleset in ticked(rulesets):
            over.setdefault(ruleset, set()).add(ticked(event)[0])
    return over


SEATS = read_seats()
OPTION_VALUES = read_option_values()
GAME_OVER = read_game_over()
NOT_DRAWN = {ticked(event)[0] for event, _ in table_after("An outcome recorded with draw −1")}


def recorded_version(type_name: str, made_by: tuple[int, ...]) -> int:
    """The class version a game made by nightkeep `made_by` (0.2.0 or later) records a type at."""
    for since, before in RAISED.get(type_name, []):
        if made_by < since:
            return before
    return CATALOGUE[type_name].version


# replay-format.md, "Dice": the per-turn key chain.
_SEGMENTS = re.search(r"segments of\s+([\d,]+)\s+links", (ROOT / "docs" / "replay-format.md").read_text())
CHAIN_LINKS = int(_SEGMENTS[1].replace(",", ""))


def hashed(value: bytes, times: int) -> bytes:
    for _ in range(times):
        value = sha256(value)
    return value


def anchor_of(seed: bytes, segment: int) -> bytes:
    root = hmac.new(seed, b"nightkeep-dice-chain" + segment.to_bytes(8, "big"), hashlib.sha256).digest()
    return hashed(root, CHAIN_LINKS)


def holds(value: Any, kind: str) -> bool:
    """Whether a value holds exactly a type written in events.md's grammar."""
    if kind == "str":
        return type(value) is str
    if kind == "int":
        return type(value) is int and -(1 << 63) <= value < 1 << 63
    if kind == "bool":
        return type(value) is bool
    if kind == "bin":
        return type(value) is bytes
    if kind.startswith("array of "):
        return type(value) is list and all(holds(v, kind[9:]) for v in value)
    if kind.startswith("map of str to "):
        item = kind[14:]
        return type(value) is dict and all(type(k) is str and holds(v, item) for k, v in value.items())
    if kind.startswith("{"):
        wanted = dict(part.split(": ", 1) for part in kind[1:-1].split(", "))
        return (
            type(value) is dict
            and set(value) == set(wanted)
            and all(holds(value[k], t) for k, t in wanted.items())
        )
    raise AssertionError(f"a type outside events.md's grammar: {kind}")


def pile(template: str, fields: dict) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(fields[m[1]]), template)


# --- the dice (replay-format.md, "Dice") --------------------------------------------------------------


def draw(seed: bytes, pool: bytes, nonce: bytes, n: int, outcomes: int) -> int:
    """Draw n with `outcomes` results, as the document's Dice section describes it."""
    space = 1 << 256
    limit = space - space % outcomes
    k = 0
    while True:
        msg = pool + len(nonce).to_bytes(4, "big") + nonce + n.to_bytes(8, "big") + k.to_bytes(4, "big")
        x = int.from_bytes(hmac.new(seed, msg, hashlib.sha256).digest(), "big")
        if x < limit:
            return x % outcomes
        k += 1


def salt_of(seed: bytes, pool: bytes, nonce: bytes, n: int) -> bytes:
    """Draw n as a salt, as the document's Dice section describes it."""
    msg = pool + len(nonce).to_bytes(4, "big") + nonce + n.to_bytes(8, "big") + b"salt\x00"
    return hmac.new(seed, msg, hashlib.sha256).digest()


def commit(value, salt: bytes) -> bytes:
    return sha256(encode([value, salt]))


# --- the content files (replay-format.md, "Rulesets") ---------------------------------------------------

FILES = {
    "dungeon-short": ["talisman/characters.toml", "dungeon/board.toml", "dungeon/deck.toml"],
    "keep-run": [
        "talisman/characters.toml",
        *(f"keep/{name}.toml" for name in ("board", "deck", "spells", "tables", "vault")),
    ],
    "vampire-empire": ["castle/characters.toml", "castle/human_deck.toml", "castle/vampire_deck.toml"],
    "talisman": [
        "talisman/characters.toml",
        *(
            f"talisman/{name}.toml"
            for name in ("board", "places", "adventure", "purchase", "spells", "talismans", "abilities")
        ),
    ],
}
TALISMAN_ENTRIES = ("cards", "characters", "spells", "items", "talismans")
# Rulesets, `talisman`: an expansion's option adds its short game's files (all but the characters), the
# Adventure cards it shuffles into the main board's deck and its own files.
EXPANSION_ADVENTURE = {"dungeon": "talisman/adventure-dungeon.toml", "keep": "talisman/adventure-keep.toml"}
EXPANSION_FILES = {
    "dungeon": [*FILES["dungeon-short"][1:], EXPANSION_ADVENTURE["dungeon"], "talisman/dungeon-exits.toml"],
    "keep": [*FILES["keep-run"][1:], EXPANSION_ADVENTURE["keep"]],
}


def files_of(ruleset: str, options: dict[str, str]) -> list[str]:
    """The content files of a game (Rulesets): its ruleset's, and on the main board its expansions'."""
    names = list(FILES[ruleset])
    if ruleset == "talisman":
        for option, files in EXPANSION_FILES.items():
            names += [f for f in files if options.get(option) == "true" and f not in names]
    return names


def content(name: str) -> dict:
    return tomllib.loads((CONTENT / name).read_text(encoding="utf-8"))


def entries(name: str) -> list[dict]:
    data = content(name)
    (table,) = [v for k, v in data.items() if k in TALISMAN_ENTRIES]
    return table


def ids(name: str) -> list[str]:
    return [entry["id"] for entry in entries(name)]


def content_hash(ruleset: str, options: dict[str, str]) -> str:
    digest = hashlib.sha256()
    for name in sorted(files_of(ruleset, options)):
        digest.update(name.encode() + b"\0" + (CONTENT / name).read_bytes() + b"\0")
    return digest.hexdigest()


def sides(seats: list[dict]) -> dict[str, str]:
    """Vampire Empire: a seat's character is its side; seats without one take the sides left, human first."""
    taken = {seat["name"]: seat["character"] for seat in seats if seat["character"]}
    free = [side for side in ("human", "vampire") if side not in taken.values()]
    return {seat["name"]: taken.get(seat["name"]) or free.pop(0) for seat in seats}


def character_id(asked: str) -> str:
    wanted = asked.strip().lower().replace(" ", "-").replace("_", "-")
    known = ids("talisman/characters.toml")
    return next(c for c in known if wanted in (c, c.removeprefix("talisman/character/")))


def in_play(option: str, options: dict[str, str]) -> bool:
    """Whether a content entry is in the game: it names no option, or one set true."""
    return not option or options.get(option) == "true"


def talisman_piles(options: dict[str, str]) -> dict[str, Counter]:
    """Rulesets, `talisman`: the main board's decks (an Adventure card of an option only when it is on)."""
    adventure = entries("talisman/adventure.toml")
    for option, name in EXPANSION_ADVENTURE.items():
        adventure += entries(name) if options.get(option) == "true" else []
    return {
        "adventure": Counter(c["id"] for c in adventure if in_play(c.get("option", ""), options)),
        "purchase": Counter({i["id"]: i["copies"] for i in entries("talisman/purchase.toml")}),
        "spells": Counter(ids("talisman/spells.toml")),
        "talismans": Counter(ids("talisman/talismans.toml")),
    }


def expansion_piles(options: dict[str, str]) -> dict[str, Counter]:
    """Rulesets, `talisman`: the decks an expansion in play lays beside the main board."""
    piles: dict[str, Counter] = {}
    if options.get("dungeon") == "true":  # the whole Dungeon deck, the Tunnel in it (Dungeon 8.3)
        piles["dungeon"] = Counter(ids("dungeon/deck.toml"))
    if options.get("keep") == "true":
        piles["keep"] = Counter(ids("keep/deck.toml"))
        piles["vault"] = Counter(ids("keep/vault.toml"))
        counters = content("keep/board.toml")["counters"]
        piles["counters"] = Counter(f"keep/counter/{i:02d}" for i in range(len(counters)))
    return piles


def starting_piles(ruleset: str, seats: list[dict], options: dict[str, str]) -> dict[str, Counter]:
    if ruleset == "talisman":
        named = {character_id(seat["character"]) for seat in seats if seat["character"]}
        piles = {"characters": Counter(c for c in ids("talisman/characters.toml") if c not in named)}
        return piles | talisman_piles(options) | expansion_piles(options)
    if ruleset in ("dungeon-short", "keep-run"):
        named = {character_id(seat["character"]) for seat in seats if seat["character"]}
        piles = {"characters": Counter(c for c in ids("talisman/characters.toml") if c not in named)}
        if ruleset == "dungeon-short":
            deck = entries("dungeon/deck.toml")
            piles["dungeon"] = Counter(c["id"] for c in deck if not c.get("leaves_dungeon", False))
        else:
            piles["keep"] = Counter(ids("keep/deck.toml"))
            piles["vault"] = Counter(ids("keep/vault.toml"))
            piles["spells"] = Counter(ids("keep/spells.toml"))
            counters = content("keep/board.toml")["counters"]
            piles["counters"] = Counter(f"keep/counter/{i:02d}" for i in range(len(counters)))
        return piles
    decks = {"human": ids("castle/human_deck.toml"), "vampire": ids("castle/vampire_deck.toml")}
    piles = {"tokens": Counter(ids("castle/characters.toml")), "city": Counter()}
    for name, side in sides(seats).items():
        piles[f"deck:{name}"] = Counter(decks[side])
        for kind in ("hand", "cellar", "moat"):
            piles[f"{kind}:{name}"] = Counter()
    return piles


def kinds_of(ruleset: str, options: dict[str, str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for name in files_of(ruleset, options):
        data = content(name)
        for entry in data.get("cards", []):
            found[entry["id"]] = entry.get("kind", "")
    return found


# --- the verifier ---------------------------------------------------------------------------------------


@dataclass
class Verified:
    dice: int = 0
    picks: Counter = field(default_factory=Counter)  # by event type
    piles: Counter = field(default_factory=Counter)  # picks by the pile they drew from
    salts: int = 0
    rebuilt: Counter = field(default_factory=Counter)  # sealed events rebuilt, by type
    opened: int = 0  # reveals opened against their commitments
    restricted: int = 0
    reshuffled: int = 0
    signed: int = 0  # actions and entropy whose Ed25519 signature was checked
    keys: int = 0  # per-turn dice keys checked against their chain
    anchors: int = 0  # key chain anchors checked against the revealed seed
    unverifiable: int = 0  # draws whose key is not public yet (private ones, before the reveal)
    over: bool = False  # a game-over event of the ruleset's table was met


class Verifier:
    """Walks one file the way the documents say, recomputing every draw and rebuilding every seal."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.document = msgpack.unpackb(path.read_bytes(), raw=False, timestamp=3)
        self.events = self.document["events"]
        self.done = Verified()
        public = [e["fields"]["seed"] for e in self.events if e["type"] in ("SeedRevealed", "ForkedFrom")]
        self.seeds = {sha256(seed): seed for seed in public if seed}
        self.pool, self.nonce, self.commitment, self.n = bytes(32), b"", b"", 0
        self.script: list[int] = []
        self.piles: dict[str, Counter] = {}
        self.ruleset = ""
        self.kinds: dict[str, str] = {}
        self.sides: dict[str, str] = {}
        self.secret = b""  # the vampire player's identity secret, once rebuilt or read
        self.identities: dict[str, bytes] = {}
        self.hands: dict[str, list[bytes]] = {}
        self.named: dict[str, str] = {}  # seat → the character it asked for
        self.bottom: list[str] = []  # the characters hidden under the city, first hidden first
        self.received: dict[str, dict] = {}
        self.keys: dict[str, bytes] = {}
        self.forked = False
        # Per-turn keys (Dice): each segment's anchor, the last link released, the actions counted.
        self.anchors: dict[int, bytes] = {}
        self.link: tuple[int, int, bytes] | None = None
        self.turn_key = b""
        self.actions = 0
        self.actions_at: list[int] = []
        self.links_at: list[tuple[int, int, bytes] | None] = []
        self.private: dict[str, bytes] = {}  # seat → its private dice key (DiceKeyDealt)
        self.owner = ""  # the owner of the private event whose draws are checked
        self.seats: list[str] = []
        self.acted = False
        self.over: int | None = None  # the index of the event that ended the game
        self.revealed = False

    def where(self, index: int) -> str:
        return f"{self.path.name}: event {index + 1} ({self.events[index]['type']})"

    def run(self) -> Verified:
        for index, event in enumerate(self.events):
            self.step(index, event)
            self.actions_at.append(self.actions)
            self.links_at.append(self.link)
        assert self.over is None or self.revealed, f"{self.path.name}: over, yet its seed is not revealed"
        self.done.over = self.over is not None
        return self.done

    def step(self, index: int, event: dict) -> None:
        kind, fields = event["type"], event["fields"]
        doc = CATALOGUE[kind]
        if doc.private and is_sealed(fields):
            rebuilt = self.rebuild(index, kind, fields["owner"])
            assert seal_of(kind, event["v"], rebuilt) == fields, (
                f"{self.where(index)}: the seal does not open"
            )
            self.done.rebuilt[kind] += 1
            fields = rebuilt
        else:
            wanted = {f: t for f, t in doc.fields.items() if doc.since.get(f, 0) <= event["v"]}
            assert set(fields) == set(wanted), f"{self.where(index)}: its fields are not those of events.md"
            bad = [f for f, t in wanted.items() if not holds(fields[f], t)]
            assert not bad, f"{self.where(index)}: {bad} do not hold their types"
            if doc.private and self.commitment in self.seeds:  # (before the reveal: its owner's copy)
                assert self.rebuild(index, kind, fields["owner"]) == fields, (
                    f"{self.where(index)}: rebuilt otherwise"
                )
        self.game_level(kind, fields)
        self.check_actors_and_end(index, kind, fields)
        self.check_signature(index, kind, fields)
        self.check_draws(index, doc, fields)
        self.move(doc, fields)
        self.commitments(index, kind, fields)

    def game_level(self, kind: str, fields: dict) -> None:
        if kind == "GameCreated":
            self.check_setup(fields)
            self.ruleset = fields["ruleset"]
            assert fields["content_hash"] == content_hash(self.ruleset, fields["options"]), (
                f"{self.path.name}: content hash"
            )
            self.script = list(fields["dice_script"])
            self.piles = starting_piles(self.ruleset, fields["players"], fields["options"])
            if self.ruleset != "vampire-empire":
                self.named = {
                    s["name"]: character_id(s["character"]) for s in fields["players"] if s["character"]
                }
            self.kinds = kinds_of(self.ruleset, fields["options"])
            self.sides = sides(fields["players"]) if self.ruleset == "vampire-empire" else {}
        elif kind == "SeedCommitted":
            self.commitment = fields["commitment"]
            self.anchors, self.link, self.private = {}, None, {}
        elif kind == "DiceKeyDealt":
            self.private[fields["owner"]] = fields["key"]
        elif kind == "DiceChainCommitted":
            segment = fields["segment"]
            assert segment == self.actions // CHAIN_LINKS and segment not in self.anchors, self.path.name
            self.anchors[segment] = fields["anchor"]
            if self.commitment in self.seeds:
                assert fields["anchor"] == anchor_of(self.seeds[self.commitment], segment), self.path.name
                self.done.anchors += 1
        elif kind == "EntropyAdded":
            self.pool = sha256(self.pool + fields["value"])
        elif kind == "ActionTaken":
            self.nonce = fields["nonce"]
            self.actions += 1
            self.turn_key = fields.get("dice_key", b"")
            if self.anchors:
                segment, link = divmod(self.actions - 1, CHAIN_LINKS)
                link += 1
                last = self.link
                base, steps = self.anchors[segment], link
                if last and last[0] == segment and last[1] <= link:
                    base, steps = last[2], link - last[1]
                assert hashed(self.turn_key, steps) == base, f"{self.path.name}: action {self.actions}'s key"
                self.link = (segment, link, self.turn_key)
                self.done.keys += 1
            else:
                assert not self.turn_key, f"{self.path.name}: a key without a chain"
        elif kind == "RolledBack":
            self.actions = self.actions_at[fields["to"] - 1]
            self.link = self.links_at[fields["to"] - 1]

    def check_actors_and_end(self, index: int, kind: str, fields: dict) -> None:
        """replay-format.md, "Actions and consequences" and "The end of a game": the host acts only to
        start, every other action is a seat's; nothing is played after a game-over event, and the seed
        is revealed after it."""
        if kind == "GameCreated":
            self.seats = [seat["name"] for seat in fields["players"]]
            self.over = None
        elif kind == "ActionTaken":
            assert self.over is None, f"{self.where(index)}: an action after the game was over"
            first = not self.acted
            assert fields["player"] in (["host"] if first else self.seats), self.where(index)
            assert not first or fields["action"] == "start", self.where(index)
            self.acted = True
        elif kind in GAME_OVER.get(self.ruleset, ()) and self.over is None:
            self.over = index
            winner = fields.get("player", fields.get("winner"))
            assert winner in ("", *self.seats), self.where(index)
        elif kind == "SeedRevealed":
            self.revealed = True
        if kind == "ForkedFrom":
            self.acted = False  # the copy starts with its own GameCreated and start

    def check_signature(self, index: int, kind: str, fields: dict) -> None:
        """docs/play-by-email.md, "What the log records": a signing seat's actions and entropy carry its
        Ed25519 signature of the point they follow (entropy: the seed's commitment, event 2)."""
        if kind == "GameCreated":
            self.keys = dict(fields.get("keys", {}))
            self.forked = any(e["type"] == "ForkedFrom" for e in self.events)
        if kind not in ("ActionTaken", "EntropyAdded") or self.forked or fields["player"] == "host":
            return
        key = self.keys.get(fields["player"])
        if kind == "ActionTaken":
            assert (fields.get("auth") == "signed") == bool(key), f"{self.where(index)}: authentication"
            signed = [
                "nightkeep-action",
                index,
                self.events[index - 1]["chain"],
                fields["player"],
                fields["action"],
                fields["nonce"],
            ]
        else:
            assert bool(fields.get("signature")) == bool(key), f"{self.where(index)}: entropy signature"
            signed = ["nightkeep-entropy", 2, self.events[1]["chain"], fields["player"], fields["value"]]
        if key:
            Ed25519PublicKey.from_public_bytes(key).verify(fields["signature"], encode(signed))
            self.done.signed += 1

    def check_setup(self, fields: dict) -> None:
        """replay-format.md, "Setup"."""
        names = [seat["name"] for seat in fields["players"]]
        for name in names:
            assert 1 <= len(name) <= 32 and name.isprintable() and name == name.strip(), name
            assert "/" not in name and ":" not in name and name.casefold() != "host", name
        assert len({n.casefold() for n in names}) == len(names)
        low, high, options = SEATS[fields["ruleset"]]
        assert low <= len(names) <= high, f"{self.path.name}: {len(names)} seats"
        assert set(fields["options"]) <= options, f"{self.path.name}: options {fields['options']}"
        assert all(fields["options"][o].lower() in OPTION_VALUES[o] for o in fields["options"])
        assert fields["scripted"] == bool(fields["dice_script"])
        assert all(1 <= face <= 6 for face in fields["dice_script"])
        made_by = tuple(int(part) for part in fields["nightkeep_version"].split("."))
        if made_by >= (0, 2, 0):  # every event at its current class version, every seat written one way
            assert all(e["v"] == recorded_version(e["type"], made_by) for e in self.events), self.path.name
            for seat in fields["players"]:
                assert seat["character"] in ("", *ids("talisman/characters.toml"), "human", "vampire")
                assert seat["character"] or fields["ruleset"] != "vampire-empire"

    def take_number(self, index: int, number: int) -> None:
        assert number == self.n, f"{self.where(index)}: draw {number} where draw {self.n} comes next"
        self.n += 1

    @property
    def seed(self) -> bytes:
        return self.seeds[self.commitment]

    @property
    def public_key(self) -> bytes:
        """Public dice and picks draw with the action's key; a game without keys with the seed."""
        return self.turn_key or self.seed

    def knows(self, private: bool) -> bool:
        """Whether a draw can be recomputed yet: a public one with a turn key, a private one with its
        owner's private key and the turn key, any once the seed is out."""
        if self.commitment in self.seeds:
            return True
        return bool(self.turn_key) and (not private or self.owner in self.private)

    @property
    def private_key(self) -> bytes:
        """Dice, "Per-turn keys": a private draw's key (its owner's private key mixed with the turn's)."""
        if self.turn_key and self.ruleset == "vampire-empire":
            return hmac.new(self.private[self.owner], self.turn_key, hashlib.sha256).digest()
        return self.seed

    def check_draws(self, index: int, doc: TypeDoc, fields: dict) -> None:
        self.owner = fields.get("owner", "") if doc.private else ""
        for d in doc.draws:
            outcomes, numbers = fields[d.outcome], fields[d.number]
            if not isinstance(numbers, list):
                outcomes, numbers = [outcomes], [numbers]
            assert len(outcomes) == len(numbers), f"{self.where(index)}: outcomes and draws differ in length"
            for outcome, number in zip(outcomes, numbers, strict=True):
                if number == -1:
                    self.check_not_drawn(index, doc.name, fields, outcome)
                    continue
                self.take_number(index, number)
                if not self.knows(doc.private or d.kind == "salt"):
                    self.done.unverifiable += 1
                    if d.kind == "pick":
                        self.piles[pile(d.pile, fields)][outcome] -= 1
                    continue
                if d.kind == "pick":
                    self.check_pick(index, doc.name, d, fields, outcome, number)
                elif d.kind == "salt":
                    assert outcome == salt_of(self.private_key, self.pool, self.nonce, number), (
                        f"{self.where(index)}: salt"
                    )
                    self.done.salts += 1
                else:
                    faces = fields[d.faces]
                    expected = (
                        self.script.pop(0)
                        if self.script
                        else draw(self.public_key, self.pool, self.nonce, number, faces) + 1
                    )
                    assert outcome == expected, (
                        f"{self.where(index)}: die {number} shows {outcome}, not {expected}"
                    )
                    self.done.dice += 1

    def options(self, d: Draw, fields: dict) -> list[str]:
        left = sorted(self.piles[pile(d.pile, fields)].elements(), key=str.encode)
        kinds = fields.get(d.kinds, []) if d.kinds else []
        if kinds:
            self.done.restricted += 1
            left = [c for c in left if self.kinds[c] in kinds]
        return left

    def check_pick(self, index: int, kind: str, d: Draw, fields: dict, outcome: str, number: int) -> None:
        options = self.options(d, fields)
        key = self.private_key if CATALOGUE[kind].private else self.public_key
        expected = options[draw(key, self.pool, self.nonce, number, len(options))]
        assert outcome == expected, (
            f"{self.where(index)}: pick {number} gave {outcome}, the seed gives {expected}"
        )
        self.piles[pile(d.pile, fields)][outcome] -= 1
        self.done.picks[kind] += 1
        self.done.piles[pile(d.pile, fields)] += 1

    def check_not_drawn(self, index: int, kind: str, fields: dict, outcome: str) -> None:
        """An outcome with draw -1 (Piles: only the events of its table)."""
        assert kind in NOT_DRAWN, f"{self.where(index)}: a draw -1 no document explains"
        if kind == "CharacterDealt":
            assert outcome == self.named[fields["player"]], self.where(index)
        elif kind == "CastleFilled":
            assert not +self.piles["city"] and outcome == self.bottom.pop(0), self.where(index)
        else:  # CardsReceived: the card of the CardTaken right after it
            after = self.events[index + 1]
            assert after["type"] == "CardTaken" and after["fields"]["card"] == outcome, self.where(index)

    def move(self, doc: TypeDoc, fields: dict) -> None:
        if doc.name == "DeckReshuffled":
            assert not +self.piles[fields["deck"]], f"{fields['deck']} reshuffled before it ran out"
        if doc.name == "CharacterHidden":
            self.bottom.append(fields["character"])  # under the city, in the order hidden
        for name, source, target in doc.moves:
            cards = fields[name] if isinstance(fields[name], list) else [fields[name]]
            for card in cards:
                if source:
                    assert self.piles[pile(source, fields)][card] > 0, (
                        f"{card} is not in {pile(source, fields)}"
                    )
                    self.piles[pile(source, fields)][card] -= 1
                if target:
                    self.piles.setdefault(pile(target, fields), Counter())[card] += 1
        if doc.name == "DeckReshuffled":
            self.done.reshuffled += 1

    # --- Vampire Empire: rebuilding private events and opening commitments (Rulesets, vampire-empire) --

    def next_picks(self, pile_name: str, count: int) -> tuple[list[str], list[int]]:
        picked, numbers = [], []
        for _ in range(count):
            options = sorted(self.piles[pile_name].elements(), key=str.encode)
            picked.append(options[draw(self.private_key, self.pool, self.nonce, self.n, len(options))])
            numbers.append(self.n)
            self.piles[pile_name][picked[-1]] -= 1  # put back below: check_draws takes them out again
            self.n += 1
        for card in picked:
            self.piles[pile_name][card] += 1
        self.n -= count
        return picked, numbers

    def rebuild(self, index: int, kind: str, owner: str) -> dict:
        """Rebuilds a private event from the public events around it, the ledger and the draws."""
        start = self.n
        self.owner = owner
        if kind == "DiceKeyDealt":
            return {
                "owner": owner,
                "key": hmac.new(self.seed, b"nightkeep-private-dice\x00" + owner.encode(), "sha256").digest(),
                "salt": hmac.new(
                    self.seed, b"nightkeep-private-salt\x00" + owner.encode(), "sha256"
                ).digest(),
            }
        if kind == "IdentityTokensDrawn":
            vampire = self.sides[owner] == "vampire"
            characters, numbers = self.next_picks("tokens", 3 if vampire else 2)
            self.n += len(numbers)
            salt = salt_of(self.private_key, self.pool, self.nonce, self.n)
            self.n = start
            if vampire:
                self.secret = salt
            every = ids("castle/characters.toml") if vampire else characters
            salts = {c: sha256(self.secret + b"identity\x00" + c.encode()) for c in every}
            identity = "vampire" if vampire else "human"
            return {
                "owner": owner,
                "identity": identity,
                "characters": characters,
                "draws": numbers,
                "salt": salt,
                "salt_draw": start + len(numbers),
                "salts": salts,
            }
        assert kind == "CardsReceived", f"{self.where(index)}: no document says how to rebuild it"
        after = self.events[index + 1]
        if after["type"] == "CardsDrawn":
            cards, numbers = self.next_picks(f"deck:{owner}", after["fields"]["count"])
        else:
            assert after["type"] == "CardTaken", f"{self.where(index)}: CardsReceived before {after['type']}"
            cards, numbers = [after["fields"]["card"]], [-1]
        picked = sum(1 for n in numbers if n >= 0)
        salt = salt_of(self.private_key, self.pool, self.nonce, start + picked)
        hand = sorted([*self.piles[f"hand:{owner}"].elements(), *cards], key=str.encode)
        return {
            "owner": owner,
            "cards": cards,
            "draws": numbers,
            "hand": hand,
            "salt": salt,
            "salt_draw": start + picked,
        }

    def commitments(self, index: int, kind: str, fields: dict) -> None:
        if kind == "IdentityTokensDrawn" and fields["identity"] == "vampire":
            self.secret = fields["salt"]
        elif kind == "IdentitiesCommitted":
            self.identities = fields["commitments"]
        elif kind == "CardsReceived":
            self.received[fields["owner"]] = fields
        elif kind == "CardsDrawn" and fields["count"] == 0:
            assert fields["commitments"] == self.hands.get(fields["player"], []), self.where(index)
        elif kind in ("CardsDrawn", "CardTaken"):
            mine = self.received[fields["player"]]
            salts = {c: sha256(mine["salt"] + b"card\x00" + c.encode()) for c in mine["hand"]}
            assert fields["commitments"] == sorted(commit(c, s) for c, s in salts.items()), self.where(index)
            self.hands[fields["player"]] = list(fields["commitments"])
        elif kind == "CardPlayed":
            self.hands[fields["player"]].remove(commit(fields["card"], fields["salt"]))
            self.done.opened += 1
        elif kind == "IdentityRevealed":
            assert self.identities[fields["character"]] == commit(fields["identity"], fields["salt"]), (
                self.where(index)
            )
            self.done.opened += 1


# --- the tests ----------------------------------------------------------------------------------------------


def test_there_are_files_to_check():
    assert REPLAYS


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_the_file_is_canonical_and_chained_as_documented(path):
    data = path.read_bytes()
    document = msgpack.unpackb(data, raw=False, timestamp=3)
    assert encode(document) == data  # the whole file, timestamps included
    # Top level: version 2 exactly when the log holds a key chain (per-turn dice keys).
    keyed = any(e["type"] == "DiceChainCommitted" for e in document["events"])
    assert document["format"] == "nightkeep-replay" and document["format_version"] == (2 if keyed else 1)
    chain = bytes(32)
    for number, event in enumerate(document["events"], start=1):
        assert event["version"] == number
        fields = event["fields"]
        if CATALOGUE[event["type"]].private and not is_sealed(fields):
            fields = seal_of(event["type"], event["v"], fields)  # the chain covers the sealed form
        chain = sha256(chain + encode([event["type"], event["v"], fields]))
        assert chain == event["chain"], f"event {number}"
    assert document["header"]["events"] == len(document["events"])


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_every_draw_of_a_recorded_game_follows_from_the_documents(path):
    done = Verifier(path).run()
    assert done.dice + sum(done.picks.values()) > 0
    if b"IdentitiesCommitted" in path.read_bytes():
        assert done.salts > 0 and done.opened > 0


def test_the_tables_name_every_ruleset_and_every_recorded_game_ends_by_them():
    # replay-format.md's Setup and end-of-game tables cover the same rulesets, the content files'.
    assert set(SEATS) == set(GAME_OVER) == set(FILES)
    assert {option for *_, options in SEATS.values() for option in options} == set(OPTION_VALUES)
    assert NOT_DRAWN == {"CharacterDealt", "CastleFilled", "CardsReceived"}
    # Every recorded game is finished: each meets its ruleset's game-over event (and reveals its seed).
    assert all(Verifier(path).run().over for path in REPLAYS)


def test_every_fresh_game_in_every_copy_follows_from_the_documents(fresh_copies):
    total = Verified()
    for path in fresh_copies:
        test_the_file_is_canonical_and_chained_as_documented(path)
        done = Verifier(path).run()
        total.dice += done.dice
        total.picks += done.picks
        total.salts += done.salts
        total.rebuilt += done.rebuilt
        total.opened += done.opened
        total.restricted += done.restricted
        total.reshuffled += done.reshuffled
        total.signed += done.signed
        total.keys += done.keys
        total.anchors += done.anchors
    # Every kind of draw, pick and seal the documents describe was met and recomputed.
    assert set(total.picks) >= {
        "CharacterDealt",
        "CardDrawn",
        "TeleportCounterDrawn",
        "CastleFilled",
        "IdentityTokensDrawn",
        "CardsReceived",
    }
    assert set(total.rebuilt) == {"IdentityTokensDrawn", "CardsReceived", "DiceKeyDealt"}
    assert total.dice and total.salts and total.opened and total.restricted and total.reshuffled
    assert total.signed  # a game played by e-mail: its signatures checked from play-by-email.md
    assert total.keys and total.anchors  # per-turn keys, and their anchors once the seed is out


def test_a_running_game_shows_every_public_draw_checkable_at_once(fresh_copies):
    # replay-format.md, "Dice": each action's key comes with it, so a game whose seed is still secret has
    # every public die and pick recomputed, and every key checked against the committed chain.
    (path,) = [p for p in fresh_copies if p.name.startswith("running-talisman")]
    events = msgpack.unpackb(path.read_bytes(), raw=False, timestamp=3)["events"]
    assert not any(e["type"] == "SeedRevealed" for e in events)
    done = Verifier(path).run()
    actions = sum(1 for e in events if e["type"] == "ActionTaken")
    assert done.keys == actions > 100
    assert done.dice and sum(done.picks.values()) and not done.unverifiable


def test_the_talisman_replays_meet_every_pick_of_the_main_board():
    # Rulesets, `talisman`: the deal, the decks' draws, a restart's pick (and its putting back), a reshuffle.
    total = Verified()
    plain = [p for p in REPLAYS if p.name.startswith("talisman-") and not expansions_of(p)]
    for path in plain:
        done = Verifier(path).run()
        total.picks += done.picks
        total.reshuffled += done.reshuffled
        total.dice += done.dice
    assert set(total.picks) == {"CharacterDealt", "CardDrawn", "CharacterRestarted"}
    assert total.reshuffled and total.dice


def expansions_of(path: Path) -> tuple[str, ...]:
    """The expansions a recorded `talisman` game was played with (its `GameCreated.options`)."""
    document = msgpack.unpackb(path.read_bytes(), raw=False, timestamp=3)
    (created,) = [e["fields"] for e in document["events"] if e["type"] == "GameCreated"]
    return tuple(name for name in EXPANSION_FILES if created["options"].get(name) == "true")


def test_the_expansion_replays_meet_every_pick_of_their_decks():
    # Rulesets, `talisman`: a game with the Dungeon draws from its deck, with the Keep from the Keep's
    # and the Vault's decks and the Teleport counters; recorded with each expansion alone and both.
    decks = {"dungeon": {"dungeon"}, "keep": {"keep", "vault", "counters"}}
    seen: dict[tuple[str, ...], Counter] = {}
    for path in (p for p in REPLAYS if p.name.startswith("talisman-")):
        if expansions := expansions_of(path):
            seen.setdefault(expansions, Counter()).update(Verifier(path).run().piles)
    assert set(seen) == {("dungeon",), ("keep",), ("dungeon", "keep")}
    for expansions, piles in seen.items():
        for name in expansions:
            assert decks[name] <= set(piles), f"{expansions}: no pick from {decks[name] - set(piles)}"


# --- proof files (replay-format.md, "Proofs"; packets as play-by-email.md says) ------------------------


@pytest.fixture(scope="module")
def leaked_secret_proof(tmp_path_factory):
    """A proof file made by the command line alone: a host leaks one of Vlad's secrets to Ann (a test
    double run in its own process), then `nightkeep proofs` writes what Ann's replica kept."""
    where = tmp_path_factory.mktemp("lying")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def run(*args):
        done = subprocess.run(
            [sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()

    db, game, fingerprint = run("tests.lying_host", str(where))[-3:]
    run("cli.main", "--db", db, "proofs", game, "-o", str(where / "proofs"))
    (path,) = (where / "proofs").glob("proof-*.nkp")
    return path, fingerprint


def unarmoured(text: str) -> bytes:
    """play-by-email.md, Armour: base64 between the BEGIN and END lines, checked by the `*` checksum."""
    inner = text.replace("\r", "").split("-----BEGIN NIGHTKEEP PACKET-----")[1].split("-----END")[0]
    encoded, _, checksum = re.sub(r"[^A-Za-z0-9+/=*]", "", inner).rpartition("*")
    data = base64.b64decode(encoded, validate=True)
    assert sha256(data).hex()[:8] == checksum
    return data


def public_chain(previous: bytes, entry: dict) -> bytes:
    fields = entry["fields"]
    if CATALOGUE[entry["type"]].private and not is_sealed(fields):
        fields = seal_of(entry["type"], entry["v"], fields)
    return sha256(previous + encode([entry["type"], entry["v"], fields]))


def test_a_proof_file_is_checked_from_the_documents_alone(leaked_secret_proof):
    path, fingerprint = leaked_secret_proof
    data = path.read_bytes()
    proof = msgpack.unpackb(data, raw=False, timestamp=3)
    assert encode(proof) == data  # canonical
    assert set(proof) == {
        "format",
        "format_version",
        "kind",
        "game",
        "event",
        "host_key",
        "history",
        "packets",
        "detail",
    }
    assert proof["format"] == "nightkeep-proof" and proof["format_version"] == 1
    assert sha256(proof["host_key"]).hex()[:16] == fingerprint.replace(" ", "")
    host = Ed25519PublicKey.from_public_bytes(proof["host_key"])
    packets = []
    for text in proof["packets"]:
        packet = msgpack.unpackb(unarmoured(text), raw=False)
        assert packet["format"] == "nightkeep-packet" and packet["kind"] in ("invite", "events")
        host.verify(
            packet["signature"], encode(["nightkeep-packet", packet["kind"], {"body": packet["body"]}])
        )
        body = msgpack.unpackb(packet["body"], raw=False, timestamp=3)
        assert body["game"] == proof["game"]
        since = body.get("since", 0)
        assert [e["version"] for e in body["events"]] == list(
            range(since + 1, since + 1 + len(body["events"]))
        )
        packets.append(body)
    history = msgpack.unpackb(proof["history"], raw=False, timestamp=3)
    assert encode(history) == proof["history"]
    assert [e["version"] for e in history] == list(range(1, proof["event"]))
    assert history[0]["type"] in ("GameCreated", "ForkedFrom")
    chain = bytes(32)
    for entry in history:
        chain = public_chain(chain, entry)
        assert chain == entry["chain"], entry["version"]
    anchors = [e for body in packets for e in body["events"]]
    assert any(
        (e["version"] == len(history) and e["chain"] == chain)
        or (e["version"] == len(history) + 1 and public_chain(chain, e) == e["chain"])
        for e in anchors
    )
    # unsealed-secret: a private event of another seat than the packet's reader, not sealed.
    assert proof["kind"] == "unsealed-secret"
    leaked = [
        (body["player"], e)
        for body in packets
        for e in body["events"]
        if CATALOGUE[e["type"]].private
        and not is_sealed(e["fields"])
        and e["fields"]["owner"] != body["player"]
    ]
    assert [e["version"] for _, e in leaked] == [proof["event"]]
    assert leaked[0][0] == "Ann" and leaked[0][1]["fields"]["owner"] == "Vlad"

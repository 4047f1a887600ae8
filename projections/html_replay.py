"""The web replay viewer: one self-contained HTML page that steps through a game's recorded events.

The page holds everything it shows (no request leaves it): the board picture after every event
(`projections.pictures.draw_board`), the timeline in words, the game's facts and the audit's verdict.
Pictures are drawn once per distinct board and stored once however often they recur, each as the
lines it changes from the one before; with the step table they are packed as gzip in base64 and
unpacked by the browser's DecompressionStream (a long game's pictures are hundreds of megabytes of
SVG, its page well under one). The events given are one
viewer's copy (`seen_by`), so the page shows no more than that viewer may see.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from importlib import resources
from string import Template
from typing import Any

from domain.actions import HOST
from domain.game import STOPPED, GameFold, game_status
from domain.hidden import PUBLIC
from event_store.recorded import RecordedEvent
from projections.pictures import draw_board
from projections.replay_source import ReplaySource
from projections.turns import turn_at

# gzip's own level 9 costs little more time than 6 here and the page is written once.
GZIP_LEVEL = 9


@dataclass(frozen=True)
class ReplayFacts:
    """What the page's header says: the game, its seats, whose copy it is and what its audit found."""

    game: str
    ruleset: str
    players: list[str]
    seen_as: str  # PUBLIC (""), a player's name or HOST
    verdict: str  # the audit's one-line verdict, as `nightkeep audit` says it
    findings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the audit could not check, and why
    chain: str = ""  # the final chain value, hex
    links: list[tuple[str, str]] = field(default_factory=list)  # (href, text) above the heading (serve)


def seen_as_words(seen_as: str) -> str:
    """Says whose copy a page shows: the public, one player, or the host's full log."""
    if seen_as == PUBLIC:
        return "the public (only what every player may see)"
    if seen_as == HOST:
        return "the host (the full log, every secret)"
    return f"{seen_as} (what {seen_as} may see)"


def status_words(fold: GameFold) -> str:
    """Says where a game stands after an event: running and who is to act, who won, or why it stopped."""
    status = game_status(fold)
    if status["status"] == STOPPED:
        return f"stopped: {status['reason']}"
    if status["winner"]:
        return f"{status['status']}, won by {status['winner']}"
    if status.get("to_act"):
        return f"{status['status']}, {', '.join(status['to_act'])} to act"
    return str(status["status"])


# Told after each event's board is ready: (events done, events in all).
Progress = Callable[[int, int], None]


# Events a worker draws per task: enough that its fold from the nearest checkpoint is small beside the
# drawing, few enough that the progress bar moves and the pool's workers end together.
CHUNK = 128
# A game shorter than this is drawn in this process: a worker's start-up (~0.5 s) would cost more.
PARALLEL_FROM = 600


def frames_of(source: ReplaySource, progress: Progress | None = None, jobs: int = 1) -> dict[str, Any]:
    """Returns the page's frames: each distinct board picture once (as its lines' changes from the one
    before, see `line_changes`), the status words once, and per event [picture index, turn, status index].
    With `jobs` > 1 a long game's boards are drawn in that many worker processes (each picture depends on
    its fold alone, so the page is the same)."""
    pictures: list[str | list[Any]] = []
    by_svg: dict[bytes, int] = {}
    statuses: dict[str, int] = {}
    steps: list[list[int]] = []
    previous: list[str] = []
    for number, (svg, words) in enumerate(_boards(source, jobs), start=1):
        digest = hashlib.blake2b(svg.encode("utf-8"), digest_size=16).digest()
        if digest not in by_svg:
            lines = svg.split("\n")
            pictures.append(line_changes(previous, lines) if pictures else svg)
            by_svg[digest], previous = len(pictures) - 1, lines
        steps.append(
            [by_svg[digest], turn_at(source.turns, number), statuses.setdefault(words, len(statuses))]
        )
        if progress is not None:
            progress(number, source.last)
    return {"pictures": pictures, "statuses": list(statuses), "steps": steps}


def _boards(source: ReplaySource, jobs: int) -> Iterator[tuple[str, str]]:
    """Yields each event's board picture and status words, in event order."""
    if jobs <= 1 or source.last < PARALLEL_FROM:
        yield from _draw_range(source, 1, source.last + 1)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    starts = range(1, source.last + 1, CHUNK)
    # forkserver: workers start fresh, not as copies of this process and whatever store threads it holds.
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_keep_source, initargs=(source,)) as pool:
        for drawn in pool.map(_draw_chunk, starts, chunksize=1):
            yield from drawn


def _draw_range(source: ReplaySource, start: int, stop: int) -> Iterator[tuple[str, str]]:
    # Every event's board is drawn: a picture may show anything of the fold (the text board names the
    # event), so only equal pictures are known to be equal.
    for number in range(start, stop):
        fold = source.fold_at(number)
        yield draw_board(fold, game_status(fold)["status"] == STOPPED), status_words(fold)


_worker_source: list[ReplaySource] = []  # a worker's copy of the game it draws


def _keep_source(source: ReplaySource) -> None:
    _worker_source[:] = [source]


def _draw_chunk(start: int) -> list[tuple[str, str]]:
    source = _worker_source[0]
    return list(_draw_range(source, start, min(start + CHUNK, source.last + 1)))


def line_changes(old: list[str], new: list[str]) -> list[Any]:
    """Returns a picture as changes to the one before it: [i, j] keeps that one's lines i to j-1, a string
    is a new line. One move changes a few of a board's hundreds of lines, and gzip only sees repeats
    within 32 KB, so whole pictures would each be packed almost anew."""
    changes: list[Any] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            changes.append([i1, i2])
        else:  # replace or insert: the new lines; delete: nothing
            changes.extend(new[j1:j2])
    return changes


def svg_pictures(frames: dict[str, Any]) -> list[str]:
    """Returns every picture of the frames as SVG text (what the page's script rebuilds)."""
    rebuilt: list[str] = []
    lines: list[str] = []
    for entry in frames["pictures"]:
        if isinstance(entry, str):
            lines = entry.split("\n")
        else:
            lines = [line for op in entry for line in ([op] if isinstance(op, str) else lines[op[0] : op[1]])]
        rebuilt.append("\n".join(lines))
    return rebuilt


def pack_frames(frames: dict[str, Any]) -> str:
    """Returns the frames as base64 of gzipped JSON (no timestamp in the gzip header: the same game gives
    the same page)."""
    data = json.dumps(frames, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(data, GZIP_LEVEL, mtime=0)).decode("ascii")


def unpack_frames(packed: str) -> dict[str, Any]:
    """Returns the frames `pack_frames` packed, every picture as SVG text (for tests and tools reading a
    page)."""
    frames: dict[str, Any] = json.loads(gzip.decompress(base64.b64decode(packed)))
    frames["pictures"] = svg_pictures(frames)
    return frames


def script_json(value: Any) -> str:
    """Returns JSON that is safe inside a <script> element: no `<`, `>` or `&` that could end it or open a
    comment, and no line separators that older script parsers refuse."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(char, escaped)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _asset(name: str) -> str:
    return resources.files("projections.web").joinpath(name).read_text(encoding="utf-8")


def _timeline_html(source: ReplaySource) -> str:
    starts = set(source.turns)
    items = []
    for number in range(1, source.last + 1):
        css = ' class="turn-start"' if number in starts else ""
        if source.is_told_above(number):  # one item per event, but a choice is told once, by its action
            items.append(f'<li value="{number}" data-event="{number}" hidden></li>')
            continue
        items.append(
            f'<li value="{number}" data-event="{number}"{css}>{html.escape(source.told(number))}</li>'
        )
    return "\n".join(items)


def _audit_html(title: str, lines: list[str], css: str) -> str:
    if not lines:
        return ""
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    return f'<section class="{css}" aria-label="{title}"><h2>{title}</h2><ul>{items}</ul></section>'


def _nav_html(links: list[tuple[str, str]]) -> str:
    if not links:
        return ""
    anchors = "".join(f'<a href="{html.escape(href)}">{html.escape(text)}</a>' for href, text in links)
    return f"<nav>{anchors}</nav>"


def replay_page(
    facts: ReplayFacts, events: list[RecordedEvent], progress: Progress | None = None, jobs: int = 1
) -> str:
    """Returns the whole HTML page that steps through `events` (one viewer's copy of a game's log); a
    long game's boards are drawn in `jobs` worker processes."""
    source = ReplaySource(facts.game, events)
    frames = frames_of(source, progress, jobs)
    heading = f"{facts.ruleset} game {facts.game}"
    # A game that has ended opens at its end (a finished one shows its winner), one still going at its start.
    last = game_status(source.fold_at(source.last))["status"]
    page_facts = {
        "game": facts.game,
        "players": facts.players,
        "events": source.last,
        "turns": source.turns,
        "ended": last in ("finished", STOPPED),
    }
    return Template(_asset("viewer.html")).substitute(
        title=html.escape(f"{heading} — nightkeep replay"),
        style=_asset("viewer.css"),
        nav=_nav_html(facts.links),
        heading=html.escape(heading),
        ruleset=html.escape(facts.ruleset),
        players=html.escape(", ".join(facts.players)),
        seen_as=html.escape(seen_as_words(facts.seen_as)),
        verdict=html.escape(facts.verdict),
        chain=html.escape(facts.chain),
        findings=_audit_html("Audit findings", facts.findings, "findings")
        + _audit_html("Audit notes", facts.notes, "notes"),
        events=source.last,
        turns_max=max(len(source.turns), 1),
        noscript="The board pictures need JavaScript; the timeline beside them is plain text.",
        timeline=_timeline_html(source),
        facts=script_json(page_facts),
        frames=pack_frames(frames),
        script=_asset("viewer.js"),
    )


@dataclass(frozen=True)
class GameRow:
    """One game in the web viewer's list: its id, ruleset, where it stands, its players and events."""

    game: str
    ruleset: str
    status: str
    players: list[str]
    events: int
    seen_as: str
    note: str = ""


def games_page(rows: list[GameRow], store: str) -> str:
    """Returns the web viewer's list of a store's games, each a link to its replay page."""
    body = "\n".join(
        "<tr>"
        f'<td><a href="/games/{html.escape(r.game)}"><code>{html.escape(r.game)}</code></a></td>'
        f"<td>{html.escape(r.ruleset)}</td><td>{html.escape(r.status)}</td>"
        f"<td>{html.escape(', '.join(r.players))}</td><td>{r.events}</td>"
        f"<td>{html.escape(seen_as_words(r.seen_as))}</td><td>{html.escape(r.note)}</td>"
        "</tr>"
        for r in rows
    )
    table = (
        "<table><caption>Every game in this store, most recently played first</caption><thead><tr>"
        '<th scope="col">game</th><th scope="col">ruleset</th><th scope="col">status</th>'
        '<th scope="col">players</th><th scope="col">events</th><th scope="col">seen as</th>'
        '<th scope="col">note</th></tr></thead>'
        f"<tbody>{body}</tbody></table>"
        if rows
        else "<p>No games in this store yet.</p>"
    )
    return Template(_asset("games.html")).substitute(
        style=_asset("viewer.css"), store=html.escape(store), table=table
    )

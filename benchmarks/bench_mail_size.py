"""What a typical turn mail weighs before and after mail for phones, per ruleset, and what its picture costs.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_mail_size.py            # best of 5 for the timings
    python benchmarks/bench_mail_size.py --quick    # dungeon-short only, once: a smoke run

Set-up, not timed: one seeded bot game per ruleset (the main board alone and with each expansion) played
to a mid-game point in a temporary SQLite store. The turn mail is the one the seat to act gets: the events
of the last round of turns (one mail per turn of play), redacted for it, with its signed events packet
(made by the host's own `event_packet`). "Before" is the mail as it was composed until this change (git
7dd29df: the timeline and the full text board, the packet appended to the text and attached again, one
text/plain part); "after" is `message_for` now (the words of `mail_words`, text and HTML parts, the board
PNG inline, the packet attached once, a viewer link). Both are counted as the bytes SMTP sends (CRLF).
Timed (best of N, in CPU time, time.process_time: it holds on a loaded machine; the picture's and the
words' wall times are in the JSON line too): the board picture for that seat (`mail_picture`), and its steps
(the SVG, cairo's PNG of every page 960 units wide, the palette), and the words (`mail_text`).
Output: a table on stdout, then one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import logging
import sys
import tempfile
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from unittest.mock import patch
from uuid import UUID

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import structlog  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402
from tabulate import tabulate  # noqa: E402

from benchmarks.clocks import Spent, best, stopwatch  # noqa: E402
from cli.pbem_commands import board_png, mail_text  # noqa: E402
from domain.events import TurnEnded  # noqa: E402
from event_store.app.service import GameService, play_with_bots  # noqa: E402
from event_store.pbem.host_parts import Outgoing, Seat  # noqa: E402
from event_store.pbem.host_runner import message_for  # noqa: E402
from event_store.pbem.hosting import Host  # noqa: E402
from event_store.pbem.keys import KeyPair  # noqa: E402
from event_store.pbem.mail import PACKET_MEDIA_TYPE  # noqa: E402
from event_store.recorded import RecordedEvent, fold_recorded, redacted  # noqa: E402
from projections.mail_picture import PICTURE_WIDTH, fewer_colours  # noqa: E402
from projections.pictures import draw_board  # noqa: E402
from projections.pictures.kit import to_png  # noqa: E402
from projections.timeline import describe_events  # noqa: E402
from projections.views import render_board  # noqa: E402

THREE = [("Ann", None), ("Bo", None), ("Cy", None)]
GAMES: dict[str, tuple[str, list[tuple[str, str | None]], dict[str, str], int]] = {
    "dungeon-short": ("dungeon-short", THREE, {}, 24),
    "keep-run": ("keep-run", [("Ann", None), ("Bo", None)], {}, 24),
    "vampire-empire": ("vampire-empire", [("Hana", "human"), ("Vlad", "vampire")], {}, 40),
    "talisman": ("talisman", THREE, {}, 40),
    "talisman+dungeon": ("talisman", THREE, {"dungeon": "true"}, 60),
    "talisman+dungeon+keep": ("talisman", THREE, {"dungeon": "true", "keep": "true"}, 60),
}
VIEWER = "https://club.example.org/nightkeep"


def wire_bytes(message: EmailMessage) -> int:
    """Returns the size of a message as SMTP sends it."""
    return len(message.as_bytes(policy=message.policy.clone(linesep="\r\n")))


def before_text(service: GameService, game: UUID, player: str, old: int, new: int) -> str:
    """Returns a mail's text as it was written until this change: the timeline, then the full board."""
    mine = redacted(service.recorded_events(game, lte=new), player)
    ruleset = fold_recorded(mine).ruleset_name
    lines = [f"Game {game} ({ruleset}), as {player} sees it.", f"What happened since event {old}:"]
    told = describe_events(ruleset, mine)[old:new]
    lines += [f"{r.version:>5}  {line}" for r, line in zip(mine[old:new], told, strict=True)]
    return "\n".join([*lines, "", render_board(ruleset, fold_recorded(mine).state)]) + "\n"


def before_mail(subject: str, text: str, packet: str) -> EmailMessage:
    """Returns a mail composed as it was until this change: one text part ending with the packet, and the
    packet attached again."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "host@example.org", "ann@example.org", subject
    message["Message-ID"], message["Date"] = "<outbox-1.game@nightkeep>", "Tue, 08 Dec 2026 20:00:00 +0000"
    body = f"{text.rstrip()}\n\n{packet.strip()}\n"
    message.set_content(body, cte=None if body.isascii() else "quoted-printable")
    maintype, subtype = PACKET_MEDIA_TYPE.split("/")
    message.add_attachment(packet.encode(), maintype=maintype, subtype=subtype, filename="packet.nkp")
    return message


def round_before(recorded: list[RecordedEvent], seats: int) -> int:
    """Returns the event a round of turns ago (each seat's mail once per turn tells one round), or 20
    events back in a game with no turns yet."""
    ended = [r.version for r in recorded if isinstance(r.event, TurnEnded)]
    return ended[-seats] if len(ended) >= seats else max(len(recorded) - 20, 0)


def best_ms(repeats: int, run: Callable[[], object]) -> Spent:
    """Returns the best CPU and the best wall time of `repeats` runs, in milliseconds."""
    times = []
    for _ in range(repeats):
        with stopwatch() as spent:
            run()
        times.append(spent)
    return best(times) * 1000


def measure(host: Host, name: str, repeats: int) -> dict[str, Any]:
    """Plays one game and returns the figures of its seat-to-act's turn mail."""
    service = host.service
    ruleset, seats, options, actions = GAMES[name]
    game = service.create_game(ruleset, seats, options, None, [], False)
    play_with_bots(service, game, seed=7, max_actions=actions)
    recorded = service.recorded_events(game)
    head = len(recorded)
    to_act = list(service.get_game(game).status.get("to_act", []))
    player = to_act[0] if to_act else seats[0][0]
    old = round_before(recorded, len(seats))
    seat = Seat(player, host.key.public, "ann@example.org", old, old)
    packet = host.event_packet(game, seat, recorded, to_act, "host@example.org")
    subject = f"nightkeep events: game {game} event {head}, your turn, {player}"
    before = before_text(service, game, player, old, head)
    after_text = mail_text(service, game, player, old, head)
    mail = Outgoing(1, game, player, "ann@example.org", subject, after_text, packet, head)

    def draw(g: UUID, p: str, v: int) -> bytes:
        return board_png(service, g, p, v)

    after = message_for(mail, "host@example.org", draw, VIEWER)
    png = board_png(service, game, player, head)
    fold = fold_recorded(redacted(recorded, player))
    svg = draw_board(fold)
    raw = to_png(svg, PICTURE_WIDTH / 960)
    picture = best_ms(repeats, lambda: board_png(service, game, player, head))
    words = best_ms(repeats, lambda: mail_text(service, game, player, old, head))
    return {
        "events": head - old,
        "before_bytes": wire_bytes(before_mail(subject, before, packet)),
        "after_bytes": wire_bytes(after),
        "packet_bytes": len(packet),
        "png_bytes": len(png),
        "before_widest": max(map(len, before.splitlines())),
        "after_widest": max(map(len, after_text.splitlines())),
        "png_ms": round(picture.cpu, 1),
        "png_wall_ms": round(picture.wall, 1),
        "svg_ms": round(best_ms(repeats, lambda: draw_board(fold)).cpu, 1),
        "cairo_ms": round(best_ms(repeats, lambda: to_png(svg, PICTURE_WIDTH / 960)).cpu, 1),
        "palette_ms": round(best_ms(repeats, lambda: fewer_colours(raw)).cpu, 1),
        "cairo_png_bytes": len(raw),
        "words_ms": round(words.cpu, 1),
        "words_wall_ms": round(words.wall, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="dungeon-short only, once: a smoke run")
    args = parser.parse_args()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))
    counter = itertools.count()
    seeds = patch(
        "event_store.app.service.new_seed", lambda: hashlib.sha256(b"bench-mail-%d" % next(counter)).digest()
    )
    key = KeyPair("host", Ed25519PrivateKey.from_private_bytes(bytes(32)))
    with seeds, tempfile.TemporaryDirectory() as folder:
        host = Host(GameService.open(str(Path(folder) / "host.sqlite")), key)
        names = ["dungeon-short"] if args.quick else list(GAMES)
        figures = {name: measure(host, name, 1 if args.quick else 5) for name in names}
    heads = ["ruleset", "events", "before B", "after B", "after/before", "PNG B", "packet B", "widest"]
    heads += ["PNG CPU ms (svg+cairo+palette)", "words CPU ms"]
    rows = [
        [
            name,
            f["events"],
            f["before_bytes"],
            f["after_bytes"],
            round(f["after_bytes"] / f["before_bytes"], 2),
            f["png_bytes"],
            f["packet_bytes"],
            f"{f['before_widest']} -> {f['after_widest']}",
            f"{f['png_ms']} ({f['svg_ms']}+{f['cairo_ms']}+{f['palette_ms']})",
            f["words_ms"],
        ]
        for name, f in figures.items()
    ]
    print(tabulate(rows, headers=heads, disable_numparse=True))
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()

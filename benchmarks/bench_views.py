"""What fitting the terminal costs: board views and replay frames at 80x24 against the full layout.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_views.py            # 3 seeded bot games per ruleset, every 5th event, best of 5
    python benchmarks/bench_views.py --quick    # one game per ruleset, every 20th event, once

Set-up, not timed: seeded bot games in an in-memory store, each folded once at every sampled event.
Timed (best of N, in CPU time, time.process_time, which holds on a loaded machine; the frame's wall time
is in the JSON line as `frame_wall_us`): `render_board` of every sampled state at the full width (110, the
layout piped output gets) and at 80 columns (where the compact layouts are built with rich tables), and
`compose_frame` of the replay at 80x24 (which may try the full, compact and tight layouts in turn).
Output: a table on stdout, then one JSON line with every figure (microseconds per board or frame).
A frame that takes well under a keypress's worth of time (~16 ms, one screen refresh) is fast enough.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import structlog  # noqa: E402

from benchmarks.clocks import Spent, best, stopwatch  # noqa: E402
from cli.replay_command import compose_frame, player_styles  # noqa: E402
from domain.plain import copy_plain  # noqa: E402
from event_store.app.service import GameService, play_with_bots  # noqa: E402
from projections.replay_source import ReplaySource  # noqa: E402
from projections.views import render_board  # noqa: E402
from tests.fresh_games import seeded_seeds  # noqa: E402

SEATS = {
    "dungeon-short": [("Annabelle", None), ("Bo", None), ("Christopher", None), ("Di", None)],
    "keep-run": [("Annabelle", None), ("Bartholomew", None), ("Cy", None)],
    "vampire-empire": [("Vladislav", None), ("Hana", None)],
}


def _sources(games: int) -> dict[str, list[ReplaySource]]:
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))
    service = GameService.open(":memory:")
    out: dict[str, list[ReplaySource]] = {}
    with seeded_seeds():
        for ruleset, seats in SEATS.items():
            for seed in range(games):
                game = service.create_game(ruleset, seats)
                play_with_bots(service, game, seed=seed)
                out.setdefault(ruleset, []).append(ReplaySource(str(game), service.recorded_events(game)))
    return out


def _best(repeats: int, work: list[object], run: object) -> Spent:
    """Returns the best CPU and wall microseconds per item of `repeats` runs over the work."""
    times = []
    for _ in range(repeats):
        with stopwatch() as spent:
            for item in work:
                run(item)  # type: ignore[operator]
        times.append(spent)
    return best(times) / len(work) * 1e6


def main() -> None:
    """Prints microseconds per board and per frame, per ruleset."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one game per ruleset, every 20th event, once")
    args = parser.parse_args()
    games, repeats, step = (1, 1, 20) if args.quick else (3, 5, 5)
    figures: dict[str, dict[str, float]] = {}
    print(f"{'ruleset':<16}{'boards':>8}{'full µs':>10}{'80 col µs':>11}{'frame 80x24 µs':>16}  (CPU time)")
    for ruleset, sources in _sources(games).items():
        stops = [(s, n) for s in sources for n in range(1, s.last + 1, step)]
        states = [(s.ruleset, copy_plain(s.fold_at(n).state)) for s, n in stops]
        colours = {id(s): player_styles(s) for s in sources}
        full = _best(repeats, states, lambda rs: render_board(rs[0], rs[1])).cpu
        narrow = _best(repeats, states, lambda rs: render_board(rs[0], rs[1], width=80)).cpu

        def framed(stop: tuple[ReplaySource, int], c: dict[int, dict[str, str]] = colours) -> object:
            return compose_frame(stop[0], stop[1], "", 80, 24, c[id(stop[0])])

        frames = _best(repeats, stops, framed)
        frame = frames.cpu
        figures[ruleset] = {"boards": len(states), "full_us": full, "narrow_us": narrow, "frame_us": frame}
        figures[ruleset]["frame_wall_us"] = frames.wall
        print(f"{ruleset:<16}{len(states):>8}{full:>10.0f}{narrow:>11.0f}{frame:>16.0f}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

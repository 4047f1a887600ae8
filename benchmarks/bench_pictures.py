"""What a board picture costs against the text board it stands beside, per ruleset.

Run from anywhere (the project root is put on sys.path):

    python benchmarks/bench_pictures.py            # every replay in replays/, every 10th event, best of 5
    python benchmarks/bench_pictures.py --quick    # a dozen boards a ruleset, once: a smoke run

Set-up, not timed: each replay file in replays/ read and folded at every sampled event (public view).
Timed (best of N, in CPU time, time.process_time, which holds on a loaded machine; the SVG's wall
time, time.perf_counter, is in the JSON line beside it): `render_board` of every sampled state at 110
columns (the text `show` prints to a pipe) and `draw_board` of the same folds (the SVG `show --svg`
writes, and the web viewer embeds per step; each repeat starts with no Talisman cell kept from the
last), then `to_png` of a few of those pictures (cairosvg). Two baselines: the text board (how many
text boards one picture costs) and python-chess's `chess.svg.board` of 120 positions of a seeded random
game (the board pictures the issue names; `pip install '.[bench]'`), per picture.
Output: a table on stdout, then one JSON line with every figure (milliseconds per board, bytes per SVG).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.clocks import Spent, best, stopwatch  # noqa: E402
from domain.game import STOPPED, game_status  # noqa: E402
from event_store.app.replay_file import read_replay  # noqa: E402
from event_store.app.seats import seen_by  # noqa: E402
from event_store.log_reader import read_file  # noqa: E402
from projections.pictures import draw_board  # noqa: E402
from projections.pictures.kit import to_png  # noqa: E402
from projections.pictures.talisman_cells import _cell_svg  # noqa: E402
from projections.replay_source import ReplaySource  # noqa: E402
from projections.views import render_board  # noqa: E402


def _folds(step: int) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for path in sorted((ROOT / "replays").glob("*.nkr")):
        replay = read_replay(read_file(path), path.name)
        source = ReplaySource(path.name, seen_by(replay.events, None))
        for number in range(1, source.last + 1, step):
            fold = source.fold_at(number)
            out.setdefault(source.ruleset, []).append(fold)
    return out


def _best(
    repeats: int, work: list[Any], run: Callable[[Any], object], fresh: Callable[[], None] = lambda: None
) -> Spent:
    """Returns the best CPU and wall milliseconds per item of `repeats` runs over the work."""
    times = []
    for _ in range(repeats):
        fresh()
        with stopwatch() as spent:
            for item in work:
                run(item)
        times.append(spent)
    return best(times) / len(work) * 1000


def _stopped(fold: Any) -> bool:
    return bool(game_status(fold)["status"] == STOPPED)


def _chess_baseline(repeats: int) -> tuple[float, int]:
    import random

    import chess
    import chess.svg

    board, pick, boards = chess.Board(), random.Random(1), []
    while len(boards) < 120 and not board.is_game_over():
        board.push(pick.choice(list(board.legal_moves)))
        boards.append(board.copy())
    sizes = sorted(len(chess.svg.board(b, size=360).encode()) for b in boards)
    return _best(repeats, boards, lambda b: chess.svg.board(b, size=360)).cpu, sizes[len(sizes) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples, once: a smoke run")
    args = parser.parse_args()
    step, repeats, pictures = (80, 1, 1) if args.quick else (10, 5, 5)
    figures: dict[str, dict[str, float]] = {}
    for ruleset, every in _folds(step).items():
        folds = every[:: max(len(every) // 12, 1)] if args.quick else every
        text_spent = _best(
            repeats, folds, lambda f: render_board(f.ruleset_name, f.state, _stopped(f), width=110)
        )
        # Each repeat starts with no Talisman cell kept (a page draws each event once, in order).
        drawn = _best(repeats, folds, lambda f: draw_board(f, _stopped(f)), _cell_svg.cache_clear)
        text, picture = text_spent.cpu, drawn.cpu
        sizes = [len(draw_board(f, _stopped(f)).encode()) for f in folds]
        some = [draw_board(f, _stopped(f)) for f in folds[:: max(len(folds) // pictures, 1)]]
        png = _best(1, some, to_png).cpu
        figures[ruleset] = {
            "boards": len(folds),
            "text_ms": round(text, 3),
            "svg_ms": round(picture, 3),
            "svg_wall_ms": round(drawn.wall, 3),
            "svg_per_text": round(picture / text, 2),
            "png_ms": round(png, 1),
            "svg_bytes_median": sorted(sizes)[len(sizes) // 2],
        }
    chess_ms, chess_bytes = _chess_baseline(repeats)
    for f in figures.values():
        f["svg_per_chess"] = round(f["svg_ms"] / chess_ms, 1)
    figures["python-chess"] = {"boards": 120, "svg_ms": round(chess_ms, 3), "svg_bytes_median": chess_bytes}
    heads = ("boards", "text ms", "svg ms", "svg/text", "png ms", "svg KB")
    print("milliseconds of CPU time per board (best of each)")
    print(f"{'ruleset':16}" + "".join(f" {head:>8}" for head in heads))
    for ruleset, f in figures.items():
        if ruleset == "python-chess":
            print(
                f"{ruleset:16} {f['boards']:>8} {'':>8} {f['svg_ms']:>8.2f} {'':>8} {'':>8} "
                f"{f['svg_bytes_median'] / 1024:>8.1f}"
            )
            continue
        print(
            f"{ruleset:16} {f['boards']:>8} {f['text_ms']:>8.2f} {f['svg_ms']:>8.2f}"
            f" {f['svg_per_text']:>8.2f} {f['png_ms']:>8.1f} {f['svg_bytes_median'] / 1024:>8.1f}"
        )
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()

"""The web replay viewer in a real headless Chromium: `export --html` pages and `nightkeep serve`.

Pages are loaded from the file (or the local server) with every other request refused and recorded;
console errors, page errors and dialogs are collected. The secrets test reads the page's own bytes,
its packed pictures unpacked, for what the host fold says the other player holds.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.game import game_status
from event_store.app.replay_file import read_replay
from projections.castle_view import card_name, character_name, load_human_deck
from projections.html_replay import ReplayFacts, pack_frames, replay_page, status_words, unpack_frames
from projections.html_replay import frames_of as html_frames
from projections.pictures import draw_board
from projections.replay_source import ReplaySource
from projections.turns import turn_at
from tests.browser import WatchedPage, chromium, open_page

pytestmark = pytest.mark.slow  # the headless browser, and a real server for its pages

__all__ = ["chromium"]  # the session's browser, a fixture

ROOT = Path(__file__).resolve().parents[2]
DUNGEON = ROOT / "replays" / "dungeon-short-3p-001.nkr"  # a finished bot game: Bo won
CASTLE = ROOT / "replays" / "vampire-empire-001.nkr"  # the host's full log: Hana against Vlad
READY = "body[data-ready=true]"
FRAMES = re.compile(r'<script type="text/plain" id="nk-frames"[^>]*>([^<]*)</script>')


def nk(db: str, *args: str) -> Any:
    return CliRunner().invoke(cli, ["--db", db, *args])


def imported(db: str, path: Path) -> str:
    result = nk(db, "import", str(path), "--json")
    assert result.exit_code == 0, result.output
    return str(json.loads(result.stdout)["game"])


def exported(db: str, game: str, out: Path, *extra: str) -> str:
    result = nk(db, "export", game, "--html", str(out), *extra)
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def frames_of(page: str) -> dict[str, Any]:
    found = FRAMES.search(page)
    assert found, "the page holds no packed frames"
    return unpack_frames(found.group(1))


def text_of(markup: str) -> str:
    """Returns markup's text with tags as spaces and runs of white space as one (a wrapped line joins)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def fact(page: str, name: str) -> str:
    """Returns what the page's header says after `name`."""
    found = re.search(rf"<dt>{re.escape(name)}</dt><dd[^>]*>(.*?)</dd>", page)
    assert found, name
    return text_of(found.group(1))


def page_words(page: str) -> str:
    """Returns everything a page can show in words: its own text and every picture's and status's."""
    frames = frames_of(page)
    return "\n".join([text_of(page), *map(text_of, frames["pictures"]), *frames["statuses"]])


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Pages exported from a SQLite store: the dungeon game's public page, and the castle game's as Hana,
    as Vlad and for the public."""
    folder = tmp_path_factory.mktemp("pages")
    db = str(folder / "games.sqlite")
    dungeon, castle = imported(db, DUNGEON), imported(db, CASTLE)
    made = {"dungeon": folder / "dungeon.html"}
    exported(db, dungeon, made["dungeon"])
    for viewer in ("Hana", "Vlad", "public"):
        made[viewer] = folder / f"castle-{viewer}.html"
        exported(db, castle, made[viewer], *(["--as", viewer] if viewer != "public" else []))
    return made


def loaded(context: Any, path: Path, width: int = 1280) -> WatchedPage:
    url = path.resolve().as_uri()
    watched = open_page(context, (url,), width=width)
    watched.page.goto(url)
    watched.page.wait_for_selector(READY)
    return watched


def board_svg(watched: WatchedPage) -> str:
    return str(watched.page.inner_html("#board"))


def position(watched: WatchedPage) -> str:
    return str(watched.page.inner_text("#position"))


# --- the exported page in the browser ------------------------------------------------------------------


def test_the_page_loads_with_no_error_and_asks_nothing_of_the_network(chromium, pages):
    watched = loaded(chromium, pages["dungeon"])
    assert watched.problems() == []
    assert watched.requests == [pages["dungeon"].resolve().as_uri()]
    assert position(watched).startswith("Event 174 of 174 (")  # a finished game opens at its end
    assert watched.page.locator("#board > svg > title").count() == 1  # the picture is SVG in the page
    watched.page.close()


def test_the_page_names_no_url_but_the_svg_namespaces():
    page = replay_page(_facts(["Ann", "Bo", "Cy"]), read_replay(DUNGEON.read_bytes()).events)
    every = [page, *frames_of(page)["pictures"]]
    urls = {url for text in every for url in re.findall(r"[a-z][a-z0-9+.-]*://[^\s\"'<>)]*", text)}
    assert urls <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}


def test_each_distinct_board_is_drawn_once_and_every_event_gets_its_own_board():
    source = ReplaySource("g", read_replay(DUNGEON.read_bytes()).events)
    frames = unpack_frames(pack_frames(html_frames(source)))
    assert len(frames["steps"]) == source.last
    assert len(set(frames["pictures"])) == len(frames["pictures"]) < source.last
    for number in (1, 2, 50, 51, source.last):
        fold = source.fold_at(number)
        picture, turn, status = frames["steps"][number - 1]
        assert frames["pictures"][picture] == draw_board(fold, game_status(fold)["status"] == "stopped")
        assert turn == turn_at(source.turns, number)
        assert frames["statuses"][status] == status_words(fold)


def shown_text(watched: WatchedPage) -> str:
    return re.sub(r"\s+", "", str(watched.page.locator("#board > svg").text_content()))


def picture_text(svg: str) -> str:
    return re.sub(r"\s+", "", html.unescape(re.sub(r"<[^>]+>", "", svg)))


def test_forward_back_and_the_arrow_keys_step_the_board(chromium, pages):
    frames = frames_of(pages["dungeon"].read_text())
    steps = frames["steps"]
    # the first event after which the next one changes the picture
    changing = next(n for n in range(1, len(steps)) if steps[n - 1][0] != steps[n][0])
    watched = loaded(chromium, pages["dungeon"])
    page = watched.page
    page.fill("#event-input", str(changing))
    page.click("text=Go to event")
    before = board_svg(watched)
    page.click("#forward")
    assert position(watched).startswith(f"Event {changing + 1} of 174")
    after = board_svg(watched)
    assert after != before
    # the script rebuilt the very picture drawn for that event from the changes the page holds
    assert shown_text(watched) == picture_text(frames["pictures"][steps[changing][0]])
    page.click("#back")
    assert board_svg(watched) == before
    page.locator("body").focus()
    page.keyboard.press("ArrowRight")
    assert position(watched).startswith(f"Event {changing + 1} of 174") and board_svg(watched) == after
    page.keyboard.press("ArrowLeft")
    assert board_svg(watched) == before
    page.keyboard.press("End")
    assert position(watched).startswith("Event 174 of 174")
    page.keyboard.press("Home")
    assert position(watched).startswith("Event 1 of 174")
    current = page.locator("#timeline li.current")
    assert current.count() == 1 and current.get_attribute("aria-current") == "step"
    assert current.get_attribute("data-event") == "1"
    assert watched.problems() == []
    page.close()


def test_the_slider_at_its_end_shows_the_winner(chromium, pages):
    replay = read_replay(DUNGEON.read_bytes())
    winner = game_status(replay.fold())["winner"]
    assert winner == "Bo"
    watched = loaded(chromium, pages["dungeon"])
    watched.page.fill("#slider", "174")
    assert position(watched).startswith("Event 174 of 174")
    assert f"won by {winner}" in watched.page.inner_text("#status")
    assert winner in watched.page.locator("#board svg").text_content()
    assert watched.page.get_attribute("#slider", "aria-valuetext") == "event 174 of 174"
    assert watched.problems() == []
    watched.page.close()


def test_jumping_to_a_turn_shows_the_event_where_it_starts(chromium, pages):
    source = ReplaySource("g", read_replay(DUNGEON.read_bytes()).events)
    watched = loaded(chromium, pages["dungeon"])
    page = watched.page
    page.fill("#turn-input", "5")
    page.click("text=Go to turn")
    assert position(watched) == f"Event {source.turns[4]} of 174 (turn 5 of {len(source.turns)})"
    page.fill("#turn-input", str(len(source.turns) + 1))
    page.click("text=Go to turn")
    assert position(watched).startswith(f"Event {source.turns[4]} of")  # stays put, says why
    assert page.inner_text("#jump-message") == f"This game has turns 1 to {len(source.turns)}."
    assert watched.problems() == []
    page.close()


def test_the_buttons_and_slider_are_labelled_and_space_plays_and_pauses(chromium, pages):
    watched = loaded(chromium, pages["dungeon"])
    page = watched.page
    page.locator("body").focus()
    page.keyboard.press("Home")  # a finished game opens at its end, where there is nothing to play
    names = [page.get_by_role("button", name=n).count() for n in ("First", "Back", "Play", "Forward", "Last")]
    assert names == [1, 1, 1, 1, 1]
    assert page.get_by_label("Event 1 of 174").get_attribute("type") == "range"  # the slider's label
    page.keyboard.press(" ")
    assert page.get_by_role("button", name="Pause").count() == 1
    page.keyboard.press(" ")
    assert page.get_by_role("button", name="Play").count() == 1
    assert "Space" in page.inner_text(".keys") and "Home" in page.inner_text(".keys")
    page.close()


def test_board_and_timeline_sit_side_by_side_when_wide_and_stack_at_phone_width(chromium, pages):
    for width, side_by_side in ((1280, True), (390, False)):
        watched = loaded(chromium, pages["dungeon"], width=width)
        board = watched.page.locator(".board-pane").bounding_box()
        timeline = watched.page.locator(".timeline-pane").bounding_box()
        assert (timeline["x"] > board["x"] + board["width"] - 1) is side_by_side, width
        assert (timeline["y"] >= board["y"] + board["height"] - 1) is not side_by_side, width
        scroll = watched.page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, f"the page scrolls sideways at {width} px"
        watched.page.close()


def test_the_header_names_the_game_its_copy_the_audit_verdict_and_the_final_chain(pages, tmp_path):
    page = pages["Hana"].read_text()
    replay = read_replay(CASTLE.read_bytes())
    copy = tmp_path / "hana.nkr"
    db = str(pages["Hana"].parent / "games.sqlite")
    game = str(replay.header["game"])
    assert nk(db, "export", game, "-o", str(copy), "--as", "Hana").exit_code == 0
    audited = nk(db, "audit", str(copy))
    said = audited.stdout.splitlines()
    verdict = said[0].split(" — ", 1)[1]
    notes = [line.strip().removeprefix("note: ") for line in said[1:]]
    assert notes  # a sealed copy's audit says what it checked how
    assert text_of(page.split("<h1>", 1)[1].split("</h1>", 1)[0]) == f"vampire-empire game {game}"
    assert fact(page, "Players") == "Hana, Vlad"
    assert fact(page, "Seen as") == "Hana (what Hana may see)"
    assert fact(page, "Audit").startswith(f"{verdict} (")
    assert all(f"<li>{html.escape(note)}</li>" in page for note in notes)
    assert fact(page, "Final chain value") == read_replay(copy.read_bytes()).events[-1].chain.hex()


# --- secrets --------------------------------------------------------------------------------------------


def held_cards(source: ReplaySource, player: str) -> set[str]:
    """Returns the name of every card the host fold shows in a player's hand at any event."""
    return {
        card_name(c)
        for n in range(1, source.last + 1)
        for c in source.fold_at(n).state["hands"].get(player, {})
    }


def identities(source: ReplaySource, player: str, side: str) -> str:
    """Returns the characters a player's identity tokens name as of their side, as the board lists them."""
    tokens = source.fold_at(source.last).state["tokens"][player]
    return ", ".join(sorted(character_name(c) for c, t in tokens.items() if t["identity"] == side))


def test_a_players_page_holds_none_of_the_other_players_secrets_and_all_of_their_own(pages):
    host = ReplaySource("g", read_replay(CASTLE.read_bytes()).events)
    hana, vlad, public = (page_words(pages[k].read_text()) for k in ("Hana", "Vlad", "public"))
    # A card name is a secret of its holder when the public never sees it (a played card is public).
    human_names = {card.name for card in load_human_deck().cards.values()}
    vlad_secret = {name for name in held_cards(host, "Vlad") - human_names if name not in public}
    hana_secret = {name for name in held_cards(host, "Hana") if name not in public}
    told = [host.told(n) for n in range(1, host.last + 1)]
    vlad_tokens = next(t for t in told if t.startswith("Vlad drew the vampire tokens"))
    hana_tokens = next(t for t in told if t.startswith("Hana drew the human tokens"))
    vampires = identities(host, "Vlad", "vampire") + " are vampires"  # as the board says a player's tokens
    humans = identities(host, "Hana", "human") + " are human"
    assert vlad_secret and hana_secret, "the game holds no card only its holder saw"
    hana_bytes = pages["Hana"].read_bytes()
    for secret in [*vlad_secret, vlad_tokens, vampires]:
        assert secret not in hana and secret not in public, secret
        assert secret.encode() not in hana_bytes, secret
        assert secret in vlad, secret
    for own in [*hana_secret, hana_tokens, humans, "Your hand (Hana"]:
        assert own in hana and own not in public and own not in vlad, own


def _facts(players: list[str], seen_as: str = "", game: str = "g") -> ReplayFacts:
    return ReplayFacts(game, "test", players, seen_as, "clean", chain="00")


def test_names_that_look_like_markup_stay_text_and_run_nothing(chromium, tmp_path):
    hostile = "</script><script>alert(1)</script><!--"
    page = replay_page(_facts([hostile, "Bo"], game=hostile), read_replay(DUNGEON.read_bytes()).events)
    assert "</script><script>alert(1)" not in page
    path = tmp_path / "hostile.html"
    path.write_text(page, encoding="utf-8")
    watched = loaded(chromium, path)
    assert watched.problems() == []
    assert hostile in watched.page.inner_text("h1")
    assert watched.page.evaluate(
        "JSON.parse(document.getElementById('nk-facts').textContent).players[0]"
    ) == (hostile)
    watched.page.close()


# --- the command line -------------------------------------------------------------------------------------


def test_export_html_writes_the_page_once_and_refuses_bad_requests_in_one_line(db, tmp_path):
    game = imported(db, DUNGEON)
    out = tmp_path / "game.html"
    result = nk(db, "export", game, "--html", str(out))
    assert result.exit_code == 0 and result.stdout.startswith(f"wrote {out} (")
    written = out.read_bytes()
    for args in (
        [game, "--html", str(out)],  # exists
        [game],  # neither
        [game, "--html", str(tmp_path / "a.html"), "-o", str(tmp_path / "a.nkr")],  # both
        [game, "--html", str(tmp_path / "b.html"), "--as", "Nobody"],
        [str(tmp_path / "missing.nkr"), "--html", str(tmp_path / "c.html")],
    ):
        refused = nk(db, "export", *args)
        assert refused.exit_code == 2 and len(refused.output.strip().splitlines()) == 1, (
            args,
            refused.output,
        )
    assert out.read_bytes() == written
    assert not any((tmp_path / n).exists() for n in ("a.html", "a.nkr", "b.html", "c.html"))
    from_file = tmp_path / "from-file.html"
    assert nk(db, "export", str(DUNGEON), "--html", str(from_file)).exit_code == 0
    assert from_file.read_bytes() == written  # a replay file read directly gives the same page
    to_stdout = nk(db, "export", game, "--html", "-")
    assert to_stdout.exit_code == 0 and to_stdout.stdout_bytes == written


# --- nightkeep serve ---------------------------------------------------------------------------------------


@pytest.fixture
def server(db: str) -> Iterator[tuple[str, dict[str, str]]]:
    """Runs `nightkeep serve --port 0` on a store holding the two games; yields its URL and the games."""
    games = {"dungeon": imported(db, DUNGEON), "castle": imported(db, CASTLE)}
    process = subprocess.Popen(
        [sys.executable, "-m", "nightkeep", "--db", db, "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "NO_PROXY": "127.0.0.1"},
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, line + (process.stderr.read() if process.stderr else "")
        yield found.group(0), games
    finally:
        process.terminate()
        process.wait()


def fetch(url: str, method: str = "GET") -> tuple[int, bytes]:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(urllib.request.Request(url, method=method)) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read()


def test_serve_lists_the_games_and_shows_each_read_only(chromium, server, db, tmp_path):
    base, games = server
    watched = open_page(chromium, (base,))
    watched.page.goto(base)
    rows = watched.page.locator("tbody tr")
    assert rows.count() == 2
    assert "Bo won" in watched.page.inner_text("tbody") and "vampire-empire" in watched.page.inner_text(
        "tbody"
    )
    watched.page.click(f"a[href='/games/{games['castle']}']")
    watched.page.wait_for_selector(READY)
    assert fact(watched.page.content(), "Seen as").startswith("the public")
    assert "won by Hana" in watched.page.inner_text("#status")  # a finished game opens at its end
    assert watched.problems() == []
    watched.page.close()
    assert fetch(base, "POST")[0] == 405
    assert fetch(f"{base}games/{games['castle']}", "DELETE")[0] == 405
    assert fetch(f"{base}games/{games['castle']}", "HEAD") == (200, b"")
    status, body = fetch(f"{base}games/ffffffff")
    assert status == 404 and len(body.decode().splitlines()) == 1
    status, body = fetch(f"{base}games/{games['castle']}.nkr")
    public = tmp_path / "public.nkr"
    assert nk(db, "export", games["castle"], "-o", str(public)).exit_code == 0
    assert status == 200 and body == public.read_bytes()


def test_serve_never_serves_the_hosts_log_and_a_busy_port_is_one_line(server, db):
    refused = nk(db, "serve", "--as", "host")
    assert refused.exit_code == 2 and "never shows the host's full log" in refused.output
    port = server[0].rsplit(":", 1)[1].strip("/")
    busy = nk(db, "serve", "--port", port)
    assert busy.exit_code == 2 and len(busy.output.strip().splitlines()) == 1, busy.output
    assert "cannot listen on 127.0.0.1:" in busy.output
    bad = nk(db, "serve", "--port", "70000")
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1, bad.output
    nobody = nk(db, "serve", "--as", "Nobody", "--port", port)  # said before the busy port refuses
    assert "Nobody sits in no game of this store yet: every page is the public copy" in nobody.stderr


def test_serve_as_a_player_shows_their_copy_where_they_sit_and_the_public_copy_elsewhere(tmp_path):
    db = str(tmp_path / "games.sqlite")
    games = {"dungeon": imported(db, DUNGEON), "castle": imported(db, CASTLE)}
    process = subprocess.Popen(
        [sys.executable, "-m", "nightkeep", "--db", db, "serve", "--port", "0", "--as", "Hana"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert process.stdout is not None
        base = re.search(r"http://127\.0\.0\.1:\d+/", process.stdout.readline())
        assert base
        castle = fetch(f"{base.group(0)}games/{games['castle']}")[1].decode()
        dungeon = fetch(f"{base.group(0)}games/{games['dungeon']}")[1].decode()
    finally:
        process.terminate()
        process.wait()
    assert fact(castle, "Seen as") == "Hana (what Hana may see)" and "Your hand (Hana" in page_words(castle)
    assert fact(dungeon, "Seen as").startswith("the public")


def test_export_html_with_force_never_overwrites_the_replay_file_it_reads(db, tmp_path):
    replay = tmp_path / "game.nkr"
    replay.write_bytes(DUNGEON.read_bytes())
    link = tmp_path / "link.nkr"
    link.symlink_to(replay)
    for target in (replay, link):
        refused = nk(db, "export", str(replay), "--html", str(target), "--force")
        assert refused.exit_code == 2 and "is the replay file the page is made from" in refused.output
        assert len(refused.output.strip().splitlines()) == 1, refused.output
    assert replay.read_bytes() == DUNGEON.read_bytes()


async def asgi_get(
    app: Any, path: str, method: str = "GET", answer: dict[str, Any] | None = None
) -> tuple[int, bytes]:
    """Sends one request to an ASGI app in this event loop; returns the status and body (and the response's
    start message in `answer`)."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"test")],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    (answer if answer is not None else {}).update(start)
    status = start["status"]
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def test_serve_answers_the_list_while_a_page_is_drawn_and_draws_each_copy_once(
    db, store_service, monkeypatch
):
    import asyncio
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import cli.export_command
    from cli.serve_command import viewer_app

    game = imported(db, DUNGEON)
    release, drawing, drawn = threading.Event(), threading.Event(), []
    real = cli.export_command.html_page

    def held(*args: Any, **kwargs: Any) -> str:  # a long game's drawing, held until the list has answered
        drawn.append(args[1])
        drawing.set()
        assert release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(cli.export_command, "html_page", held)
    app = viewer_app(store_service, "", "a test store")

    async def visit() -> tuple[list[tuple[int, bytes]], tuple[int, bytes], bool]:
        loop = asyncio.get_running_loop()
        pages = [asyncio.ensure_future(asyncio.wait_for(asgi_get(app, f"/games/{game}"), 60)) for _ in "ab"]
        assert await loop.run_in_executor(None, drawing.wait, 30)
        listed = await asyncio.wait_for(asgi_get(app, "/"), 30)
        held_on = not release.is_set()
        release.set()
        return list(await asyncio.gather(*pages)), listed, held_on

    # Its own thread: the session's browser (playwright) may run an event loop in this one.
    with ThreadPoolExecutor(1) as runner:
        pages, listed, held_on = runner.submit(asyncio.run, visit()).result(120)
    assert listed[0] == 200 and game.encode() in listed[1] and held_on  # the list answered mid-drawing
    assert [p[0] for p in pages] == [200, 200] and pages[0][1] == pages[1][1]
    assert len(drawn) == 1  # two requests for one copy draw it once


def test_serve_sends_its_security_headers_on_every_answer_and_redirects_nowhere(db, store_service):
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from cli.serve_command import SECURITY_HEADERS, viewer_app

    game = imported(db, DUNGEON)
    app = viewer_app(store_service, "", "a test store")
    asked = [
        ("GET", "/nowhere"),
        ("POST", "/"),
        ("PUT", f"/games/{game}"),
        ("GET", f"/games/{game}/"),
        ("GET", "/games/zzzz"),
        ("GET", "/"),
    ]

    async def visit() -> list[tuple[int, dict[str, str]]]:
        answers = []
        for method, path in asked:
            start: dict[str, Any] = {}
            await asgi_get(app, path, method, start)
            answers.append((start["status"], {k.decode(): v.decode() for k, v in start["headers"]}))
        return answers

    with ThreadPoolExecutor(1) as runner:  # its own thread: playwright may run an event loop in this one
        answers = runner.submit(asyncio.run, visit()).result(120)
    assert [status for status, _ in answers] == [404, 405, 405, 404, 404, 200]
    for status, headers in answers:
        assert "location" not in headers, (status, headers)
        for name, value in SECURITY_HEADERS.items():
            assert headers.get(name.lower()) == value, (status, name)


def test_export_html_of_a_players_copy_file_shows_that_copy_whatever_as_asks(db, tmp_path):
    castle = imported(db, CASTLE)
    copy = tmp_path / "hana.nkr"
    assert nk(db, "export", castle, "-o", str(copy), "--as", "Hana").exit_code == 0
    for viewer in ("host", "Hana"):
        page = exported(db, str(copy), tmp_path / f"{viewer}.html", "--as", viewer)
        assert fact(page, "Seen as") == "Hana (what Hana may see)", viewer
        assert fact(page, "Audit").startswith("clean"), viewer
    refused = nk(db, "export", str(copy), "--html", str(tmp_path / "vlad.html"), "--as", "Vlad")
    assert refused.exit_code == 2 and "is Hana's copy" in refused.output, refused.output
    assert len(refused.output.strip().splitlines()) == 1 and not (tmp_path / "vlad.html").exists()
    public = exported(db, str(copy), tmp_path / "public.html")
    assert fact(public, "Seen as").startswith("the public")


def test_a_jump_to_a_number_that_is_not_a_whole_event_stays_put_and_says_why(chromium, pages):
    watched = loaded(chromium, pages["dungeon"])
    page = watched.page
    page.fill("#event-input", "7")
    page.click("text=Go to event")
    assert position(watched).startswith("Event 7 of 174")
    for typed in ("1e3", "2.5", "-1", "0", "175"):
        page.fill("#event-input", typed)
        page.click("text=Go to event")
        assert position(watched).startswith("Event 7 of 174"), typed
        assert page.inner_text("#jump-message") == "This game has events 1 to 174.", typed
        page.fill("#turn-input", typed)
        page.click("text=Go to turn")
        assert position(watched).startswith("Event 7 of 174"), typed
    assert watched.problems() == []
    page.close()


@pytest.mark.parametrize(
    ("query", "shown"),
    [("?at=12", 12), ("?at=174", 174), ("?at=999999", 174), ("?at=0", 174), ("?at=12x", 174), ("?at=1", 1)],
)
def test_an_address_with_at_opens_the_page_at_that_event(chromium, pages, query, shown):
    # A play-by-e-mail mail links to its game at the event it tells of; no event of the game: its end.
    url = pages["dungeon"].resolve().as_uri()
    watched = open_page(chromium, (url,))
    watched.page.goto(url + query)
    watched.page.wait_for_selector(READY)
    assert watched.page.get_attribute("body", "data-event") == str(shown)
    assert position(watched).startswith(f"Event {shown} of 174 ")
    assert watched.problems() == []
    watched.page.close()


def test_serve_answers_a_store_that_fails_while_serving_in_one_line(db, store_service, monkeypatch, capsys):
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from eventsourcing.persistence import OperationalError

    from cli.serve_command import viewer_app

    game = imported(db, DUNGEON)
    app = viewer_app(store_service, "", "a test store")

    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("couldn't get a connection after 5.00 sec\nDETAIL: the server went away")

    monkeypatch.setattr("cli.serve_command.GameIndex", unreachable)
    monkeypatch.setattr(store_service, "resolve_game_id", unreachable)

    async def visit() -> list[tuple[int, bytes]]:
        return [await asgi_get(app, path) for path in ("/", f"/games/{game}", f"/games/{game}.nkr")]

    with ThreadPoolExecutor(1) as runner:  # its own thread: playwright may run an event loop in this one
        answers = runner.submit(asyncio.run, visit()).result(120)
    for status, body in answers:
        assert status == 503 and body == b"cannot use the store: couldn't get a connection after 5.00 sec\n"
    logged = capsys.readouterr().err.strip().splitlines()
    assert len(logged) == 3 and all(line.startswith("Error: cannot use the store:") for line in logged)


def served_list(args: list[str], env: dict[str, str]) -> str:
    """Returns the games list `nightkeep serve` answers with these arguments (before `serve`)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "nightkeep", *args, "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    try:
        assert process.stdout is not None
        base = re.search(r"http://127\.0\.0\.1:\d+/", process.stdout.readline())
        assert base
        status, body = fetch(base.group(0))
        assert status == 200
        return body.decode()
    finally:
        process.terminate()
        process.wait()


def test_serve_names_its_store_plainly_never_by_a_path_of_this_machine(tmp_path):
    """Issue 30: the games list showed the store's absolute path to whoever reached the port."""
    env = {**os.environ, "NO_PROXY": "127.0.0.1", "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("NIGHTKEEP_DB", None)
    club = str(tmp_path / "club.sqlite")
    imported(club, DUNGEON)
    named = served_list(["--db", club], env)
    assert "The games of club.sqlite, read-only." in text_of(named) and str(tmp_path) not in named
    made = subprocess.run(
        [sys.executable, "-m", "nightkeep", "import", str(DUNGEON)], env=env, cwd=ROOT, capture_output=True
    )
    assert made.returncode == 0, made.stderr
    default = served_list([], env)
    assert "The games of the default store, read-only." in text_of(default)
    assert str(tmp_path) not in default and "nightkeep.sqlite" not in default


def test_a_postgresql_store_is_named_by_its_database_alone():
    from event_store.config import plain_name

    named = plain_name("postgresql://club:secret@db.example.org:5433/nightkeep?schema=spring", True)
    assert named == "the database nightkeep"


# --- links to a position (issue 30: the viewer always opened at event 1 and could not link a position) ------


def opened_at(context: Any, url: str) -> WatchedPage:
    watched = open_page(context, (url.split("#")[0].split("?")[0],))
    watched.page.goto(url)
    watched.page.wait_for_selector(READY)
    return watched


def shown_event(watched: WatchedPage) -> int:
    return int(watched.page.get_attribute("body", "data-event") or 0)


def test_a_link_to_an_event_opens_there_and_stepping_writes_the_position_in_the_address(chromium, pages):
    url = pages["dungeon"].resolve().as_uri()
    watched = opened_at(chromium, url + "#event=12")
    page = watched.page
    assert shown_event(watched) == 12 and position(watched).startswith("Event 12 of 174 ")
    assert page.url.endswith("#event=12")
    entries = page.evaluate("history.length")
    page.click("#forward")
    assert page.url == url + "#event=13"
    page.locator("body").focus()
    page.keyboard.press("End")
    assert page.url == url + "#event=174"
    page.fill("#event-input", "40")
    page.click("text=Go to event")
    assert page.url == url + "#event=40"
    assert page.evaluate("history.length") == entries  # replaced, not pushed: Back leaves the page
    shared = page.url
    assert watched.problems() == []
    page.close()
    again = opened_at(chromium, shared)  # the copied address shares the position
    assert shown_event(again) == 40 and again.problems() == []
    again.page.close()


def test_a_link_to_a_turn_opens_where_that_turn_starts(chromium, pages):
    source = ReplaySource("g", read_replay(DUNGEON.read_bytes()).events)
    watched = opened_at(chromium, pages["dungeon"].resolve().as_uri() + "#turn=5")
    assert shown_event(watched) == source.turns[4]
    assert position(watched) == f"Event {source.turns[4]} of 174 (turn 5 of {len(source.turns)})"
    assert watched.page.inner_text("#jump-message") == ""
    watched.page.evaluate("window.location.hash = 'event=20'")  # an address edited by hand
    watched.page.wait_for_selector("body[data-event='20']")
    assert watched.problems() == []
    watched.page.close()


def test_a_finished_game_opens_at_its_end_and_one_still_going_at_its_start(chromium, pages, tmp_path):
    finished = loaded(chromium, pages["dungeon"])
    assert shown_event(finished) == 174 and "won by Bo" in finished.page.inner_text("#status")
    assert finished.page.url == pages["dungeon"].resolve().as_uri()  # opening writes no position
    finished.page.close()
    from event_store.app.service import GameService

    service = GameService.open(":memory:")
    game = service.create_game("dungeon-short", [("Ann", "druid"), ("Bo", "warrior")])
    events = service.recorded_events(game)
    path = tmp_path / "running.html"
    path.write_text(replay_page(_facts(["Ann", "Bo"]), events), encoding="utf-8")
    running = loaded(chromium, path)
    assert shown_event(running) == 1 and position(running) == f"Event 1 of {len(events)} (before turn 1)"
    assert running.problems() == []
    running.page.close()


@pytest.mark.parametrize(
    ("fragment", "shown", "said"),
    [
        ("#event=abc", 174, "The link's #event=abc names no event (events 1 to 174); showing event 174."),
        ("#event=99999", 174, "The link's #event=99999 is past the end (events 1 to 174); showing the last"),
        ("#event=0", 174, "The link's #event=0 names no event"),
        ("#event=-3", 174, "The link's #event=-3 names no event"),
        ("#turn=9999", 174, "The link's #turn=9999 names no turn (turns 1 to "),
        ("#turn=x%3Cb%3E", 174, "The link's #turn=x<b> names no turn"),
        ("#nothing", 174, ""),
    ],
)
def test_a_link_to_a_place_the_game_lacks_opens_at_its_end_and_says_why(
    chromium, pages, fragment, shown, said
):
    watched = opened_at(chromium, pages["dungeon"].resolve().as_uri() + fragment)
    assert shown_event(watched) == shown
    message = watched.page.inner_text("#jump-message")
    assert message.startswith(said) and (said or message == "")
    assert watched.page.locator("#jump-message b").count() == 0  # the link's text is text, never markup
    watched.page.click("#back")  # and the page steps on as ever
    assert shown_event(watched) == shown - 1 and watched.page.inner_text("#jump-message") == ""
    assert watched.problems() == []
    watched.page.close()

"""Vampire Empire's board view and event wording: each copy of the log shows only what its viewer may see."""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import pickle
import re
from uuid import UUID

import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.events import Sealed, registered_event_types
from domain.game import GameFold
from domain.rulesets.castle import events as castle_events
from domain.rulesets.castle.content import load_characters, load_human_deck, load_vampire_deck
from event_store.app.service import GameService, play_with_bots
from event_store.recorded import fold_recorded, redacted
from projections import castle_timeline as timeline
from projections import castle_view as view
from projections.timeline import describe_event

PLAYERS = [("Hana", "human"), ("Vlad", "vampire")]
SEEDS = range(3)
VIEWERS = ("", "Hana", "Vlad", "host")


def new_game(service: GameService, wait: bool = False):
    return service.create_game("vampire-empire", PLAYERS, {}, None, [], wait)


def seen_by(service: GameService, game, viewer: str) -> dict:
    """Returns the state folded from `viewer`'s copy of the log ("" the public, "host" everything)."""
    return fold_recorded(redacted(service.recorded_events(game), viewer)).state


def name(character: str) -> str:
    return load_characters()[character].name


@functools.cache
def naming(character: str) -> re.Pattern[str]:
    return re.compile(rf"\b{name(character)}\b")


def castle_rows(text: str) -> dict[str, str]:
    """Reads the castle's rows back into {character name: its row}."""
    lines = text.splitlines()
    start = lines.index("The castle:") + 1
    rows = itertools.takewhile(lambda line: line.startswith("  "), lines[start:])
    return {row.split()[0]: row for row in rows}


NAMES = re.compile(r"\b(" + "|".join(c.name for c in load_characters().values()) + r")\b")


def marked_vampires(text: str) -> set[str]:
    """Returns the names of the characters the board marks as vampires: those named in a clause (up to a
    comma, semicolon or full stop) with the word vampire, as `Lady ... VAMPIRE (revealed)` or `vampire
    (secret: …)` would be."""
    clauses = re.split(r"[,;.\n]", text)
    return {found for c in clauses if "vampire" in c.lower() for found in NAMES.findall(c)}


def every_card_name() -> set[str]:
    return {c.name for deck in (load_human_deck(), load_vampire_deck()) for c in deck.cards.values()}


@pytest.fixture(scope="module")
def games():
    """A few seeded bot games of Vampire Empire, played to the end once for the whole module."""
    with pytest.MonkeyPatch.context() as patch:
        # Module-scoped, so outside conftest's per-test seeds: the same fixed seeds, set here.
        counter = itertools.count()
        patch.setattr(
            "event_store.app.service.new_seed",
            lambda: hashlib.sha256(f"nightkeep-castle-view-{next(counter)}".encode()).digest(),
        )
        service = GameService.open(":memory:")
        played = []
        for seed in SEEDS:
            game = new_game(service)
            play_with_bots(service, game, seed=seed)
            played.append(game)
    return service, played


@pytest.fixture(scope="module")
def frames(games):
    """(viewer, state, board) after every event of every game, for the public and for Hana."""
    service, played = games
    out = []
    for game, viewer in itertools.product(played, ("", "Hana")):
        fold = GameFold()
        for recorded in redacted(service.recorded_events(game), viewer):
            fold.apply(recorded.event, recorded.chain)
            # The fold changes its state in place: each frame keeps a copy.
            out.append((viewer, pickle.loads(pickle.dumps(fold.state)), view.render_board(fold.state)))
    return out


# --- who sees what ------------------------------------------------------------------------------------------


def test_the_public_board_shows_hand_sizes_but_no_hand_and_no_tokens():
    service = GameService.open(":memory:")
    game = new_game(service)
    text = view.render_board(seen_by(service, game, ""))
    assert re.search(r"^Hana\s+human\s+8\s+32\s+0\s+0$", text, re.M)
    assert re.search(r"^Vlad\s+vampire\s+8\s+32\s+0\s+0$", text, re.M)
    assert "hand (" not in text and "tokens" not in text and "secret" not in text
    assert not [card for card in every_card_name() if card in text]  # nothing is played yet


def test_hanas_board_shows_her_hand_and_her_known_humans_but_not_vlads_tokens():
    service = GameService.open(":memory:")
    game = new_game(service)
    host, hana = seen_by(service, game, "host"), seen_by(service, game, "Hana")
    text = view.render_board(hana)
    assert "Your hand (Hana, 8 cards): " in text
    assert all(view.card_label(card) in text for card in host["hands"]["Hana"])
    assert not [c.name for c in load_vampire_deck().cards.values() if c.name in text]
    known = sorted(name(c) for c in host["tokens"]["Hana"])
    assert f"Your tokens (Hana): {', '.join(known)} are human." in text
    assert "Vlad's hand" not in text and "Vlad's tokens" not in text and "vampires" not in text
    assert "vampire (secret" not in text
    rows = castle_rows(text)
    for character in hana["castle"]:
        mine = character in host["tokens"]["Hana"]
        assert ("human (secret: Hana's tokens)" in rows[name(character)]) == mine
        assert ("secret" in rows[name(character)]) == mine


def test_the_host_board_shows_both_hands_and_both_players_tokens():
    service = GameService.open(":memory:")
    game = new_game(service)
    host = seen_by(service, game, "host")
    text = view.render_board(host)
    assert "Hana's hand (8 cards): " in text and "Vlad's hand (8 cards): " in text and "Your " not in text
    for player in ("Hana", "Vlad"):
        assert all(view.card_label(card) in text for card in host["hands"][player])
    vampires = sorted(name(c) for c, t in host["tokens"]["Vlad"].items() if t["identity"] == "vampire")
    assert f"Vlad's tokens: {', '.join(vampires)} are vampires." in text
    assert "Hana's tokens: " in text
    rows = castle_rows(text)
    for character in host["castle"]:
        identity = host["tokens"]["Vlad"][character]["identity"]
        assert f"{identity} (secret: " in rows[name(character)]


def test_no_board_prints_a_salt_or_a_commitment(games):
    service, played = games
    for viewer in VIEWERS:
        state = seen_by(service, played[0], viewer)
        text = view.render_board(state)
        salts = [t["salt"] for tokens in state["tokens"].values() for t in tokens.values()]
        salts += [salt for hand in state["hands"].values() for salt in hand.values()]
        commitments = [
            *state["commitments"].values(),
            *(c for p in state["players"].values() for c in p["hand"]),
        ]
        assert not [b for b in salts + commitments if b.hex()[:12] in text or repr(b)[:12] in text]


def test_the_board_fits_in_110_columns_and_prints_no_bytes_at_every_event(frames):
    for _, _, text in frames:
        assert max(len(line) for line in text.splitlines()) <= view.WIDTH
        assert "b'" not in text and 'b"' not in text and "\\x" not in text


def test_no_board_marks_a_character_as_a_vampire_unless_its_viewer_may_know(frames):
    shown = 0
    for viewer, state, text in frames:
        mine = state["tokens"].get(viewer, {})
        may_know = {name(c) for c, identity in state["known"].items() if identity == "vampire"}
        may_know |= {name(c) for c, token in mine.items() if token["identity"] == "vampire"}
        marked = marked_vampires(text)
        assert marked <= may_know, text
        for character in state["markers"]:
            if character not in state["known"] and character not in mine:
                assert not re.search(naming(character).pattern + r"[^,\n]*VAMPIRE", text)
        revealed = {name(c) for c in [*state["castle"], *state["dead"]] if state["known"].get(c) == "vampire"}
        assert revealed <= marked
        shown += len(revealed)
    assert shown  # the games did unmask vampires, so the checks above are not vacuous


# --- what the board shows -----------------------------------------------------------------------------------


def test_a_finished_game_shows_the_winner_the_reason_and_the_dead_in_order(games):
    service, played = games
    for game in played:
        state = seen_by(service, game, "")
        text = view.render_board(state)
        reason = view.REASONS[state["reason"]]
        if state["winner"]:
            side = state["players"][state["winner"]]["side"]
            assert f"Game over: {state['winner']} ({side}) won: {reason}." in text
        else:
            assert f"Game over: a tie ({reason})." in text
        dead = " ".join(text.split("The dead, in order: ")[1].split("\n\n")[0].split())
        listed = [f"{name(c)} ({view.identity_words(state['known'][c])})" for c in state["dead"]]
        assert dead == ", ".join(listed) + "."
        if state["scores"]:
            assert f"Scores: human {state['scores']['human']}, vampire {state['scores']['vampire']}" in text


def test_a_fight_under_way_shows_both_characters_the_round_and_the_totals(frames):
    fights = [(state, text) for _, state, text in frames if state["fight"]]
    assert fights
    for state, text in fights:
        fight = state["fight"]
        attacker, defender = name(fight["attacker"]), name(fight["defender"])
        head = (
            f"Fight, round {fight['round']} of 2: {attacker} attacks {defender} "
            f"({fight['attacking']} attacking, {fight['defending']} defending)"
        )
        assert head in text
        block = " ".join(text.split(head)[1].split())
        assert f"Attack {fight['attack']} (markers included): " in block
        assert f"Defence {fight['defence']} (markers included): " in block
        for card in fight["cards"]["attack"] + fight["cards"]["defence"]:
            assert view.card_label(card) in block


def test_markers_are_shown_on_the_castle_characters_that_carry_them(frames):
    seen = 0
    for _, state, text in frames:
        rows = castle_rows(text) if state["castle"] else {}
        for character in state["castle"]:
            row = rows[name(character)]
            for kind in ("attack", "defence"):
                count = state["markers"][character][kind]
                assert (f"{kind} +{count}" in row) == bool(count)
                seen += count
            assert ("no markers" in row) == (not any(state["markers"][character].values()))
    assert seen


def test_the_castle_shows_each_characters_profession_printed_defence_and_revealed_identity(frames):
    for _, state, text in frames:
        if not state["castle"]:
            continue
        rows = castle_rows(text)
        assert list(rows) == [name(c) for c in state["castle"]]
        for character in state["castle"]:
            found = load_characters()[character]
            row = rows[name(character)]
            assert f"{found.profession}" in row and f"defence {found.defence}" in row
            if character in state["known"]:
                assert f"{view.identity_words(state['known'][character])} (revealed)" in row


def test_the_city_shows_its_size_and_the_hidden_characters_by_name(frames):
    hidden = 0
    for _, state, text in frames:
        if state["phase"] == "setup" or not (state["city"] or state["bottom"]):
            continue
        bottom = ", ".join(name(c) for c in state["bottom"]) or "nobody"
        count = len(state["city"])
        cards = f"{count} shuffled card{'' if count == 1 else 's'}"
        city = f"The city: {cards} face down; hidden at its bottom: {bottom}."
        assert city in " ".join(text.split())
        hidden += bool(state["bottom"])
    assert hidden


def test_a_game_waiting_for_the_host_says_so():
    service = GameService.open(":memory:")
    game = new_game(service, wait=True)
    text = view.render_board(seen_by(service, game, ""))
    assert "Waiting for the host to start the game." in text
    assert re.search(r"^Hana\s+human\s+0\s+40\s+0\s+0$", text, re.M)


# --- players summary ----------------------------------------------------------------------------------------


def test_the_players_summary_holds_a_hand_only_in_a_copy_that_shows_it():
    service = GameService.open(":memory:")
    game = new_game(service)
    host = seen_by(service, game, "host")
    hands = {
        viewer: {p["name"]: p.get("hand") for p in view.players_summary(seen_by(service, game, viewer))}
        for viewer in VIEWERS
    }
    assert hands[""] == {"Hana": None, "Vlad": None}
    assert hands["Hana"] == {"Hana": sorted(host["hands"]["Hana"]), "Vlad": None}
    assert hands["Vlad"] == {"Hana": None, "Vlad": sorted(host["hands"]["Vlad"])}
    assert hands["host"] == {p: sorted(host["hands"][p]) for p in ("Hana", "Vlad")}
    public = view.players_summary(seen_by(service, game, ""))
    json.dumps(public)  # JSON-native
    assert [(p["name"], p["side"], p["hand_size"], p["deck"], p["cellar"], p["moat"]) for p in public] == [
        ("Hana", "human", 8, 32, 0, 0),
        ("Vlad", "vampire", 8, 32, 0, 0),
    ]
    assert {p["status"] for p in public} == {"in play"}


# --- event wording ------------------------------------------------------------------------------------------


def test_every_event_of_a_few_bot_games_is_told_in_words_without_bytes(games):
    service, played = games
    worded: set[str] = set()
    for game in played:
        for recorded in redacted(service.recorded_events(game), "host"):
            line = describe_event("vampire-empire", recorded.event)
            assert isinstance(line, str) and line.strip() and "b'" not in line and "\\x" not in line
            if recorded.event.__module__ == castle_events.__name__:
                assert timeline.describe(recorded.event), recorded.type_name
                worded.add(recorded.type_name)
    assert {"IdentityRevealed", "FightStarted", "CardsReceived", "IdentityTokensDrawn"} <= worded


def test_every_castle_event_type_has_its_own_wording():
    castle = {c for c in registered_event_types().values() if c.__module__ == castle_events.__name__}
    assert castle and castle <= set(timeline._DESCRIBERS)


def test_private_events_are_worded_for_their_owner_and_sealed_for_others(games):
    service, played = games
    recorded = service.recorded_events(played[0])
    host = [describe_event("vampire-empire", r.event) for r in redacted(recorded, "host")]
    state = seen_by(service, played[0], "host")
    vampires = [
        name(c) for c in state["tokens"]["Vlad"] if state["tokens"]["Vlad"][c]["identity"] == "vampire"
    ]
    assert any(line.startswith("Vlad drew the vampire tokens: ") for line in host)
    assert any(line.startswith("Hana drew the human tokens: ") for line in host)
    drawn = next(line for line in host if "drew the vampire tokens" in line)
    assert sorted(drawn.split(": ")[1].rstrip(".").split(", ")) == sorted(vampires)
    for viewer in ("", "Hana"):
        events = redacted(recorded, viewer)
        lines = [describe_event("vampire-empire", r.event) for r in events]
        assert not [line for line in lines if "drew the vampire tokens" in line]
        assert "Something only Vlad may see happened (IdentityTokensDrawn, sealed)." in lines
        assert all(timeline.describe(r.event) is None for r in events if isinstance(r.event, Sealed))


def test_public_events_tell_counts_and_names_not_commitments():
    drawn = castle_events.CardsDrawn(player="Hana", count=3, commitments=[b"\x01" * 32] * 8)
    assert timeline.describe(drawn) == "Hana drew 3 cards."
    unmasked = castle_events.IdentityRevealed(
        character="castle/character/lady", identity="vampire", salt=b"\x02" * 32, reason="unmasked"
    )
    assert timeline.describe(unmasked) == "Lady is a vampire (unmasked)."
    tokens = castle_events.IdentityTokensDrawn(
        owner="Vlad",
        identity="vampire",
        characters=["castle/character/lady", "castle/character/cook", "castle/character/maid"],
        draws=[0, 0, 0],
        salt=b"\x03" * 32,
        salt_draw=0,
        salts={},
    )
    assert timeline.describe(tokens) == "Vlad drew the vampire tokens: Lady, Cook, Maid."


# --- the command line ---------------------------------------------------------------------------------------


def test_show_and_log_on_the_command_line_show_each_viewer_their_own_secrets(tmp_path):
    db = str(tmp_path / "castle.sqlite")

    def run(*args: str) -> str:
        result = CliRunner().invoke(cli, ["--db", db, *args])
        assert result.exit_code == 0, result.output
        return result.stdout

    created = run("new", "vampire-empire", "--player", "Hana:human", "--player", "Vlad:vampire", "--json")
    game = json.loads(created)["game"]
    hand = seen_by(GameService.open(db), UUID(game), "host")["hands"]["Hana"]
    as_hana = run("show", game, "--as", "Hana")
    assert "Your hand (Hana, 8 cards)" in as_hana
    assert all(view.card_label(card) in " ".join(as_hana.split()) for card in hand)
    public = run("show", game)
    assert "hand (" not in public and "tokens" not in public
    shown = json.loads(run("show", game, "--as", "Hana", "--json"))
    assert [p.get("hand") for p in shown["players"]] == [sorted(hand), None]
    assert "Vlad drew the vampire tokens" in run("log", game, "--as", "Vlad")
    log = run("log", game)
    assert "drew the vampire tokens" not in log and "Vlad drew 8 cards." in log

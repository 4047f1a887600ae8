"""The Keep run's board view: the three levels with tiles, characters and face-up cards, and event wording."""

from __future__ import annotations

import hashlib
import itertools
import json
import re

import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.events import CardDrawn, DieRolled, LifeLost, Moved, registered_event_types
from domain.rulesets.keep import events as keep_events
from domain.rulesets.keep.content import TILE, load_deck
from domain.rulesets.talisman.events import ChoiceMade, ChoiceOffered, FollowerLeft, ItemGivenUp
from event_store.app.service import GameService, play_with_bots
from projections import keep_timeline as timeline
from projections import keep_view as view
from projections.timeline import describe_event

PLAYERS = [("Ann", None), ("Bo", None)]
SEEDS = range(12, 22)  # ten games, two of which send a character looping (Keep 6.3)


def played(seeds=SEEDS):
    """Plays one seeded bot game of the Keep run per seed; returns the service and the game ids."""
    service = GameService.open(":memory:")
    games = []
    for seed in seeds:
        game = service.create_game("keep-run", PLAYERS)
        play_with_bots(service, game, seed=seed)
        games.append(game)
    return service, games


def space_blocks(text: str) -> dict[int, str]:
    """Reads the three levels back into {space number: its line and wrapped continuation lines}."""
    lines = text.splitlines()
    start = lines.index("Level 1 (spaces 1-7)")
    blocks: dict[int, str] = {}
    number = 0
    for line in lines[start:]:
        if line.startswith("Talisman Vault:"):
            break
        found = re.match(r"^ {1,3}(\d{1,2})  ", line)
        if found:
            number = int(found.group(1))
            blocks[number] = line
        elif not line.startswith("Level "):
            blocks[number] += " " + line.strip()
    return blocks


def standing_in(block: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", block) is not None


def check_board(state: dict, text: str) -> None:
    """Asserts the rendered board shows every tile, character and face-up card where the state has it."""
    assert "\x1b" not in text
    assert max(len(line) for line in text.splitlines()) <= view.WIDTH
    blocks = space_blocks(text)
    assert sorted(blocks) == list(range(1, 22))
    cards = load_deck().cards
    for number, block in blocks.items():
        assert block.split()[1:2] == view.space_name(number).split()[:1]
        if state["tiles"][number]:
            assert f"tile→{state['tiles'][number]}" in block
        else:
            assert "tile→" not in block
        for card in state["cards"]["keep"][number]:
            if cards[card].kind != TILE:
                assert cards[card].name in block
    for name, sheet in state["players"].items():
        where = [n for n, block in blocks.items() if standing_in(block, name)]
        assert where == ([] if sheet["status"] == "out" else [sheet["space"]])
    left = len(state["piles"]["counters"])
    assert f"Teleport counters: {left} of 40 left." in text


@pytest.fixture(scope="module")
def frames():
    """Every state (from the deal on) of ten seeded bot games, with its rendered board; built once."""
    with pytest.MonkeyPatch.context() as patch:
        # Module-scoped, so outside conftest's per-test seeds: the same fixed seeds, set here.
        counter = itertools.count(SEEDS[0])  # each game's dice seed numbered as its bot's
        patch.setattr(
            "event_store.app.service.new_seed",
            lambda: hashlib.sha256(f"nightkeep-test-seed-{next(counter)}".encode()).digest(),
        )
        service, games = played()
    states = [
        service.fold(game, version).state
        for game in games
        for version in range(7, service.fold(game).version + 1)  # from the deal on
    ]
    return [(state, view.render_board(state)) for state in states]


def test_the_board_at_every_event_shows_every_tile_character_and_face_up_card(frames):
    for state, text in frames:
        check_board(state, text)
    assert any(any(state["tiles"]) for state, _ in frames)  # the games did lay tiles


def test_a_looping_character_is_marked_on_the_tile_it_was_sent_to(frames):
    seen = 0
    for state, text in frames:
        for name, sheet in state["players"].items():
            if sheet["looping"] and sheet["status"] == "playing":
                block = space_blocks(text)[sheet["space"]]
                assert f"{name} (looping" in block and "tile→" in block
                seen += 1
    assert seen


def test_characters_outside_the_door_held_or_fleeing_are_marked(frames):
    seen = {"outside": 0, "held": 0, "fleeing": 0}
    for state, text in frames:
        blocks = space_blocks(text)
        for name, sheet in state["players"].items():
            if sheet["status"] != "playing":
                continue
            here = blocks[sheet["space"]]
            if not sheet["entered"]:
                assert sheet["space"] == 1 and f"{name} (outside" in here
                seen["outside"] += 1
            if sheet["obelisk"]:
                assert f"{name} (held" in here and sheet["space"] == 19
                seen["held"] += 1
            if sheet["fleeing"]:
                assert re.search(rf"{name} \([^)]*fleeing", here)
                seen["fleeing"] += 1
    assert all(seen.values()), seen


def test_six_long_named_characters_on_one_space_fit_in_110_columns():
    service = GameService.open(":memory:")
    names = [f"{letter}" * 32 for letter in "ABCDEF"]
    game = service.create_game("keep-run", [(name, None) for name in names])
    state = service.fold(game).state
    text = view.render_board(state)
    check_board(state, text)
    assert all(f"{name} (outside)" in space_blocks(text)[1] for name in names)
    assert max(map(len, text.splitlines())) <= view.WIDTH


def test_a_tile_without_a_counter_is_shown_blank():
    service, (game,) = played([1])
    state = service.fold(game).state
    tile = next(c for c, card in load_deck().cards.items() if card.kind == TILE)
    empty = next(n for n in range(2, 21) if not state["tiles"][n] and not state["cards"]["keep"][n])
    state["cards"]["keep"][empty].append(tile)
    block = space_blocks(view.render_board(state))[empty]
    assert "blank tile" in block and "tile→" not in block and "Teleport Tile" not in block


def test_the_sheets_show_talisman_spells_and_the_vault_notes():
    service, games = played()
    won = [(g, service.fold(g).state) for g in games if service.fold(g).state["winner"]]
    assert won
    for _, state in won:
        text = view.render_board(state)
        winner = state["winner"]
        row = next(line for line in text.splitlines() if line.startswith(f"{winner} ") and "winner" in line)
        assert " yes " in row
        assert f"Game over: {winner} won." in text
        vault = " ".join(text[text.index("Talisman Vault:") :].split("\n\n")[0].split())  # unwrapped
        assert f"{len(state['piles']['vault'])} Vault card" in vault
        for card in state["piles"]["discard:vault"]:
            assert view.name_of(card) in vault
    state = won[0][1]
    state["players"]["Bo"]["spells"] = ["keep/spell/hex"]
    state["vault_talismans"] = 2
    flat = " ".join(view.render_board(state).split())  # wrapped lines joined again
    carries = next(part for part in flat.split(". ") if part.startswith("Bo carries"))
    assert "spells: Hex" in carries
    assert "2 Talismans left on it by the fallen" in flat


def test_players_summary_follows_the_sheets_and_is_json_native():
    service, games = played(range(4))
    for game in games:
        for version in (6, 40, service.fold(game).version):
            state = service.fold(game, version).state
            rows = view.players_summary(state)
            assert json.loads(json.dumps(rows)) == rows
            for row in rows:
                sheet = state["players"][row["name"]]
                assert (row["space"], row["entered"], row["talisman"], row["looping"]) == (
                    sheet["space"],
                    sheet["entered"],
                    sheet["talisman"],
                    sheet["looping"],
                )
                assert row["space_name"] == view.space_name(sheet["space"])
                assert row["status"] in ("in play", "fleeing", "out", "winner")
                assert (row["status"] == "winner") == (row["name"] == state["winner"])


def test_players_summary_before_the_deal_lists_waiting_seats():
    service = GameService.open(":memory:")
    game = service.create_game("keep-run", [("Ann", "warrior"), ("Bo", None)], wait_for_entropy=True)
    state = service.fold(game).state
    rows = view.players_summary(state)
    assert [(r["name"], r["status"], r["entered"]) for r in rows] == [
        ("Ann", "waiting", False),
        ("Bo", "waiting", False),
    ]
    assert "Waiting for the host to deal characters." in view.render_board(state)


def keep_event_types():
    """The Keep run's vocabulary beyond the generic events: the Keep's own, and the shared Talisman facts
    it records (its choices, a Follower leaving, an item given up)."""
    shared = (ChoiceOffered, ChoiceMade, FollowerLeft, ItemGivenUp)
    return {cls.__name__: cls for cls in (*keep_events.KEEP_EVENTS, *shared)}


SAMPLES = {
    "EntryTested": keep_events.EntryTested(player="Ann", total=9, target=12, passed=True),
    "FlightEnded": keep_events.FlightEnded(player="Ann"),
    "TeleportCounterDrawn": keep_events.TeleportCounterDrawn(
        player="Ann", space=3, counter="keep/counter/16", destination=9, draw=4
    ),
    "Teleported": keep_events.Teleported(piece="Ann", from_space=3, to_space=9, tile_space=3),
    "LoopFailed": keep_events.LoopFailed(player="Ann"),
    "LoopEscaped": keep_events.LoopEscaped(player="Ann", automatic=True),
    "ItemGivenUp": ItemGivenUp(player="Ann", card="keep/card/torchbearer"),
    "FollowerLeft": FollowerLeft(player="Ann", card="keep/card/stray-wolfhound"),
    "ObeliskTested": keep_events.ObeliskTested(player="Ann", total=11, target=8, passed=False),
    "SpellCast": keep_events.SpellCast(player="Ann", spell="keep/spell/hex"),
    "SpellDiscarded": keep_events.SpellDiscarded(
        player="Ann", spell="keep/spell/fizzle", reason="would do nothing"
    ),
    "TalismanTaken": keep_events.TalismanTaken(player="Ann", from_vault=True),
    "ItemGained": keep_events.ItemGained(player="Ann", item="keep/item/sword"),
    "SpellGained": keep_events.SpellGained(player="Ann", spell="keep/spell/hex", from_vault=False),
    "VaultCardMet": keep_events.VaultCardMet(player="Ann", card="keep/vault/stone-guardian", outcome="won"),
    "ChoiceOffered": ChoiceOffered(
        player="Ann", kind="sentry-toll", options=["keep/card/torchbearer", "life"]
    ),
    "ChoiceMade": ChoiceMade(player="Ann", kind="tome-gift", option="craft"),
}


def test_the_keep_lists_every_event_type_it_declares():
    """The read side tells the Keep's events by `KEEP_EVENTS`: none it registers is left out."""
    declared = {cls for cls in registered_event_types().values() if cls.__module__ == keep_events.__name__}
    assert declared == set(keep_events.KEEP_EVENTS)
    assert len(keep_events.KEEP_EVENTS) == len(declared)


def test_every_keep_event_type_has_a_description_in_names_not_ids():
    assert set(SAMPLES) == set(keep_event_types())
    for event in SAMPLES.values():
        text = timeline.describe(event)
        assert text and "keep/" not in text and text == describe_event("keep-run", event)


@pytest.mark.parametrize(
    ("event", "words"),
    [
        (SAMPLES["EntryTested"], "Ann opened the Keep's door (9, under 12) and goes in next turn."),
        (
            SAMPLES["TeleportCounterDrawn"],
            "A Teleport Tile was laid on the Hallway (3); its counter sends to the Torchlit Corridor (9).",
        ),
        (
            SAMPLES["Teleported"],
            "The Teleport Tile on the Hallway (3) sent Ann to the Torchlit Corridor (9).",
        ),
        (SAMPLES["ObeliskTested"], "The Sacred Obelisk held Ann back (11, needed at most 8)."),
        (SAMPLES["SpellCast"], "The Vampire Wizard cast Hex on Ann."),
        (SAMPLES["VaultCardMet"], "In the Talisman Vault, Ann overcame the Stone Guardian."),
        (SAMPLES["ItemGivenUp"], "Ann gave the Torchbearer up to the Sentry."),
        (
            CardDrawn(player="Ann", deck="vault", card="keep/vault/iron-golem", draw=0),
            "Ann turned over the Vault card Iron Golem.",
        ),
        (
            CardDrawn(player="Ann", deck="spells", card="keep/spell/hex", draw=0),
            "The spell Hex was drawn from the Spell deck for Ann.",
        ),
        (
            DieRolled(player="Ann", purpose="loop-escape", sides=6, values=[5], draws=[0]),
            "Ann rolled 5 to break free of the teleport loop.",
        ),
        (
            LifeLost(player="Ann", amount=2, reason="keep/space/tome"),
            "Ann lost 2 lives to the Tome of the Undead.",
        ),
        (
            Moved(piece="Bo", board="keep", from_space=4, to_space=3, reason="sentry"),
            "Bo was driven back by the Sentry from the Sentry (4) to the Hallway (3).",
        ),
    ],
)
def test_describe_tells_keep_events_with_card_and_space_names(event, words):
    assert timeline.describe(event) == words


@pytest.mark.parametrize(
    "purpose", ["entry", "sentry", "tome", "obelisk", "loop-escape", "hoard", "vault-trap"]
)
def test_keep_die_rolls_say_what_they_were_for(purpose):
    text = timeline.describe(DieRolled(player="Ann", purpose=purpose, sides=6, values=[2, 3], draws=[0, 0]))
    assert text and text.startswith("Ann rolled 2, 3 ")
    assert f"for {purpose}" not in text  # its own words, not the generic "for <purpose>"


def test_every_event_of_played_games_is_told_without_raw_ids():
    service, games = played(range(6))
    for game in games:
        for recorded in service.recorded_events(game):
            text = describe_event("keep-run", recorded.event)
            assert "keep/" not in text and "talisman/" not in text, text
            if type(recorded.event) in keep_event_types().values():
                assert timeline.describe(recorded.event) == text


# --- the CLI ------------------------------------------------------------------------------------------------


@pytest.fixture
def db(new_store, tmp_path):
    return new_store("keep")


def run(db, *args):
    return CliRunner().invoke(cli, ["--db", db, *args])


def test_show_prints_the_keep_board_of_a_keep_run_game(db):
    game = json.loads(run(db, "new", "keep-run", "--player", "Ann", "--player", "Bo", "--json").stdout)[
        "game"
    ]
    assert run(db, "play", game, "--bots", "--seed", "3").exit_code == 0
    result = run(db, "show", game)
    assert result.exit_code == 0, result.output
    service = GameService.open(db)
    state = service.fold(service.resolve_game_id(game)).state
    board = result.stdout.split("\n", 1)[1]  # after the one-line header
    assert "no board view" not in result.stdout
    check_board(state, board)
    shown = json.loads(run(db, "show", game, "--json").stdout)
    assert shown["players"] == view.players_summary(state)
    assert {"entered", "talisman", "looping"} <= set(shown["players"][0])


def test_replay_to_an_event_prints_the_keep_story_and_the_board_there(db):
    game = json.loads(run(db, "new", "keep-run", "--player", "Ann", "--player", "Bo", "--json").stdout)[
        "game"
    ]
    run(db, "play", game, "--bots", "--seed", "7")
    service = GameService.open(db)
    game_id = service.resolve_game_id(game)
    events = service.recorded_events(game_id)
    laid = next(r.version for r in events if r.type_name == "TeleportCounterDrawn")
    result = run(db, "replay", game, "--to", str(laid), "--no-interactive")
    assert result.exit_code == 0, result.output
    assert "at the Keep's door" in result.stdout and "A Teleport Tile was laid on the " in result.stdout
    state = service.fold(game_id, laid).state
    board = result.stdout[result.stdout.index("The Vampire's Keep (Keep run)") :]
    check_board(state, board)
    assert sum(1 for t in state["tiles"] if t) >= 1

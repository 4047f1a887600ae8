"""Everything a person reads names things plainly (issue 30): the log and the timeline, the board `show`
and `replay` draw, every decision's options and heading, the mail a player gets and the HTML viewer's
timeline, over seeded bot games of every ruleset (the main board with both expansions), as the host, the
public and a player see them. Ids stay in `--json` output and in the action ids a player may type."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import get_args

import pytest

from domain.actions import HOST
from domain.events import ActionTaken, DieRolled
from domain.game import GameFold, game_status
from domain.rulesets.castle.content import EFFECTS, Kind
from domain.rulesets.talisman.events import ChoiceMade, ChoiceOffered
from domain.rulesets.talisman.main.events_abilities import AbilityUsed, EffectReadied
from event_store.app.service import play_with_bots
from event_store.recorded import RecordedEvent, redacted
from projections.html_replay import _timeline_html
from projections.mail_words import mail_words
from projections.replay_source import ReplaySource
from projections.timeline import describe_event, describe_events, told_lines
from projections.views import render_board
from simulation.bot_games import bot_game_options

GAMES = {
    "talisman": ([("Ann", None), ("Bo", "warrior"), ("Cy", None)], {"dungeon": "true", "keep": "true"}),
    "dungeon-short": ([("Ann", None), ("Bo", "warrior"), ("Cy", None)], {}),
    "keep-run": ([("Ann", None), ("Bo", None)], {}),
    "vampire-empire": ([("Ann", "human"), ("Vlad", "vampire")], {}),
}
SEEDS = ["one", "two"]
ACTIONS = 1_500  # a main-board game with both expansions is told up to here (its cap is far later)
EVERY = 7  # the board, options and mail are read at every 7th action (and wherever a choice waits)

# A content id (`talisman/character/warrior`, `keep/card/vampire-bat-2`).
CONTENT_ID = re.compile(r"\b[a-z]+(?:/[a-z0-9-]+){2,}")
# An action id or a choice's kind (`service:village`, `cast:healing`, `attack:Bo`): word, colon, word.
ACTION_ID = re.compile(r"\b[a-z][\w-]*:[\w-]+")
# A field dump (`kind=landing`), an event's or a game's id.
INTERNAL = re.compile(r"\b[a-z_]+=|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-")


def played(service, ruleset: str, seed: str) -> list[RecordedEvent]:
    seats, options = GAMES[ruleset]
    game_id = service.create_game(ruleset, seats, bot_game_options(ruleset, options))
    play_with_bots(service, game_id, seed, max_actions=ACTIONS)
    return service.recorded_events(game_id)


def humanised_ids(events: list[RecordedEvent]) -> set[str]:
    """Returns the ids the game's choices and rolls used, as a careless sentence would spell them
    (`landing:encounter` as `landing encounter`, `warlock-keep` as `warlock keep`)."""
    found: set[str] = set()
    for recorded in events:
        event = recorded.event
        if isinstance(event, ChoiceOffered):
            tokens = [event.kind, event.kind.partition(":")[0], *event.options]
        elif isinstance(event, DieRolled):  # a roll's purpose as the words it is rolled `for`
            tokens = [f"for {event.purpose}"] if "-" in event.purpose else []
        elif isinstance(event, EffectReadied | AbilityUsed):
            tokens = [getattr(event, "effect", "") or getattr(event, "ability", "")]
        else:
            continue
        for token in tokens:
            if "/" not in token and re.search(r"[a-z][:-][a-z]", token):
                found.add(re.sub(r"[:-]+", " ", token))
                found.update(part for part in token.split(":") if "-" in part)  # and as written
    return found | CASTLE_IDS


# Vampire Empire's card kinds and support effects as the content writes them (`holy-water`, `draw-2`).
CASTLE_IDS = {word for word in (*get_args(Kind), *EFFECTS) if "-" in word}


def leaks(line: str, spelt: set[str]) -> list[str]:
    """Returns what in a line a person should not read: ids, internal numbers, ids spelt with spaces."""
    found = [m.group() for pattern in (CONTENT_ID, ACTION_ID, INTERNAL) for m in pattern.finditer(line)]
    return found + [s for s in spelt if re.search(rf"\b{re.escape(s)}\b", line)]


def positions(events: list[RecordedEvent]) -> Iterator[tuple[int, GameFold]]:
    """Folds the log and yields (version, fold) where a player decides (just before an action) after every
    EVERY-th action and wherever a choice waits, and at the end."""
    fold = GameFold()
    actions, offered = 0, False
    for recorded in events:
        if isinstance(recorded.event, ActionTaken):
            if actions % EVERY == 0 or offered:
                yield fold.version, fold
            actions, offered = actions + 1, False
        offered = offered or isinstance(recorded.event, ChoiceOffered)
        fold.apply(recorded.event, recorded.chain)
    yield fold.version, fold


@pytest.fixture(scope="module")
def games():
    from event_store.app.service import GameService

    service = GameService.open(":memory:")
    return {(r, seed): played(service, r, seed) for r in GAMES for seed in SEEDS}


@pytest.mark.slow  # plays eight bot games
@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_no_line_of_the_log_timeline_replay_or_html_shows_an_internal_id(games, ruleset):
    for seed in SEEDS:
        events = games[ruleset, seed]
        spelt = humanised_ids(events)
        for viewer in (HOST, "", "Ann"):
            seen = redacted(events, viewer)
            lines = describe_events(ruleset, seen)
            for recorded, line in told_lines(seen, lines):
                assert not leaks(line, spelt), (recorded.version, line)
            # Told alone (a part of a log: no label can be folded for it), an action still reads plainly.
            for recorded in seen:
                if isinstance(recorded.event, ActionTaken):
                    alone = describe_event(ruleset, recorded.event)
                    assert not CONTENT_ID.search(alone) and not ACTION_ID.search(alone), alone
            source = ReplaySource(game="g", events=seen)
            html = _timeline_html(source)
            assert not CONTENT_ID.search(html) and not ACTION_ID.search(html)


@pytest.mark.slow  # plays eight bot games
@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_no_board_heading_option_or_mail_shows_an_internal_id(games, ruleset):
    for seed in SEEDS:
        events = games[ruleset, seed]
        spelt = humanised_ids(events)
        for version, fold in positions(events):
            texts = [render_board(ruleset, fold.state, width=w) for w in (80, 120)]
            for player in game_status(fold).get("to_act", []):
                texts += [a.label for a in fold.ruleset.legal_actions(fold.state, player)]
            for text in texts:
                for line in text.splitlines():
                    assert not leaks(line, spelt), (version, line)
        for old, new in ((0, 40), (len(events) - 30, len(events))):
            for line in mail_words(events, "Ann", old, new).splitlines():
                assert not leaks(line, spelt), line


@pytest.mark.slow  # plays eight bot games
def test_a_main_board_choice_is_told_once_and_reads_as_what_was_done(games):
    told = 0
    for seed in SEEDS:
        events = games["talisman", seed]
        lines = describe_events("talisman", events)
        kept = [line for _, line in told_lines(events, lines)]
        for index, recorded in enumerate(events):
            if not isinstance(recorded.event, ChoiceMade):
                continue
            action = events[index - 1].event
            assert isinstance(action, ActionTaken) and action.action == f"choose:{recorded.event.option}"
            assert lines[index] == "", lines[index]  # told with the action, not again
            said = lines[index - 1]
            assert said.startswith(f"{action.player} chose: ") and said in kept
            told += 1
        # Passing a space by is told by the choice alone, not again as the ability that allowed it.
        for said, after in itertools.pairwise(kept):
            if said.endswith("chose: Pass the space by."):
                assert not after.endswith(" by without meeting it."), (said, after)
    assert told > 50  # the seeded games choose often enough to check the wording


def test_a_choice_told_alone_names_its_option_by_its_label():
    """A ChoiceMade seen without the action before it (a part of a log) still reads as the option."""
    from projections.talisman_timeline import describe

    made = ChoiceMade(player="Bo", kind="landing:draw:1", option="talisman/card/imp")
    assert describe(made) == "Bo chose: Discard the Imp (Follower: +1 Craft in Psychic Combat)."
    offered = ChoiceOffered(
        player="Bo", kind="landing:draw:1", options=["talisman/card/imp", "talisman/card/ogre-1"]
    )
    assert describe(offered) == (
        "Bo chooses which card to discard: Discard the Imp (Follower: +1 Craft in Psychic Combat) "
        "or Discard the Ogre (Monster, Strength 5)."
    )

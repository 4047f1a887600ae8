"""The board in words for mail: whose turn it is, what changed, and where everyone stands, in lines a
phone shows whole.

A mail is read on a phone as often as at a desk, and a text part is shown in the reader's own font, so
every line fits `WIDTH` columns: sentences wrap at spaces (a word or a name is cut only when it alone is
wider than the line), and each player gets a few lines of their own instead of the board views' tables.
The words come from a viewer's copy of the log, redacted again here, so a mail never says more than that
viewer may see: the timeline's sentences, each ruleset's players summary and, in Vampire Empire, the
viewer's own hand and tokens (`projections.castle_mail_words`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, cast

from domain.actions import HOST
from domain.club import paused_by
from domain.game import STOPPED, GameFold, game_status
from domain.rulesets.talisman.main.state import ROLLED, MainState
from event_store.recorded import RecordedEvent, fold_recorded, redacted
from projections import castle_mail_words, castle_view
from projections.phone_lines import INDENT, WIDTH, whole, wrap_words
from projections.talisman_choices import choice_words
from projections.talisman_names import board_name, name_of
from projections.timeline import describe_events, told_lines
from projections.views import STOPPED_HEAD, players_summary

TOLD = 100  # the most events one mail tells; a longer run says how many came before

# A content id has two slashes at least (`keep/space/sentry`); `noble/clergy` is a card's two professions.
CONTENT_ID = re.compile(r"\b[a-z]+(?:/[a-z0-9-]+){2,}")

# A ruleset whose players are not Talisman character sheets says where everyone stands its own way.
Standing = Callable[[dict[str, Any], str, int], list[str]]
STANDING: dict[str, Standing] = {"vampire-empire": castle_mail_words.standing}


def mail_words(recorded: list[RecordedEvent], viewer: str, old: int, new: int, width: int = WIDTH) -> str:
    """Says whose turn it is, what happened after event `old` up to `new`, and where everyone stands, as
    `viewer` (a seat, or "" for the public) may see it, in lines no wider than `width`."""
    mine = redacted(recorded[:new], viewer)  # again: a host's full log handed in by mistake leaks nothing
    fold = fold_recorded(mine)
    sections = [
        turn_lines(fold, viewer, width),
        change_lines(fold.ruleset_name, mine, old, width),
        standing_lines(fold, viewer, width),
    ]
    return "\n\n".join("\n".join(lines) for lines in sections if lines) + "\n"


# --- whose turn ------------------------------------------------------------------------------------------


def turn_lines(fold: GameFold, viewer: str, width: int) -> list[str]:
    """Says whose turn it is (yours, by name), who won, or why nobody acts; then what the ruleset adds."""
    status = game_status(fold)
    to_act = [name for name in status.get("to_act", []) if name != HOST]
    if status["status"] == STOPPED:
        said = STOPPED_HEAD
    elif status["status"] == "finished":
        said = f"Game over: {status['winner']} won." if status["winner"] else "Game over: nobody won."
    elif not to_act:
        said = "Waiting for the host to start the game."
    elif viewer in to_act:
        others = [name for name in to_act if name != viewer]
        said = f"Your turn, {viewer}" + (f" ({_names(others)} may act too)." if others else ".")
    else:
        said = f"{_names(to_act)} to act."
    lines = wrap_words(said, width)
    waits = paused_by(fold.meta)
    if waits:
        lines += wrap_words(f"Play waits: {waits}.", width)
    situation = SITUATION.get(fold.ruleset_name)
    if situation is not None and status["status"] == "running" and to_act:
        lines += wrap_words(situation(fold.state), width)
    return lines


def talisman_situation(plain: dict[str, Any]) -> str:
    """Returns the round, and a choice under way with its options in words: `Round 5: Cy chooses what to
    do here: Meet the space or Pass the space by.`"""
    state = cast(MainState, plain)
    choice = state["choice"]
    if choice is None:
        rolled = f" {state['turn']} rolled {state['rolled']}: where to go?" if state["step"] == ROLLED else ""
        return f"Round {state['round']}.{rolled}"
    return f"Round {state['round']}: {choice['player']} {choice_words(choice['kind'], choice['options'])}."


# What a ruleset adds to whose turn it is: the round and a choice under way, the step of a turn.
SITUATION: dict[str, Callable[[dict[str, Any]], str]] = {
    "talisman": talisman_situation,
    "vampire-empire": castle_mail_words.situation,
}


def _names(names: Sequence[str]) -> str:
    """Returns `Ann`, `Ann and Bo`, `Ann, Bo and Cy`."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# --- what changed ----------------------------------------------------------------------------------------


def change_lines(ruleset: str, events: list[RecordedEvent], old: int, width: int) -> list[str]:
    """Tells events old+1 to the last of `events` in the timeline's words, each under its number."""
    new = len(events)
    if new <= old:
        return []
    # The whole copy is told, so each action keeps the label it was listed with.
    told = [plain_ids(line) for line in describe_events(ruleset, events)[old:new]]
    first = max(old, new - TOLD)
    head = "What happened from the start:" if old == 0 else f"What happened since event {old}:"
    lines = wrap_words(head, width)
    if first > old:
        lines += wrap_words(f"(events {old + 1} to {first} are left out: the log tells them)", width)
    digits = len(str(new))
    for recorded, text in told_lines(events[first:new], told[first - old :]):
        number = f"{recorded.version:>{digits}}  "
        lines += wrap_words(text, width, first=number, rest=" " * len(number))
    return lines


def plain_ids(text: str) -> str:
    """Names any content id a sentence still holds (`talisman/spell/barrier`: Barrier), so that no mail
    shows one whatever a ruleset's timeline says."""
    return CONTENT_ID.sub(lambda found: _name_of(found.group()), text)


def _name_of(ref: str) -> str:
    if ref.startswith("castle/"):
        return castle_view.card_name(ref) if castle_view.find_card(ref) else castle_view.character_name(ref)
    return name_of(ref)


# --- where everyone stands -------------------------------------------------------------------------------


def standing_lines(fold: GameFold, viewer: str, width: int) -> list[str]:
    """Says where every player stands with their key numbers, a few lines each."""
    if not fold.version:
        return []
    standing = STANDING.get(fold.ruleset_name)
    if standing is not None:
        return standing(fold.state, viewer, width)
    lines = ["Where everyone stands:"]
    for row in players_summary(fold.ruleset_name, fold.state):
        lines += sheet_lines(row, width)
    return lines


def sheet_lines(row: dict[str, Any], width: int) -> list[str]:
    """Returns one Talisman character sheet (a players summary row) in a few lines: who, where, numbers,
    what they carry."""
    name, character = row["name"], _plain(row.get("character", ""))
    if row.get("status") == "waiting":
        asked = f" (asked for {character})" if character else ""
        return wrap_words(f"{name}: waiting for the deal{asked}.", width)
    who = ", ".join(part for part in (character, row.get("alignment", "")) if part)
    lines = wrap_words(f"{name} ({who}): {_where(row)}." if who else f"{name}: {_where(row)}.", width)
    return lines + wrap_words("; ".join(_numbers(row) + _carried(row)) + ".", width, INDENT, INDENT)


def _plain(text: str) -> str:
    """Returns a name as people read it, should a summary hand over a content id (`dungeon/x/elf`)."""
    return text.rsplit("/", 1)[-1].replace("-", " ").title() if "/" in text else text


def _where(row: dict[str, Any]) -> str:
    status = row.get("status", "")
    if "where" in row:
        place = str(row["where"])
    elif "board" in row:  # the main board alone: its regions name where everyone is
        place = f"{board_name(row['board'])}, space {row['space']} {whole(row['space_name'])}"
    elif row.get("entered") is False:
        place = "outside the Keep"
    else:
        place = f"{whole(row['space_name'])} (space {row['space']})"
    marks = [status] if status and status != "in play" else []
    marks += [words for key, words in (("looping", "looping"), ("obelisk", "at the Obelisk")) if row.get(key)]
    return place + (f", {', '.join(marks)}" if marks else "")


def _numbers(row: dict[str, Any]) -> list[str]:
    stats = [whole(f"{stat} {row[stat]}") for stat in ("lives", "strength", "craft", "gold")]
    numbers = [", ".join(stats)]
    if row.get("talisman") is True:
        numbers.append(whole("holds a Talisman"))
    if row.get("talismans"):
        numbers.append(whole(f"Talismans {row['talismans']}"))
    if row.get("quest"):
        numbers.append("quest: " + whole(str(row["quest"]).replace("-", " ")))
    return numbers


def _carried(row: dict[str, Any]) -> list[str]:
    carried = [
        f"{label} {', '.join(whole(name) for name in row[key])}"
        for key, label in (("objects", "objects"), ("followers", "followers"), ("spells", "spells"))
        if row.get(key)
    ]
    trophies = row.get("trophies", 0)
    return carried + ([whole(f"{trophies} {'trophy' if trophies == 1 else 'trophies'}")] if trophies else [])

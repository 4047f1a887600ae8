"""docs/house-rules.md is the rules document nightkeep ships and cites: nothing shipped names the team's
unshipped decision record, every "house rule H2.10" cited in the code, the tests and the docs names an item
the document has, and what a player reads (`rulesets`, the end of a bot game) points at the document."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "docs" / "house-rules.md"
UNSHIPPED = "RULES" + ".md"  # spelt apart so that this file does not name it
# Content files whose bytes are hashed into the recorded games of replays/ that cannot be recorded again
# (house rule H0.3; dungeon-short and keep-run deal their characters from talisman/characters.toml): a
# comment changed there would fail the audit of every such game, in replays/ and in the players' stores.
# Their header comments still name the old record; they change with the next real change of that content
# (which re-records the games anyway), and leave this list then.
HASHED_UNTIL_THEIR_NEXT_CHANGE = frozenset(
    {
        "domain/rulesets/castle/characters.toml",
        "domain/rulesets/castle/human_deck.toml",
        "domain/rulesets/castle/vampire_deck.toml",
        "domain/rulesets/dungeon/board.toml",
        "domain/rulesets/dungeon/deck.toml",
        "domain/rulesets/keep/board.toml",
        "domain/rulesets/keep/deck.toml",
        "domain/rulesets/keep/spells.toml",
        "domain/rulesets/keep/tables.toml",
        "domain/rulesets/keep/vault.toml",
        "domain/rulesets/talisman/characters.toml",
    }
)
# A citation: "H2.10" or a section "H2" (not a host name such as "H1:5432" in a database URL).
CITATION = re.compile(r"(?<![\w/+=])H(\d+)(?:\.(\d+))?(?![\w:])")
ITEM = re.compile(r"^- \*\*H(\d+)\.(\d+)\*\* \((house|reading)\) \*[^*]+\*", re.MULTILINE)
SECTION = re.compile(r"^## H(\d+)\. ", re.MULTILINE)
EXAMPLES = "tests/project/test_house_rules.py"  # its unknown numbers are examples the checks must refuse


def tracked_files() -> list[str]:
    """Returns every file git tracks (skips outside a git checkout, as in an unpacked sdist)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, text=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [name for name in listed.split("\0") if name and (ROOT / name).is_file()]


def defined() -> tuple[set[str], set[str]]:
    """Returns the document's item numbers ("2.10") and section numbers ("2")."""
    text = DOCUMENT.read_text(encoding="utf-8")
    return {f"{s}.{n}" for s, n, _ in ITEM.findall(text)}, set(SECTION.findall(text))


def unknown_citations(text: str) -> set[str]:
    """Returns the house-rule citations of a text that name no item or section of the document."""
    items, sections = defined()
    return {
        f"H{s}.{n}" if n else f"H{s}"
        for s, n in CITATION.findall(text)
        if (f"{s}.{n}" not in items if n else s not in sections)
    }


def test_no_shipped_file_names_the_unshipped_decision_record():
    naming = {name for name in tracked_files() if UNSHIPPED.encode() in (ROOT / name).read_bytes()}
    assert naming == HASHED_UNTIL_THEIR_NEXT_CHANGE, sorted(naming ^ HASHED_UNTIL_THEIR_NEXT_CHANGE)


def test_the_document_numbers_its_items_in_order_without_gaps():
    text = DOCUMENT.read_text(encoding="utf-8")
    sections = [int(s) for s in SECTION.findall(text)]
    assert sections == list(range(len(sections))) and len(sections) >= 7
    for section in sections:
        numbers = [int(n) for s, n, _ in ITEM.findall(text) if int(s) == section]
        assert numbers == list(range(1, len(numbers) + 1)), f"H{section}: {numbers}"
    # Every bullet is an item with its number, its kind and a short name.
    bullets = re.findall(r"^- \*\*H", text, re.MULTILINE)
    assert len(bullets) == len(ITEM.findall(text))


def test_every_house_rule_cited_in_code_tests_and_docs_exists():
    cited: dict[str, set[str]] = {}
    for name in tracked_files():
        if not name.endswith((".py", ".md", ".toml", ".txt", ".html", ".js")) or name == EXAMPLES:
            continue
        missing = unknown_citations((ROOT / name).read_text(encoding="utf-8"))
        if missing:
            cited[name] = missing
    assert not cited, cited


def test_the_citation_pattern_reads_items_sections_and_not_host_names():
    assert CITATION.findall("house rules H2.10, H3 and H3.3-H3.9") == [
        ("2", "10"),
        ("3", ""),
        ("3", "3"),
        ("3", "9"),
    ]
    assert CITATION.findall("postgresql://USER@H1:5432,H2:5432/DB") == []
    assert unknown_citations("house rule H2.99 and house rules H9") == {"H2.99", "H9"}
    assert unknown_citations("house rule H2.10 and house rules H6") == set()


def test_rulesets_names_the_document_and_cites_only_items_it_has():
    from cli.main import cli

    result = CliRunner().invoke(cli, ["rulesets"])
    assert result.exit_code == 0, result.output
    assert "docs/house-rules.md" in result.output
    assert CITATION.search(result.output) and not unknown_citations(result.output)


def test_the_last_line_of_a_bot_game_cut_by_the_round_cap_cites_an_item_of_the_document():
    # House rule H6.1: the demo's last line says why nobody won, and where that rule is explained.
    from cli.demo_command import outcome
    from domain.events import GameEnded
    from tests.decider_helpers import of
    from tests.main_helpers import BO, act, lay, new_game, put

    game, state = new_game({"bot_round_cap": "400"})
    state["round"] = 400
    put(state, BO, "outer", 5)
    lay(state, "outer", 4, "talisman/card/market-day")
    state.update(turn=BO, step="rolled", rolled=1)
    events, _ = act(game, state, "go:outer:4", player=BO)
    last = outcome("talisman", [SimpleNamespace(event=e) for e in events])
    assert of(events, GameEnded) and last.startswith("Nobody won this time")
    assert "house rule H6.1" in last and "docs/house-rules.md" in last
    assert not unknown_citations(last)


def test_house_rules_prints_the_document_an_item_or_a_section_and_refuses_an_unknown_number():
    from cli.main import cli

    runner = CliRunner()
    whole = runner.invoke(cli, ["house-rules"])
    assert whole.exit_code == 0 and whole.stdout == DOCUMENT.read_text(encoding="utf-8").rstrip("\n") + "\n"
    item = runner.invoke(cli, ["house-rules", "h2.10"])
    assert item.exit_code == 0 and item.stdout.startswith("- **H2.10** (house) *Misdirection")
    assert "H2.11" not in item.stdout and "Entrance" in item.stdout
    section = runner.invoke(cli, ["house-rules", "H6"])
    assert section.exit_code == 0 and section.stdout.startswith("## H6. ") and "**H6.1**" in section.stdout
    for wanted, said in (("H2.99", "there is no house rule H2.99"), ("rule5", "'rule5' is no house rule")):
        refused = runner.invoke(cli, ["house-rules", wanted])
        assert refused.exit_code == 2 and said in refused.stderr and not refused.stdout
        assert len(refused.stderr.strip().splitlines()) == 1


def test_the_installed_package_carries_the_document():
    import tomllib

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "house-rules.md" in pyproject["tool"]["setuptools"]["package-data"]["nightkeep"]
    packaged = ROOT / "nightkeep" / "house-rules.md"  # a link to the document in a checkout
    assert packaged.read_bytes() == DOCUMENT.read_bytes()

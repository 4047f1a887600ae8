"""docs/rules-coverage.md cannot go stale: it is exactly what `python -m tests.rules_coverage` writes, it
has a row for every numbered section of both seeds, every test it names exists and cites that section,
every code path it names exists, and a section without a test says why it needs none."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests import rules_coverage as coverage
from tests.rules_coverage import ROOT, SECTIONS, cited_in_name, cited_in_text

# Sections no test cites yet, the work of issue 14 still open: each must get a test (then leave this list)
# or a reason in tests/rules_coverage.toml. A section that loses its last test fails here too.
NOT_YET: dict[str, frozenset[str]] = {
    "dungeon": frozenset(),
    "keep": frozenset(),
}  # fmt: skip


def table() -> dict[tuple[str, str], list[str]]:
    """Reads docs/rules-coverage.md: (book, section) → its cells (section, title, code, tests, notes)."""
    rows: dict[tuple[str, str], list[str]] = {}
    book = ""
    for line in coverage.TABLE.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            book = next((b for b, title in coverage.BOOK_TITLES.items() if title == line[3:]), "")
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if book and len(cells) == 5 and cells[0] not in ("Rule", "---"):
            number = re.sub(r" \(printed [\d.]+\)$", "", cells[0])
            assert (book, number) not in rows, f"{book} {number} twice"
            rows[book, number] = cells
    return rows


def quoted(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def test_the_table_is_what_the_generator_writes():
    assert coverage.TABLE.read_text(encoding="utf-8") == coverage.render(*coverage.build()), (
        "docs/rules-coverage.md is stale: run `python -m tests.rules_coverage` and commit it"
    )


def test_every_numbered_section_of_both_seeds_has_one_row_and_a_title():
    rows, source = table(), coverage.load_source()
    for book, numbers in SECTIONS.items():
        assert [n for b, n in rows if b == book] == list(numbers)
        assert set(source[book]) == set(numbers), f"rules_coverage.toml: {set(source[book]) ^ set(numbers)}"
        assert all(rows[book, n][1] for n in numbers), f"{book}: a section without a title"
    # The doubled numbers of the Keep's seed, and its section 15 printed as 14.x.
    assert ("keep", "6.3 (second)") in rows and ("keep", "3.3 (second)") in rows
    assert "15.1 (printed 14.1)" in coverage.TABLE.read_text(encoding="utf-8")


def defined_in(path: str) -> dict[str, str]:
    """Returns every function and class a file defines, by qualified name, with its whole source."""
    lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
    functions = coverage.functions(ast.parse("\n".join(lines)), classes=True)
    return {name: "\n".join(lines[first - 1 : last]) for first, last, name, _ in functions}


def test_every_test_named_exists_and_cites_its_section():
    named = 0
    for (book, number), cells in table().items():
        for node_id in quoted(cells[3]):
            path, *names = node_id.split("::")
            found = defined_in(path)
            qualified = ".".join(names)
            assert qualified in found, f"{book} {number}: {node_id} does not exist"
            cites = cited_in_text(found[qualified]) + cited_in_name(names[-1])
            assert (book, number) in cites, f"{node_id} does not cite {book} {number}"
            named += 1
    assert named > 0


def test_every_code_path_named_exists():
    for (book, number), cells in table().items():
        for line in cells[2].split("<br>"):
            if line == "—":
                continue
            path, *functions = quoted(line)
            assert (ROOT / path).is_file(), f"{book} {number}: {path} does not exist"
            if functions:
                defined = defined_in(path)
                missing = [f for f in functions if f not in defined]
                assert not missing, f"{book} {number}: {path} defines no {missing}"


def test_every_section_has_a_test_or_says_why_it_needs_none():
    for book, numbers in SECTIONS.items():
        rows = table()
        gaps = {n for n in numbers if rows[book, n][3] == coverage.GAP}
        assert gaps == NOT_YET[book], (
            f"{book}: sections without a test or a reason: {sorted(gaps - NOT_YET[book])}; "
            f"tested now, leave NOT_YET: {sorted(NOT_YET[book] - gaps)}"
        )


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        ("Dungeon 8.1: the table", [("dungeon", "8.1")]),
        ("Keep 5.4, 7.2, 13: nothing alters movement", [("keep", "5.4"), ("keep", "7.2"), ("keep", "13")]),
        ("Keep 8.6 / 6.1: no tile", [("keep", "8.6"), ("keep", "6.1")]),
        ("Keep 5.2-5.4 and 10", [("keep", "5.2"), ("keep", "5.3"), ("keep", "5.4"), ("keep", "10")]),
        ("Dungeon 12.1–12.3", [("dungeon", "12.1"), ("dungeon", "12.2"), ("dungeon", "12.3")]),
        ("Keep 6.3 (second): a loop", [("keep", "6.3 (second)")]),
        ("Keep second 6.3: teleport loops", [("keep", "6.3 (second)")]),
        ("Keep 6.3 loop example 1", [("keep", "6.3 (second)")]),
        ("Keep 3.3 (second): the new cards", [("keep", "3.3 (second)")]),
        ("Keep 6.3: drawn last", [("keep", "6.3")]),
        ("Keep 15.2: the Hoard; Dungeon 12.10", [("keep", "15.2"), ("dungeon", "12.10")]),
        ("the keep 8.1 or Keeps 2", []),
        ("from the Sentry (Keep 4) to the Hallway (Keep 3)", []),  # positions in the views' words
        ("no Event reaches the Keep (Keep 12)", [("keep", "12")]),
    ],
)
def test_citations_in_text_read_as_the_generator_documents(text, cited):
    assert cited_in_text(text) == cited


@pytest.mark.parametrize(
    ("name", "cited"),
    [
        ("test_dungeon_8_1_roll_past", [("dungeon", "8.1")]),
        ("test_keep_5_4_11_1_13_objects", [("keep", "5.4"), ("keep", "11.1"), ("keep", "13")]),
        ("test_keep_6_3_loop_example_1", [("keep", "6.3 (second)")]),
        ("test_keep_15_treasure_hoard", [("keep", "15")]),
        ("test_dungeon_12_10_zulu", [("dungeon", "12.10")]),
        ("test_keep_run_characters_start", []),
    ],
)
def test_citations_in_test_names_read_as_the_generator_documents(name, cited):
    assert cited_in_name(name) == cited


def test_the_generator_checks_and_writes(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(coverage, "TABLE", tmp_path / "rules-coverage.md")
    assert coverage.main(["--check"]) == 1  # nothing there yet
    assert coverage.main([]) == 0 and coverage.main(["--check"]) == 0

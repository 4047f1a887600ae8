"""Builds docs/rules-coverage.md (run `python -m tests.rules_coverage`; `--check` only compares): every
numbered section of the two seeds, with the code and the tests that cite it and the house decisions
`tests/rules_coverage.toml` records for it.

A citation names the book and the section, as the tests' docstrings and comments do (`Dungeon 8.1: …`,
`Keep 6.3 (second): …`, `Keep 15.2`), or a test's name does (`test_dungeon_8_1_…`, `test_keep_6_3_loop_…`).
More sections may follow the first (`Keep 5.4, 7.2, 13`, `Keep 8.6 / 6.1`) and a range takes every section
of its depth between its ends (`Keep 5.2-5.4`). The seed of the Keep prints two sections 3.3 and two 6.3:
the second of each is cited `Keep 3.3 (second)` / `Keep 6.3 (second)` (a teleport loop: `Keep 6.3 loop`,
`test_keep_6_3_loop_…`); it numbers the sub-rules of its section 15 as 14.1-14.3, cited here as
`Keep 15.1`-`Keep 15.3`, while `Keep 14.1`/`14.2` are the new decks of its section 14.

A test cites what its whole source says (name, decorators, docstring, comments, strings); code cites what
the function (or, outside any function, the module or content file) around the citation says.
"""

from __future__ import annotations

import ast
import bisect
import re
import sys
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "docs" / "rules-coverage.md"
SOURCE = Path(__file__).with_suffix(".toml")
CODE = ("domain", "event_store", "projections", "simulation", "cli")
NOT_RULE_TESTS = ("tests/project/test_rules_coverage.py",)  # its citations are examples of the grammar
BOOKS = {"Dungeon": "dungeon", "Keep": "keep"}
SECOND, LOOP = " (second)", ("second", "loop")

# The seeds' numbering, in the order printed (Dungeon: seed 001; Keep: seed 000).
SECTIONS: dict[str, tuple[str, ...]] = {
    "dungeon": (
        "1", "2", "3", "3.1", "3.2", "3.3", "4", "4.1", "4.2", "5", "5.1", "5.2", "5.3",
        "6", "6.1", "6.2", "6.3", "6.4", "6.5", "7", "7.1", "7.2", "7.3", "8", "8.1", "8.2", "8.3",
        "9", "9.1", "9.2", "10", "10.1", "10.2", "10.3", "10.4", "11", "11.1", "11.2", "11.3",
        "12", *(f"12.{n}" for n in range(1, 11)), "13", "13.1", "13.2", "14",
    ),
    "keep": (
        "1", "2", "3", "3.1", "3.2", "3.3", "3.3 (second)", "3.4", "3.5", "3.6",
        "4", "4.1", "4.2", "4.3", "4.4", "4.5", "5", "5.1", "5.2", "5.3", "5.4", "5.5",
        "6", "6.1", "6.2", "6.3", "6.3 (second)", "7", "7.1", "7.2",
        "8", *(f"8.{n}" for n in range(1, 9)), "9", "9.1", "10", "11", "11.1", "11.2", "12", "13",
        "14", "14.1", "14.2", "15", "15.1", "15.2", "15.3",
    ),
}  # fmt: skip
PRINTED = {"15.1": "printed 14.1", "15.2": "printed 14.2", "15.3": "printed 14.3"}

NUMBER = r"\d+(?:\.\d+)?"
TEXT = re.compile(
    rf"\b(Dungeon|Keep)\s+(second\s+)?({NUMBER})(\s*\((?:second|loop)\)|\s+loops?\b)?"
    rf"((?:\s*(?:,|/|and|-|–)\s*{NUMBER}(?:\s*\(second\))?)*)"
)
FOLLOWING = re.compile(rf"\s*(,|/|and|-|–)\s*({NUMBER})(\s*\(second\))?")
NAME = re.compile(r"(?:^|_)(dungeon|keep)((?:_\d+)+)(_loop)?(?=_|$)")


@dataclass(frozen=True, order=True)
class Place:
    """Where a citation stands: a file, the line it starts on, and the function (or "") around it."""

    path: str
    line: int
    function: str = ""

    @property
    def label(self) -> str:
        """Names a function `path:qualified.name`, else the file."""
        return f"{self.path}:{self.function}" if self.function else self.path

    @property
    def node_id(self) -> str:
        """Names a test as pytest does: `path::Class::test_name`."""
        return "::".join([self.path, *self.function.split(".")])


@dataclass
class Found:
    """Every citation found: section → places, by book; and the citations that name no section."""

    tests: dict[tuple[str, str], set[Place]] = field(default_factory=lambda: defaultdict(set))
    code: dict[tuple[str, str], set[Place]] = field(default_factory=lambda: defaultdict(set))
    unknown: set[tuple[str, str, str]] = field(default_factory=set)


def section_id(book: str, number: str, second: bool) -> str:
    """Returns the table's id of a cited number (`6.3 (second)` for the second of a doubled one)."""
    wanted = number + SECOND if second else number
    return wanted if wanted in SECTIONS[book] or not second else number


def span(book: str, first: str, last: str) -> list[str]:
    """Returns the sections of the depth of `first` from `first` to `last`, in the seed's order."""
    order = [s for s in SECTIONS[book] if SECOND not in s and s.count(".") == first.count(".")]
    if first not in order or last not in order or order.index(last) < order.index(first):
        return [first, last]
    return order[order.index(first) : order.index(last) + 1]


def space_names() -> re.Pattern[str]:
    """Returns a pattern for a space of the Dungeon or the Keep named just before a parenthesis: "the
    Hallway (Keep 6)" is a position in the views' words, not a citation."""
    names = set()
    for board in ("dungeon", "keep"):
        data = tomllib.loads(
            (ROOT / "domain" / "rulesets" / board / "board.toml").read_text(encoding="utf-8")
        )
        names |= {space["name"] for space in data["spaces"]}
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?:{alternatives}) \($")


POSITION = space_names()


def is_position(text: str, m: re.Match[str]) -> bool:
    """Tells whether a match is a space's position ("the Sentry (Keep 4)") rather than a rule."""
    closed = text[m.end(3) : m.end(3) + 1] == ")" and "." not in m[3]
    return closed and POSITION.search(text, max(0, m.start() - 40), m.start()) is not None


def cited_in_text(text: str, ranges: bool = True) -> list[tuple[str, str]]:
    """Returns the (book, section) pairs a text cites (without `ranges`, only a range's ends)."""
    found: list[tuple[str, str]] = []
    for m in TEXT.finditer(text):
        if is_position(text, m):
            continue
        book = BOOKS[m[1]]
        previous = section_id(book, m[3], bool(m[2] or m[4]))
        found.append((book, previous))
        for link, number, second in FOLLOWING.findall(m[5]):
            if link in "-–" and ranges:
                found += [(book, s) for s in span(book, previous.removesuffix(SECOND), number)[1:]]
            else:
                found.append((book, section_id(book, number, bool(second))))
            previous = number
    return found


def cited_in_name(name: str) -> list[tuple[str, str]]:
    """Returns the (book, section) pairs a test's name cites: `keep_5_4_11_1_13` is 5.4, 11.1 and 13."""
    found: list[tuple[str, str]] = []
    for m in NAME.finditer(name):
        book, parts = BOOKS[m[1].title()], m[2].strip("_").split("_")
        numbers = []
        while parts:
            pair = ".".join(parts[:2])
            taken = pair if len(parts) > 1 and pair in SECTIONS[book] else parts[0]
            numbers.append(taken)
            parts = parts[2:] if taken == pair and len(parts) > 1 else parts[1:]
        found += [(book, n) for n in numbers]
        if m[3] and numbers:
            found[-1] = (book, section_id(book, numbers[-1], True))
    return found


def functions(tree: ast.Module, classes: bool = False) -> list[tuple[int, int, str, ast.AST]]:
    """Returns every function's (and with `classes` every class's) first line, last line, qualified name
    and node, decorators included."""
    found = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = prefix + child.name
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                if classes or not isinstance(child, ast.ClassDef):
                    found.append((first, child.end_lineno or child.lineno, name, child))
                walk(child, name + ".")

    walk(tree, "")
    return found


def scan_tests(found: Found) -> None:
    """Records the sections each test function cites (its whole source and its name)."""
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        rel = path.relative_to(ROOT).as_posix()
        if rel in NOT_RULE_TESTS:
            continue
        for first, last, name, _ in functions(ast.parse("\n".join(lines))):
            if not name.rpartition(".")[2].startswith("test_"):
                continue
            place = Place(rel, first, name)
            text = "\n".join(lines[first - 1 : last])
            for book, number in cited_in_text(text) + cited_in_name(name):
                record(found, found.tests, book, number, place)


def scan_code(found: Found) -> None:
    """Records the sections each function (else module, else content file) of the code cites."""
    for package in CODE:
        for path in sorted((ROOT / package).rglob("*")):
            if path.suffix not in (".py", ".toml") or "__pycache__" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            rel = path.relative_to(ROOT).as_posix()
            spans = functions(ast.parse(text), classes=True) if path.suffix == ".py" else []
            starts = [0, *(m.end() for m in re.finditer("\n", text))]
            for m in TEXT.finditer(text):
                line = bisect.bisect_right(starts, m.start())
                around = [(a, b, n) for a, b, n, _ in spans if a <= line <= b]
                name = max(around)[2] if around else ""
                for book, number in cited_in_text(m[0], ranges=False):
                    record(found, found.code, book, number, Place(rel, 0, name))


def record(found: Found, into: dict[tuple[str, str], set[Place]], book: str, number: str, at: Place) -> None:
    """Adds a citation, or notes it when it names no section."""
    if number in SECTIONS[book]:
        into[book, number].add(at)
    else:
        found.unknown.add((book, number, at.label))


@dataclass
class Row:
    """One section of a seed as the table shows it."""

    book: str
    number: str
    title: str
    code: list[str]
    tests: list[str]
    house: str
    why_none: str


def load_source() -> dict[str, dict[str, dict[str, str | list[str]]]]:
    """Returns rules_coverage.toml: book → section → its title, extra code, house decisions, reason."""
    data = tomllib.loads(SOURCE.read_text(encoding="utf-8"))
    return {book: {str(k): v for k, v in sections.items()} for book, sections in data.items()}


def build() -> tuple[list[Row], Found]:
    """Returns every row of the table, and what was found."""
    found = Found()
    scan_tests(found)
    scan_code(found)
    source = load_source()
    rows = []
    for book, numbers in SECTIONS.items():
        for number in numbers:
            entry = source.get(book, {}).get(number, {})
            extra = [str(c) for c in entry.get("code", [])]
            code = sorted({p.label for p in found.code[book, number]} | set(extra))
            tests = [p.node_id for p in sorted(found.tests[book, number])]
            rows.append(
                Row(
                    book,
                    number,
                    str(entry.get("title", "")),
                    code,
                    tests,
                    str(entry.get("house", "")),
                    str(entry.get("none", "")),
                )
            )
    return rows, found


HEAD = """# Rules coverage: the Dungeon and the Vampire's Keep

Every numbered section of the two seeds (`001_…` the Dungeon, `000_…` the Vampire's Keep), with the code
that cites it, the tests that cite it and the house decisions where the seed leaves the rule open, each
citing its item of [house-rules.md](house-rules.md) (sections H2 and H3). **Generated** by
`python -m tests.rules_coverage` from the citations in the tests and the code and from
`tests/rules_coverage.toml` (titles, house decisions, why a section needs no test);
`tests/project/test_rules_coverage.py` fails when this file is not what the generator writes, and when a
section
has neither a test nor a reason. How a citation reads: see `tests/rules_coverage.py`.

The Keep's seed prints two sections 3.3 and two 6.3 (the second 6.3 is the teleport loop), and numbers
the sub-rules of its section 15 as 14.1-14.3; the table calls them "3.3 (second)", "6.3 (second)" and
"15.1 (printed 14.1)" … "15.3 (printed 14.3)".
"""
BOOK_TITLES = {"dungeon": "The Dungeon (seed 001)", "keep": "The Vampire's Keep (seed 000)"}


def cell(items: list[str]) -> str:
    """Returns a list as one table cell (a line each)."""
    return "<br>".join(f"`{item}`" for item in items) if items else "—"


def code_cell(labels: list[str]) -> str:
    """Returns the code of a row as one cell: each file once, with the functions in it that cite."""
    by_file: dict[str, list[str]] = defaultdict(list)
    for label in labels:
        path, _, function = label.partition(":")
        by_file[path] += [function] if function else []
    lines = [
        f"`{path}`" + (": " + ", ".join(f"`{f}`" for f in names) if names else "")
        for path, names in by_file.items()
    ]
    return "<br>".join(lines) if lines else "—"


def line_of(row: Row) -> str:
    """Returns a row of the table."""
    number = (
        f"{row.number} ({PRINTED[row.number]})"
        if row.book == "keep" and row.number in PRINTED
        else row.number
    )
    notes = " ".join(
        part for part in (f"*No test needed: {row.why_none}*" if row.why_none else "", row.house) if part
    )
    tests = cell(row.tests) if row.tests else ("—" if row.why_none else GAP)
    return f"| {number} | {row.title} | {code_cell(row.code)} | {tests} | {notes} |"


def render(rows: list[Row], found: Found) -> str:
    """Returns the table as Markdown."""
    out = [HEAD]
    for book, title in BOOK_TITLES.items():
        mine = [r for r in rows if r.book == book]
        tested = sum(1 for r in mine if r.tests)
        out += [f"## {title}", "", f"{tested} of {len(mine)} sections cited by a test.", ""]
        out += ["| Rule | Section | Code | Tests | House decisions and notes |", "|---|---|---|---|---|"]
        out += [line_of(r) for r in mine]
        out.append("")
    if found.unknown:
        out += ["## Citations that name no section of the seeds", ""]
        out += [f"- `{BOOKS_BACK[b]} {n}` in `{where}`" for b, n, where in sorted(found.unknown)]
        out.append("")
    return "\n".join(out)


BOOKS_BACK = {v: k for k, v in BOOKS.items()}
GAP = "**no test yet**"


def main(argv: list[str]) -> int:
    """Writes the table (or with `--check` says whether it is up to date)."""
    text = render(*build())
    if "--check" in argv:
        same = TABLE.exists() and TABLE.read_text(encoding="utf-8") == text
        print("docs/rules-coverage.md is up to date" if same else "docs/rules-coverage.md is stale")
        return 0 if same else 1
    TABLE.write_text(text, encoding="utf-8")
    print(f"wrote docs/rules-coverage.md: {sum(1 for _ in text.splitlines())} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

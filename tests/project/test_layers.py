"""The layers of the shipped packages and their import graph: every import counts, at module level, inside a
function or under TYPE_CHECKING (as ../shared/tools/import_cycles.py counts them), so a deferred import
cannot hide a layer breach or a cycle. DESIGN.md, "Dependency rule"."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ("domain", "event_store", "projections", "simulation", "cli", "nightkeep")

# What each layer may import (itself included). simulation sits above both the application and the
# read side, the CLI above everything; only `nightkeep` (python -m nightkeep) and the CLI import the CLI.
MAY_IMPORT = {
    "domain": {"domain"},
    "storage": {"domain", "storage"},
    "app": {"domain", "storage", "app"},
    "pbem": {"domain", "storage", "app", "pbem"},
    "projections": {"domain", "storage", "projections"},
    "simulation": {"domain", "storage", "app", "projections", "simulation"},
    "cli": {"domain", "storage", "app", "pbem", "projections", "simulation", "cli"},
    "nightkeep": {"cli", "nightkeep"},
}

# The lazy imports of the optional psycopg driver: a PostgreSQL store's module is imported only for a
# PostgreSQL store, from inside the function that opens one.
LAZY_DRIVER_CYCLES = [
    {"event_store.postgres_store", "event_store.sql"},
]


def modules_of(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Returns every module of the packages by dotted name (a package by its own name)."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> Iterator[tuple[str, bool]]:
    """Yields each module of ours that a module imports, and whether the import sits inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    deferred = {
        id(node)
        for func in ast.walk(tree)
        if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(func)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        else:
            continue
        for imported in names:
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                yield imported, id(node) in deferred


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = SHIPPED) -> dict[str, dict[str, bool]]:
    """Returns module -> {imported module: imported only inside functions}."""
    modules = modules_of(root, packages)
    graph: dict[str, dict[str, bool]] = {name: {} for name in modules}
    for name, path in modules.items():
        for imported, deferred in imports_of(name, path, modules):
            graph[name][imported] = graph[name].get(imported, True) and deferred
    return graph


def layer_of(module: str) -> str:
    """Names the layer a module belongs to (event_store is storage but for its app and pbem packages)."""
    top, _, rest = module.partition(".")
    if top == "event_store":
        sub = rest.partition(".")[0]
        return sub if sub in ("app", "pbem") else "storage"
    return top


def layer_breaches(graph: dict[str, dict[str, bool]]) -> list[str]:
    return sorted(
        f"{module} ({layer_of(module)}) imports {imported} ({layer_of(imported)})"
        for module, imports in graph.items()
        for imported in imports
        if layer_of(imported) not in MAY_IMPORT[layer_of(module)]
    )


def cycles(graph: dict[str, dict[str, bool]]) -> list[set[str]]:
    """Returns the strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(component)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(graph[child])))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def is_lazy_driver_cycle(component: set[str], graph: dict[str, dict[str, bool]]) -> bool:
    """Tells whether a cycle is one of the psycopg modules' and is closed only by a deferred import."""
    return component in LAZY_DRIVER_CYCLES and any(
        graph[a].get(b) is True for a in component for b in component if a != b
    )


@pytest.fixture(scope="module")
def graph() -> dict[str, dict[str, bool]]:
    return import_graph()


def test_every_layer_imports_only_the_layers_below_it(graph):
    assert layer_breaches(graph) == []


def test_storage_imports_neither_the_application_nor_play_by_email_nor_the_read_side(graph):
    storage = [m for m in graph if layer_of(m) == "storage"]
    assert "event_store.config" in storage and "event_store.app.service" not in storage
    assert not [(m, i) for m in storage for i in graph[m] if layer_of(i) not in ("domain", "storage")]


def test_the_domain_names_no_module_of_the_layers_above_it_even_by_string():
    above = ("event_store", "projections", "simulation", "cli", "nightkeep")
    named = [
        f"{path.relative_to(ROOT)}: {node.value}"
        for path in sorted((ROOT / "domain").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.partition(".")[0] in above
        and "." in node.value
    ]
    assert named == []


def test_no_import_cycles_at_all_but_the_lazy_driver_imports(graph):
    assert [sorted(c) for c in cycles(graph) if not is_lazy_driver_cycle(c, graph)] == []


def write_tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_checks_catch_a_deferred_breach_and_a_cycle_hidden_under_type_checking(tmp_path):
    write_tree(
        tmp_path,
        {
            "domain/__init__.py": "",
            "domain/game.py": "def f():\n    from event_store.app import service\n",
            "event_store/__init__.py": "",
            "event_store/sql.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import event_store.postgres_store\n"
            ),
            "event_store/postgres_store.py": "from event_store import sql\n",
            "event_store/app/__init__.py": "",
            "event_store/app/service.py": "from domain.game import f\n",
        },
    )
    graph = import_graph(tmp_path, ("domain", "event_store"))
    assert layer_breaches(graph) == ["domain.game (domain) imports event_store.app.service (app)"]
    assert graph["domain.game"] == {"event_store.app.service": True}
    assert sorted(map(sorted, cycles(graph))) == [
        ["domain.game", "event_store.app.service"],
        ["event_store.postgres_store", "event_store.sql"],
    ]
    # The driver's pair, but imported at module level (under TYPE_CHECKING is not lazy): not excused.
    assert not any(is_lazy_driver_cycle(c, graph) for c in cycles(graph))


# --- the main board and its expansions (issue 27) ----------------------------------------------------------

MAIN_BOARD = "domain.rulesets.talisman"
EXPANSIONS = ("domain.rulesets.dungeon", "domain.rulesets.keep")


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def expansion_breaches(graph: dict[str, dict[str, bool]]) -> list[str]:
    """Returns each import of an expansion by the main board (which finds them by name only, in
    `talisman.main.build`), and of one expansion by another."""
    found = []
    for module, imports in graph.items():
        if not any(_within(module, p) for p in (MAIN_BOARD, *EXPANSIONS)):
            continue
        for imported in imports:
            for expansion in EXPANSIONS:
                if _within(imported, expansion) and not _within(module, expansion):
                    found.append(f"{module} imports {imported}")
    return sorted(found)


def test_the_main_board_imports_no_expansion_and_no_expansion_another(graph):
    assert any(_within(m, MAIN_BOARD + ".main") for m in graph)  # the packages are where the test looks
    assert any(_within(i, MAIN_BOARD) for m in graph if _within(m, EXPANSIONS[1]) for i in graph[m])
    assert expansion_breaches(graph) == []


def test_the_expansion_check_catches_deferred_and_type_checking_imports(tmp_path):
    talisman, keep, dungeon = "domain/rulesets/talisman", "domain/rulesets/keep", "domain/rulesets/dungeon"
    write_tree(
        tmp_path,
        {
            "domain/__init__.py": "",
            "domain/rulesets/__init__.py": "",
            f"{talisman}/__init__.py": "",
            f"{talisman}/main/__init__.py": "",
            f"{talisman}/main/ending.py": "def f():\n    from domain.rulesets.keep.state import BOARD\n",
            f"{talisman}/main/build.py": 'EXPANSIONS = {"keep": "domain.rulesets.keep.main:X"}\n',
            f"{keep}/__init__.py": "",
            f"{keep}/state.py": "from domain.rulesets.talisman.main import ending\n",
            f"{dungeon}/__init__.py": "",
            f"{dungeon}/state.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from domain.rulesets.keep import state\n"
            ),
        },
    )
    assert expansion_breaches(import_graph(tmp_path, ("domain",))) == [
        "domain.rulesets.dungeon.state imports domain.rulesets.keep.state",
        "domain.rulesets.talisman.main.ending imports domain.rulesets.keep.state",
    ]

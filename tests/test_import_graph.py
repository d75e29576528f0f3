"""No import circles inside the installed package.

Every ``import`` of every module counts, wherever it stands: at the top, inside a function,
or under ``if TYPE_CHECKING`` (a circle closed only there is still a circle in the design).
The bots and themes are read from ``ai/`` and ``themes/`` as ``solstis_tui.ai`` and
``solstis_tui.themes``, the names they are installed under.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Installed package name -> folder in the repository.
PACKAGES = {
    "solstis_tui": ROOT / "solstis_tui",
    "solstis_tui.ai": ROOT / "ai",
    "solstis_tui.themes": ROOT / "themes",
}
CORE = "solstis_tui.core"
HOST = "solstis_tui.host"
CLIENT = "solstis_tui.client"
#: Circles known and not yet broken, each with its owner's reason. Shrink, never grow.
KNOWN: list[list[str]] = []


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found: dict[str, Path] = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The package modules that module ``name`` imports (anywhere in its text)."""
    is_package = path.name == "__init__.py"
    here = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            # ``from pkg import sub`` imports the submodule ``pkg.sub`` when there is one.
            targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in known
                       else source for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # ``import a.b.c`` of a name inside c
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports_of(name, path, known) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def _in(package: str, name: str) -> bool:
    return name == package or name.startswith(package + ".")


def _in_core(name: str) -> bool:
    return _in(CORE, name)


def reachable(edges: dict[str, set[str]], start: set[str]) -> set[str]:
    """``start`` and every module it imports, directly or through others."""
    seen, todo = set(start), list(start)
    while todo:
        for target in edges.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def outside_imports(path: Path) -> set[str]:
    """The top-level names of what a module imports from outside the package."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out.add(node.module.partition(".")[0])
    return out


def test_the_graph_sees_the_package():
    edges = graph()
    assert "solstis_tui.screens.game" in edges and "solstis_tui.ai.mcts" in edges
    assert "solstis_tui.play.controller" in edges["solstis_tui.screens.game"]


def test_the_cycle_finder_finds_a_circle():
    found = cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    assert found == [["a", "b", "c"]]


def test_no_import_circles_outside_the_core():
    circles = [c for c in cycles(graph()) if not all(_in_core(m) for m in c)]
    assert [c for c in circles if c not in KNOWN] == [], \
        f"modules that import each other: {circles}"


def test_the_known_circles_are_still_there():
    """A circle that is gone leaves ``KNOWN``, so that it cannot come back unseen."""
    circles = cycles(graph())
    assert [c for c in KNOWN if c not in circles] == []


def test_no_import_circles_in_the_core():
    circles = [c for c in cycles(graph()) if all(_in_core(m) for m in c)]
    assert circles == [], f"core modules that import each other: {circles}"


#: The packages of the local app: its turn loop and saves, its screens and widgets, the
#: terminal's adaptations, and the client (the online app).
APP_SIDE = ("solstis_tui.local", "solstis_tui.screens", "solstis_tui.widgets",
            "solstis_tui.terminal", "solstis_tui.tutorial", "solstis_tui.play", CLIENT,
            "solstis_tui.app", "solstis_tui.shell")


def test_the_host_reaches_neither_the_apps_nor_textual():
    """What the host imports, directly or through other modules and anywhere in their text
    (inside functions too), holds no module of the local app or of the client (the online
    app) and no import of Textual: the host is a program of its own (tests/test_layers.py
    loads it). What both sides speak lives in ``solstis_tui.wire``."""
    edges = graph()
    found = modules()
    host = {name for name in edges if _in(HOST, name)}
    assert {"solstis_tui.host.serve", "solstis_tui.host.host"} <= host
    reached = reachable(edges, host)
    assert {"solstis_tui.core.game", "solstis_tui.wire.protocol"} <= reached  # it walks
    assert sorted(m for m in reached if any(_in(side, m) for side in APP_SIDE)) == []
    assert sorted(m for m in reached if "textual" in outside_imports(found[m])) == []


def test_the_client_reaches_the_host_only_through_the_wire():
    """The online app imports nothing of the host's own modules: the messages, names and
    paths they share are in ``solstis_tui.wire``."""
    edges = graph()
    client = {name for name in edges if _in(CLIENT, name)}
    reached = reachable(edges, client)
    assert "solstis_tui.wire.protocol" in reached
    assert sorted(m for m in reached if _in(HOST, m)) == []


def test_the_play_controller_reaches_neither_a_local_nor_a_remote_session():
    """The controller and the words of the screens work through ``SessionView`` alone: what
    ``solstis_tui.play`` imports reaches no local game loop and no client (the tutorial's
    controller aside: it drives the tutorial's own session)."""
    edges = graph()
    play = {name for name in edges if _in("solstis_tui.play", name)
            and name != "solstis_tui.play.tutorial"}
    reached = reachable(edges, play)
    assert "solstis_tui.play.controller" in play and "solstis_tui.core.game" in reached
    assert sorted(m for m in reached
                  if _in("solstis_tui.local", m) or _in(CLIENT, m)) == []


def test_no_screen_or_app_asks_which_kind_of_session_it_has():
    """No ``isinstance`` on a session class in the apps, screens, controller or client: what
    a screen needs of a game is on ``SessionView``."""
    sessions = {"Session", "RemoteSession", "TutorialSession", "SessionView"}
    found = []
    for name, path in modules().items():
        if not any(_in(p, name) for p in ("solstis_tui.screens", "solstis_tui.play",
                                          "solstis_tui.client", "solstis_tui.app",
                                          "solstis_tui.shell", "solstis_tui.tutorial")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance":
                kinds = node.args[1]
                names = {getattr(k, "id", getattr(k, "attr", "")) for k in
                         (kinds.elts if isinstance(kinds, ast.Tuple) else [kinds])}
                if names & sessions:
                    found.append(f"{name}:{node.lineno}")
    assert found == []

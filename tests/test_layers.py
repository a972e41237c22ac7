"""The layering of ARCHITECTURE.md, checked by walking every module's imports (AST).

Arrows point down only::

    core  ←  bots  ←  sim, arena, bench, testing  ←  cli, server, research
                  ↖  solve (may import core and bots)  ←  registry (every bot by level)
    ratings (OpenSkill alone)  ←  arena, train, server, research, cli

``perudo.core`` imports only the standard library and itself. ``import perudo`` counts as
importing the core: the root package re-exports the core and nothing else (checked here
too). Imports inside functions count (``ast.walk`` sees them), and so do ``__import__(…)``
and ``importlib.import_module(…)`` calls; one whose module is not a string literal cannot be
followed and fails the walk. A new subpackage must be given its place in ``ALLOWED`` below.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "perudo"

_TOOLS = frozenset(
    {"core", "bots", "sim", "arena", "solve", "registry", "bench", "i18n", "testing", "ratings"}
)
"""Everything below the front ends (the server, the terminal, the research adapters)."""

# What each part of the package may import from perudo (itself included).
ALLOWED: dict[str, frozenset[str]] = {
    "core": frozenset({"core"}),
    "i18n": frozenset({"i18n"}),
    "bots": frozenset({"core", "bots"}),
    "solve": frozenset({"core", "bots", "solve"}),
    # Every bot by name and level: above the bots and the solver (the expert is the solver's).
    "registry": frozenset({"core", "bots", "solve", "registry"}),
    "sim": frozenset({"core", "bots", "sim"}),
    "bench": frozenset({"core", "bots", "sim", "bench"}),
    "testing": frozenset({"core", "bots", "sim", "testing"}),
    # OpenSkill's update over a game's places, shared by the arena and the rated tables.
    "ratings": frozenset({"ratings"}),
    "arena": frozenset({"core", "bots", "sim", "registry", "ratings", "arena"}),
    # perudo train: self-play through the core, the solver's exact measurement, the references.
    "train": frozenset({"core", "bots", "sim", "arena", "solve", "registry", "ratings", "train"}),
    # Learning from a game: below the front ends, above the solver and the bots.
    "analysis": frozenset({"core", "bots", "solve", "registry", "sim", "analysis"}),
    "research": _TOOLS | {"research"},
    "server": _TOOLS | {"analysis", "server"},
    # The terminal is the top: it launches the server (perudo serve) and the research tools.
    "cli": _TOOLS | {"analysis", "research", "server", "train", "cli"},
    # ``import perudo`` re-exports the core only; ``python -m perudo`` runs the terminal.
    "__init__": frozenset({"core"}),
    "__main__": frozenset({"cli"}),
}


def modules() -> Iterator[tuple[str, Path, bool]]:
    """``(dotted name, path, is_package)`` for every module under src/perudo."""
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        is_pkg = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_pkg else parts)
        yield name, path, is_pkg


DYNAMIC = "<dynamic import>"
"""What :func:`imported` yields for an import it cannot follow (a computed module name)."""


def imported(
    name: str, path: Path, is_pkg: bool, source: str | None = None
) -> Iterator[tuple[str, int]]:
    """Every module ``path`` (or ``source``) imports, absolute, with its line number: import
    statements anywhere, and ``__import__(…)`` / ``importlib.import_module(…)`` calls."""
    text = path.read_text(encoding="utf-8") if source is None else source
    tree = ast.parse(text, str(path))
    package = name if is_pkg else name.rpartition(".")[0]

    def absolute(module: str | None, level: int, lineno: int) -> str:
        base = package.split(".")
        if level > 1:
            base = base[: -(level - 1)]
        assert base, f"{path}:{lineno}: relative import beyond the top package"
        return ".".join([*base, module]) if module else ".".join(base)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                assert node.module is not None
                yield node.module, node.lineno
            elif node.module:
                yield absolute(node.module, node.level, node.lineno), node.lineno
            else:
                for alias in node.names:
                    yield absolute(alias.name, node.level, node.lineno), node.lineno
        elif isinstance(node, ast.Call) and _imports_by_call(node.func):
            arg = node.args[0] if node.args else None
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                yield DYNAMIC, node.lineno
            elif arg.value.startswith("."):
                dots = len(arg.value) - len(arg.value.lstrip("."))
                yield absolute(arg.value[dots:] or None, dots, node.lineno), node.lineno
            else:
                yield arg.value, node.lineno


def _imports_by_call(func: ast.expr) -> bool:
    """``__import__``, ``import_module`` or ``importlib.import_module``."""
    if isinstance(func, ast.Name):
        return func.id in ("__import__", "import_module")
    return isinstance(func, ast.Attribute) and func.attr in ("__import__", "import_module")


def part_of(name: str) -> str:
    """``perudo.bots.base`` → ``bots``; ``perudo`` → ``__init__``."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


ALL = list(modules())


def test_layers_the_walk_finds_the_package() -> None:
    names = {name for name, _, _ in ALL}
    assert {"perudo", "perudo.core", "perudo.core.engine", "perudo.bots"} <= names
    core_imports = {m for m, _ in imported("perudo.core", SRC / "core" / "__init__.py", True)}
    assert "perudo.core.engine" in core_imports  # relative imports are resolved


@pytest.mark.parametrize(
    ("name", "path", "is_pkg"),
    [m for m in ALL if part_of(m[0]) == "core"],
    ids=[m[0] for m in ALL if part_of(m[0]) == "core"],
)
def test_layers_core_imports_only_the_standard_library_and_itself(
    name: str, path: Path, is_pkg: bool
) -> None:
    for module, line in imported(name, path, is_pkg):
        top = module.split(".")[0]
        if module == "perudo.core" or module.startswith("perudo.core."):
            continue
        assert top in sys.stdlib_module_names or top == "__future__", (
            f"{path.relative_to(SRC.parent)}:{line} imports {module}: perudo.core is "
            "standard-library only (ARCHITECTURE.md)"
        )


def test_layers_every_part_of_the_package_has_a_place() -> None:
    parts = {part_of(name) for name, _, _ in ALL}
    unknown = sorted(parts - set(ALLOWED))
    assert not unknown, f"give {unknown} a place in ALLOWED in tests/test_layers.py"


@pytest.mark.parametrize(("name", "path", "is_pkg"), ALL, ids=[m[0] for m in ALL])
def test_layers_arrows_point_down_only(name: str, path: Path, is_pkg: bool) -> None:
    part = part_of(name)
    allowed = ALLOWED.get(part, frozenset())
    for module, line in imported(name, path, is_pkg):
        assert module != DYNAMIC, (
            f"{path.relative_to(SRC.parent)}:{line}: an import of a computed module name; "
            "name the module so that the layers can be checked"
        )
        if module != "perudo" and not module.startswith("perudo."):
            continue
        # ``import perudo`` is the core's public API (the root re-exports the core only).
        target = "core" if module == "perudo" else part_of(module)
        assert target in allowed, (
            f"{path.relative_to(SRC.parent)}:{line}: perudo.{part} imports {module}; "
            f"{part} may import only {sorted(allowed)}"
        )


def test_layers_the_walk_sees_import_calls() -> None:
    """``__import__`` and ``importlib`` are imports too: the old registry reached up from the
    bots into the solver with ``__import__("perudo.solve.expert")``, unseen."""
    source = (
        "import importlib\n"
        "from importlib import import_module\n"
        "def f():\n"
        "    __import__('perudo.solve.expert', fromlist=['_'])\n"
        "    importlib.import_module('perudo.server')\n"
        "    import_module('.strong_bot', __package__)\n"
        "    importlib.import_module(name)\n"
    )
    found = {m for m, _ in imported("perudo.bots.x", SRC / "bots" / "x.py", False, source)}
    assert {"perudo.solve.expert", "perudo.server", "perudo.bots.strong_bot", DYNAMIC} <= found


def test_layers_nothing_imports_by_a_computed_name() -> None:
    for name, path, is_pkg in ALL:
        for module, line in imported(name, path, is_pkg):
            assert module != DYNAMIC, f"{path.relative_to(SRC.parent)}:{line}"


def test_layers_the_registry_is_above_the_bots_and_the_solver() -> None:
    """No circle: the bots and the solver never reach the registry (the expert's fallback is
    built directly)."""
    for part in ("bots", "solve"):
        assert "registry" not in ALLOWED[part]
    assert {"bots", "solve"} <= ALLOWED["registry"]


def test_layers_bots_never_import_the_server_or_the_terminal() -> None:
    for forbidden in ("server", "cli", "research", "arena", "sim"):
        assert forbidden not in ALLOWED["bots"]
    assert ALLOWED["core"] == {"core"}
    assert ALLOWED["solve"] <= {"core", "bots", "solve"}


SERVER_BELOW: dict[str, frozenset[str]] = {
    # The store is the server's floor: its schema's revisions and nothing above it.
    "store": frozenset({"store", "migrations"}),
    # The cluster hands forwarded messages to the socket handler the app gives it
    # (Node(handle=…)); it never reaches up into the routes or the app.
    "cluster": frozenset(
        {"cluster", "store", "settings", "tables", "connection", "guard", "lobby", "protocol"}
        | {"payloads", "wirejson", "transport", "proxy", "hosting", "text", "rules"}
    ),
}
"""Inside the server, what its lowest rooms may import of the server."""


def server_room(module: str) -> str | None:
    """``perudo.server.store.games`` → ``store``; ``None`` outside the server."""
    parts = module.split(".")
    if parts[:2] != ["perudo", "server"] or len(parts) < 3:
        return None
    return parts[2]


@pytest.mark.parametrize("room", sorted(SERVER_BELOW))
def test_layers_the_servers_store_and_cluster_import_only_below_them(room: str) -> None:
    for name, path, is_pkg in ALL:
        if server_room(name) != room:
            continue
        for module, line in imported(name, path, is_pkg):
            target = server_room(module)
            if target is None or name.endswith("migrations.env"):
                continue
            assert (
                target in SERVER_BELOW[room]
            ), f"{path.relative_to(SRC.parent)}:{line}: perudo.server.{room} imports {module}"


def test_layers_only_the_store_queries_the_database_through_its_writer() -> None:
    """The store's writer and read connections (``_write``, ``_reading``, ``_engine``) are its
    own: every query of the server is a method of a part of ``perudo.server.store``, so a newcomer
    finds every table's reads and writes there."""
    private = ("_write", "_reading", "_engine")
    for name, path, _ in ALL:
        if server_room(name) == "store":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in private:
                base = node.value
                held = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
                assert "store" not in held, (
                    f"{path.relative_to(SRC.parent)}:{node.lineno}: {held}.{node.attr} is the "
                    f"store's own: make the query a method of a part of perudo.server.store"
                )

"""The dependency direction of the design, checked on the source (lazy imports included).

schema <- match <- compare <- service <- mcp <- cli (the extra `mcp`);  schema <- store <- service;  cli and mcp
render with compare and open the store only through the service; the CLI takes nothing from compare but its
renderers
Every third-party import must be declared in the importing package's pyproject, and cli/mcp may use
the other packages only through their top-level API (so semantics cannot creep into the thin layers).
Over the modules of every package: no import circle, and a private module (`a/b/_c.py`) is imported only by modules
in its own folder (`a/b/`).
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = (ROOT / "docs/ARCHITECTURE.md").read_text(encoding="utf-8")


def documented_imports(header: str, name: str) -> dict[str, set[str]]:
    """The `imports` column of the table in docs/ARCHITECTURE.md whose header row is `header`."""
    table = ARCHITECTURE[ARCHITECTURE.index(header) :]
    table = table[: table.index("\n\n")]
    out: dict[str, set[str]] = {}
    for row in table.splitlines()[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        match = re.fullmatch(name, cells[0])
        assert match is not None, row
        out[match.group(1)] = set() if cells[1] == "—" else {c.strip() for c in cells[1].split(",")}
    return out


# The direction of the design, as docs/ARCHITECTURE.md draws it.
ALLOWED = {k: v for k, v in documented_imports("| package | imports | holds |", r"`dynamo-diff-?(\w*)`").items() if k}
OURS = set(ALLOWED)
# Import name -> distribution name, for third-party packages.
DISTRIBUTION_OF = {
    "typer": "typer",
    "rich": "rich",
    "pydantic": "pydantic",
    "jsonschema": "jsonschema",
    "orjson": "orjson",
    "mcp": "mcp",
    "click": "click",
    "anyio": "anyio",
    "pytest": "pytest",
}
THIN = {"cli", "mcp"}


def imports_of(package: str) -> list[tuple[Path, int, str]]:
    """(file, line, dotted module) for every import statement in the package, at any depth."""
    found: list[tuple[Path, int, str]] = []
    for path in sorted((ROOT / f"packages/dynamo-diff-{package}/src").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.extend((path, node.lineno, alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.append((path, node.lineno, node.module))
    return found


def declared(package: str) -> set[str]:
    project = tomllib.loads((ROOT / f"packages/dynamo-diff-{package}/pyproject.toml").read_text())["project"]
    names = set()
    extras = [req for reqs in project.get("optional-dependencies", {}).values() for req in reqs]
    for req in [*project.get("dependencies", []), *extras]:  # an optional extra is a declared dependency too
        match = re.match(r"[A-Za-z0-9_.-]+", req)
        assert match is not None
        names.add(match.group(0).lower())
    return names


@pytest.mark.parametrize("package", sorted(OURS))
def test_dependency_direction(package: str) -> None:
    """Each package imports exactly the packages the architecture document says it does."""
    bad = []
    used = set()
    for path, line, module in imports_of(package):
        top = module.split(".")[0]
        if top.startswith("dynamo_diff_"):
            other = top.removeprefix("dynamo_diff_")
            if other != package:
                used.add(other)
            if other != package and other not in ALLOWED[package]:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not bad, (
        f"docs/ARCHITECTURE.md: dynamo_diff_{package} imports only {sorted(ALLOWED[package])}:\n" + "\n".join(bad)
    )
    assert used == ALLOWED[package], f"docs/ARCHITECTURE.md names imports dynamo_diff_{package} does not have"


@pytest.mark.parametrize("package", sorted(OURS))
def test_third_party_imports_are_declared(package: str) -> None:
    deps = declared(package)
    bad = []
    for path, line, module in imports_of(package):
        top = module.split(".")[0]
        if top in sys.stdlib_module_names or top == "__future__":
            continue
        if top.startswith("dynamo_diff_"):
            other = top.removeprefix("dynamo_diff_")
            if other != package and f"dynamo-diff-{other}" not in deps:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module} (not declared)")
            continue
        dist = DISTRIBUTION_OF.get(top)
        if dist is None or dist not in deps:
            bad.append(f"{path.relative_to(ROOT)}:{line} imports {module} (declare it in pyproject.toml)")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("package", sorted(THIN))
def test_thin_layers_use_public_api_only(package: str) -> None:
    """cli/mcp import store/match/compare only at the top level: no reaching into the semantics."""
    bad = []
    for path, line, module in imports_of(package):
        parts = module.split(".")
        other = parts[0].removeprefix("dynamo_diff_")
        if parts[0].startswith("dynamo_diff_") and other in {"store", "match", "compare", "service"} and len(parts) > 1:
            bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not bad, "use the package's top-level API instead:\n" + "\n".join(bad)


# What the CLI may take from dynamo_diff_compare: renderers and display vocabulary, nothing that computes a result
# (that is the service's). docs/ARCHITECTURE.md's table names the same list.
CLI_RENDERERS = {
    "COMPILED_WORDS",
    "capture_markdown",
    "capture_text",
    "check_markdown",
    "check_text",
    "comparison_html",
    "comparison_markdown",
    "comparison_text",
    "compiled_line",
    "index_lines",
    "run_report_text",
    "scripts_text",
    "ShownScripts",
    "terminal_text",
    "with_hint",
}
CLI_PACKAGES = {
    "dynamo_diff_schema",
    "dynamo_diff_service",
    "dynamo_diff_compare",
    "dynamo_diff_cli",
    "dynamo_diff_mcp",
}
# What the CLI may take from dynamo_diff_mcp: the server's public entry point (`serve-mcp`), nothing else.
CLI_FROM_MCP = {"serve"}


def cli_violations(source: str, where: str) -> list[str]:
    """Imports of our packages in CLI code other than schema, service and compare's renderers."""
    bad = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found = [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found = [(node.module, alias.name) for alias in node.names]
        else:
            continue
        for module, name in found:
            top = module.split(".")[0]
            if not top.startswith("dynamo_diff_"):
                continue
            if top not in CLI_PACKAGES:
                bad.append(f"{where}:{node.lineno} imports {module}: the CLI reaches it through dynamo_diff_service")
            elif top == "dynamo_diff_compare" and name not in CLI_RENDERERS:
                bad.append(f"{where}:{node.lineno} imports {module}.{name}: the CLI takes only renderers from compare")
            elif top == "dynamo_diff_mcp" and (module != "dynamo_diff_mcp" or name not in CLI_FROM_MCP):
                bad.append(f"{where}:{node.lineno} imports {module}.{name}: the CLI takes only the MCP entry point")
    return bad


def test_cli_imports_only_the_service_the_schema_and_renderers() -> None:
    bad = []
    for path in sorted((ROOT / "packages/dynamo-diff-cli/src").rglob("*.py")):
        bad.extend(cli_violations(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT))))
    assert not bad, "\n".join(bad)
    row = next(line for line in ARCHITECTURE.splitlines() if line.startswith("| `dynamo-diff-cli` |"))
    assert set(re.findall(r"`(\w+)`", row.split("renderers:", 1)[1])) == CLI_RENDERERS, (
        "docs/ARCHITECTURE.md's cli row names the renderers the CLI may import"
    )


def test_the_cli_checker_sees_violations() -> None:
    src = (
        "def f():\n    from dynamo_diff_store import Store\n"
        "    from dynamo_diff_compare import evaluate, comparison_text\n    import dynamo_diff_match\n"
        "    from dynamo_diff_mcp import serve, create_server\n    from dynamo_diff_mcp.server import serve\n"
    )
    assert [line.split(" imports ")[1].split(":")[0] for line in cli_violations(src, "x.py")] == [
        "dynamo_diff_store",
        "dynamo_diff_compare.evaluate",
        "dynamo_diff_match",
        "dynamo_diff_mcp.create_server",
        "dynamo_diff_mcp.server.serve",
    ]


def test_the_checker_sees_violations(tmp_path: Path) -> None:
    """Guard against a checker that cannot fail: a lazy import inside a function is found."""
    src = "def f():\n    from dynamo_diff_store.reading import Record\n    return Record\n"
    tree = ast.parse(src)
    modules = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert modules == ["dynamo_diff_store.reading"]


# Inside dynamo_diff_store: one subpackage per job, dependencies pointing one way (docs/ARCHITECTURE.md).
STORE_LAYERS = documented_imports("| subpackage | imports |", r"`(\w+)`")


def test_store_subpackages_depend_one_way_through_their_public_surface() -> None:
    root = ROOT / "packages/dynamo-diff-store/src/dynamo_diff_store"
    assert sorted(p.name for p in root.iterdir() if (p / "__init__.py").is_file()) == sorted(STORE_LAYERS)
    bad = []
    for path, line, module in imports_of("store"):
        parts = module.split(".")
        if parts[0] != "dynamo_diff_store" or len(parts) < 2 or parts[1] not in STORE_LAYERS:
            continue
        rel = path.relative_to(root).parts
        mine = rel[0] if len(rel) > 1 else None
        if mine == parts[1]:
            continue
        if mine is not None and parts[1] not in STORE_LAYERS[mine]:
            bad.append(f"{path.relative_to(ROOT)}:{line}: {mine} may not import {module}")
        if len(parts) > 2:
            bad.append(f"{path.relative_to(ROOT)}:{line}: {module} is internal to {parts[1]}; import from its __init__")
    assert not bad, "\n".join(bad)


# Over the modules of every package: no import circle, and no private module imported from outside its folder.


@dataclass(frozen=True)
class ModuleImport:
    """`importer` imports `imported` (both modules of ours, dotted) at `path`:`line`."""

    importer: str
    imported: str
    path: Path
    line: int

    def where(self) -> str:
        shown = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{shown}:{self.line}"


def module_imports(sources: Sequence[Path]) -> tuple[dict[str, Path], list[ModuleImport]]:
    """Every module under the `src` folders `sources` (dotted name -> file), and every import of one of them by
    another, at any depth (module level, in a function, under TYPE_CHECKING). `from a.b import c` imports the
    module a.b.c when there is one, else a.b (its __init__); an import names the nearest module of ours."""
    modules: dict[str, Path] = {}
    for src in sources:
        for path in sorted(src.rglob("*.py")):
            parts = path.relative_to(src).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    found: list[ModuleImport] = []
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the importer's package, `level - 1` packages up
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([node.module] if node.module else [])])
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            else:
                continue
            for dotted in targets:
                target = dotted
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    found.append(ModuleImport(name, target, path, node.lineno))
    return modules, found


def import_circles(imports: Sequence[ModuleImport]) -> list[list[ModuleImport]]:
    """One circle (the imports that close it, in order) for each group of modules that import each other."""
    edges: dict[str, dict[str, ModuleImport]] = {}
    for imp in imports:
        edges.setdefault(imp.importer, {}).setdefault(imp.imported, imp)
    # Groups of mutually reachable modules (Tarjan's algorithm, iterative), then the shortest circle in each.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, {}))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, nexts = work[-1]
            step = next(nexts, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(edges.get(step, {})))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    circles = []
    for group in groups:
        start, members = group[0], set(group)
        came: dict[str, ModuleImport] = {}
        queue = deque([start])
        while queue:  # breadth first from `start`, back to it
            node = queue.popleft()
            for target, imp in sorted(edges.get(node, {}).items()):
                if target in members and target not in came:
                    came[target] = imp
                    queue.append(target)
        circle = [came[start]]
        while circle[0].importer != start:
            circle.insert(0, came[circle[0].importer])
        circles.append(circle)
    return circles


def private_imports(modules: dict[str, Path], imports: Sequence[ModuleImport]) -> list[ModuleImport]:
    """Imports of a private module (a dotted part `_name`) by a module outside the folder that holds it."""
    bad = []
    for imp in imports:
        parts = imp.imported.split(".")
        private = next((i for i, part in enumerate(parts) if part.startswith("_")), None)
        if private is None:
            continue
        mine = imp.importer.split(".")
        folder = mine if modules[imp.importer].name == "__init__.py" else mine[:-1]
        if folder[:private] != parts[:private]:
            bad.append(imp)
    return bad


SOURCES = sorted(ROOT.glob("packages/*/src"))


def test_no_import_circle() -> None:
    """No module imports itself through others, lazily or not (the import order would decide what works)."""
    _, imports = module_imports(SOURCES)
    assert len(imports) > 500  # the checker reads the workspace
    circles = import_circles(imports)
    assert not circles, "import circles:\n" + "\n".join(
        " -> ".join([c[0].importer, *(f"{imp.imported} ({imp.where()})" for imp in c)]) for c in circles
    )


def test_private_modules_are_imported_only_from_their_folder() -> None:
    """`a.b._c` is internal to the folder a/b/: any other module imports what a/b's __init__ exports."""
    modules, imports = module_imports(SOURCES)
    bad = private_imports(modules, imports)
    assert not bad, "private module imported from outside its folder (import it from the package instead):\n" + (
        "\n".join(f"{imp.where()}: {imp.importer} imports {imp.imported}" for imp in bad)
    )


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_the_module_checks_see_planted_violations(tmp_path: Path) -> None:
    """Guard against checks that cannot fail: a circle closed by a lazy import through a package __init__, a relative
    import, and private modules imported from a sibling folder, from the folder above and from their own folder."""
    src = _tree(
        tmp_path / "src",
        {
            "pkg/__init__.py": "",
            "pkg/a/__init__.py": "from pkg.a._one import f\n",
            "pkg/a/_one.py": "def f():\n    from pkg.b import g\n    return g\n",
            "pkg/a/_two.py": "from pkg.a import _one\nfrom . import _one as again\n",
            "pkg/a/inner/__init__.py": "from pkg.a._two import again\n",
            "pkg/b/__init__.py": "from ._three import g\n",
            "pkg/b/_three.py": "import pkg.a\ng = 1\n",
            "pkg/c.py": "from pkg.a import _one\nfrom pkg.b._three import g\n",
        },
    )
    modules, imports = module_imports([src])
    circles = import_circles(imports)
    assert [[(imp.importer, imp.imported, imp.line) for imp in circle] for circle in circles] == [
        [
            ("pkg.a", "pkg.a._one", 1),
            ("pkg.a._one", "pkg.b", 2),  # lazy, inside f
            ("pkg.b", "pkg.b._three", 1),  # relative
            ("pkg.b._three", "pkg.a", 1),
        ]
    ]
    bad = [(imp.importer, imp.imported) for imp in private_imports(modules, imports)]
    assert bad == [("pkg.c", "pkg.a._one"), ("pkg.c", "pkg.b._three")]  # its own folder and below may
    acyclic = _tree(tmp_path / "acyclic", {"pkg/__init__.py": "", "pkg/x.py": "import pkg.y\n", "pkg/y.py": ""})
    assert import_circles(module_imports([acyclic])[1]) == []

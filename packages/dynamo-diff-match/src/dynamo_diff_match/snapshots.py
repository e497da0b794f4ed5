"""One run's source snapshots, and finding an observed function in them."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from dynamo_diff_match.identities import CallSite, FunctionRef, SourceFunction, _Piece, index_with_pieces
from dynamo_diff_match.spans import MAX_SOURCE_BYTES


class SnapshotSet:
    """Source text by relative path (`files`) and the relative path of each captured absolute path (`paths`),
    as in a bundle's manifest. Parsed indexes are cached; the texts are never imported or executed."""

    def __init__(self, files: Mapping[str, str], paths: Mapping[str, str]) -> None:
        self.files = dict(files)
        self.paths = dict(paths)
        self._index: dict[str, list[SourceFunction]] = {}
        self._named: dict[str, dict[str, list[SourceFunction]]] = {}
        self._lines: dict[str, list[str]] = {}
        # Keeps the parsed pieces of its files alive, so that another snapshot set sharing them (the other run of a
        # comparison) reuses them instead of parsing them again (`identities._Piece`).
        self._pieces: list[_Piece] = []

    def rel_path(self, file: str) -> str | None:
        """The relative path of an observed `co_filename`, or None when the bundle holds no snapshot of it."""
        rel = self.paths.get(file)
        if rel is None and file in self.files:
            rel = file  # already relative (e.g. a trace recorded with relative paths)
        return rel if rel is not None and rel in self.files else None

    def functions(self, rel_path: str) -> list[SourceFunction]:
        """Every definition in the snapshot, in source order (empty if missing, too large or unparseable)."""
        if rel_path not in self._index:
            text = self.files.get(rel_path)
            self._index[rel_path] = [] if text is None else index_with_pieces(rel_path, text, self._pieces)
        return self._index[rel_path]

    def named(self, rel_path: str, name: str) -> list[SourceFunction]:
        """The definitions of a bare name in the snapshot, in source order."""
        if rel_path not in self._named:
            by_name: dict[str, list[SourceFunction]] = {}
            for f in self.functions(rel_path):
                by_name.setdefault(f.name, []).append(f)
            self._named[rel_path] = by_name
        return self._named[rel_path].get(name, [])

    def lines(self, rel_path: str) -> list[str]:
        if rel_path not in self._lines:
            self._lines[rel_path] = self.files.get(rel_path, "").splitlines()
        return self._lines[rel_path]

    def why_missing(self, ref: FunctionRef) -> str:
        """A short reason why `locate` found nothing for `ref`."""
        rel = self.rel_path(ref.file)
        if rel is None:
            return f"no source snapshot of {ref.file}"
        if len(self.files[rel]) > MAX_SOURCE_BYTES:
            return f"snapshot {rel} is too large to parse"
        if not self.functions(rel):
            return f"snapshot {rel} does not parse or defines no function"
        return f"no {ref.name} at line {ref.first_line} of snapshot {rel} (stale snapshot?)"


def locate(ref: FunctionRef, snapshots: SnapshotSet) -> SourceFunction | None:
    """The definition an observed function comes from. For a Dynamo resume function this is the function it
    resumes: the innermost definition of the parent's name containing the resume line."""
    rel = snapshots.rel_path(ref.file)
    if rel is None:
        return None
    parent = ref.resume_parent
    if parent is not None:
        containing = [
            f
            for f in snapshots.named(rel, parent)
            if f.kind != "class" and f.first_line <= ref.first_line <= f.last_line
        ]
        # Innermost: the latest start wins (definitions nest, so a later start is inside an earlier one).
        return max(containing, key=lambda f: f.first_line, default=None)
    for f in snapshots.named(rel, ref.name):
        # co_firstlineno is the first decorator's line on CPython 3.11+ (the `def` line on older versions).
        if ref.first_line in (f.first_line, f.def_line):
            return f
    return None


def locate_call(site: CallSite, snapshots: SnapshotSet) -> SourceFunction | None:
    """The definition a call was made in: the innermost function of the frame's name containing the call line."""
    rel = snapshots.rel_path(site.file)
    if rel is None:
        return None
    containing = [
        f for f in snapshots.named(rel, site.name) if f.kind != "class" and f.first_line <= site.line <= f.last_line
    ]
    return max(containing, key=lambda f: f.first_line, default=None)


def enclosing_function(file: str, line: int, snapshots: SnapshotSet) -> SourceFunction | None:
    """The innermost function (not class) whose lines hold `line` of a file, or None (module level, or no
    snapshot of the file)."""
    rel = snapshots.rel_path(file)
    if rel is None:
        return None
    containing = [f for f in snapshots.functions(rel) if f.kind != "class" and f.first_line <= line <= f.last_line]
    return max(containing, key=lambda f: f.first_line, default=None)


def calls_a_closure(site: CallSite, snapshots: SnapshotSet) -> bool:
    """Whether the call at `site` is, in its snapshot, a call of a name the function takes from the function it
    is defined in: a decorator's wrapper calling the function it wraps (`fn(*args, **kwargs)`), or a helper
    defined inside the function that compiled the model calling it."""
    own = locate_call(site, snapshots)
    if (
        own is None
        or ".<locals>." not in own.qualified_name
        or not isinstance(own.node, ast.FunctionDef | ast.AsyncFunctionDef)
    ):
        return False
    rel = snapshots.rel_path(site.file)
    outer_name = own.qualified_name.rsplit(".<locals>.", 1)[0]
    outer = next(
        (
            f
            for f in snapshots.functions(rel or "")
            if f.qualified_name == outer_name and f.first_line <= own.first_line <= own.last_line <= f.last_line
        ),
        None,
    )
    if outer is None or not isinstance(outer.node, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    called = {
        node.func.id
        for node in ast.walk(own.node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.lineno == site.line
    }
    return any(name not in _bound(own.node) and name in _bound(outer.node) for name in called)


def _bound(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The names a function binds itself: its parameters and the names it assigns (not those of functions
    defined inside it)."""
    args = node.args
    names = {a.arg for a in (*args.posonlyargs, *args.args, args.vararg, *args.kwonlyargs, args.kwarg) if a}
    stack: list[ast.AST] = list(node.body)
    while stack:
        item = stack.pop()
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(item.name)
            continue
        if isinstance(item, ast.Lambda):
            continue
        if isinstance(item, ast.Name) and isinstance(item.ctx, ast.Store):
            names.add(item.id)
        elif isinstance(item, ast.alias):
            names.add((item.asname or item.name).split(".", 1)[0])
        elif isinstance(item, ast.arg):
            names.add(item.arg)
        stack.extend(ast.iter_child_nodes(item))
    return names

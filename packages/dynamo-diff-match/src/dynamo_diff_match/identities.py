"""Source-function identities: what a snapshot defines, found with `ast` (never imported or executed).

Qualified names follow Python's `__qualname__`: `C.method`, `f.<locals>.inner`, `f.<locals>.<lambda>`.
Decorators, default values, annotations and class bases are evaluated in the enclosing scope, so a lambda
there is named as the enclosing scope's (e.g. `C.<lambda>` for a lambda in a method decorator).

The structure hash is the sha256 of `ast.dump(node, annotate_fields=True, include_attributes=False)` of the
definition with its own name blanked: positions, comments and blank lines do not count; the body, the
docstring, arguments, defaults, annotations, decorators and the names of nested definitions do. So a function
renamed without other change keeps its hash (and can match by structure when the hash is unique). Classes are
not hashed (their hash is ""): Dynamo compiles functions, and a class's hash would re-dump all its methods.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import re
from collections import Counter
from dataclasses import dataclass

from dynamo_diff_match.spans import MAX_SOURCE_BYTES

# Dynamo names a resume function f"torch_dynamo_resume_in_{co_name}_at_{line}" with co_firstlineno = line
# (torch/_dynamo/resume_execution.py, torch >= 2.2). A resume of a resume nests the prefix.
_RESUME = re.compile(r"torch_dynamo_resume_in_(?P<parent>.+)_at_(?P<line>\d+)")


@dataclass(frozen=True, order=True)
class FunctionRef:
    """A function observed in a trace: the code object's `co_filename`, `co_firstlineno` and `co_name`."""

    file: str
    first_line: int
    name: str

    @property
    def resume_parent(self) -> str | None:
        """The bare name of the function this Dynamo resume function continues, else None."""
        name = self.name
        found = False
        while (m := _RESUME.fullmatch(name)) is not None:
            name, found = m["parent"], True
        return name if found else None


@dataclass(frozen=True)
class SourceFunction:
    """A def, async def, class or lambda in a snapshot. Lines are 1-based; `first_line` includes decorators
    (CPython 3.11+ `co_firstlineno` of a decorated function), `def_line` is the line of `def`/`class`/`lambda`."""

    rel_path: str
    qualified_name: str
    name: str
    kind: str  # "function", "class" or "lambda"
    first_line: int
    def_line: int
    last_line: int
    structure_hash: str  # "" for a class (see the module docstring)
    id: str  # "rel/path.py::Qualified.name", with "@first_line" when the name occurs twice in the file


def function_id(rel_path: str, qualified_name: str, first_line: int | None = None) -> str:
    """The id a user map uses for a function (see `load_user_map`)."""
    suffix = "" if first_line is None else f"@{first_line}"
    return f"{rel_path}::{qualified_name}{suffix}"


def structure_hash(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda) -> str:
    """sha256 of the definition's AST without positions and without its own name (see the module docstring)."""
    if not isinstance(node, ast.Lambda):
        node = copy.copy(node)
        node.name = ""
    dumped = ast.dump(node, annotate_fields=True, include_attributes=False)
    return hashlib.sha256(dumped.encode()).hexdigest()


def index_functions(rel_path: str, text: str) -> list[SourceFunction]:
    """Every definition in `text`, in source order; empty when the text is too large or does not parse."""
    if len(text) > MAX_SOURCE_BYTES:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    found: list[tuple[str, str, str, int, int, int, str]] = []
    try:
        _Indexer(found).visit(tree)
    except RecursionError:
        return []
    found.sort(key=lambda f: (f[3], f[4]))
    counts = Counter(f[0] for f in found)
    return [
        SourceFunction(
            rel_path=rel_path,
            qualified_name=qual,
            name=name,
            kind=kind,
            first_line=first,
            def_line=def_line,
            last_line=last,
            structure_hash=digest,
            id=function_id(rel_path, qual, first if counts[qual] > 1 else None),
        )
        for qual, name, kind, first, def_line, last, digest in found
    ]


class _Indexer(ast.NodeVisitor):
    """Collects definitions with `__qualname__`-style names, visiting each expression in the scope it runs in."""

    def __init__(self, found: list[tuple[str, str, str, int, int, int, str]]) -> None:
        self.found = found
        self.prefix = ""  # "" at module level, "C." in a class body, "f.<locals>." in a function body

    def _record(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda) -> str:
        name = "<lambda>" if isinstance(node, ast.Lambda) else node.name
        kind = {ast.ClassDef: "class", ast.Lambda: "lambda"}.get(type(node), "function")
        decorators = getattr(node, "decorator_list", [])
        first = min([node.lineno] + [d.lineno for d in decorators])
        last = node.end_lineno or node.lineno
        qual = self.prefix + name
        # A class body is never a compiled frame of interest; hashing it would re-dump all its methods.
        digest = "" if kind == "class" else structure_hash(node)
        self.found.append((qual, name, kind, first, node.lineno, last, digest))
        return qual

    def _in_scope(self, prefix: str, nodes: list[ast.stmt] | list[ast.expr]) -> None:
        outer, self.prefix = self.prefix, prefix
        for child in nodes:
            self.visit(child)
        self.prefix = outer

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        qual = self._record(node)
        # Decorators, defaults and annotations run in the enclosing scope.
        for expr in [*node.decorator_list, node.args, node.returns]:
            if expr is not None:
                self.visit(expr)
        self._in_scope(qual + ".<locals>.", node.body)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        qual = self._record(node)
        for expr in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(expr)
        self._in_scope(qual + ".", node.body)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        qual = self._record(node)
        self.visit(node.args)
        self._in_scope(qual + ".<locals>.", [node.body])

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
from dataclasses import dataclass, field
from functools import cached_property

from dynamo_diff_match.spans import MAX_SOURCE_BYTES

# Dynamo names a resume function f"torch_dynamo_resume_in_{co_name}_at_{line}" with co_firstlineno = line
# (torch/_dynamo/resume_execution.py, torch >= 2.2). A resume of a resume nests the prefix.
_RESUME = re.compile(r"torch_dynamo_resume_in_(?P<parent>.+)_at_(?P<line>\d+)")


@dataclass(frozen=True, order=True)
class CallSite:
    """A call in the user's code: the frame's file, the line of the call and the function's bare name."""

    file: str
    line: int
    name: str


@dataclass(frozen=True, order=True)
class FunctionRef:
    """A function observed in a trace: the code object's `co_filename`, `co_firstlineno` and `co_name`; for a
    frame of library code, the user's call it is attributed to (`caller`)."""

    file: str
    first_line: int
    name: str
    caller: CallSite | None = None

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
    id: str  # "rel/path.py::Qualified.name", with "@first_line" when the name occurs twice in the file
    # sha256 of the definition's lines without blank and comment-only lines, dedented: equal source text
    # implies an equal AST, so this cheap key settles most structure matches before any AST is hashed.
    source_key: str = ""
    node: ast.AST | None = field(default=None, compare=False, repr=False)

    @cached_property
    def structure_hash(self) -> str:
        """The AST hash (see the module docstring), computed on first use; "" for a class."""
        if self.kind == "class" or not isinstance(
            self.node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
        ):
            return ""
        return structure_hash(self.node)


def function_id(rel_path: str, qualified_name: str, first_line: int | None = None) -> str:
    """The id a user map uses for a function (see `load_user_map`)."""
    suffix = "" if first_line is None else f"@{first_line}"
    return f"{rel_path}::{qualified_name}{suffix}"


def structure_hash(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda) -> str:
    """sha256 of the definition's AST without positions and without its own name (see the module docstring)."""
    if not isinstance(node, ast.Lambda):
        node = copy.copy(node)
        node.name = ""
    parts: list[str] = []
    _serialize(node, parts)
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def _serialize(node: ast.AST, out: list[str]) -> None:
    """A position-free, unambiguous serialization of an AST (node types, field names, values), like
    `ast.dump(..., include_attributes=False)` but without its formatting work (a hot path on large files)."""
    stack: list[object] = [node]
    append = out.append
    while stack:
        item = stack.pop()
        if isinstance(item, ast.AST):
            append(type(item).__name__)
            fields = item._fields
            append(str(len(fields)))
            # Pushed in reverse so they come out in field order.
            for name in reversed(fields):
                stack.append(getattr(item, name, None))
                stack.append(_Field(name))
        elif isinstance(item, _Field):
            append(item.name)
        elif isinstance(item, list):
            append(f"[{len(item)}")
            stack.extend(reversed(item))
        else:
            append(f"{type(item).__name__}:{item!r}")


class _Field:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = "." + name


def index_functions(rel_path: str, text: str) -> list[SourceFunction]:
    """Every definition in `text`, in source order; empty when the text is too large or does not parse."""
    if len(text) > MAX_SOURCE_BYTES:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    found: list[tuple[str, str, str, int, int, int, ast.AST]] = []
    try:
        # Lambdas are the only definitions inside expressions; without the keyword, expressions are skipped.
        _Indexer(found, expressions="lambda" in text).visit(tree)
    except RecursionError:
        return []
    found.sort(key=lambda f: (f[3], f[4]))
    counts = Counter(f[0] for f in found)
    lines = text.splitlines()
    return [
        SourceFunction(
            rel_path=rel_path,
            qualified_name=qual,
            name=name,
            kind=kind,
            first_line=first,
            def_line=def_line,
            last_line=last,
            id=function_id(rel_path, qual, first if counts[qual] > 1 else None),
            source_key="" if kind != "function" else _source_key(lines, first, last),
            node=node,
        )
        for qual, name, kind, first, def_line, last, node in found
    ]


def _source_key(lines: list[str], first: int, last: int) -> str:
    body = [line.rstrip() for line in lines[first - 1 : last]]
    body = [line for line in body if line and not line.lstrip().startswith("#")]
    if not body:
        return ""
    indent = len(body[0]) - len(body[0].lstrip())
    return hashlib.sha256("\n".join(line[indent:] for line in body).encode("utf-8", "surrogatepass")).hexdigest()


class _Indexer(ast.NodeVisitor):
    """Collects definitions with `__qualname__`-style names, visiting each expression in the scope it runs in."""

    def __init__(self, found: list[tuple[str, str, str, int, int, int, ast.AST]], *, expressions: bool = True) -> None:
        self.found = found
        self.expressions = expressions
        self.prefix = ""  # "" at module level, "C." in a class body, "f.<locals>." in a function body

    def visit(self, node: ast.AST) -> None:
        if not self.expressions and isinstance(node, ast.expr | ast.arguments | ast.keyword):
            return
        super().visit(node)

    def _record(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda) -> str:
        name = "<lambda>" if isinstance(node, ast.Lambda) else node.name
        kind = {ast.ClassDef: "class", ast.Lambda: "lambda"}.get(type(node), "function")
        decorators = getattr(node, "decorator_list", [])
        first = min([node.lineno] + [d.lineno for d in decorators])
        last = node.end_lineno or node.lineno
        qual = self.prefix + name
        self.found.append((qual, name, kind, first, node.lineno, last, node))
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

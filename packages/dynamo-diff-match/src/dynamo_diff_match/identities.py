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
import bisect
import copy
import hashlib
import itertools
import re
import weakref
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from dynamo_diff_schema.comparison import GeneratedKind

from dynamo_diff_match.spans import MAX_SOURCE_BYTES

# Dynamo names a resume function f"torch_dynamo_resume_in_{co_name}_at_{line}" with co_firstlineno = line
# (torch/_dynamo/resume_execution.py, torch >= 2.2). A resume of a resume nests the prefix.
_RESUME = re.compile(r"torch_dynamo_resume_in_(?P<parent>.+)_at_(?P<line>\d+)")


@dataclass(frozen=True, order=True)
class CallSite:
    """A call in the user's code: the frame's file, the line of the call and the function's bare name; when the
    row is named by what the user compiled rather than by this function (docs/COMPARING.md, "The row is the
    user's function"), that target (`LlamaForCausalLM.forward`) and where torch.compile was called ('' when not
    known)."""

    file: str
    line: int
    name: str
    target: str = ""
    compiled_at: str = ""  # 'path:line' of the torch.compile call


@dataclass(frozen=True, order=True)
class Generated:
    """What a frame of code torch generated is (docs/COMPARING.md, "Generated code"): a compiled-autograd graph
    (`number`: its compiled-autograd id) or an FX GraphModule's code (`number`: its position among the run's FX
    graphs in compile order). `graph` is the structure of the graphs compiled from it (empty when none completed),
    `label` its name for people; neither is part of its identity within a run."""

    kind: GeneratedKind
    number: int
    label: str = field(default="", compare=False)
    graph: str = field(default="", compare=False)


@dataclass(frozen=True, order=True)
class FunctionRef:
    """A function observed in a trace: the code object's `co_filename`, `co_firstlineno` and `co_name`; for a
    frame of library code, the user's call it is attributed to (`caller`); for generated code, what it is
    (`generated`; `file` is then the file name with its counters replaced, `<eval_with_key>.#`)."""

    file: str
    first_line: int
    name: str
    caller: CallSite | None = None
    generated: Generated | None = None

    @property
    def resume_parent(self) -> str | None:
        """The bare name of the function this Dynamo resume function continues, else None."""
        name = self.name
        if "torch_dynamo_resume_in_" not in name:
            return None  # (the pattern below cannot match)
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
    return index_with_pieces(rel_path, text, [])


# (qualified name, name, kind, first line, def line, last line, node, source key)
_Found = tuple[str, str, str, int, int, int, ast.AST, str]


def index_with_pieces(rel_path: str, text: str, keep: list[_Piece]) -> list[SourceFunction]:
    """`index_functions`, parsing only the pieces of `text` (see `_Piece`) not already parsed: a piece parsed
    for a snapshot still in use (its `_Piece` in a `keep` list) is reused. Appends the pieces of `text` to `keep`."""
    if len(text) > MAX_SOURCE_BYTES:
        return []
    found = _found_in_pieces(text, keep)
    if found is None:
        found = _found_whole(text)
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
            id=function_id(rel_path, qual, first if counts[qual] > 1 else None),
            source_key=key,
            node=node,
        )
        for qual, name, kind, first, def_line, last, node, key in found
    ]


def _found_whole(text: str) -> list[_Found]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    found = _definitions([tree], text)
    return [] if found is None else found


def _definitions(nodes: Sequence[ast.AST], text: str, lines: list[str] | None = None) -> list[_Found] | None:
    """The definitions in `nodes` (module-level statements of `text`, or its module); their lines are those of
    `lines` (default: `text.splitlines()`); None when the tree is too deep to walk."""
    found: list[tuple[str, str, str, int, int, int, ast.AST]] = []
    try:
        # Lambdas are the only definitions inside expressions; without the keyword, expressions are skipped.
        if "lambda" in text:
            indexer = _Indexer(found)
            for node in nodes:
                indexer.visit(node)
        else:
            _statement_definitions(nodes, "", found)
    except RecursionError:
        return None
    if lines is None:
        lines = text.splitlines()
    return [(*f, "" if f[2] != "function" else _source_key(lines, f[3], f[5])) for f in found]


class _Piece:
    """The definitions of a piece of a snapshot, lines counted from the piece's first line.

    A piece is a run of whole module-level statements that starts at a `def`, `class`, `async` or `@` line at
    column 0 after an empty line (or at the top of the file). Such a piece parses to the same statements on its
    own as inside any file, so a piece two snapshots share (an unchanged function in an edited file, or a whole
    unchanged file) is parsed once. A file is cut at those lines, and each run of pieces not seen before is parsed
    in one go; a statement reaching over a cut (a string holding such a line) joins the pieces it spans. A run
    that does not parse leaves the whole file to `ast.parse`, so a file that does not parse defines nothing,
    exactly as when it is parsed whole."""

    __slots__ = ("__weakref__", "found")

    def __init__(self, found: list[_Found]) -> None:
        self.found = found


# Pieces by text, while a snapshot index holds them (SnapshotSet keeps the pieces of the files it indexed).
_PIECES: weakref.WeakValueDictionary[str, _Piece] = weakref.WeakValueDictionary()
_CUT = re.compile(r"(?<=\n\n)(?:@|(?:def|class|async)\b)")
# Line breaks besides "\n" (str.splitlines() splits at them, Python's tokenizer not at all of them); a file holding
# one is parsed whole. So does a file that changes how later lines parse (`from __future__ import barry_as_FLUFL`).
_PARSED_WHOLE = re.compile("[\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]|barry_as_FLUFL")


def _found_in_pieces(text: str, keep: list[_Piece]) -> list[_Found] | None:
    """The definitions of `text` from its pieces (see `_Piece`); None: parse it whole."""
    if _PARSED_WHOLE.search(text):
        return None
    cuts = [0, *(m.start() for m in _CUT.finditer(text)), len(text)]
    texts = [text[a:b] for a, b in itertools.pairwise(cuts) if b > a or a == 0]
    pieces: list[_Piece | None] = [_PIECES.get(t) for t in texts]
    at = 0
    while at < len(texts):
        if pieces[at] is not None:
            at += 1
            continue
        end = at
        while end < len(texts) and pieces[end] is None:
            end += 1
        made = _parse_run(texts[at:end])
        if made is None:
            return None
        pieces[at:end] = made
        at = end
    found: list[_Found] = []
    offset = 0  # lines above the piece
    for piece_text, piece in zip(texts, pieces, strict=True):
        if piece is not None and piece is not _JOINED:
            keep.append(piece)
            found += [
                (q, n, k, a + offset, d + offset, z + offset, node, key) for q, n, k, a, d, z, node, key in piece.found
            ]
        offset += piece_text.count("\n")
    return found


# Stands for a piece joined to the one before it (its definitions are listed with that one).
_JOINED = _Piece([])


def _parse_run(texts: list[str]) -> list[_Piece] | None:
    """Parse consecutive pieces in one go and split the statements among them; None when the run does not parse."""
    run = "".join(texts)
    try:
        tree = ast.parse(run)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    starts: list[int] = []  # 1-based line of the run each piece starts at
    line = 1
    for piece_text in texts:
        starts.append(line)
        line += piece_text.count("\n")
    owner = list(range(len(texts)))  # the piece each piece is joined to (itself when on its own)
    groups: list[list[ast.stmt]] = [[] for _ in texts]
    for stmt in tree.body:
        decorators = getattr(stmt, "decorator_list", [])
        first = min([stmt.lineno, *(d.lineno for d in decorators)])
        last = stmt.end_lineno or stmt.lineno
        k = owner[bisect.bisect_right(starts, first) - 1]
        for m in range(k + 1, bisect.bisect_right(starts, last)):
            owner[m] = k  # the statement reaches into piece m: join it to k
        groups[k].append(stmt)
    made: list[_Piece] = []
    lines = run.splitlines()
    for k in range(len(texts)):
        if owner[k] != k:
            made.append(_JOINED)
            continue
        upto = k + 1
        while upto < len(texts) and owner[upto] == k:
            upto += 1
        joined = "".join(texts[k:upto])
        found = _definitions(groups[k], joined, lines)
        if found is None:
            return None
        shift = starts[k] - 1
        lines_found = [(q, n, kd, a - shift, d - shift, z - shift, node, key) for q, n, kd, a, d, z, node, key in found]
        piece = _Piece(lines_found)
        _PIECES[joined] = piece
        made.append(piece)
    return made


def _source_key(lines: list[str], first: int, last: int) -> str:
    body = [line.rstrip() for line in lines[first - 1 : last]]
    body = [line for line in body if line and not line.lstrip().startswith("#")]
    if not body:
        return ""
    indent = len(body[0]) - len(body[0].lstrip())
    return hashlib.sha256("\n".join(line[indent:] for line in body).encode("utf-8", "surrogatepass")).hexdigest()


_BLOCKS = ast.stmt | ast.ExceptHandler | ast.match_case | ast.Module
# The fields that hold statements (or the `except` and `case` clauses that hold them); the others hold expressions,
# names, `with` items, type parameters or patterns, none of which holds a statement.
_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def _statement_definitions(
    nodes: Sequence[object], prefix: str, found: list[tuple[str, str, str, int, int, int, ast.AST]]
) -> None:
    """What `_Indexer(found, expressions=False)` finds, faster: without lambdas, definitions are statements, in the
    statement lists of other statements (and of `except` and `case` clauses), so only those are walked."""
    for node in nodes:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            kind = "class" if isinstance(node, ast.ClassDef) else "function"
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            qual = prefix + node.name
            found.append((qual, node.name, kind, first, node.lineno, node.end_lineno or node.lineno, node))
            _statement_definitions(node.body, qual + ("." if kind == "class" else ".<locals>."), found)
        elif isinstance(node, _BLOCKS):
            for name in _BLOCK_FIELDS:
                value = getattr(node, name, None)
                if value:
                    _statement_definitions(value, prefix, found)


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

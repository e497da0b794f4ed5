"""Which sizes (and symbolic int arguments) an entry accepts: the symbolic shape guards of its guard tree (`2 <=
L['x'].size()[0]`, `(L['x'].size()[2] + ((8 + (-1)*(L['x'].size()[2] % 8)) % 8)) != 8`) that name one size alone,
tried for every size from 0 to SIZES_TRIED (an int from -SIZES_TRIED). A guard's text is parsed with Python's
`ast` and run only when every node is integer arithmetic (`+ - * // %`, unary minus, `max`, `min`), a comparison
or `and`/`or` over the one size: nothing else in the trace is ever evaluated. A guard relating two sizes
(`L['a'].size()[0] == L['b'].size()[0]`) is counted, not tried."""

from __future__ import annotations

import ast
import functools
import itertools
import re
from collections.abc import Iterable

SIZES_TRIED = 4096
GUARDS_TRIED = 96  # per size; an entry with more says nothing of that size
RANGES_SAID = 4  # runs of accepted sizes said before `...`
VALUES_SAID = 12  # as many accepted values or fewer are each said (`2, 4, 8, 16, 32`)

# A size or stride of a frame local or of something it holds (`L['x'].size()[2]`, `L['x']._base.stride()[0]`), or
# an int torch made symbolic: an argument (`L['k']`), an item of one (`L['shape'][1]`), an attribute.
_TERM = re.compile(
    r"L\['\w+'\](?:\.\w+|\[(?:'[^'\n]*'|\d+)\])*\.(?:size|stride)\(\)\[\d+\]"
    r"|L\['\w+'\](?:\.\w+|\[(?:'[^'\n]*'|\d+)\])*(?![\w.\[(])"
)
_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)
_CMPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _safe(node: ast.AST) -> bool:
    """Whether every node is integer arithmetic, a comparison, and/or, `max`/`min` or the size `v`."""
    if isinstance(node, ast.Expression):
        return _safe(node.body)
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    if isinstance(node, ast.Name):
        return node.id == "v"
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, _OPS) and _safe(node.left) and _safe(node.right)
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.USub) and _safe(node.operand)
    if isinstance(node, ast.Compare):
        return all(isinstance(op, _CMPS) for op in node.ops) and all(map(_safe, [node.left, *node.comparators]))
    if isinstance(node, ast.BoolOp):
        return all(map(_safe, node.values))
    if isinstance(node, ast.Call):
        return (
            isinstance(node.func, ast.Name)
            and node.func.id in ("max", "min")
            and not node.keywords
            and len(node.args) >= 2
            and all(map(_safe, node.args))
        )
    return False


def _readable(expression: str) -> ast.expr | None:
    """The guard's tree when it is integer arithmetic over the size `v` (a comparison or and/or of them)."""
    try:
        tree = ast.parse(expression, mode="eval")
        if not isinstance(tree.body, (ast.Compare, ast.BoolOp)) or not _safe(tree):
            return None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # not Python, or nested past what is read: not tried
    return tree.body


def _passing(guards: list[ast.expr], low: int = 0) -> list[int]:
    """The values from `low` to SIZES_TRIED for which every guard holds: one comprehension over them all (a division by
    zero fails the guard, as torch's own check would)."""
    names = {"__builtins__": {}, "max": max, "min": min}
    every = ast.BoolOp(op=ast.And(), values=guards) if len(guards) > 1 else guards[0]
    loop = ast.comprehension(
        target=ast.Name(id="v", ctx=ast.Store()),
        iter=ast.Name(id="sizes", ctx=ast.Load()),
        ifs=[every],
        is_async=0,
    )
    tree = ast.fix_missing_locations(
        ast.Expression(body=ast.ListComp(elt=ast.Name(id="v", ctx=ast.Load()), generators=[loop]))
    )
    code = compile(tree, "<guards>", "eval")
    sizes = range(low, SIZES_TRIED + 1)
    try:
        return list(eval(code, names, {"sizes": sizes}))
    except (ZeroDivisionError, OverflowError):
        passing = []
        for v in sizes:
            try:
                passing += eval(code, names, {"sizes": (v,)})
            except (ZeroDivisionError, OverflowError):
                continue
        return passing


@functools.lru_cache(maxsize=256)  # a function's recompiles repeat their guards
def _accepted(texts: tuple[str, ...], signed: bool) -> str | None:
    trees = [_readable(t) for t in texts]
    if not trees or any(t is None for t in trees):
        return None  # a guard not read as arithmetic: what passes is not known
    try:
        passing = _passing([t for t in trees if t is not None], -SIZES_TRIED if signed else 0)
    except (RecursionError, MemoryError):
        return None  # too deep to compile: not tried
    return None if len(passing) == 1 else accepted_text(passing)  # one value: its `==` guard says it


def _runs(sizes: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for v in sizes:
        if runs and runs[-1][1] == v - 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs


def accepted_text(sizes: list[int]) -> str:
    """`9 and up`, `2-7`, `-23 to -2`, `-2 and below`, `16, 24, 32, ... (step 8) and up`, `none`: the values tried
    that pass, a run reaching SIZES_TRIED (or -SIZES_TRIED) said open."""
    if not sizes:
        return "none"
    runs = _runs(sizes)

    def run_text(a: int, b: int) -> str:
        if a == -SIZES_TRIED and b == SIZES_TRIED:
            return "any"
        if a == -SIZES_TRIED:
            return f"{b} and below"
        if b == SIZES_TRIED:
            return f"{a} and up"
        return str(a) if a == b else f"{a}-{b}" if a >= 0 else f"{a} to {b}"

    if len(runs) <= RANGES_SAID or len(sizes) <= VALUES_SAID:
        return ", ".join(run_text(a, b) for a, b in runs)
    steps = {b - a for a, b in itertools.pairwise(sizes)}
    if len(steps) == 1:
        (step,) = steps
        up = " and up" if sizes[-1] + step > SIZES_TRIED else f" to {sizes[-1]}"
        return f"{sizes[0]}, {sizes[1]}, {sizes[2]}, ... (step {step}){up}"
    return ", ".join(run_text(a, b) for a, b in runs[:RANGES_SAID]) + ", ..."


def size_ranges(guards: Iterable[str], made: dict[str, int] | None = None) -> tuple[list[str], int]:
    """`["L['feats'].size()[2] 9 and up", "L['k'] 2-20"]`: for each size (or symbolic int argument) that two or more
    guards name alone, the values that pass all of them; and how many guards relate several (not tried). `made`: the
    sizes of the tensors as the entry was made for them (`{"L['x'].size()[1]": 24}`); a guard relating an int to
    those alone is tried with them put in, and says so (`L['k'] 1-24 (L['x'].size()[1] = 24, as made)`)."""
    made = made or {}
    alone: dict[str, list[str]] = {}
    given: dict[str, dict[str, int]] = {}  # an int term -> the sizes put into its guards
    related = 0
    for guard in guards:
        text = guard
        terms = set(_TERM.findall(text))
        ints = [t for t in terms if ".size()[" not in t and ".stride()[" not in t]
        if len(terms) > 1 and len(ints) == 1 and all(t in made for t in terms if t != ints[0]):
            (term,) = ints
            for other in sorted(terms - {term}, key=len, reverse=True):
                text = text.replace(other, str(made[other]))
                given.setdefault(term, {})[other] = made[other]
            terms = {term}
        if len(terms) > 1:
            related += 1
        elif len(terms) == 1:
            (term,) = terms
            alone.setdefault(term, []).append(text.replace(term, "v"))
    said: list[str] = []
    for term, found in alone.items():
        if len(found) > GUARDS_TRIED or "._base." in term:  # a view's base: its view's size says it
            continue
        texts = list(dict.fromkeys(found))
        if len(texts) < 2:
            continue  # one guard (`2 <= L['x'].size()[0]`): `guards on inputs` quotes it
        signed = ".size()[" not in term and ".stride()[" not in term  # an int may be negative; a size may not
        if (accepted := _accepted(tuple(texts), signed)) is not None:
            sizes = given.get(term, {})
            at = ", ".join(f"{k} = {v}" for k, v in sizes.items())
            said.append(f"{term} {accepted}" + (f" ({at}, as made)" if at else ""))
    return said, related

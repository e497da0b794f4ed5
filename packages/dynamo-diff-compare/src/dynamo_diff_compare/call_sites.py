"""Where in the user's program a compilation happened, and where the name a failing guard reads is set.

The call path: the user's frames below the compiled one on the dynamo_start stack (`CodeLocation.callers`,
innermost first), each with its line's text (the record's, else the capture's source snapshot's):
`called from: global_guard.py:33 o.call(ca, apply, x) <- _oracle.py:222 fn() <- global_guard.py:53 run(o, body)`,
and the code around the call: the loop the first frame in a loop runs in (its header, the line defining what it
iterates over, its body up to the call), else the innermost frame's function's lines before the call.

A guarded name: the global, attribute or key a failing guard reads (`G['MODE'] == 'sin'` reads the global MODE,
`L['self'].top_k == 3` the attribute top_k, `L['cfg']['mode']` the key 'mode', `___check_obj_id(L['self'].head, ..)`
the attribute head), and the lines of the capture's source snapshots that assign it: `MODE = ...`, `MODE += ...`,
`obj.top_k = ...`, `setattr(obj, "top_k", ...)`, `d["mode"] = ...`; for a module's `training` flag
(`self._modules['drop'].training == True`), also the calls that switch it: `.eval()`, `.train()`, `.train(False)`.
The snapshots are parsed, never run."""

from __future__ import annotations

import ast
import re
import weakref
from dataclasses import dataclass

from dynamo_diff_match.snapshots import SnapshotSet
from dynamo_diff_match.spans import MAX_SOURCE_BYTES
from dynamo_diff_schema.compilation import StackFrame
from dynamo_diff_schema.run_report import CallContext, CodeLine, ContextLine

from dynamo_diff_compare.user_lines import source_line, without_comment

# Frames shown of a call path, and assignment sites listed per guarded name.
CALL_FRAMES = 3
SITES_SHOWN = 2
# Lines shown around a call: a loop's (its header and body up to the call), a function's (its def line on).
LOOP_LINES = 10
FUNCTION_LINES = 6

# `G['MODE']`, `L['self'].top_k`, `L['cfg']['mode']`, `L['self']._modules['head']`: a guard's source and its accessors.
_SOURCE = re.compile(r"\b(?P<base>[GL])\['(?P<name>[^'\]]+)'\](?P<rest>(?:\.\w+|\[[^\]]*\]|\(\))*)")
_ACCESSOR = re.compile(r"\.(?P<attr>\w+)|\[(?P<key>[^\]]*)\]|(?P<call>\(\))")
# torch 2.13 writes a failing guard on what a frame local holds with the local bare: `0/0: policy.mix_channels ==
# False`, `self.temperature == 1.0`, `cfg['mode'] == 'a'` (its guard tree writes `L['policy'].mix_channels`).
_ENTRY_PREFIX = re.compile(r"^\[?!?\d+(?:/\d+)+\]?:\s*")
_BARE_SOURCE = re.compile(r"^(?:not\s+)?(?P<name>[A-Za-z_]\w*)(?P<rest>(?:\.\w+|\[[^\]]*\])+)(?=\s|$)")
# The dicts through which torch's guards reach a module's submodules, parameters and buffers (set as attributes).
_MODULE_DICTS = {"_modules", "_parameters", "_buffers"}
# A guard on a module's training flag as torch 2.13 writes its reason: `self._modules['drop'].training == True`
# (the local's name, without `L[...]`), or `L['self'].training == False`.
_TRAINING = re.compile(r"(?:^|[\s(])[\w\[\]'.]*\.training\s*==\s*(?:True|False)\b")


def _name(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def call_path(callers: list[StackFrame], sources: SnapshotSet | None) -> list[CodeLine]:
    """The first CALL_FRAMES of a compilation's callers, each with the text of its line (the record's, else the
    source snapshot's) when one is known."""
    out = []
    for f in callers[:CALL_FRAMES]:
        code = f.code or source_line(sources, f.filename, f.line)
        out.append(
            CodeLine(file=f.filename, line=f.line, function=f.name, code=without_comment(code) if code else None)
        )
    return out


def same_call(a: list[StackFrame], b: list[StackFrame]) -> bool:
    """Whether two compilations' callers are the same call of the program: the innermost frame of the shorter is
    on the longer, and from there the two agree (compared on file and line) as far as both go. A resume function's
    stack can hold a frame more (torch's wrapper is entered from the user's helper that called the compiled
    function), and the stacks are cut at 4 frames."""
    short, long = sorted(([(f.filename, f.line) for f in a], [(f.filename, f.line) for f in b]), key=len)
    if not short:
        return not long
    if short[0] not in long:
        return False
    k = long.index(short[0])
    n = min(len(long) - k, len(short))
    return long[k : k + n] == short[:n]


def frame_text(f: CodeLine) -> str:
    """'global_guard.py:33 o.call(ca, apply, x)' (without the text when none is known)."""
    at = f"{_name(f.file)}:{f.line if f.line is not None else '?'}"
    return f"{at} {f.code}" if f.code else at


def called_from_text(frames: list[CodeLine]) -> str:
    """'called from: train.py:48 loss = step(model, batch) <- train.py:60 main()'."""
    return "called from: " + " <- ".join(frame_text(f) for f in frames)


@dataclass(frozen=True)
class Guarded:
    """What a failing guard reads: a global (`kind` 'global'), an attribute ('attribute') or a string key ('key')."""

    kind: str
    name: str

    @property
    def label(self) -> str:
        """'MODE', 'top_k', "['mode']" (how the report names it)."""
        return f"[{self.name!r}]" if self.kind == "key" else self.name


def guarded_name(guard: str) -> Guarded | None:
    """The global, attribute or key the first source of a guard's text reads; None for a guard on a local itself
    (an argument: set by the caller), through a call (`.size()`), an index, or a name of torch's own (`__...`)."""
    first = guard.strip().split("\n", 1)[0].split("  #", 1)[0]
    if _TRAINING.search(first):
        return Guarded("attribute", "training")
    m = _SOURCE.search(first) or _BARE_SOURCE.match(_ENTRY_PREFIX.sub("", first, count=1))
    if m is None or m["name"].startswith("__"):  # `G['__import_torch']`: a module torch's guards import
        return None
    accessors = list(_ACCESSOR.finditer(m["rest"]))
    if any(a["call"] for a in accessors):
        return None
    if not accessors:
        name = m["name"]
        return Guarded("global", name) if m["base"] == "G" and name.isidentifier() else None
    last = accessors[-1]
    if last["attr"] is not None:
        return None if last["attr"].startswith("__") else Guarded("attribute", last["attr"])
    key = last["key"].strip()
    if len(key) < 2 or key[0] not in "'\"" or key[-1] != key[0]:
        return None  # an index or a key that is not a string
    text = key[1:-1]
    before = accessors[-2]["attr"] if len(accessors) > 1 else None
    if before in _MODULE_DICTS and text.isidentifier():
        return Guarded("attribute", text)  # `self._modules['head']`: set as `self.head = ...`
    return Guarded("key", text)


# Parsed snapshot files, per snapshot set (parsed once, however many guards are looked up).
_TREES: weakref.WeakKeyDictionary[SnapshotSet, dict[str, ast.Module | None]] = weakref.WeakKeyDictionary()


def _tree(sources: SnapshotSet, rel: str) -> ast.Module | None:
    trees = _TREES.setdefault(sources, {})
    if rel not in trees:
        text = sources.files.get(rel, "")
        try:
            trees[rel] = ast.parse(text) if len(text) <= MAX_SOURCE_BYTES else None
        except (SyntaxError, ValueError):
            trees[rel] = None
    return trees[rel]


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, ast.AugAssign) or (isinstance(node, ast.AnnAssign) and node.value is not None):
        targets = [node.target]
    else:
        return []
    out: list[ast.expr] = []
    while targets:
        t = targets.pop()
        if isinstance(t, ast.Tuple | ast.List):
            targets.extend(t.elts)
        elif isinstance(t, ast.Starred):
            targets.append(t.value)
        else:
            out.append(t)
    return out


def _assigns(node: ast.AST, what: Guarded, global_scope: bool) -> bool:
    """Whether the statement `node` assigns `what` (a global only where `global_scope`)."""
    for t in _targets(node):
        if what.kind == "global" and global_scope and isinstance(t, ast.Name) and t.id == what.name:
            return True
        if what.kind == "attribute" and isinstance(t, ast.Attribute) and t.attr == what.name:
            return True
        if what.kind == "key" and isinstance(t, ast.Subscript):
            key = t.slice
            if isinstance(key, ast.Constant) and key.value == what.name:
                return True
    if what.kind == "attribute" and isinstance(node, ast.Expr) and isinstance(call := node.value, ast.Call):
        f = call.func
        if isinstance(f, ast.Name) and f.id == "setattr" and len(call.args) >= 2:
            name = call.args[1]
            return isinstance(name, ast.Constant) and name.value == what.name
    if what.kind == "attribute" and what.name == "training":
        return _switches_training(node)
    return False


def _switches_training(node: ast.AST) -> bool:
    """Whether the statement `node` is (or assigns) a call that switches a module's training flag: `m.eval()`,
    `m.train()`, `m.train(False)`, `model = Net().eval()`."""
    if isinstance(node, ast.Expr | ast.Assign | ast.AnnAssign):
        value = node.value
        while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
            method = value.func.attr
            if (method == "eval" and not value.args and not value.keywords) or (
                method == "train" and len(value.args) + len(value.keywords) <= 1
            ):
                return True
            value = value.func.value
    return False


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _declared_global(scope: ast.AST) -> set[str]:
    """The names a function's own body (not a nested def or class) declares `global`."""
    names: set[str] = set()
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Global):
            names.update(node.names)
        elif not isinstance(node, _SCOPES):
            todo.extend(ast.iter_child_nodes(node))
    return names


def _sites(tree: ast.Module, what: Guarded) -> list[int]:
    """The lines of the statements of `tree` that assign `what`: a global at module level or in a function that
    declares it global; an attribute or key anywhere."""
    lines: list[int] = []
    todo: list[tuple[ast.AST, bool]] = [(tree, True)]
    while todo:
        node, global_scope = todo.pop()
        for child in ast.iter_child_nodes(node):
            scope = global_scope
            if isinstance(child, _SCOPES):
                scope = what.name in _declared_global(child)
            if isinstance(child, ast.stmt) and _assigns(child, what, scope):
                lines.append(child.lineno)
            todo.append((child, scope))
    return sorted(set(lines))


def assignment_sites(sources: SnapshotSet | None, what: Guarded, first_file: str | None = None) -> list[CodeLine]:
    """Every line of the capture's snapshots that assigns `what`, in file order (the file of `first_file`, the
    guarded function's, first), each with its text."""
    if sources is None:
        return []
    first = sources.rel_path(first_file) if first_file else None
    files = sorted(sources.files, key=lambda rel: (rel != first, rel))
    out = []
    for rel in files:
        tree = _tree(sources, rel)
        if tree is None:
            continue
        lines = sources.lines(rel)
        for n in _sites(tree, what):
            code = without_comment(lines[n - 1].strip()) if n <= len(lines) else None
            out.append(CodeLine(file=rel, line=n, code=code or None))
    return out


def assigned_text(label: str, sites: list[CodeLine], total: int) -> str:
    """'MODE set at: global_guard.py:13 MODE = "sin"; global_guard.py:32 MODE = mode' (+ 'of N sites' when more)."""
    shown = "; ".join(frame_text(f) for f in sites)
    more = f" ({len(sites)} of {total} sites)" if total > len(sites) else ""
    return f"{label} set at: {shown}{more}"


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def _holding(tree: ast.Module, line: int) -> tuple[ast.AST, ast.For | ast.AsyncFor | ast.While | None]:
    """The innermost function (else the module) whose code holds `line`, and the innermost loop of that function
    whose body holds it (a for loop's iterable is evaluated once: not in its body)."""
    scope: ast.AST = tree
    loop: ast.For | ast.AsyncFor | ast.While | None = None
    node: ast.AST = tree
    while True:
        inner = next(
            (
                c
                for c in ast.iter_child_nodes(node)
                if isinstance(c, ast.stmt) and c.lineno <= line <= (c.end_lineno or c.lineno)
            ),
            None,
        )
        if inner is None:
            return scope, loop
        if isinstance(inner, _FUNCTIONS):
            scope, loop = inner, None
        elif isinstance(inner, _LOOPS) and line > _header_end(inner):
            loop = inner
        node = inner


def _header_end(node: ast.AST) -> int:
    """The last line of a loop's or function's header (before its body)."""
    if isinstance(node, ast.For | ast.AsyncFor):
        return node.iter.end_lineno or node.lineno
    if isinstance(node, ast.While):
        return node.test.end_lineno or node.lineno
    start: int = getattr(node, "lineno", 1)
    body = getattr(node, "body", None)
    first: int = body[0].lineno if body else start + 1
    return max(start, first - 1)


def _iterable_definitions(tree: ast.Module, scope: ast.AST, loop: ast.AST) -> list[int]:
    """The one-line assignments (at most 2) of the names a for loop iterates over (`SIZES` of `for step, size in
    enumerate(SIZES):`): the last before the loop in its function, else the last at module level."""
    if not isinstance(loop, ast.For | ast.AsyncFor):
        return []
    called = {id(n.func) for n in ast.walk(loop.iter) if isinstance(n, ast.Call)}
    names = [n.id for n in ast.walk(loop.iter) if isinstance(n, ast.Name) and id(n) not in called]
    out: list[int] = []
    for name in list(dict.fromkeys(names))[:2]:
        for where in (scope, tree) if scope is not tree else (tree,):
            found = [
                node
                for node in _statements(where)
                if node.lineno < loop.lineno and any(isinstance(t, ast.Name) and t.id == name for t in _targets(node))
            ]
            if found:
                last = max(found, key=lambda n: n.lineno)
                if last.end_lineno == last.lineno:
                    out.append(last.lineno)
                break
    return sorted(set(out))


def _statements(scope: ast.AST) -> list[ast.stmt]:
    """The statements of a function's (or the module's) own code, nested blocks included, nested defs not."""
    out: list[ast.stmt] = []
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        if isinstance(node, ast.stmt):
            out.append(node)
        if not isinstance(node, _SCOPES):
            todo.extend(ast.iter_child_nodes(node))
    return out


def _shown(lines: list[str], header: list[int], body: list[int], limit: int) -> list[int]:
    """The header's lines and the last of the body's (non-blank) lines, at most `limit` in all; a single line that
    would be left out is shown (a `... (1 line)` costs as much)."""
    body = [n for n in body if lines[n - 1].strip()]
    room = max(limit - len(header), 1)
    if len(body) > room + 1:
        body = body[-room:]
    return header + body


def _context_lines(lines: list[str], numbers: list[int]) -> list[ContextLine]:
    """The numbered lines, dedented by the least indentation among them, each saying how many non-blank lines
    before it (after the previous one shown) are left out; a single left-out line is shown instead."""
    numbers = sorted(set(numbers))
    filled: list[int] = []
    for n in numbers:
        if filled:
            between = [k for k in range(filled[-1] + 1, n) if lines[k - 1].strip()]
            if len(between) == 1:
                filled.append(between[0])
        filled.append(n)
    texts = [lines[n - 1].rstrip() for n in filled]
    base = min(len(t) - len(t.lstrip()) for t in texts)
    out: list[ContextLine] = []
    for i, n in enumerate(filled):
        code = texts[i][base:]
        skipped = 0 if i == 0 else sum(1 for k in range(filled[i - 1] + 1, n) if lines[k - 1].strip())
        out.append(ContextLine(line=n, code=code, skipped=skipped))
    return out


def call_context(frames: list[CodeLine], sources: SnapshotSet | None) -> CallContext | None:
    """The code around a call path's call (from the source snapshots, parsed with ast): for the first frame
    (innermost first) whose line is in a loop's body, that loop's header, the one-line definition of what a for
    loop iterates over, and its body's lines up to and including the call line (at most LOOP_LINES with the header,
    the header and the last lines when longer); when no frame is in a loop, the innermost frame's function's def line
    and its lines up to the call (at most FUNCTION_LINES). None when the snapshots hold none of it."""
    if sources is None:
        return None
    found: list[tuple[int, str, ast.Module, ast.AST, ast.For | ast.AsyncFor | ast.While | None, int]] = []
    for i, f in enumerate(frames):
        rel = sources.rel_path(f.file)
        tree = _tree(sources, rel) if rel is not None else None
        if rel is None or tree is None or f.line is None or f.line > len(sources.lines(rel)):
            continue
        scope, loop = _holding(tree, f.line)
        found.append((i, rel, tree, scope, loop, f.line))
        if loop is not None:
            break
    if not found:
        return None
    looped = [x for x in found if x[4] is not None]
    i, rel, tree, scope, loop, line = looped[0] if looped else found[0]
    lines = sources.lines(rel)
    if loop is not None:
        head = list(range(loop.lineno, _header_end(loop) + 1))
        numbers = _iterable_definitions(tree, scope, loop) + _shown(
            lines, head, list(range(head[-1] + 1, line + 1)), LOOP_LINES
        )
        kind = "loop"
    elif isinstance(scope, _FUNCTIONS):
        head = list(range(scope.lineno, _header_end(scope) + 1))[:3]
        body = scope.body
        start = body[0].lineno
        if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and len(body) > 1:
            start = body[1].lineno  # its docstring left out
        numbers = _shown(lines, head, list(range(start, line + 1)), FUNCTION_LINES)
        kind = "function"
    else:
        return None  # module-level code outside a loop: nothing that says more than the call line
    return CallContext(kind=kind, file=rel, frame=i, lines=_context_lines(lines, numbers))


def context_text(
    ctx: CallContext,
    frames: list[CodeLine],
    shown: dict[tuple[str, int], int] | None = None,
    *,
    scripts_below: bool = False,
) -> list[str]:
    """The lines that show a CallContext: a title naming the frame's line, then each line numbered, a
    `... (N lines)` line where lines are left out. With `shown` (the contexts this text said: (file, first line) ->
    the last line shown), a context said before says nothing, and a later call in the same loop or function only
    its lines after those: `the same loop, on to model.py:44:`."""
    at = frames[ctx.frame] if ctx.frame < len(frames) else None
    where = f"{_name(ctx.file)}:{at.line}" if at is not None and at.line is not None else _name(ctx.file)
    title = f"the loop {where} runs in:" if ctx.kind == "loop" else f"the code before {where}:"
    lines = list(ctx.lines)
    if shown is not None and lines:
        key, last = (ctx.file, lines[0].line), lines[-1].line
        before = shown.get(key)
        shown[key] = max(last, before or 0)
        if before is not None:
            if last <= before:
                return []
            title = f"the same {'loop' if ctx.kind == 'loop' else 'function'}, on to {where}:"
            kept = [c for c in lines if c.line > before]
            lines = [kept[0].model_copy(update={"skipped": 0}), *kept[1:]] if kept[0] is not lines[0] else kept
    if scripts_below:  # the whole script follows the text: its lines there, not again here
        return [f"{title[:-1]}: lines {lines[0].line}-{lines[-1].line} of {_name(ctx.file)} (the script below)"]
    width = max(len(str(c.line)) for c in lines)
    out = [title]
    for c in lines:
        if c.skipped:
            out.append(f"  {'':>{width}} ... ({c.skipped} lines)")
        out.append(f"  {c.line:>{width}} {c.code}")
    return out

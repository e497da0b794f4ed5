"""The user's source line a failing guard or a graph break is about, so that a reader sees it without opening
the source: `at global_guard.py:17: if MODE == "sin":`.

A failing guard: torch appends the line it attributes the guard to, `G['MODE'] == 'sin'  # if MODE == "sin":  #
ork/global_guard.py:17 in apply` (its path cut at the front), and from torch 2.13 a "User stack trace" whose last
frame is that line with the whole path. The stack trace is read first, else the comment; a guard with neither
(a tensor's dtype or size) has no line. A graph break: its user file and line, and the text of that line from the
capture's source snapshot. A name the code after a graph break gets from the function it resumes: whether it is
an argument of that function or a local it made, and where (`carried`)."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass

from dynamo_diff_match.snapshots import SnapshotSet
from dynamo_diff_schema.code_paths import library_path
from dynamo_diff_schema.compilation import GraphBreak, Specialization, SymbolicSize
from dynamo_diff_schema.lists import head

# `  File "/path/global_guard.py", line 17, in apply` then the line's text, in a "User stack trace".
_STACK_FRAME = re.compile(r'^\s*File "(?P<file>[^"\n]+)", line (?P<line>\d+), in [^\n]+\n(?P<code>[^\n]*)', re.M)
# `... # if MODE == "sin":  # ork/global_guard.py:17 in apply` (and a trailing `(HINT: ...)` or `(file:line in f)`).
_COMMENT = re.compile(r"  # (?P<code>.*)  # (?P<file>\S+?):(?P<line>\d+) in [\w<>.]+(?: \(.*\))?$")
_MAX_CODE = 160


@dataclass(frozen=True)
class UserLine:
    file: str  # the file's name, without its folders (as the function labels print it)
    line: int
    code: str | None  # the line's text, stripped; None when neither the trace nor a snapshot holds it

    @property
    def site(self) -> str:
        return f"{self.file}:{self.line}"

    def text(self) -> str:
        """'at global_guard.py:17: if MODE == "sin":' ('at global_guard.py:17' without the line's text)."""
        return f"at {self.site}: {self.code}" if self.code else f"at {self.site}"


def shown_site(site: str | None) -> str | None:
    """A recorded `file:line` as the texts print it: the user's file by its name (as the function labels print it),
    a library's from its package on (`torch/nn/modules/linear.py:134`); the documents keep the recorded path."""
    if not site:
        return site
    path, sep, line = site.rpartition(":")
    if not sep or not line.isdigit():
        path, line = site, ""
    short = library_path(path) or _name(path)
    return f"{short}:{line}" if line else short


def _code(text: str) -> str | None:
    code = text.strip()
    if not code:
        return None
    return code if len(code) <= _MAX_CODE else code[: _MAX_CODE - 1] + "…"


def _name(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def guard_line(text: str) -> UserLine | None:
    """The user line a failing guard's text names (see the module), None when it names none."""
    frames = list(_STACK_FRAME.finditer(text))
    if frames:
        last = frames[-1]
        return UserLine(_name(last["file"]), int(last["line"]), _code(last["code"]))
    first = text.strip().split("\n", 1)[0]
    m = _COMMENT.search(first)
    if m is None:
        return None
    return UserLine(_name(m["file"]), int(m["line"]), _code(m["code"]))


# A compilation torch refused with RecompileError (`torch._dynamo.config.error_on_recompile`): its reason names the
# failing guards, one per line (`    - 0/0: self.pool == 0    # if self.pool == 0:  # model.py:19 in forward (HINT:
# ...)`); the trace has no recompile_reasons record for it.
_TRIGGERED = "triggered by the following guard failure(s):"
_TRIGGER = re.compile(r"^\s*- (?P<guard>\[?!?\d+(?:/\d+)+\]?: .*)$")


def triggering_guards(reason: str) -> list[str]:
    """`0/0: self.pool == 0 at model.py:19: if self.pool == 0:`: each guard failure a RecompileError's reason
    names, with the user line torch attributes it to; [] for any other reason."""
    if _TRIGGERED not in reason:
        return []
    out = []
    for line in reason.split(_TRIGGERED, 1)[1].splitlines():
        m = _TRIGGER.match(line)
        if m is None:
            continue
        at = guard_line(m["guard"])
        guard = m["guard"].split("  #", 1)[0].strip()
        out.append(guard + (f" at {at.site}: {at.code}" if at is not None and at.code else ""))
    return out


def made_for_text(made_for: list[str]) -> str:
    """' (made for: G['MODE'] == 'cos')': what the new cache entry was made for, from its own guard tree ('' when
    the reader found nothing there)."""
    if not made_for:
        return ""
    shown, rest = head(made_for, 2)
    cut = [t if len(t) <= _MAX_CODE else t[: _MAX_CODE - 1] + "…" for t in shown]
    return f" (made for: {' and '.join(cut)}" + (f", +{rest} more" if rest else "") + ")"


# `self.p == 2` / `L['self'].p == 2.0`: a guard on a number's value (an optional `0/1: ` entry prefix first).
_NUMBER_GUARD = re.compile(
    r"^(?:\[?!?\d+/\d+(?:/\d+)?\]?:\s*)?(?P<name>.+?) == (?P<value>-?\d+(?:\.\d*)?(?:e-?\d+)?|True|False)$"
)
_SOURCE_PREFIX = re.compile(r"^[LG]\['(\w+)'\]")


def _number(text: str) -> tuple[str, int | float | bool] | None:
    m = _NUMBER_GUARD.match(text.split("  #", 1)[0].strip())
    if m is None:
        return None
    name = _SOURCE_PREFIX.sub(r"\1", m["name"])
    value = ast.literal_eval(m["value"])
    return (name, value) if isinstance(value, (int, float)) else None


def same_number_note(failed: str, made_for: list[str]) -> str:
    """' (2 and 2.0 are equal, but the guard checks the type too: int, float)' when the new entry was made for the
    same number as the failing guard's in another type: torch's EQUALS_MATCH compares the value's type before the
    value ('' otherwise)."""
    old = _number(failed)
    if old is None:
        return ""
    for text in made_for:
        new = _number(text)
        if new is not None and new[0] == old[0] and new[1] == old[1] and type(new[1]) is not type(old[1]):
            a, b = old[1], new[1]
            return (
                f" ({a!r} and {b!r} are equal, but the guard checks the type too: {type(a).__name__}, "
                f"{type(b).__name__})"
            )
    return ""


def also_differs_text(entry: str | None, texts: list[str]) -> str:
    """'also differs from 0/0: L['x']: dtype torch.float32 -> torch.bfloat16; ...': the other guards whose value
    differs between the older entry's guard tree and the new one's, ending "N more" when some were left out ('' when
    none)."""
    if not texts or entry is None:
        return ""
    cut = [t if len(t) <= _MAX_CODE else t[: _MAX_CODE - 1] + "…" for t in texts]
    return f"also differs from {entry}: " + "; ".join(cut)


def source_line(sources: SnapshotSet | None, file: str | None, line: int | None) -> str | None:
    """The text of `file`:`line` in the capture's source snapshot, stripped; None without a snapshot of it."""
    if sources is None or file is None or line is None or line < 1:
        return None
    rel = sources.rel_path(file)
    if rel is None:
        return None
    lines = sources.lines(rel)
    return _code(lines[line - 1]) if line <= len(lines) else None


def break_code(sources: SnapshotSet | None, gb: GraphBreak) -> str | None:
    """The text of a graph break's line: the source snapshot's, else the one torch's record gives under the frame of
    its user traceback at the break's site (a bare trace has no snapshot); None when neither has it."""
    code = source_line(sources, gb.user_file, gb.user_line)
    if code is not None:
        return code
    at = [f for f in gb.user_stack if f.filename == gb.user_file and f.line == gb.user_line and f.code]
    return _code(at[-1].code or "") if at else None


def dynamic_text(sizes: list[SymbolicSize]) -> str:
    """ "dynamic: the graph has symbolic sizes: s77 = L['x'].size()[0] (6 when made)"; a symbol whose making this
    compilation does not record is named alone."""
    listed, rest = head(sizes, 6)
    shown = [
        f"{s.symbol} = {s.source}" + (f" ({s.value} when made)" if s.value else "") if s.source else s.symbol
        for s in listed
    ]
    more = f" (+{rest} more)" if rest else ""
    ids = ", ".join(s.evidence_id for s in listed if s.evidence_id)
    return f"dynamic: the graph has symbolic sizes: {', '.join(shown)}{more}" + (f" (ev {ids})" if ids else "")


def specialization_site(spec: Specialization, sources: SnapshotSet | None = None) -> str:
    """'at decode_after.py:31: self.cache[:, pos] = h[:, 0]': the user line that fixed a symbol (its text from the
    record, else the source snapshot); "" when the record names no line."""
    if spec.file is None or spec.line is None:
        return ""
    code = _code(spec.code) if spec.code else source_line(sources, spec.file, spec.line)
    return UserLine(_name(spec.file), spec.line, code).text()


def specialized_text(specs: list[Specialization], sources: SnapshotSet | None = None) -> str:
    """'specialized: s24 (L['pos']) fixed to 1 at decode_after.py:31: self.cache[:, pos] = h[:, 0]
    (range_refined_to_singleton) (ev u1-e9)': each symbol torch made and then fixed to one value, and where."""
    shown = []
    listed, rest = head(specs, 4)
    for spec in listed:
        what = spec.symbol + (f" ({spec.source})" if spec.source else "")
        fixed = f" fixed to {spec.value}" if spec.value is not None else " fixed"
        site = specialization_site(spec, sources)
        why = f" ({spec.reason})" if spec.reason else ""
        ev = f" (ev {spec.evidence_id})" if spec.evidence_id else ""
        via_site, _, via_code = (spec.via or "").partition(": ")
        via = f" (via {via_site}" + (f" `{via_code}`" if via_code else "") + ")" if spec.via else ""
        shown.append(f"{what}{fixed}{' ' + site if site else ''}{via}{why}{ev}")
    more = f"; (+{rest} more)" if rest else ""
    return "specialized: " + "; ".join(shown) + more


# The function Dynamo compiles for the code after a graph break at line N of X (its inputs: the values on Python's
# stack at that line, ___stack0, ...; and X's locals the rest of X reads, by their names).
RESUME = re.compile(r"^torch_dynamo_resume_in_(?P<function>\w+?)_at_(?P<line>\d+)$")
_BASE = re.compile(r"^[A-Za-z_]\w*")


@dataclass(frozen=True)
class Carried:
    """A name a resume function gets from the function it resumes (`keep` in `torch_dynamo_resume_in_prune_at_20`):
    where the graph broke, and, from the source snapshot, whether the name is an argument of that function that its
    code did not assign before the break (the caller's value) or a local it made."""

    function: str  # the function the resume function resumes (X)
    line: int  # the line its graph broke at (N)
    file: str  # the file's name, without its folders
    argument: bool | None  # True: X's argument, unassigned before the break; False: a local of X; None: not known
    made: UserLine | None = None  # a local: the last line of X before the break that assigns it

    @property
    def site(self) -> str:
        return f"{self.file}:{self.line}"


def resumed(co_name: str | None) -> tuple[str, int] | None:
    """(X, N) for Dynamo's resume function of X after its graph break at line N, else None."""
    m = RESUME.match(co_name or "")
    return (m["function"], int(m["line"])) if m else None


def carried(sources: SnapshotSet | None, co_filename: str | None, co_name: str | None, name: str) -> Carried | None:
    """What a guard's name (`keep`, `self.n`, `L['x']` unwrapped) is in the function a resume function resumes; None
    when the compiled code is no resume function. Without a snapshot of the function, `argument` is None."""
    at = resumed(co_name)
    if at is None:
        return None
    function, line = at
    file = _name(co_filename or "?")
    base = _BASE.match(name)
    rel = sources.rel_path(co_filename) if sources is not None and co_filename else None
    if rel is None or base is None:
        return Carried(function, line, file, None)
    containing = [
        f
        for f in sources.named(rel, function)  # type: ignore[union-attr]
        if f.kind != "class" and f.first_line <= line <= f.last_line
    ]
    fn = max(containing, key=lambda f: f.first_line, default=None)
    node = fn.node if fn is not None else None
    if fn is None or not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        return Carried(function, line, file, None)
    offset = fn.def_line - node.lineno  # the node's lines count from its piece of the file
    assigned = [n + offset for n in _assignments(node, base.group(0))]
    before = [n for n in assigned if n < line] or [n for n in assigned if n == line]
    params = node.args
    names = {a.arg for a in [*params.posonlyargs, *params.args, *params.kwonlyargs, params.vararg, params.kwarg] if a}
    if before:
        made = max(before)
        code = source_line(sources, co_filename, made)
        code = without_comment(code) if code else code
        return Carried(function, line, file, False, UserLine(file, made, code))
    return Carried(function, line, file, True if base.group(0) in names else None)


def _assignments(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, name: str) -> list[int]:
    """The lines of `fn`'s own scope (not a nested def, class, lambda or comprehension) that bind `name`."""
    lines: list[int] = []
    todo: list[ast.AST] = list(fn.body) if isinstance(fn.body, list) else [fn.body]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == name:
                lines.append(node.lineno)
            todo.extend(node.decorator_list)  # evaluated in this scope; the body is another scope
            continue
        if isinstance(node, ast.Lambda | ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del) and node.id == name:
            lines.append(node.lineno)
        elif isinstance(node, ast.alias) and (node.asname or node.name.split(".", 1)[0]) == name:
            lines.append(getattr(node, "lineno", 0))
        elif isinstance(node, ast.ExceptHandler) and node.name == name:
            lines.append(node.lineno)
        todo.extend(ast.iter_child_nodes(node))
    return sorted(n for n in lines if n)


def without_comment(code: str) -> str:
    """A line of code without its trailing comment (`keep = x * 2  # note` -> `keep = x * 2`); the line as it is
    when it does not tokenize on its own (a line of a longer statement)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return code
    comment = next((t for t in tokens if t.type == tokenize.COMMENT), None)
    return code[: comment.start[1]].rstrip() if comment is not None and comment.start[0] == 1 else code

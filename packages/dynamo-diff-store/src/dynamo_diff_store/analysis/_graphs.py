"""Summaries of Dynamo's output graph (the `dynamo_output_graph` payload is GraphModule.print_readable() text)."""

from __future__ import annotations

import ast
import re
from collections import Counter

# `    sin: "f32[4][1]cpu" = torch.sin(l_x_);  l_x_ = None`  or, in older torch, `    sin = torch.sin(l_x_)`
_ASSIGN = re.compile(r'^\s+[A-Za-z_]\w*(?:\s*:\s*"[^"]*")?\s*=\s*(.+)$')
_CALL = re.compile(r"^([A-Za-z_][\w.]*)\(")
_NAME = re.compile(r"^[A-Za-z_][\w.]*$")
_DEF_FORWARD = re.compile(r"^\s*def forward\(")
# How torch.fx prints calls of `operator` functions (torch/fx/graph.py, magic and reflectable methods): infix,
# prefix and subscript forms instead of a call. `x * 2` is operator.mul; `x[0]` operator.getitem; `-x` operator.neg.
_BINARY = {
    "**": "pow",
    "//": "floordiv",
    "<<": "lshift",
    ">>": "rshift",
    "<=": "le",
    ">=": "ge",
    "==": "eq",
    "!=": "ne",
    "+": "add",
    "-": "sub",
    "*": "mul",
    "/": "truediv",
    "%": "mod",
    "@": "matmul",
    "&": "and_",
    "|": "or_",
    "^": "xor",
    "<": "lt",
    ">": "gt",
}
_INFIX = re.compile(r"^\S.*? (" + "|".join(re.escape(op) for op in _BINARY) + r") \S")
_UNARY = {"-": "neg", "+": "pos", "~": "invert"}
_SUBSCRIPT = re.compile(r"^[A-Za-z_]\w*\[")
# An in-place `operator.setitem` (torch.fx prints `x[idx] = v;  setitem = x`): a subscript assignment, then the
# node's name bound to its target.
_SETITEM = re.compile(r"^\s+(?P<target>[A-Za-z_]\w*)\[.*\] = .+;  [A-Za-z_]\w* = (?P=target)(?:;|$)")


def op_histogram(graph_text: str) -> dict[str, int]:
    """Count the calls of the graph's top-level forward by target: `torch.sin`, `operator.add` (printed `a + b`),
    `operator.getitem` (`x[0]`), `Tensor.sin` (a method on a local), `module` (a submodule call). The bodies of
    higher-order ops' subgraphs (the nested classes print_readable shows after forward) are not counted: a
    higher-order op is one op, as in torch's `graph_op_count`, which the histogram sums to."""
    counts: Counter[str] = Counter()
    forward_indent: int | None = None
    in_signature = False  # AOTAutograd's graphs print forward's parameters one per line
    for line in graph_text.splitlines():
        if forward_indent is None:
            if _DEF_FORWARD.match(line):
                forward_indent = len(line) - len(line.lstrip())
                in_signature = not line.split("#", 1)[0].rstrip().endswith(":")
            continue
        stripped = line.lstrip()
        if in_signature:
            in_signature = not (stripped.startswith(")") and stripped.split("#", 1)[0].rstrip().endswith(":"))
            continue
        indent = len(line) - len(stripped)
        if stripped and indent <= forward_indent:
            break  # the end of the top-level forward (nested subgraph classes follow)
        if indent != forward_indent + 4:
            continue
        if _SETITEM.match(line):
            counts["operator.setitem"] += 1
            continue
        match = _ASSIGN.match(line)
        if match is None:
            continue
        # FX appends the frees of dead values after two spaces: `y = x * 2;  x = None`.
        expression = match.group(1).split(";  ", 1)[0].strip()
        operator = _operator(expression)
        if operator is not None:
            counts[f"operator.{operator}"] += 1
            continue
        call = _CALL.match(expression)
        if call is None:
            continue  # `l_x_ = L_x_` (a placeholder's alias) or `self.attr` (get_attr): not ops
        target = call.group(1)
        head, _, rest = target.partition(".")
        if head in {"torch", "operator", "math", "builtins", "_operator"}:
            counts[target] += 1
        elif head == "self":
            counts["module"] += 1
        elif rest:
            counts[f"Tensor.{rest.rsplit('.', 1)[-1]}"] += 1
        else:
            counts[target] += 1
    return dict(sorted(counts.items()))


def _operator(expression: str) -> str | None:
    """The `operator` function a printed expression calls, when it is printed as an operator."""
    if _NAME.match(expression) or _CALL.match(expression):
        return None
    if expression.startswith("not "):
        return "not_"
    if expression[:1] in _UNARY and expression[1:2] not in (" ", ""):
        return _UNARY[expression[0]]
    if _SUBSCRIPT.match(expression):
        return "getitem"
    match = _INFIX.match(expression)
    return _BINARY[match.group(1)] if match else None


# `L_x_: "f32[16, 16][1, s89]cpu"`, `s89: "Sym(s89)"`: a placeholder of forward's signature, its printed type.
_PLACEHOLDER = re.compile(r'([A-Za-z_]\w*)\s*:\s*"([^"]*)"')
_DEVICE = re.compile(r"^(?P<type>.*\])[a-z]+(?::\d+)?$")
# A module's parameter or buffer lifted as an input (`L_self_modules_lin_parameters_weight_`).
_MODULE_STATE = re.compile(r"_(?:parameters|buffers)_")
GRAPH_INPUTS = 8


def graph_inputs(graph_text: str) -> tuple[list[str], int]:
    """The inputs of the graph's forward as its signature prints them (`L_x_: f32[16, 16][1, s89]`, `s89:
    Sym(s89)`, `L_act_keywords_negative_slope_: f64[][]`: a Python float the graph takes as a 0-d tensor), the
    device left off, in order, at most GRAPH_INPUTS; modules' parameters and buffers are not listed; and how many
    inputs were left out."""
    found = _PLACEHOLDER.findall(" ".join(_signature(graph_text.splitlines())))
    shown = []
    for name, printed in found:
        if _MODULE_STATE.search(name):
            continue
        m = _DEVICE.match(printed)
        shown.append(f"{name}: {m['type'] if m else printed}")
    return shown[:GRAPH_INPUTS], len(found) - len(shown[:GRAPH_INPUTS])


GRAPH_OUTPUTS = 8
_RETURN = re.compile(r"^\s*return \((?P<names>[^)]*)\)\s*$")
_ANNOTATED = re.compile(r'^\s*([A-Za-z_]\w*)\s*:\s*"([^"]*)"\s*=')
_SIZES = re.compile(r"^(?P<type>\w+\[[^\]]*\])")


def graph_outputs(graph_text: str) -> list[str]:
    """What the graph's forward returns (`linear: f32[4, 10]`), each name with its annotation's dtype and sizes
    (strides and device left off; a symbolic int as `Sym(s27)`), in order, at most GRAPH_OUTPUTS."""
    lines = graph_text.splitlines()
    returned = next((m["names"] for line in reversed(lines) if (m := _RETURN.match(line))), None)
    if returned is None:
        return []
    names = [n.strip() for n in returned.split(",") if n.strip()]
    printed: dict[str, str] = dict(_PLACEHOLDER.findall(" ".join(_signature(lines))))
    for line in lines:
        if (m := _ANNOTATED.match(line)) is not None:
            printed.setdefault(m[1], m[2])
    out = []
    for name in names[:GRAPH_OUTPUTS]:
        kind = printed.get(name)
        if kind is None:
            out.append(name)
            continue
        m = _SIZES.match(kind)
        out.append(f"{name}: {m['type'] if m else kind}")
    return out


def _signature(lines: list[str]) -> list[str]:
    """The lines of the graph's `def forward(...)` signature."""
    out: list[str] = []
    inside = False
    for line in lines:
        if not inside:
            if _DEF_FORWARD.match(line):
                inside = True
                out.append(line.split("def forward(", 1)[1])
                if line.split("#", 1)[0].rstrip().endswith(":"):
                    break
            continue
        out.append(line.split("#", 1)[0])
        if line.strip().startswith(")") or line.split("#", 1)[0].rstrip().endswith("):"):
            break
    return out


# The Python floats a graph bakes in (`mul_ 0.99`, `add_ alpha=0.01`, `clamp max=0.5`, `* 1.5`): a float literal in
# an op's arguments of the graph's code, with the op (the call it is an argument of, else the operator) and its
# keyword; each distinct one once, counted. Said only when a graph has few (GRAPH_CONSTANTS): a model's many
# constants (a norm's eps, rotary scales) say nothing about a change.
GRAPH_CONSTANTS = 6
_LINE_EXPR = re.compile(r'^\s*[A-Za-z_]\w*\s*:\s*"[^"]*"\s*=\s*(?P<expr>[^;]*)')
# A float as the graph's code prints it: `0.5`, `1e-06`, and `-inf` / `inf` / `nan` (a `float("-inf")` fill value).
_FLOAT_LITERAL = re.compile(
    r"(?:\b(?P<kw>[A-Za-z_]\w*) = )?(?<![\w.])"
    r"(?P<num>-?(?:\d+\.\d*|\.\d+)(?:e[-+]?\d+)?|-?\d+e[-+]?\d+|-?inf|nan)(?![\w.])"
)
_CALL_NAME = re.compile(r"([A-Za-z_]\w*)$")
_OPERATOR = re.compile(r"\s(\*\*|//|[-+*/%@])\s")


def _op_of(expr: str, at: int) -> str:
    """The call whose argument list holds position `at` of `expr` (`clamp` in `torch.clamp(x, max = 0.5)`), else the
    expression's operator (`*` in `x * 0.5`)."""
    depth = 0
    for i in range(at - 1, -1, -1):
        ch = expr[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            if depth == 0:
                name = _CALL_NAME.search(expr[:i])
                return name[1] if name else "("
            depth -= 1
    operator = _OPERATOR.search(expr)
    return operator[1] if operator else "="


def graph_constants(graph_text: str) -> list[str]:
    """`["mul_ 0.99 x6", "add_ alpha=0.010000000000000009 x6"]`: the float literals of the graph's code by op, in
    order, counted; [] when there are none or more than GRAPH_CONSTANTS distinct."""
    found: dict[str, int] = {}
    for line in graph_text.splitlines():
        m = _LINE_EXPR.match(line)
        if m is None:
            continue
        expr = m["expr"]
        for lit in _FLOAT_LITERAL.finditer(expr):
            keyword = f"{lit['kw']}=" if lit["kw"] else ""
            said = f"{_op_of(expr, lit.start('num'))} {keyword}{lit['num']}"
            found[said] = found.get(said, 0) + 1
    if len(found) > GRAPH_CONSTANTS:
        return []
    return [said if n == 1 else f"{said} x{n}" for said, n in found.items()]


# The literal arguments of a graph's calls (`round(decimals)=1`, `pixel_shuffle(arg 1)=4`, `var(correction)=0`,
# `conv1d(padding)='same'`): what a recompiled graph bakes in of the value whose guard failed. At most this many,
# each at most LITERAL_CHARS.
GRAPH_LITERALS = 120
LITERAL_CHARS = 80


def _call_name(func: ast.expr) -> str | None:
    """`round` for `h.round(...)`, `conv2d` for `torch.conv2d(...)`, `scaled_dot_product_attention` for
    `torch._C._nn.scaled_dot_product_attention(...)`."""
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _literal(node: ast.expr) -> str | None:
    """The argument as the code writes it when it is a literal (a number, string, None, True/False, `-1`, a tuple of
    them), else None (a value of the graph, a name, a call)."""
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return ast.unparse(node)


def _index(node: ast.expr) -> str | None:
    """A subscript's index when it is literal, `slice(...)` of literals among it (`(slice(None, None, None),
    slice(0, 3, None))`), as the code writes it; else None."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            if not (isinstance(sub.func, ast.Name) and sub.func.id == "slice" and not sub.keywords):
                return None
            if any(_literal(a) is None for a in sub.args):
                return None
        elif isinstance(sub, ast.Name) and sub.id != "slice":
            return None
    return ast.unparse(node)


def graph_literals(graph_text: str) -> list[str]:
    """`["conv2d(arg 3)=(1, 1)", "pixel_shuffle(arg 1)=4", "round(decimals)=1"]`: every literal argument of every
    call in the graph's code, in order, a call's positional ones by their position (the first is 0) and keyword ones
    by name; at most GRAPH_LITERALS (each cut at LITERAL_CHARS). Read with Python's `ast`; a line it cannot parse
    says nothing."""
    out: list[str] = []
    for line in graph_text.splitlines():
        m = _ASSIGN.match(line)
        if m is None:
            continue
        try:
            tree = ast.parse(m[1].split(";  ", 1)[0].strip(), mode="eval")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        call = tree.body
        if isinstance(call, ast.Subscript):  # `h[(slice(None, None, None), slice(0, 3, None))]`: operator.getitem
            if (index := _index(call.slice)) is not None:
                out.append(f"getitem(index)={index}"[:LITERAL_CHARS])
            continue
        if not isinstance(call, ast.Call) or (name := _call_name(call.func)) is None:
            continue
        args = [(f"arg {i}", a) for i, a in enumerate(call.args)]
        args += [(kw.arg, kw.value) for kw in call.keywords if kw.arg is not None]
        for key, node in args:
            if (value := _literal(node)) is not None:
                out.append(f"{name}({key})={value}"[:LITERAL_CHARS])
                if len(out) >= GRAPH_LITERALS:
                    return out
    return out

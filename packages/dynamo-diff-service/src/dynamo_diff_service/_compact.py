"""A record's payload shown compact: a graph's code, a guard tree, the module Inductor wrote.

These payloads are most of what an agent or a user reads when a question goes past the summaries, and most of
their characters say nothing to a reader: a graph's annotations carry strides and the device beside the dtype and
shape, every node ends by releasing its inputs (`;  x = y = None`), its inputs are renamed once (`l_x_ = L_x_`);
a guard tree's leaves carry object ids, the dispatch key set and the line of code the guard came from twice (as
text and as `path:line`), every tensor five `_dynamo_*_indices` checks, and a line for each manager between them;
Inductor's module opens with thirty lines of imports and ends with a benchmark harness. The compact view keeps
every node, every guard leaf and every kernel line; it drops or shortens only those parts (the rules, kind by
kind, in docs/COMPARING.md, after "shows one record condensed"). The record as written is `evidence ... --full`.
"""

from __future__ import annotations

import json
import re

GRAPH_KINDS = frozenset(
    {
        "dynamo_output_graph",
        "aot_forward_graph",
        "aot_backward_graph",
        "aot_inference_graph",
        "aot_joint_graph",
        "before_pre_grad_graph",
        "after_pre_grad_graph",
        "after_post_grad_graph",
        "inductor_post_grad_graph",
        "inductor_pre_grad_graph",
    }
)
GUARD_KINDS = frozenset({"dynamo_cpp_guards_str"})
CODE_KINDS = frozenset({"inductor_output_code"})
COMPACT_KINDS = GRAPH_KINDS | GUARD_KINDS | CODE_KINDS

# -- graphs ------------------------------------------------------------------------------------------------

_ANNOTATION = re.compile(r'"((?:[a-z]+\d*|c\d+)\[[^\]"]*\])(?:\[[^\]"]*\])?(?:[a-z]+(?::\d+)?)?"')
_SYM_ANNOTATION = re.compile(r'"(Sym\([^"]*\))"')
_RELEASE = re.compile(r";\s+[\w.]+(?: = [\w.]+)* = None\s*$")
_ALIAS = re.compile(r"^\s*(\w+) = (\w+)\s*$")
_FILE_COMMENT = re.compile(r"^(?P<indent>\s*)# File: (?P<path>.+?):(?P<line>\d+) in (?P<fn>[^,]+), code: (?P<code>.*)$")
_PLAIN_INPUT = re.compile(r"\s+# PlainAOTInput\(idx=\d+\)\s*$")
_GRAPH_ID = re.compile(r"^\s*# graph id: \d+\s*$")


def _base(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def _graph_line(line: str) -> str | None:
    """One line of a graph's code compact, or None when it is left out."""
    if not line.strip() or _GRAPH_ID.match(line):
        return None
    if (m := _ALIAS.match(line)) is not None and m[1] == m[2].lower() and m[1] != m[2]:
        return None  # `l_x_ = L_x_`: the input renamed
    if (m := _FILE_COMMENT.match(line)) is not None:
        return f"{m['indent']}# {_base(m['path'])}:{m['line']} in {m['fn']}: {m['code']}"
    line = _PLAIN_INPUT.sub("", line)
    line = _RELEASE.sub("", line)
    line = _ANNOTATION.sub(r"\1", line)
    line = _SYM_ANNOTATION.sub(r"\1", line)
    return line.replace("def forward(self, ", "def forward(").replace("(self,\n", "(\n")


_SIGNATURE = re.compile(r"^(?P<indent>\s*)def forward\((?P<args>.+)\):\s*$")
SIGNATURE_CHARS = 160  # a longer `def forward(...)` line is written an input a line (a grep names each input)


def _inputs(args: str) -> list[str]:
    """`L_x_: f32[8, 8], L_w_: f32[16, 8]` -> each input (commas inside brackets kept)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(args):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(args[start:i].strip())
            start = i + 1
    out.append(args[start:].strip())
    return [a for a in out if a]


def compact_graph(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        short = _graph_line(line)
        if short is None or short.strip() == "self,":
            continue
        if len(short) > SIGNATURE_CHARS and (m := _SIGNATURE.match(short)) is not None:
            pad = m["indent"]
            out += [f"{pad}def forward(", *(f"{pad}    {a}," for a in _inputs(m["args"])), f"{pad}):"]
            continue
        out.append(short)
    return out


# -- guard trees -------------------------------------------------------------------------------------------

_LEAF = re.compile(r"^(?P<tree>[|+\- ]*?)\+- (?P<kind>[A-Z][A-Z_]+)(?:: (?P<body>.*))?\s*$")
_MANAGER = re.compile(r"^[|+\- ]*\+- \w*GuardManager\b|^\s*TREE_GUARD_MANAGER:\s*$")
# A dict argument's manager checks its length and runs a key and a value manager per position.
_DICT_MANAGER = re.compile(
    r"^[|+\- ]*\+- (?:(?:Key|Value)Manager: )?(?:DictSubclass|Dict)GuardManager: source=(?P<src>.+?), "
    r"(?:accessed_by=|type=)"
)
_PAIR = re.compile(
    r"^[|+\- ]*\+- (?:KeyValueManager pair at index=\d+|KeyManager: GuardManager:|ValueManager: GuardManager:)"
)
_WHERE = re.compile(r"\s+#\s(?:(?P<code>.*?)\s+#\s)?(?P<path>[^\s#]+\.py):(?P<line>\d+) in (?P<fn>\S+)(?: \(.*)?\s*$")
_UNKNOWN = re.compile(r"\s+# \(unknown source .*, please file a bug\)\s*$")
_DUCK = re.compile(
    r"\s+# duck sizing added this equality because these variables had the same size (?P<n>\S+) \(to avoid .*\)\s*$"
)
_TYPE_ID = re.compile(r"^___check_type_id\((?P<src>.*), \d+\)(?:, type=<class '(?P<t>[^']+)'>)?$")
_OBJ_ID = re.compile(r"^___check_obj_id\((?P<src>.*), \d+\)(?:, type=<class '(?P<t>[^']+)'>)?$")
_TENSOR = re.compile(r"^check_tensor\((?P<src>.*?), (?P<cls>\w+), DispatchKeySet\([^)]*\), (?P<rest>.*)\)$")
_MARKING = re.compile(r"^hasattr\((?P<src>.*), '_dynamo_(?P<what>\w+)_indices'\) == False$")
_STATE = re.compile(r"^___check_global_state\(\) against (?P<json>\{.*\})$")
# c10::ScalarType's numbering, as the global-state guard writes the default dtype.
_DTYPES = {
    0: "uint8", 1: "int8", 2: "int16", 3: "int32", 4: "int64", 5: "float16", 6: "float32", 7: "float64",
    8: "complex32", 9: "complex64", 10: "complex128", 11: "bool", 15: "bfloat16",
}  # fmt: skip


def _state(text: str) -> str:
    try:
        state = json.loads(text)
    except ValueError:
        return text
    if not isinstance(state, dict):
        return text
    bits = []
    for key, value in state.items():
        if key == "autocast_state" and isinstance(value, dict):
            enabled = value.get("enabled")
            if isinstance(enabled, list) and not any(enabled):
                bits.append("autocast off")
                continue
        if key == "default_dtype" and isinstance(value, int) and value in _DTYPES:
            bits.append(f"default_dtype={value} (torch.{_DTYPES[value]})")
            continue
        bits.append(f"{key}={json.dumps(value, separators=(',', ':'))}")
    return ", ".join(bits)


def _guard_body(kind: str, body: str) -> str:
    if kind == "TYPE_MATCH" and (m := _TYPE_ID.match(body)):
        return f"type({m['src']}) is {m['t'] or 'the type it had'}"
    if kind == "ID_MATCH" and (m := _OBJ_ID.match(body)):
        return f"{m['src']} same object" + (f" ({m['t']})" if m["t"] else "")
    if kind == "TENSOR_MATCH" and (m := _TENSOR.match(body)):
        rest = m["rest"].replace("device=None, ", "")
        return f"{m['src']}: {m['cls']} {rest}"
    if kind == "GLOBAL_STATE" and (m := _STATE.match(body)):
        return _state(m["json"])
    return body


def compact_guards(lines: list[str]) -> list[str]:
    out: list[str] = []
    marks: tuple[str, list[str], str] | None = None  # (source, which indices, where) of a run of markings

    def flush() -> None:
        nonlocal marks
        if marks is not None:
            src, what, where = marks
            out.append(f"DIMENSION_DYNAMIC_MARKING_GUARD: {src} has no _dynamo_*_indices ({len(what)}){where}")
            marks = None

    for line in lines:
        bare = line.lstrip("\t")
        if (d := _DICT_MANAGER.match(bare)) is not None:  # a check of its own: the dict's length and key order
            flush()
            out.append(f"DICT_MANAGER: {d['src']}: its length and each key at its position (the pairs below)")
            continue
        if not bare.strip() or _MANAGER.match(bare) or _PAIR.match(bare):
            continue
        m = _LEAF.match(bare)
        if m is None:
            flush()
            out.append(bare.rstrip())
            continue
        kind, body = m["kind"], m["body"] or ""
        where = ""
        if (w := _WHERE.search(body)) is not None:
            body = body[: w.start()]
            where = f"  ({_base(w['path'])}:{w['line']})"
        body = _DUCK.sub(r"  (duck sizing: both were \g<n>)", _UNKNOWN.sub("", body)).rstrip()
        if kind == "DIMENSION_DYNAMIC_MARKING_GUARD" and (mk := _MARKING.match(body)) is not None:
            if marks is not None and marks[0] == mk["src"]:
                marks[1].append(mk["what"])
                continue
            flush()
            marks = (mk["src"], [mk["what"]], where)
            continue
        flush()
        out.append(f"{kind}: {_guard_body(kind, body)}{where}" if body else kind + where)
    flush()
    return out


# -- Inductor's module -------------------------------------------------------------------------------------

_HEADER = re.compile(
    r"^(?:(?:from \S+ )?import \S.*|\w+ = torch\.\S+|aten = .*|inductor_ops = .*|_quantized = .*|"
    r"async_compile = AsyncCompile\(\)|empty_strided_p2p = .*)$"
)
_TAIL_START = re.compile(r"^(?:def get_args\(\):|def benchmark_compiled_module\(|if __name__ == \"__main__\":)")
_NOISE = re.compile(
    r"^\s*(?:#include <torch/csrc/inductor/cpp_prefix\.h>|#pragma GCC ivdep|std::atomic<int> "
    r"inductor_cpu_integer_div_error\{0\};|inductor_cpu_integer_div_error_flag = .*;|"
    r"inductor_cpu_throw_if_integer_div_error\(.*\);|del \w+(?:\s+# reuse)?|async_compile\.wait\(globals\(\)\)|"
    r"del async_compile|runner = Runner\(.*\)|call = runner\.call|recursively_apply_fns = runner\..*)\s*$"
)
_SKIPPED_METHODS = re.compile(
    r"^(?P<indent>\s+)def (?:__init__\(self, partitions\)|recursively_apply_fns\(self, fns\)):"
)
_CAST = re.compile(r"static_cast<int64_t>\((-?\d+L?)\)")


def _uncast(line: str) -> str:
    """`static_cast<int64_t>(N)` as N; an index `[static_cast<int64_t>(x0 + 8L*x1)]` as `[x0 + 8L*x1]`."""
    line = _CAST.sub(r"\1", line)
    marker = "[static_cast<int64_t>("
    while (at := line.find(marker)) >= 0:
        depth, end = 1, at + len(marker)
        while end < len(line) and depth:
            depth += {"(": 1, ")": -1}.get(line[end], 0)
            end += 1
        if depth or line[end : end + 1] != "]":
            break
        line = line[: at + 1] + line[at + len(marker) : end - 1] + line[end:]
    return line


def _halve(line: str) -> str:
    spaces = len(line) - len(line.lstrip(" "))
    return line[spaces - spaces // 2 :]


def compact_output_code(lines: list[str]) -> list[str]:
    out: list[str] = []
    skip_deeper: int | None = None
    in_kernel = False
    for line in lines:
        bare = line[1:] if line.startswith("\t") else line
        if bare.rstrip().endswith("r'''"):
            in_kernel = True
        elif bare.strip().startswith("'''"):
            in_kernel = False
        if in_kernel and bare.strip() in ("{", "}"):
            continue
        if _TAIL_START.match(bare):
            break
        if skip_deeper is not None:
            if not bare.strip() or len(bare) - len(bare.lstrip()) > skip_deeper:
                continue
            skip_deeper = None
        if (m := _SKIPPED_METHODS.match(bare)) is not None:
            skip_deeper = len(m["indent"])
            continue
        if not bare.strip() or _HEADER.match(bare) or _NOISE.match(bare):
            continue
        out.append(_halve(_uncast(bare.rstrip())))
    return out


# -- the record --------------------------------------------------------------------------------------------

NOTES = {
    "graph": "the graph's code compact: sizes without strides or device, renames and releases left out",
    "guards": "the guard tree compact: a leaf a line, object ids and manager lines left out",
    "code": "Inductor's module compact: imports and boilerplate left out",
}
# What a compact record's first line keeps: its kind and what it says besides the ids its heading names (the glog
# prefix, the frame and compile ids, the payload's md5 and a first attempt's 0 are left out).
_ENVELOPE_IDS = frozenset({"frame_id", "frame_compile_id", "has_payload", "rank", "compiled_autograd_id"})


def record_kind(envelope: str) -> str | None:
    """The kind a record's first line names (an artifact by its name), or None."""
    start = envelope.find("{")
    if start < 0:
        return None
    try:
        obj = json.loads(envelope[start:])
    except ValueError:
        return None
    if not isinstance(obj, dict) or not obj:
        return None
    key = str(next(iter(obj)))
    if key == "artifact" and isinstance(obj[key], dict):
        name = obj[key].get("name")
        return name if isinstance(name, str) else None
    return key


def compact_envelope(line: str, kind: str | None) -> str:
    """A compact record's first line: its JSON without the glog prefix and the ids its heading says (`frame_id`,
    `frame_compile_id`, `rank`, the payload's md5, `attempt` 0), and a graph's without its `sizes` map (every
    node's annotation says its size)."""
    start = line.find("{")
    try:
        obj = json.loads(line[start:]) if start >= 0 else None
    except ValueError:
        return line
    if not isinstance(obj, dict) or not obj:
        return line
    inner = obj.get(kind) if kind in GRAPH_KINDS else None
    if isinstance(inner, dict) and "sizes" in inner:
        obj[kind] = {k: v for k, v in inner.items() if k != "sizes"}
    kept = {k: v for k, v in obj.items() if k not in _ENVELOPE_IDS and not (k == "attempt" and v == 0)}
    return json.dumps(kept)


def compact_payload(kind: str | None, payload: list[str]) -> tuple[list[str], str] | None:
    """The payload's lines (tab-indented, as a record holds them) compact and the note saying what that left out,
    or None for a kind shown as written."""
    if kind in GRAPH_KINDS:
        body, note = [line[1:] if line.startswith("\t") else line for line in payload], NOTES["graph"]
        return ["\t" + _halve(line) for line in compact_graph(body)], note
    if kind in GUARD_KINDS:
        return ["\t" + line for line in compact_guards(payload)], NOTES["guards"]
    if kind in CODE_KINDS:
        return ["\t" + line for line in compact_output_code(payload)], NOTES["code"]
    return None

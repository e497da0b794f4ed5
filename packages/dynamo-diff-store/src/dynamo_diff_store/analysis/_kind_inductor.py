"""What Inductor generated: an `inductor_output_code` record holds the Python module Inductor wrote for one graph
(the forward's or the inference graph's, then the backward's when it compiles). Read as text, never run: what its
`call` takes, the weights freezing folded into it, the kernels it defines and the library kernels it calls."""

from __future__ import annotations

import re

from dynamo_diff_schema.compilation import InductorCode

from dynamo_diff_store.analysis._facts import Fact
from dynamo_diff_store.analysis._folding import Folding, Identity, RecordKind, payload

KERNELS_LISTED = 12
EXTERN_LISTED = 12

_CALL = re.compile(r"^(?P<indent>[ \t]*)def call\((?:self, )?args\):")
# `arg0_1, arg1_1, arg2_1 = args`, `primals_1, primals_2, = args` (older torch), `arg6_1, = args`.
_UNPACK = re.compile(r"^\s*(?P<names>\w+(?:, \w+)*),? = args\s*$")
_FROZEN = re.compile(r"^_frozen_param\d+ = ", re.M)
_KERNEL = re.compile(r"^(\w+) = async_compile\.\w+\(", re.M)
# `extern_kernels.addmm(`, `torch.ops.mkl._mkl_linear.default(`, `torch.ops.aten.sort.default(`, `aten.sort.default(`.
_EXTERN = re.compile(r"\bextern_kernels\.(\w+)\(|\btorch\.ops\.(\w+)\.(\w+)\.\w+\(|(?<![\w.])aten\.(\w+)\.\w+\(")


def _call_body(lines: list[str]) -> list[str]:
    """The lines of the module's `call` (the last one defined: torch 2.9+ wraps it in a runner class)."""
    body: list[str] = []
    inside: str | None = None
    for line in lines:
        m = _CALL.match(line)
        if m is not None:
            inside, body = m["indent"], []
            continue
        if inside is None:
            continue
        stripped = line.strip()
        if stripped and len(line) - len(line.lstrip()) <= len(inside):
            inside = None
            continue
        body.append(line)
    return body


def read_output_code(text: str) -> InductorCode:
    """The generated module's text -> what it says (its evidence id is set when folded)."""
    lines = text.splitlines()
    body = _call_body(lines)
    inputs = next((len(m["names"].split(", ")) for line in body if (m := _UNPACK.match(line))), None)
    kernels = list(dict.fromkeys(_KERNEL.findall(text)))
    extern: dict[str, int] = {}
    for line in body:
        for m in _EXTERN.finditer(line):
            if m[1]:
                name = m[1]
            elif m[2]:
                name = m[3] if m[2] == "aten" else f"{m[2]}.{m[3]}"
            else:
                name = m[4]
            extern[name] = extern.get(name, 0) + 1
    ranked = sorted(extern.items(), key=lambda kv: (-kv[1], kv[0]))[:EXTERN_LISTED]
    listed = kernels[:KERNELS_LISTED]
    # A kernel's runs, in `call` or a partition of it: `cpp_fused_x_0(buf0, ...)` (C++), `triton_poi_fused_x_0.run(`
    # (Triton); not its definition in the kernel's own source (`def triton_poi_fused_x_0(`).
    runs = dict.fromkeys(listed, 0)
    if listed:
        called = re.compile(r"(?<![\w.])(?<!def )(" + "|".join(map(re.escape, listed)) + r")(?:\.run)?\(")
        for m in called.finditer(text):
            runs[m[1]] += 1
    return InductorCode(
        inputs=inputs,
        frozen_params=len(_FROZEN.findall(text)),
        kernels=[k[:120] for k in listed],
        kernels_total=len(kernels),
        kernel_calls={k[:120]: n for k, n in runs.items()},
        extern_calls={name[:120]: n for name, n in ranked},
    )


def _fold_output_code(folding: Folding, fact: Fact, ident: Identity) -> None:
    ev = folding.evidence(fact, fact.kind, ident)
    if fact.data is not None:
        ident.inductor_code.append((fact.attempt or 0, fact.data.model_copy(update={"evidence_id": ev})))


def inductor_code(ident: Identity) -> list[InductorCode]:
    """The generated code of the compilation's last attempt (an attempt whose analysis restarted may have had its
    graph compiled too), in the order written."""
    last = max((attempt for attempt, _ in ident.inductor_code), default=0)
    return [code for attempt, code in ident.inductor_code if attempt == last]


# Not `compiling`: the backward's module is written when the backward compiles, at the first .backward(), after
# the compilation's metrics.
INDUCTOR_OUTPUT_CODE = RecordKind("inductor_output_code", extract=payload(read_output_code), fold=_fold_output_code)

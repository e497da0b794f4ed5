"""Code torch generated, named for what it is rather than for the file name torch made up for it.

Dynamo compiles generated code too: the `forward` of an FX GraphModule, whose `co_filename` torch.fx makes up as
`<eval_with_key>.N` (torch/fx/graph_module.py, `_EvalCacheLoader`; N counts the modules generated so far in the
process; a module traced from user code adds ` from FILE:LINE in NAME`). Two kinds matter:

- a **compiled-autograd graph**: the backward Compiled Autograd captured, compiled by Dynamo under its
  compiled-autograd id (compile ids `!<id>/<frame>/<n>`);
- an **FX graph**: an FX GraphModule compiled on its own (`torch.compile(torch.fx.symbolic_trace(m))`).

N depends on how many modules the process generated before (a cache hit that skips tracing, unrelated code, the
torch version), so it is never part of an identity: rows name such a frame `compiled autograd graph 0` or
`FX graph 1 (from forward, model.py:27)` and pair it by what it is (`dynamo_diff_match.generated`); the raw
`co_filename` stays in the capture and in each row's `generated.co_filenames`. Any other made-up file name
(`<string>`, `<torch_package_0>.model.py`) is compared with the numbers in its `<...>` part replaced by `#`.
"""

from __future__ import annotations

import json
import re
from typing import NamedTuple

from dynamo_diff_schema.capture import Rank
from dynamo_diff_schema.comparison import GeneratedKind
from dynamo_diff_schema.compilation import Compilation, Outcome

FX_PREFIX = "<eval_with_key>"
# A made-up file name: '<...>' at the start (with torch.fx's '.N' after it), not a frozen standard-library module.
_MADE_UP = re.compile(r"^<(?!frozen )[^<>]*>(?:\.\d+)?")
_DIGITS = re.compile(r"\d+")
_TRACED_FROM = re.compile(r" from (?P<file>.+):(?P<line>\d+) in (?P<name>.+)$")


class GeneratedFrame(NamedTuple):
    """What a function group of generated code is (the matcher's `Generated`; the capture views use it without
    loading the matcher)."""

    kind: GeneratedKind
    number: int
    label: str
    graph: str


def generated_form(co_filename: str | None) -> str | None:
    """A made-up file name with its counters replaced by '#' (`<eval_with_key>.#`), or None for a real file."""
    if not co_filename or co_filename[0] != "<":
        return None
    match = _MADE_UP.match(co_filename)
    if match is None:
        return None
    return _DIGITS.sub("#", match.group(0)) + co_filename[match.end() :]


def made_up_name(co_filename: str | None) -> str | None:
    """The made-up part of a file name as torch wrote it (`<eval_with_key>.4` of `<eval_with_key>.4 from ...`)."""
    match = _MADE_UP.match(co_filename or "")
    return None if match is None else match.group(0)


def generated_label(kind: GeneratedKind, number: int, co_filename: str | None) -> str:
    """The name a row gives generated code: 'compiled autograd graph 0', 'FX graph 1 (from forward, model.py:27)'."""
    if kind == GeneratedKind.COMPILED_AUTOGRAD:
        return f"compiled autograd graph {number}"
    label = f"FX graph {number}"
    traced = _TRACED_FROM.search(co_filename or "")
    if traced is not None:
        label += f" (from {traced['name']}, {traced['file'].replace(chr(92), '/').rsplit('/', 1)[-1]}:{traced['line']})"
    return label


def kind_of(comp: Compilation) -> GeneratedKind | None:
    """What generated code a compilation compiled, judged from it alone (None: the user's or a library's code)."""
    code = comp.code
    form = generated_form(code.co_filename)
    if form is None or code.caller is not None:
        return None
    if comp.identity.compiled_autograd_id is not None:
        return GeneratedKind.COMPILED_AUTOGRAD
    return GeneratedKind.FX_GRAPH if form.startswith(FX_PREFIX) else None


def _graph(comps: list[Compilation]) -> str:
    """The structure of the graphs compiled from one code object: each completed graph's op histogram, in order."""
    return "\x1f".join(
        json.dumps(sorted(c.graph.op_histogram.items()), separators=(",", ":"))
        for c in comps
        if c.outcome == Outcome.COMPLETED and c.graph is not None
    )


def generated_frames(rank: Rank) -> dict[str, GeneratedFrame]:
    """What each function group of generated code on the rank is (FunctionGroup.key -> GeneratedFrame). A
    compiled-autograd graph is numbered by its compiled-autograd id, an FX graph by its position among the rank's
    FX graphs (distinct file names) in compile order."""
    made_up = [g for g in rank.functions if (g.code.co_filename or "").startswith("<")]
    if not made_up:
        return {}  # (most ranks: nothing to index)
    position = {c.compile_id: i for i, c in enumerate(rank.compilations)}
    by_id = {c.compile_id: c for c in rank.compilations}
    found: list[tuple[str, GeneratedKind, int | None, str, list[Compilation]]] = []
    for group in made_up:
        comps = sorted((by_id[cid] for cid in group.compile_ids if cid in by_id), key=lambda c: position[c.compile_id])
        kinds = {kind_of(c) for c in comps}
        if not comps or None in kinds:
            continue
        ca = [c.identity.compiled_autograd_id for c in comps if c.identity.compiled_autograd_id is not None]
        kind = GeneratedKind.COMPILED_AUTOGRAD if ca else GeneratedKind.FX_GRAPH
        found.append((group.key, kind, min(ca) if ca else None, group.code.co_filename or "", comps))
    fx_files: list[str] = []
    for _, kind, _, file, _ in sorted(found, key=lambda f: position[f[4][0].compile_id]):
        if kind == GeneratedKind.FX_GRAPH and file not in fx_files:
            fx_files.append(file)
    out: dict[str, GeneratedFrame] = {}
    for key, kind, ca_id, file, comps in found:
        number = ca_id if ca_id is not None else fx_files.index(file)
        out[key] = GeneratedFrame(kind, number, generated_label(kind, number, file), _graph(comps))
    return out


def generated_by_compile_id(rank: Rank) -> dict[str, GeneratedFrame]:
    """The same, per compile id of the rank."""
    frames = generated_frames(rank)
    return {cid: frames[g.key] for g in rank.functions if g.key in frames for cid in g.compile_ids}

"""Comparison speed on two synthetic captures of many functions each.

Builds two Capture documents (schema models, as an import would produce them) with N functions spread over
files of 100 functions; each function has one compilation, a tenth of them recompile, a twentieth break
the graph. The candidate edits a fifth of the functions (adds a line to the body, shifting everything
below) and adds 50 new functions. Prints wall time and peak RSS of `compare_captures`, with and without
source snapshots (snapshots are parsed with `ast` and line-diffed).

    uv run python tools/bench/compare_scaling.py [--functions 10000]
"""

from __future__ import annotations

import argparse
import resource
import time

from dynamo_diff_compare import compare_captures, user_sources
from dynamo_diff_schema import (
    Capture,
    CaptureInfo,
    CodeLocation,
    Compilation,
    CompileIdentity,
    Counts,
    FunctionGroup,
    GraphBreak,
    GraphSummary,
    GuardReason,
    Rank,
    RecompileEvidence,
    RunStatus,
    Validity,
    compiled_status,
)
from dynamo_diff_store import collector_paused

PER_FILE = 100
ROOT = "/home/user/project"


def source_file(index: int, edited: set[int], extra: int) -> tuple[str, dict[int, int]]:
    """Text of file `index` and each function's first line."""
    lines = ["import torch", ""]
    first: dict[int, int] = {}
    for k in range(PER_FILE + extra):
        fn = index * PER_FILE + k
        first[fn] = len(lines) + 1
        lines += [f"def f{fn}(x, n):", f"    y = torch.sin(x) * {fn}"]
        if fn in edited:
            lines.append("    y = y + 1")
        lines += ["    return y.cos() + n", ""]
    return "\n".join(lines) + "\n", first


def capture(n: int, *, candidate: bool) -> tuple[Capture, dict[str, str], dict[str, str]]:
    files = n // PER_FILE
    edited = {fn for fn in range(n) if candidate and fn % 5 == 0}
    compilations: list[Compilation] = []
    groups: list[FunctionGroup] = []
    texts: dict[str, str] = {}
    paths: dict[str, str] = {}
    for index in range(files):
        extra = 1 if candidate and index < 50 else 0  # 50 new functions in the candidate
        text, first = source_file(index, edited, extra)
        rel = f"pkg/mod{index}.py"
        texts[rel] = text
        paths[f"{ROOT}/{rel}"] = rel
        for fn, line in first.items():
            code = CodeLocation(co_filename=f"{ROOT}/{rel}", co_name=f"f{fn}", co_firstlineno=line)
            recompiles = fn % 10 == 0 and not (candidate and fn % 20 == 0)
            breaks = fn % 20 == 0
            comp_ids = [f"{fn}/0"] + ([f"{fn}/1"] if recompiles else [])
            for fcid, cid in enumerate(comp_ids):
                compilations.append(
                    Compilation(
                        compile_id=cid,
                        identity=CompileIdentity(frame_id=fn, frame_compile_id=fcid),
                        code=code,
                        outcome="completed",
                        graph=GraphSummary(op_count=3, op_histogram={"torch.sin": 1}),
                        recompile=RecompileEvidence(
                            confirmed=True,
                            reasons=[
                                GuardReason(text=f"{fn}/0: tensor 'x' size mismatch at index 0", category="shape")
                            ],
                        )
                        if fcid
                        else None,
                        graph_breaks=[
                            GraphBreak(gb_id="gb0059", reason="print", user_file=f"{ROOT}/{rel}", user_line=line + 1)
                        ]
                        if breaks and not fcid
                        else [],
                    )
                )
            groups.append(
                FunctionGroup(
                    key=f"{ROOT}/{rel}:{line}:f{fn}",
                    code=code,
                    compile_ids=comp_ids,
                    counts=Counts(
                        observed_compilation_identities=len(comp_ids),
                        completed=len(comp_ids),
                        confirmed_recompilation_identities=len(comp_ids) - 1,
                        graph_break_records=int(breaks),
                    ),
                )
            )
    counts = Counts(observed_compilation_identities=len(compilations), completed=len(compilations))
    doc = Capture(
        capture=CaptureInfo(
            id=("c" if candidate else "b") * 64,
            input_kind="raw_log",
            reader_version="1",
            run=RunStatus(state="unknown", finished=None, summary="a synthetic capture", source="none"),
            compiled=compiled_status(counts, None),
            validity=Validity(artifact_structure="complete"),
        ),
        counts=counts,
        ranks=[Rank(rank=0, counts=counts, functions=groups, compilations=compilations)],
    )
    return doc, texts, paths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--functions", type=int, default=10_000)
    args = parser.parse_args()
    base, b_files, b_paths = capture(args.functions, candidate=False)
    cand, c_files, c_paths = capture(args.functions, candidate=True)
    print(f"baseline {len(base.ranks[0].functions)} functions, candidate {len(cand.ranks[0].functions)}")
    for label, with_sources in (("without snapshots (file/line/name)", False), ("with snapshots (ast + diff)", True)):
        start = time.perf_counter()
        with collector_paused():  # as the service runs it
            comparison = compare_captures(
                base,
                cand,
                baseline_sources=user_sources(b_files, b_paths) if with_sources else None,
                candidate_sources=user_sources(c_files, c_paths) if with_sources else None,
            )
        elapsed = time.perf_counter() - start
        statuses: dict[str, int] = {}
        for row in comparison.functions:
            statuses[str(row.status)] = statuses.get(str(row.status), 0) + 1
        print(f"{label:<36} {elapsed:6.2f} s  rows {len(comparison.functions)} {statuses}")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Where in the program a compilation happened (its call path) and where the global a failing guard reads is set,
in analyze's text (both views) and its JSON. Expected values come from the raw trace's dynamo_start stacks (each
frame's line and `loc`, the line's text) and from the workload's source snapshot, never from the analyser."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run, unwrapped

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "fixtures/captures"
_START = re.compile(r'"dynamo_start": \{"stack": (\[[^\]]*\])')


def _stacks(name: str) -> list[list[dict[str, object]]]:
    """Each dynamo_start record's stack, outermost first, as the raw trace holds it."""
    raw = "".join(p.read_text(encoding="utf-8") for p in sorted((CAPTURES / name / "raw").glob("*.log")))
    return [json.loads(m) for m in _START.findall(raw)]


def _snapshot(name: str, file: str) -> list[str]:
    (path,) = (CAPTURES / name / "sources").rglob(file)
    return path.read_text(encoding="utf-8").splitlines()


def _path(stack: list[dict[str, object]], files: list[str]) -> str:
    """'global_guard.py:33 o.call(ca, apply, x) <- ...': the frames below the compiled one, innermost first (at
    most 3); `files` names each frame's file, innermost first (the raw stack gives string-table indexes)."""
    callers = list(reversed(stack[:-1]))[:3]
    return " <- ".join(f"{file}:{f['line']} {f['loc']}" for f, file in zip(callers, files, strict=True))


def test_global_guard_says_which_call_compiled_and_where_mode_is_set(run: Run) -> None:
    # The workload: `for mode in (...): MODE = mode; o.call(ca, apply, x)` in body, then cast called from two lines.
    stacks = _stacks("global_guard")
    assert len(stacks) == 4
    files = ["global_guard.py", "_oracle.py", "global_guard.py"]  # body, then _oracle.run, then the module
    apply, cast_first, cast_second = _path(stacks[0], files), _path(stacks[2], files), _path(stacks[3], files)
    assert _path(stacks[1], files) == apply  # the recompile came from the same call (the loop in body)
    assert "o.call(ca, apply, x)" in apply and "run(o, body)" in apply
    assert cast_first != cast_second and "float64" in cast_second
    # Where MODE is assigned: the module line and the loop's `MODE = mode` (under `global MODE`).
    lines = _snapshot("global_guard", "global_guard.py")
    sites = [(n, s.strip()) for n, s in enumerate(lines, 1) if re.match(r"\s*MODE\s*(=|\+=)", s)]
    assert [code for _, code in sites] == ['MODE = "sin"', "MODE = mode"]
    set_at = "MODE set at: " + "; ".join(f"global_guard.py:{n} {code}" for n, code in sites)

    code_, out, err = run("analyze", str(CAPTURES / "global_guard"))
    assert code_ == 0, err
    text = out.splitlines()  # the facts under a compilation are indented 4: no unwrapping (a 200-column terminal)
    guard = next(i for i, s in enumerate(text) if s.strip().startswith("recompile [value]: 0/0: G['MODE']"))
    # (under the guard: what the new entry was made for, global_guard.py's second value, then where MODE is set)
    assert [s.strip() for s in text[guard + 1 : guard + 3]] == ["made for: G['MODE'] == 'cos'", set_at]
    called = [s.strip() for s in text if s.strip().startswith("called from: ")]
    # Trace order: a code object's call path once, again when it changes (cast's second call).
    assert called == [f"called from: {p}" for p in (apply, cast_first, cast_second)]

    code_, out, err = run("analyze", str(CAPTURES / "global_guard"), "--by-function")
    assert code_ == 0, err
    text = unwrapped(out, hang=4)
    at = next(i for i, s in enumerate(text) if s.startswith("apply ("))
    assert text[at + 1] == f"  called from: {apply}"  # shared by both its compilations: once, under the function
    recompiled = next(i for i, s in enumerate(text) if "recompiled [value]" in s)
    assert text[recompiled + 1] == f"    {set_at}"
    # cast's second call came from another line: the function says its first call, the recompile its own.
    cast = next(i for i, s in enumerate(text) if s.startswith("cast ("))
    assert text[cast + 1] == f"  called from: {cast_first}"
    dtype = next(i for i, s in enumerate(text) if "dtype mismatch" in s)
    assert text[dtype + 1] == f"    called from: {cast_second}"
    assert sum(s.strip().startswith("called from:") for s in text) == 3

    code_, out, err = run("analyze", str(CAPTURES / "global_guard"), "--by-function", "--format", "json")
    assert code_ == 0, err
    functions = {f["name"]: f for f in json.loads(out)["functions"]}
    frames = [(Path(f["file"]).name, f["line"], f["code"]) for f in functions["apply"]["called_from"]]
    expected = [(file, f["line"], f["loc"]) for f, file in zip(list(reversed(stacks[0][:-1]))[:3], files, strict=True)]
    assert frames == expected
    assert [c["called_from"] for c in functions["apply"]["compilations"]] == [[], []]
    assert functions["cast"]["called_from"][0]["line"] == stacks[2][-2]["line"]
    assert [[f["line"] for f in c["called_from"]][:1] for c in functions["cast"]["compilations"]] == [
        [],
        [stacks[3][-2]["line"]],
    ]
    (guard_line,) = [g for c in functions["apply"]["compilations"] for g in c["recompile"]]
    assert guard_line["guarded"] == "MODE"
    assert guard_line["assigned_total"] == len(sites)
    assert [(Path(f["file"]).name, f["line"], f["code"]) for f in guard_line["assigned_at"]] == [
        ("global_guard.py", n, code) for n, code in sites
    ]
    (dtype,) = [g for c in functions["cast"]["compilations"] for g in c["recompile"]]
    assert dtype["guarded"] is None and dtype["assigned_at"] == []


def test_a_call_path_through_main_is_shown_under_its_function(run: Run) -> None:
    # call_site_v1: `main()` at module level runs `run(o, body)`, whose body calls `o.call(compiled, preprocess, x)`.
    stacks = _stacks("call_site_v1")
    assert len(stacks) == 2 and stacks[0] == stacks[1]
    path = _path(stacks[0], ["main.py", "_oracle.py", "main.py"])
    assert path.startswith("main.py:") and "o.call(compiled, preprocess, x)" in path and "run(o, body)" in path
    code_, out, err = run("analyze", str(CAPTURES / "call_site_v1"), "--by-function")
    assert code_ == 0, err
    text = unwrapped(out, hang=4)
    at = next(i for i, s in enumerate(text) if s.startswith("preprocess ("))
    assert text[at + 1] == f"  called from: {path}"
    assert sum(s.strip().startswith("called from:") for s in text) == 1


def test_a_bare_log_gives_each_calls_text_from_the_record(run: Run, tmp_path: Path) -> None:
    """The raw log alone (no bundle, no source snapshot): the call path's line texts are the dynamo_start frames'
    own `loc`."""
    stacks = _stacks("global_guard")
    files = ["global_guard.py", "_oracle.py", "global_guard.py"]
    (log,) = (CAPTURES / "global_guard" / "raw").glob("*.log")
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / log.name).write_bytes(log.read_bytes())
    code_, out, err = run("analyze", str(bare))
    assert code_ == 0, err
    called = [s.strip() for s in out.splitlines() if s.strip().startswith("called from: ")]
    assert called[0] == f"called from: {_path(stacks[0], files)}"


def test_a_name_several_older_entries_guard_is_placed_once_per_compilation(run: Run) -> None:
    """trial_hook_after: each of 5 recompiles (the workload's guard_failures: 0/1..0/5) fails one guard per older
    entry, all on the global ACT_STATS; where ACT_STATS is set is said once under each, not once per guard."""
    oracle = json.loads((CAPTURES / "trial_hook_after" / "oracle.json").read_text(encoding="utf-8"))
    assert oracle["expect"]["recompiles"] == 5
    for view in ([], ["--by-function"]):
        code_, out, err = run("analyze", str(CAPTURES / "trial_hook_after"), *view)
        assert code_ == 0, err
        assert out.count("ACT_STATS set at: serve.py:47 ACT_STATS = []") == 5, out

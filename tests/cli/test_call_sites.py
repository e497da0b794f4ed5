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
    entry, all on the global ACT_STATS; where ACT_STATS is set is said once under each in trace order, not once per
    guard, and once for the frame per function (every recompile names the same sites)."""
    oracle = json.loads((CAPTURES / "trial_hook_after" / "oracle.json").read_text(encoding="utf-8"))
    assert oracle["expect"]["recompiles"] == 5
    for view, times in (([], 5), (["--by-function"], 1)):
        code_, out, err = run("analyze", str(CAPTURES / "trial_hook_after"), *view)
        assert code_ == 0, err
        assert out.count("ACT_STATS set at: serve.py:47 ACT_STATS = []") == times, out


def _calls(name: str) -> list[int]:
    """Each dynamo_start stack's innermost frame below the compiled one in the compiled frame's own file (the
    workload's line that made the call; torch's frames between them skipped)."""
    return [next(f["line"] for f in reversed(s[:-1]) if f["filename"] == s[-1]["filename"]) for s in _stacks(name)]


def _numbered(name: str, file: str, first: int, last: int, base_line: int | None = None) -> list[str]:
    """The snapshot's lines first..last as the text numbers them: 'N code', less the indentation they share, or
    that of line `base_line` (read from the fixture's own source snapshot)."""
    every = _snapshot(name, file)
    lines = every[first - 1 : last]
    base = min(len(s) - len(s.lstrip()) for s in lines if s.strip())
    if base_line is not None:
        base = len(every[base_line - 1]) - len(every[base_line - 1].lstrip())
    width = len(str(last))
    return [f"{n:>{width}} {s.rstrip()[base:]}" for n, s in zip(range(first, last + 1), lines, strict=True)]


def _block(text: list[str], title: str) -> list[str]:
    """The numbered lines under a context's title (stripped)."""
    at = next(i for i, s in enumerate(text) if s.strip() == title)
    out = []
    for s in text[at + 1 :]:
        if not re.match(r"\s+(\d+ |\.\.\. )", s):
            break
        out.append(s.strip())
    return out


def test_the_loop_a_compilation_is_called_from_is_shown_once(run: Run) -> None:
    """trial_mode_limit: main's `for step, mode in enumerate(schedule):` (under `with torch.no_grad():`, after
    `schedule = [...]`) calls `out = cmodel(x, mode=mode)`; the three compilations come from that call. Lines and
    numbers from the fixture's source snapshot, the call's line from the raw trace's dynamo_start stack."""
    (call,) = set(_calls("trial_mode_limit"))
    lines = _snapshot("trial_mode_limit", "run_modes.py")
    assert lines[call - 1].strip() == "out = cmodel(x, mode=mode)"
    defined = next(n for n, s in enumerate(lines, 1) if s.strip().startswith("schedule = ["))
    header = next(n for n, s in enumerate(lines, 1) if s.strip() == "for step, mode in enumerate(schedule):")
    assert defined < header < call and lines[header - 2].strip() == "with torch.no_grad():"
    expected = [s.strip() for s in _numbered("trial_mode_limit", "run_modes.py", defined, call)]
    title = f"the loop run_modes.py:{call} runs in:"
    for view in ([], ["--by-function"]):
        code_, out, err = run("analyze", str(CAPTURES / "trial_mode_limit"), *view)
        assert code_ == 0, err
        text = out.splitlines()
        assert out.count(title) == 1, out  # three compilations, one call path: once
        assert [re.sub(r"^(\d+) +", r"\1 ", s) for s in _block(text, title)] == [
            re.sub(r"^(\d+) +", r"\1 ", s) for s in expected
        ]
        under = next(i for i, s in enumerate(text) if s.strip() == title)
        assert text[under - 1].strip().startswith(f"called from: run_modes.py:{call} ")
        # the loop's body keeps its indentation under the `with` (4 more than the header)
        body = next(s for s in text if s.strip().startswith(f"{call} "))
        loop = next(s for s in text if s.strip().startswith(f"{header} "))
        assert body.index("out =") - loop.index("for ") == 4

    code_, out, err = run("analyze", str(CAPTURES / "trial_mode_limit"), "--by-function", "--format", "json")
    assert code_ == 0, err
    (fn,) = json.loads(out)["functions"]
    context = fn["call_context"]
    assert (context["kind"], Path(context["file"]).name, context["frame"]) == ("loop", "run_modes.py", 0)
    assert [c["line"] for c in context["lines"]] == list(range(defined, call + 1))
    assert all(c["skipped"] == 0 for c in context["lines"])
    assert [c.get("call_context") for c in fn["compilations"]] == [None] * 3  # the function's call: said there


def test_a_loop_in_an_outer_frame_and_a_loop_left_out_in_part(run: Run) -> None:
    """auto_dynamic_off: body's `for rows in (4, 6, 8, 10):` calls o.call (no definition line: a literal);
    trial_hook_after: six steps of one loop, five recompiles, the loop said once."""
    (call,) = set(_calls("auto_dynamic_off"))
    lines = _snapshot("auto_dynamic_off", "auto_dynamic.py")
    assert lines[call - 2].strip() == "for rows in (4, 6, 8, 10):"
    code_, out, err = run("analyze", str(CAPTURES / "auto_dynamic_off"))
    assert code_ == 0, err
    title = f"the loop auto_dynamic.py:{call} runs in:"
    assert out.count(title) == 1
    assert _block(out.splitlines(), title) == [
        f"{call - 1} for rows in (4, 6, 8, 10):",
        f"{call}     o.call(cf, f, torch.randn(rows, 3))",
    ]

    (call,) = set(_calls("trial_hook_after"))
    lines = _snapshot("trial_hook_after", "serve.py")
    header = next(n for n, s in enumerate(lines, 1) if s.strip() == "for step in range(6):")
    for view in ([], ["--by-function"]):
        code_, out, err = run("analyze", str(CAPTURES / "trial_hook_after"), *view)
        assert code_ == 0, err
        title = f"the loop serve.py:{call} runs in:"
        assert out.count(title) == 1 and out.count("runs in:") == 1
        assert _block(out.splitlines(), title) == [
            s.strip() for s in _numbered("trial_hook_after", "serve.py", header, call)
        ]


def test_a_call_outside_any_loop_shows_its_functions_lines(run: Run) -> None:
    """grad_mode: body calls o.call four times in a row (no loop); the first compilation's call is at the first,
    the recompile's at the third (the raw trace's stacks). Each call path shows body's lines up to its call, at most
    six; the recompile's call, two lines further down, only its lines after those."""
    first, recompile = _calls("grad_mode")
    lines = _snapshot("grad_mode", "grad_mode.py")
    define = next(n for n, s in enumerate(lines, 1) if s.startswith("def body():"))
    assert define + 5 == first and recompile == first + 2
    code_, out, err = run("analyze", str(CAPTURES / "grad_mode"), "--by-function")
    assert code_ == 0, err
    text = out.splitlines()
    assert _block(text, f"the code before grad_mode.py:{first}:") == [
        s.strip() for s in _numbered("grad_mode", "grad_mode.py", define, first)
    ]
    # the recompile's call, further down the same function: only the lines after those shown
    assert _block(text, f"the same function, on to grad_mode.py:{recompile}:") == [
        s.strip() for s in _numbered("grad_mode", "grad_mode.py", first + 1, recompile, define)
    ]
    assert out.count("the code before") == 1


def test_nothing_is_said_around_a_call_without_a_source_snapshot(run: Run, tmp_path: Path) -> None:
    (log,) = (CAPTURES / "trial_mode_limit" / "raw").glob("*.log")
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / log.name).write_bytes(log.read_bytes())
    code_, out, err = run("analyze", str(bare))
    assert code_ == 0, err
    assert "called from: " in out and "runs in:" not in out and "the code before" not in out
    code_, out, err = run("analyze", str(bare), "--by-function", "--format", "json")
    assert code_ == 0, err
    (fn,) = json.loads(out)["functions"]
    assert fn["called_from"] and fn["call_context"] is None


def test_a_guard_on_a_modules_training_flag_says_where_training_is_switched(run: Run) -> None:
    """training_flip: model.eval() flips `training` before step 2; torch's guard_failures (the workload's oracle)
    name the guard `self._modules['drop'].training == True`. The snapshot's switches: `model.eval()` and
    `model.train()` in the loop."""
    oracle = json.loads((CAPTURES / "training_flip" / "oracle.json").read_text(encoding="utf-8"))
    (reason,) = oracle["guard_failures"]["forward"]
    assert reason.startswith("0/0: self._modules['drop'].training == True")
    lines = _snapshot("training_flip", "training_flip.py")
    sites = [(n, s.strip()) for n, s in enumerate(lines, 1) if re.match(r"\s*\w+\.(eval|train)\(", s)]
    assert [code for _, code in sites] == ["model.eval()", "model.train()"]
    set_at = "training set at: " + "; ".join(f"training_flip.py:{n} {code}" for n, code in sites)
    for view in ([], ["--by-function"]):
        code_, out, err = run("analyze", str(CAPTURES / "training_flip"), *view)
        assert code_ == 0, err
        assert [s.strip() for s in out.splitlines() if "set at:" in s] == [set_at]
    code_, out, err = run("analyze", str(CAPTURES / "training_flip"), "--by-function", "--format", "json")
    assert code_ == 0, err
    (guard,) = [g for f in json.loads(out)["functions"] for c in f["compilations"] for g in c["recompile"]]
    assert guard["guarded"] == "training"
    assert [(f["line"], f["code"]) for f in guard["assigned_at"]] == sites


def test_a_guard_on_a_bare_locals_attribute_says_where_the_attribute_is_set(run: Run) -> None:
    """float_attribute: torch 2.13 names the failing guard with the local bare (`self.temperature == 1.0`, the
    workload's own record of torch's guard failures), not as `L['self'].temperature`. The snapshot's assignments of
    `temperature`: in `__init__` and in the loop."""
    oracle = json.loads((CAPTURES / "float_attribute" / "oracle.json").read_text(encoding="utf-8"))
    assert oracle["guard_failures"]["forward"][0].startswith("0/0: self.temperature == 1.0")
    lines = _snapshot("float_attribute", "float_attribute.py")
    sites = [(n, s.strip()) for n, s in enumerate(lines, 1) if re.match(r"\s*\w+\.temperature = ", s)]
    assert [n for n, _ in sites] == [26, 41]
    set_at = "temperature set at: " + "; ".join(f"float_attribute.py:{n} {code}" for n, code in sites)
    for view in ([], ["--by-function"]):
        code_, out, err = run("analyze", str(CAPTURES / "float_attribute"), *view)
        assert code_ == 0, err
        assert set_at in [s.strip() for s in out.splitlines()]
    code_, out, err = run("analyze", str(CAPTURES / "float_attribute"), "--by-function", "--format", "json")
    assert code_ == 0, err
    guards = [g for f in json.loads(out)["functions"] for c in f["compilations"] for g in c["recompile"]]
    assert {g["guarded"] for g in guards} == {"temperature"}
    assert all([(f["line"], f["code"]) for f in g["assigned_at"]] == sites for g in guards)

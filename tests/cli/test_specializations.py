"""What the code pinned back to one value: torch made a Python int a symbol and a line of the user's code fixed it
again (symbolic_shape_specialization), so each value recompiles whatever dynamic=True or mark_dynamic ask. The
expected values are read from the raw trace (the records themselves) and the workload's oracle (torch's own
recompile messages and counters), never from the analyser."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .conftest import Run, unwrapped

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "fixtures/captures"
NAME = "pinned_index"


def _records(name: str, kind: str) -> list[dict[str, Any]]:
    out = []
    for path in sorted((CAPTURES / name / "raw").glob("*.log")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if f'{{"{kind}"' in line:
                out.append(json.loads(line.split("] ", 1)[1]))
    return out


def _oracle(name: str) -> dict[str, Any]:
    return json.loads((CAPTURES / name / "oracle.json").read_text(encoding="utf-8"))


def _pins() -> list[tuple[str, str, str, str, str, int, str]]:
    """(compile id, symbol, source, value, reason, line, line text) of each specialization record."""
    out = []
    for rec in _records(NAME, "symbolic_shape_specialization"):
        body = rec["symbolic_shape_specialization"]
        (top,) = body["user_stack"][-1:]
        cid = f"{rec['frame_id']}/{rec['frame_compile_id']}"
        out.append((cid, body["symbol"], body["sources"][0], body["value"], body["reason"], top["line"], top["loc"]))
    return out


def test_the_oracle_and_the_trace_show_a_symbol_specialized_back() -> None:
    """The workload's own record: 4 graphs, each recompile a `pos == N` guard at the indexed write; the trace: from
    the first recompile on, create_symbol makes pos a symbol and the write fixes it to that call's value."""
    oracle = _oracle(NAME)
    assert oracle["backend_invocations"] == 4 and oracle["counters"]["frames"] == {"ok": 4, "total": 4}
    messages = [m.split("\n", 1)[0] for m in oracle["guard_failures"]["step"]]
    assert {m.split("  #", 1)[0].strip() for m in messages} == {"0/0: pos == 0", "0/1: pos == 1", "0/2: pos == 2"}
    made = [
        (f"{r['frame_id']}/{r['frame_compile_id']}", r["create_symbol"]["source"])
        for r in _records(NAME, "create_symbol")
    ]
    assert made == [("0/1", "L['pos']"), ("0/2", "L['pos']"), ("0/3", "L['pos']")]
    pins = _pins()
    assert [(p[0], p[3]) for p in pins] == [("0/1", "1"), ("0/2", "2"), ("0/3", "3")]
    assert {p[4] for p in pins} == {"range_refined_to_singleton"} and {p[6] for p in pins} == {"cache[:, pos] = h"}


def test_analyze_says_what_was_specialized_on_each_compilation(run: Run) -> None:
    pins = _pins()
    code, out, err = run("analyze", str(CAPTURES / NAME))
    assert code == 0, err
    text = "\n".join(unwrapped(out))
    for cid, symbol, source, value, reason, line, loc in pins:
        said = f"specialized: {symbol} ({source}) fixed to {value} at pinned_index.py:{line}: {loc} ({reason}) (ev "
        assert text.count(said) == 1, (cid, out)
    assert text.count("specialized:") == len(pins)
    # --by-function: on the compilation's line, and in its JSON (CompilationLine.specialized).
    code, out, err = run("analyze", str(CAPTURES / NAME), "--by-function")
    assert code == 0, err
    lines = unwrapped(out, hang=4)
    for cid, symbol, source, value, reason, line, loc in pins:
        (row,) = [s for s in lines if s.strip().startswith(f"{cid} ")]
        assert f"specialized: {symbol} ({source}) fixed to {value} at pinned_index.py:{line}: {loc} ({reason})" in row
    code, out, _ = run("analyze", str(CAPTURES / NAME), "--by-function", "--format", "json")
    compilations = [c for f in json.loads(out)["functions"] for c in f["compilations"]]
    got = [
        (c["compile_id"], s["symbol"], s["value"], s["line"], s["code"]) for c in compilations for s in c["specialized"]
    ]
    assert got == [(p[0], p[1], p[3], p[5], p[6]) for p in pins]
    # A capture with no such record says nothing of it.
    assert not _records("scalar", "symbolic_shape_specialization")
    code, out, _ = run("analyze", str(CAPTURES / "scalar"))
    assert code == 0 and "specialized:" not in out


def test_the_suggestion_names_the_line_that_pins_it_and_drops_the_knobs(run: Run) -> None:
    """dynamic=True cannot keep pos symbolic (torch already made it one and the write fixed it): the suggestion
    says so, names the line, and offers no knob."""
    (line,) = {p[5] for p in _pins()}
    code, out, err = run("analyze", str(CAPTURES / NAME), "--by-function", "--format", "json")
    assert code == 0, err
    (fn,) = json.loads(out)["functions"]
    (s,) = [s for s in fn["suggestions"] if s["kind"] == "dynamic_scalar"]
    assert s["subject"] == "pos" and s["knob"] is None
    assert s["change"].startswith(
        f"the change is to pinned_index.py:{line} (`cache[:, pos] = h`): index or slice with tensor operations"
    )
    assert "do not keep it symbolic" in s["cause"] and "dynamic=True" not in s["change"]
    code, out, _ = run("analyze", str(CAPTURES / NAME))
    text = " ".join(out.split())
    assert "compile with dynamic=True" not in text and "torch.compile(..., dynamic=True)]" not in text
    # Without a specialization (scalar: dynamic=False keeps ints constant) the knob is still offered.
    code, out, _ = run("analyze", str(CAPTURES / "scalar"), "--by-function", "--format", "json")
    knobs = [s["knob"] for f in json.loads(out)["functions"] for s in f["suggestions"] if s["kind"] == "dynamic_scalar"]
    assert knobs and all(knobs)


def test_a_comparison_row_says_what_each_side_specialized(run: Run) -> None:
    pins = _pins()
    code, out, err = run("compare", str(CAPTURES / "scalar"), str(CAPTURES / NAME))
    assert code in (0, 1), err
    text = "\n".join(unwrapped(out, hang=4))
    values = ", ".join(p[3] for p in pins)
    ids = ", ".join(p[0] for p in pins)
    _, symbol, source, _, reason, line, loc = pins[0]
    assert (
        f"specialized (candidate): {symbol} ({source}) fixed to {values} at pinned_index.py:{line}: {loc} "
        f"({reason}; at {ids}) (ev "
    ) in text
    assert "specialized (baseline)" not in text
    # The HTML report says it on the candidate's side of the same change.
    code, out, err = run("compare", str(CAPTURES / "scalar"), str(CAPTURES / NAME), "--format", "html")
    assert code in (0, 1), err
    assert f"specialized: <code>{symbol} (L[&#x27;pos&#x27;]) fixed to {values} at pinned_index.py:{line}" in out

"""`dynamo-diff source REF NAME` for a function the run did not compile (found in the captured file) and for
FILE:LINE; a miss names the nearest functions. Lines come from the workload's own file."""

from __future__ import annotations

from pathlib import Path

from .conftest import Run

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "fixtures/captures/call_site_v2"
MAIN = ROOT / "fixtures/workloads/call_site_v2/main.py"


def _numbered(text: str) -> dict[int, str]:
    out = {}
    for line in text.splitlines():
        number, sep, rest = line.partition(" | ")
        if sep and number.strip().isdigit():
            out[int(number)] = rest
    return out


def test_source_of_a_defined_function_and_of_a_line(run: Run) -> None:
    code, _, err = run("import", str(BUNDLE), "--label", "v2")
    assert code == 0, err
    lines = MAIN.read_text().splitlines()
    first = next(n for n, line in enumerate(lines, 1) if line.startswith("def main():"))
    code, out, err = run("source", "v2", "main")
    assert code == 0, err
    assert "not compiled in this run" in err
    shown = _numbered(out)
    assert min(shown) == first and all(shown[n] == lines[n - 1] for n in shown)
    mark = next(n for n, line in enumerate(lines, 1) if "mark_dynamic(x, 0)" in line)
    code, out, err = run("source", "v2", f"main.py:{mark}", "--context", "2")
    assert code == 0, err
    assert f"line {mark}, in main.<locals>.body" in err
    assert _numbered(out) == {n: lines[n - 1] for n in range(mark - 2, mark + 3)}
    code, _, err = run("source", "v2", "prepare_input")
    assert code != 0 and "nearest: prepare_inputs" in err

"""A method whose file was renamed and whose signature changed pairs by its qualified name (the rename_file pair:
decoder.py renamed decoding.py, Decoder.forward given a `pos` argument, prefill renamed encode_prompt with the same
body). Lines are read from the workloads' own files and compilations from their oracles, never from our analysis."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "fixtures/captures"
WORKLOADS = ROOT / "fixtures/workloads"
V1, V2 = str(CAPTURES / "rename_file_v1"), str(CAPTURES / "rename_file_v2")
SCRIPTS = {
    "rename_file_v1": WORKLOADS / "rename_file_v1/decoder.py",
    "rename_file_v2": WORKLOADS / "rename_file_v2/decoding.py",
}


def line_of(path: Path, text: str) -> int:
    (number,) = [n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line]
    return number


def graphs_of(name: str, co_name: str) -> int:
    """Graphs the workload's own counting backend was handed for frames of that code name in its script."""
    oracle = json.loads((CAPTURES / name / "oracle.json").read_text())
    script = SCRIPTS[name].name
    return sum(
        1
        for g in oracle["backend_graphs"]
        if g["code"]["co_name"] == co_name and Path(g["code"]["co_filename"]).name == script
    )


def test_the_method_of_a_renamed_file_is_one_row_matched_by_qualified_name(run) -> None:  # type: ignore[no-untyped-def]
    b_line = line_of(SCRIPTS["rename_file_v1"], "def forward")
    c_line = line_of(SCRIPTS["rename_file_v2"], "def forward")
    b_graphs, c_graphs = graphs_of("rename_file_v1", "forward"), graphs_of("rename_file_v2", "forward")
    assert (b_graphs, c_graphs) == (3, 2)  # the workloads' own EXPECT, as their backend counted
    code, out, err = run("compare", V1, V2)
    assert code == 0, err
    assert "[baseline only]" not in out and "[candidate only]" not in out
    text = " ".join(out.split())  # the text wraps long rows
    assert (
        f"Decoder.forward (decoder.py:{b_line}) -> Decoder.forward (decoding.py:{c_line}) [matched (qualified_name)]:"
        in text
    )
    assert f"compiles {b_graphs} -> {c_graphs}" in text
    # The renamed function with the same body still pairs by structure (the rule applies to what is left).
    prefill = line_of(SCRIPTS["rename_file_v1"], "def prefill")
    encode = line_of(SCRIPTS["rename_file_v2"], "def encode_prompt")
    assert f"prefill (decoder.py:{prefill}) -> encode_prompt (decoding.py:{encode})" in text

    code, out, err = run("compare", V1, V2, "--format", "json")
    assert code == 0, err
    functions = json.loads(out)["functions"]
    rows = {(r["baseline"]["qualified_name"], r["candidate"]["qualified_name"]): r for r in functions}
    assert set(rows) == {("Decoder.forward", "Decoder.forward"), ("prefill", "encode_prompt")}
    row = rows[("Decoder.forward", "Decoder.forward")]
    assert (row["status"], row["method"]) == ("matched", "qualified_name")
    assert row["reason"] == "the only Decoder.forward on each side; its file decoder.py is decoding.py now"
    assert (row["baseline"]["file"], row["baseline"]["line"]) == ("decoder.py", b_line)
    assert (row["candidate"]["file"], row["candidate"]["line"]) == ("decoding.py", c_line)
    counts = row["baseline"]["counts"]["completed"], row["candidate"]["counts"]["completed"]
    assert counts == (b_graphs, c_graphs)
    assert rows[("prefill", "encode_prompt")]["method"] == "structure"

    code, out, err = run("compare", V1, V2, "--format", "markdown")
    assert code == 0, err
    assert "qualified_name" in out and "[baseline only]" not in out and "baseline only" not in out

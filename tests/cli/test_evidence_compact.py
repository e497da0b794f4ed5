"""`dynamo-diff evidence REF ID`: a graph's code, a guard tree and Inductor's module shown compact, every node,
guard leaf and kernel line kept; `--full` the record as written; `--grep` in the compact text. Expected values
are read from the raw trace's own records here (node names, guard leaves, kernel lines), never from the analyser.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def _payload(name: str, kind: str, nth: int = 0) -> list[str]:
    """The payload lines (tab removed) of the nth record of `kind` in a fixture's raw log."""
    (raw,) = (CAPTURES / name / "raw").glob("*.log")
    lines = raw.read_text(encoding="utf-8").split("\n")
    heads = [i for i, line in enumerate(lines) if not line.startswith("\t") and f'{{"{kind}"' in line]
    start = heads[nth] + 1
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("\t"))
    return [line[1:] for line in lines[start:end]]


def _excerpt(run: Run, name: str, kind: str, *extra: str, nth: int = 0) -> dict:  # type: ignore[type-arg]
    code, out, err = run("evidence", str(CAPTURES / name), "--kind", kind, "--format", "json")
    assert code == 0, err
    ev = json.loads(out)["items"][nth]["id"]
    code, out, err = run("evidence", str(CAPTURES / name), ev, "--max-chars", "100000", "--format", "json", *extra)
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


_NODE = re.compile(r"^\s+(\w+)(?:: [^=]+)? = ")


def test_a_graph_keeps_every_node_and_drops_strides_and_releases(run: Run) -> None:
    raw = _payload("dynamic", "dynamo_output_graph")
    nodes = [m[1] for line in raw if (m := _NODE.match(line)) and not re.match(r"^\s+(\w+) = (\w+)\s*$", line)]
    assert nodes and any("= None" in line for line in raw) and any("][" in line for line in raw)
    shown = _excerpt(run, "dynamic", "dynamo_output_graph")
    assert shown["compact"].startswith("the graph's code compact") and shown["record_chars"] > len(shown["text"])
    body = shown["text"].split("\n")[1:]
    shown_nodes = [m[1] for line in body if (m := _NODE.match(line))]
    assert shown_nodes == nodes
    assert not any("= None" in line or '"' in line for line in body)
    files = [line for line in raw if line.strip().startswith("# File: ")]
    assert len([line for line in body if re.match(r"^\s+# \w+\.py:\d+ in \w+: ", line)]) == len(files)
    whole = _excerpt(run, "dynamic", "dynamo_output_graph", "--full")
    assert whole.get("compact") is None and whole["text"].split("\n")[1:-1] == ["\t" + line for line in raw]


def test_a_guard_tree_is_a_leaf_a_line(run: Run) -> None:
    raw = _payload("dynamic", "dynamo_cpp_guards_str")
    leaves = [m[1] for line in raw if (m := re.search(r"\+- ([A-Z][A-Z_]+)\b(?!\w)(?::|$)", line))]
    markings = leaves.count("DIMENSION_DYNAMIC_MARKING_GUARD")
    assert markings and markings % 5 == 0 and any("___check_global_state() against {" in line for line in raw)
    shown = _excerpt(run, "dynamic", "dynamo_cpp_guards_str")
    assert shown["compact"].startswith("the guard tree compact")
    body = [line.strip() for line in shown["text"].split("\n")[1:] if line.strip()]
    kinds = [m[1] for line in body if (m := re.match(r"^([A-Z][A-Z_]+)\b", line))]
    expected = [k for i, k in enumerate(leaves) if k != "DIMENSION_DYNAMIC_MARKING_GUARD" or i % 5 == 0]
    # every leaf in order, a tensor's five marking checks one line; the trailer torch prints kept
    assert [k for k in kinds if k != "Guard"] == [k for k in expected if k != "Guard"]
    assert not any(
        "___check_global_state() against" in line or "DispatchKeySet" in line or "GuardManager" in line for line in body
    )
    state = re.search(r'"default_dtype":(\d+)', "".join(raw))
    assert state is not None and state[1] == "6"  # float32 in c10's ScalarType numbering
    assert any("default_dtype=6 (torch.float32)" in line for line in body if line.startswith("GLOBAL_STATE: "))
    tensor = next(line for line in raw if "+- TENSOR_MATCH: check_tensor(L['x']" in line)
    size = re.search(r"size=\[[^\]]*\], stride=\[[^\]]*\]", tensor)
    assert size is not None and any(
        line.startswith("TENSOR_MATCH: L['x']: Tensor") and size[0] in line for line in body
    )


def test_a_grep_of_a_guard_tree_reads_the_compact_leaves(run: Run) -> None:
    raw = _payload("dynamic", "dynamo_cpp_guards_str")
    code, out, err = run("evidence", str(CAPTURES / "dynamic"), "--kind", "dynamo_cpp_guards_str", "--format", "json")
    ev = json.loads(out)["items"][0]["id"]
    code, out, err = run("evidence", str(CAPTURES / "dynamic"), ev, "--grep", r"L\['x'\]", "--max-matches", "50")
    assert code == 0, err
    assert "in the record shown compact" in err
    leaves = [line for line in raw if re.search(r"\+- [A-Z_]+: .*L\['x'\]", line)]
    marks = [line for line in leaves if "DIMENSION_DYNAMIC_MARKING_GUARD" in line]
    assert f"{len(leaves) - len(marks) + len(marks) // 5} match(es)" in err
    assert "DispatchKeySet" not in out
    # A pattern only the record as written holds is searched there.
    code, out, err = run("evidence", str(CAPTURES / "dynamic"), ev, "--grep", "DispatchKeySet")
    assert code == 0 and "compact" not in err and "DispatchKeySet" in out


def test_inductors_module_keeps_its_kernels_and_call(run: Run) -> None:
    raw = _payload("cache_cold", "inductor_output_code")
    harness = next(i for i, line in enumerate(raw) if line.startswith("def get_args():"))
    kernel_lines = [line.strip() for line in raw if re.match(r"^\s+auto tmp\d+ = ", line)]
    calls = [
        line.strip() for line in raw[:harness] if re.match(r"^\s+(?:extern_kernels\.|cpp_fused_\w+\(|return )", line)
    ]
    assert kernel_lines and calls and any(line.startswith("import ") for line in raw)
    shown = _excerpt(run, "cache_cold", "inductor_output_code")
    assert shown["compact"].startswith("Inductor's module compact")
    body = [line.strip() for line in shown["text"].split("\n")[1:]]
    got = [line for line in body if re.match(r"^auto tmp\d+ = ", line)]
    assert [line.split(" = ")[0] for line in got] == [line.split(" = ")[0] for line in kernel_lines]
    # what a kernel line computes is kept: its constants and operators (the casts of literals and indices dropped)
    assert [re.findall(r"[-+*/?:]|\d+\.\d+", line) for line in got] == [
        re.findall(r"[-+*/?:]|\d+\.\d+", re.sub(r"static_cast<int64_t>", "", line)) for line in kernel_lines
    ]
    assert [line for line in body if re.match(r"^(?:extern_kernels\.|cpp_fused_\w+\(|return )", line)] == calls
    assert not any(
        line.startswith(("import ", "from ", "def get_args", "def benchmark_compiled_module")) for line in body
    )


def test_a_filter_that_names_one_record_shows_it(run: Run) -> None:
    """inductor_heads compiled one graph under Inductor: one `inductor_output_code` record (its raw log holds one),
    so `evidence REF --kind inductor_output_code` shows that module, compact, not a one-line index; a kind with
    several records lists them."""
    assert len(_payload_heads("inductor_heads", "inductor_output_code")) == 1
    code, out, err = run(
        "evidence", str(CAPTURES / "inductor_heads"), "--kind", "inductor_output_code", "--max-chars", "100000"
    )
    assert code == 0, err
    kernels = [
        line.split(" = ", 1)[0]
        for line in _payload("inductor_heads", "inductor_output_code")
        if " = async_compile." in line
    ]
    assert kernels and all(f"{k}(" in out for k in kernels)
    assert "inductor_output_code 0/0 at raw/" in err and "sha256 verified" in err
    code, out, err = run("evidence", str(CAPTURES / "dynamic"), "--kind", "dynamo_output_graph")
    assert code == 0, err
    n = len(_payload_heads("dynamic", "dynamo_output_graph"))
    assert n > 1 and f"evidence 1-{n} of {n}" in err and len(out.splitlines()) == n


def _payload_heads(name: str, kind: str) -> list[str]:
    (raw,) = (CAPTURES / name / "raw").glob("*.log")
    return [
        line
        for line in raw.read_text(encoding="utf-8").split("\n")
        if not line.startswith("\t") and f'{{"{kind}"' in line
    ]


def test_a_long_signature_is_an_input_a_line(run: Run) -> None:
    """llama_213's graph takes its token ids and every weight: its `def forward(self, ...)` line, thousands of
    characters, is shown an input a line, so a grep of one parameter's name finds its own line."""
    raw = _payload("llama_213", "dynamo_output_graph")
    (signature,) = [line for line in raw if line.lstrip().startswith("def forward(self, ")]
    names = re.findall(r"(\w+): \"", signature)
    assert len(signature) > 1000 and len(names) > 10
    text = _excerpt(run, "llama_213", "dynamo_output_graph")["text"]
    lines = [line.strip() for line in text.splitlines()]
    start = lines.index("def forward(")
    assert [line.split(":", 1)[0] for line in lines[start + 1 : start + 1 + len(names)]] == names
    assert lines[start + len(names) + 1] == "):"
    weight = next(n for n in names if "embed_tokens" in n)
    code, out, err = run("evidence", str(CAPTURES / "llama_213"), "--kind", "dynamo_output_graph", "--grep", weight)
    assert code == 0, err
    assert f"{weight}: f32[64, 16]," in out


def test_a_dicts_manager_is_kept_as_the_check_it_makes(run: Run) -> None:
    """optimizer_state: SGD's `state` is a dict of per-parameter dicts; torch's DictGuardManager of each checks its
    length and runs a key and a value manager per position. The compact tree keeps each dict manager as a line of
    its own (`DICT_MANAGER: L['self'].state: ...`), drops the pair and key/value manager lines, and keeps every
    leaf."""
    heads = _payload_heads("optimizer_state", "dynamo_cpp_guards_str")
    nth = next(
        i
        for i in range(len(heads))
        if "DictGuardManager: source=L['self'].state,"
        in "\n".join(_payload("optimizer_state", "dynamo_cpp_guards_str", i))
    )
    raw = _payload("optimizer_state", "dynamo_cpp_guards_str", nth)
    sources = re.findall(
        r"\+- (?:(?:Key|Value)Manager: )?DictGuardManager: source=(.+?), (?:accessed_by=|type=)", "\n".join(raw)
    )
    assert sources and "L['self'].state" in sources
    leaves = [m[1] for line in raw if (m := re.search(r"\+- (EQUALS_MATCH|TENSOR_MATCH|DICT_CONTAINS):", line))]
    text = _excerpt(run, "optimizer_state", "dynamo_cpp_guards_str", nth=nth)["text"]
    said = [line.strip() for line in text.splitlines()]
    for src in sources:
        assert f"DICT_MANAGER: {src}: its length and each key at its position (the pairs below)" in said
    assert not any("KeyValueManager" in line or "GuardManager:" in line for line in said)
    for kind in set(leaves):
        assert sum(line.startswith(f"{kind}:") for line in said) == leaves.count(kind)


def test_two_records_diff_as_shown(run: Run) -> None:
    """`evidence A ID --diff B:ID2`: edit_v1's and edit_v2's first graph of `forward` (their oracles: relu, mul
    against relu, mul, mul, mul, sub, mul, add): the diff's `-` lines are v1's compact record's, its `+` lines v2's,
    and v2's extra `sub` and `add` are among the added lines; a record against itself is the same."""
    ops = {
        n: json.loads((CAPTURES / n / "oracle.json").read_text(encoding="utf-8"))["backend_graphs"][0]["ops"]
        for n in ("edit_v1", "edit_v2")
    }
    assert ops["edit_v1"] == ["relu", "mul"] and {"sub", "add"} <= set(ops["edit_v2"])
    records = {n: _excerpt(run, n, "dynamo_output_graph") for n in ("edit_v1", "edit_v2")}
    v1, v2 = (records[n]["evidence"]["id"] for n in ("edit_v1", "edit_v2"))
    code, out, err = run("evidence", str(CAPTURES / "edit_v1"), v1, "--diff", f"{CAPTURES / 'edit_v2'}:{v2}")
    assert code == 0, err
    lines = out.splitlines()
    assert (
        lines[0].startswith("--- ") and lines[1].startswith("+++ ") and "dynamo_output_graph, compile 0/0" in lines[0]
    )
    removed = [x[1:] for x in lines[2:] if x.startswith("-")]
    added = [x[1:] for x in lines[2:] if x.startswith("+")]
    assert removed and added
    assert set(removed) <= set(records["edit_v1"]["text"].splitlines())
    assert set(added) <= set(records["edit_v2"]["text"].splitlines())
    assert any(" - " in x or "sub" in x for x in added) and any(" + " in x or "add" in x for x in added)
    assert "line(s) differ" in err
    code, out, err = run("evidence", str(CAPTURES / "edit_v1"), v1, "--diff", v1)
    assert code == 0 and out == "" and "the same" in err
    code, out, err = run(
        "evidence", str(CAPTURES / "edit_v1"), v1, "--diff", f"{CAPTURES / 'edit_v2'}:{v2}", "--format", "json"
    )
    assert code == 0, err
    doc = json.loads(out)
    assert doc["kind"] == "evidence_diff" and doc["lines"] == lines and doc["lines_differ"] == len(removed + added)
    code, out, err = run("evidence", str(CAPTURES / "edit_v1"), v1, "--diff", "not-an-id")
    assert code == 2 and "invalid_argument" in err


def test_a_compact_records_first_line_is_its_json_without_the_ids_its_heading_says(run: Run) -> None:
    """The raw record's first line is torch's glog prefix and its JSON (kind, frame and compile ids, the payload's
    md5); shown compact it is the JSON alone, less what the heading says (compile id, attempt 0, md5)."""
    raw = [json.loads(line[line.index("{") :]) for line in _payload_heads("failed_between", "aot_forward_graph")]
    assert raw and all(m.get("has_payload") and "frame_id" in m for m in raw)
    assert all(not line.startswith("{") for line in _payload_heads("failed_between", "aot_forward_graph"))
    code, out, err = run(
        "evidence", str(CAPTURES / "failed_between"), "--kind", "aot_forward_graph", "--format", "json"
    )
    assert code == 0, err
    for entry in json.loads(out)["items"]:
        code, out, err = run("evidence", str(CAPTURES / "failed_between"), entry["id"], "--format", "json")
        assert code == 0, err
        first = json.loads(out)["text"].split("\n", 1)[0]
        assert json.loads(first) == {"aot_forward_graph": {}}, first

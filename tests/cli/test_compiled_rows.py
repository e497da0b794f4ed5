"""Rows name what the user compiled, and rows of several ranks say their counts are sums, as a user reads them.

The fixtures: llama_213 / llama_214 (a transformers LlamaForCausalLM compiled at module level; Dynamo compiles
transformers' wrapper of its forward), ddp_ranks (a DistributedDataParallel-wrapped Net compiled and run by a
worker function, 2 ranks), wrapped_call (a compiled nn.Sequential called through a decorator of the workload's
own), two_ranks (rank 0 compiles once, rank 1 three times), library_frames (functions handed a compiled model).
Every expected name, line and count comes from the workloads' oracles and their source text, never from our
analyser."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path
from typing import Any

from dynamo_diff_schema import validate

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "fixtures/captures"


def oracle(name: str) -> dict[str, Any]:
    return dict(json.loads((CAPTURES / name / "oracle.json").read_text()))


def line_of(capture: str, script: str, text: str) -> int:
    """The first line that contains `text` of the workload as it ran (the capture's snapshot of it)."""
    lines = (CAPTURES / capture / "sources/fixtures/workloads" / script).read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def at(where: str) -> int:
    """The line of an oracle's 'file.py:N'."""
    return int(where.rsplit(":", 1)[1])


def markdown_row(out: str, label: str) -> list[str]:
    """The cells of the markdown table row that starts with (or, after the match column, holds) `label`."""
    row = next(line for line in out.splitlines() if line.startswith("|") and f"| {label} |" in line)
    return [cell.strip() for cell in row.strip("|").split(" | ")]


def llama() -> tuple[str, int, list[int]]:
    """(the target's name, the torch.compile line, the lines of the two calls) of the llama workload."""
    forward = oracle("llama_213")["forward_code"]
    calls = [
        line_of("llama_213", "llama_upgrade.py", "out = compiled(input_ids=ids, labels=ids)"),
        line_of("llama_213", "llama_upgrade.py", "    compiled(input_ids=ids)"),
    ]
    return forward["qualname"], line_of("llama_213", "llama_upgrade.py", "compiled = torch.compile(model"), calls


def test_a_torch_upgrade_of_a_library_model_is_one_row_named_by_the_model(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The user compiled LlamaForCausalLM at module level; Dynamo compiled transformers' wrapper of its forward
    (the oracle's forward_code: `wrapped_func` in transformers/utils/deprecation.py, whose __qualname__ is
    LlamaForCausalLM.forward). One matched row in every format, named by the model, its frames pieces of it."""
    name, compile_line, calls = llama()
    forward = oracle("llama_213")["forward_code"]
    label = f"{name} (compiled at llama_upgrade.py:{compile_line})"
    base, cand = str(CAPTURES / "llama_213"), str(CAPTURES / "llama_214")
    code, out, err = run("compare", base, cand, "--change", "torch_version", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    validate(doc, "comparison")
    (row,) = doc["functions"]
    assert row["status"] == "matched"
    for side, fixture in (("baseline", "llama_213"), ("candidate", "llama_214")):
        shown = row[side]
        assert (shown["qualified_name"], shown["name_from"], shown["line"]) == (name, "compiled", compile_line)
        assert shown["file"].endswith("llama_upgrade.py")
        assert (
            shown["counts"]["observed_compilation_identities"] == oracle(fixture)["compilations_by_caller"]["<module>"]
        )
    assert [p["name"] for p in row["pieces"]] == [forward["co_name"]] * 2
    assert {p["library_file"] for p in row["pieces"]} == {forward["co_filename"]}
    assert sorted(p["baseline"]["called_at"] for p in row["pieces"]) == calls
    code, out, _ = run("compare", base, cand, "--change", "torch_version", "--format", "markdown")
    cells = markdown_row(out, label)
    assert cells[0] == "matched (name)" and cells[2] == "2"  # compiles: both oracles say 2 graphs from <module>
    assert (
        f"{forward['co_name']} in {forward['co_filename']}:{forward['co_firstlineno']}, called at line {calls[0]}"
        in cells[-1]
    )
    assert "<module> (llama_upgrade.py)" not in out
    code, out, _ = run("compare", base, cand, "--change", "torch_version")
    assert code == 0 and "LlamaForCausalLM.forward" in out and "<module> (llama_upgrade.py)" not in out
    page = tmp_path / "llama.html"
    assert run("compare", base, cand, "--change", "torch_version", "--format", "html", "-o", str(page))[0] == 0
    assert html.escape(label) in page.read_text() or label in html.unescape(page.read_text())


def test_analyze_names_the_compiled_model_and_so_does_a_bare_trace(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """`analyze` of the bundle: the observer saw `torch.compile(LlamaForCausalLM)` at its line. Its raw trace
    alone: the guard tree of the compiled frame gives the module's class (args[0] of the decorator's wrapper), and
    no torch.compile line is known."""
    name, compile_line, calls = llama()
    code, out, err = run("analyze", str(CAPTURES / "llama_213"), "--format", "markdown")
    assert code == 0, err
    cells = markdown_row(out, f"{name} (compiled at llama_upgrade.py:{compile_line})")
    assert cells[2:4] == ["2", "1"]  # compiles, recompiles: the oracle's two graphs, one grad-mode recompile
    assert all(f"called at line {line}" in cells[1] for line in calls)
    code, out, _ = run("analyze", str(CAPTURES / "llama_213"), "--by-function", "--format", "json")
    report = json.loads(out)
    validate(report, "run_report")
    (fn,) = report["functions"]
    assert (fn["name"], fn["compiled"], fn["line"]) == (name, True, compile_line)
    for fixture in ("llama_213", "llama_214"):  # torch 2.13.0 and 2.14.1 write the guard tree alike
        shutil.copytree(CAPTURES / fixture / "raw", tmp_path / fixture)
        code, out, _ = run("analyze", str(tmp_path / fixture), "--format", "markdown")
        assert code == 0
        compiles = oracle(fixture)["compilations_by_caller"]["<module>"]
        assert markdown_row(out, f"{name} (compiled, called in llama_upgrade.py)")[2] == str(compiles)


def test_a_ddp_job_names_the_wrapped_model_and_says_its_counts_are_per_rank_sums(run) -> None:  # type: ignore[no-untyped-def]
    """A worker builds DistributedDataParallel(Net()), compiles it and runs it. The library frames Dynamo compiled
    for that call (torch's `inner`, contextlib's helper and __init__, a resume function) are one row named by what
    was compiled, not by the worker; Net.forward, the user's own code, is its own row. Both ranks compiled the same:
    the counts say so."""
    data = oracle("ddp_ranks")
    ranks = data["ranks"]
    assert len(ranks) == data["world_size"] == 2
    compiled = ranks["0"]["compiled"]
    name = f"{compiled['target']}({compiled['module']}).forward"
    library = [[c for c in r["compilations"] if c["user_caller"] is not None] for r in ranks.values()]
    assert all(c["user_caller"] == f"Line: {at(compiled['call'])}, Name: worker" for lib in library for c in lib)
    per_rank = {len(lib) for lib in library}
    breaks = {r["graph_break_counters"] for r in ranks.values()}
    assert len(per_rank) == len(breaks) == 1  # the same on both ranks
    n, b = per_rank.pop(), breaks.pop()
    # The only frame of the workload's own file that compiled is Net.forward, once per rank with no resume
    # function: every break is in the library frames.
    own = [[c for c in r["compilations"] if c["user_caller"] is None] for r in ranks.values()]
    assert all([c["co_name"] for c in o] == ["forward"] for o in own)
    code, out, err = run("analyze", str(CAPTURES / "ddp_ranks"), "--format", "markdown")
    assert code == 0, err
    cells = markdown_row(out, f"{name} (compiled at ddp_ranks.py:{at(compiled['compile_call'])})")
    assert cells[2] == f"{2 * n} ({n} per rank x 2)" and cells[4] == f"{2 * b} ({b} per rank x 2)"
    assert "worker (ddp_ranks.py)" not in out
    for frame in {c["co_name"] for c in library[0]}:
        assert re.search(rf"\b{re.escape(frame)} \([^)]*, called at line {at(compiled['call'])}\)", cells[1]), frame
    forward = own[0][0]
    cells = markdown_row(out, f"Net.forward (ddp_ranks.py:{forward['co_firstlineno']})")
    assert cells[2] == "2 (1 per rank x 2)" and cells[4] == "0"
    code, out, _ = run("analyze", "ddp_ranks", "--by-function")
    line = next(x for x in out.splitlines() if x.startswith(name))
    assert f"compilations {2 * n} ({n} per rank x 2), graph breaks {2 * b} ({b} per rank x 2)" in line
    assert "  rank 0 0/0 inner" in out and "  rank 1 0/0 inner" in out  # each compilation says its rank
    code, out, _ = run("analyze", "ddp_ranks", "--by-function", "--format", "json")
    report = json.loads(out)
    validate(report, "run_report")
    fn = next(f for f in report["functions"] if f["name"] == name)
    assert fn["compiled"] and fn["ranks_summed"] == 2 and fn["per_rank"] == {}
    assert fn["counts"]["observed_compilation_identities"] == 2 * n


def test_a_call_through_the_users_own_decorator_is_named_by_what_it_wraps(run) -> None:  # type: ignore[no-untyped-def]
    """`timed(torch.compile(seq))`: the nearest user frame is the decorator's wrapper, calling the `fn` it closed
    over; the row is the Sequential."""
    data = oracle("wrapped_call")
    compiled = data["compiled"]
    code, out, err = run("analyze", str(CAPTURES / "wrapped_call"), "--format", "markdown")
    assert code == 0, err
    cells = markdown_row(
        out, f"{compiled['module']}.forward (compiled at wrapped_call.py:{at(compiled['compile_call'])})"
    )
    assert cells[2] == str(data["compilations_by_caller"]["wrapper"])
    assert f"called at line {at(compiled['call'])}" in cells[1]
    assert "wrapper (wrapped_call.py)" not in out


def test_a_no_grad_function_called_from_the_top_level_is_named_by_itself(run) -> None:  # type: ignore[no-untyped-def]
    """no_grad_function: `torch.compile(ema)` of a `@torch.no_grad()` function, called from the script's top level.
    torch compiles its own wrapper frame (`inner`, in torch's file) and its stack names no caller; the row is the
    function the workload compiled, at its torch.compile line (read from the workload's source), not `inner`."""
    compile_line = line_of("no_grad_function", "no_grad_function.py", "update = torch.compile(ema")
    assert oracle("no_grad_function")["calls"] == 3 and len(oracle("no_grad_function")["backend_graphs"]) == 1
    code, out, err = run("analyze", str(CAPTURES / "no_grad_function"), "--by-function")
    assert code == 0, err
    head = f"ema (compiled at no_grad_function.py:{compile_line}): compilations 1; frames: inner"
    assert f"{head} (torch/_dynamo/external_utils.py:" in out
    assert "inner (external_utils.py" not in out


def test_functions_handed_a_compiled_model_stay_the_rows(run) -> None:  # type: ignore[no-untyped-def]
    """library_frames: train_step, evaluate and predict are the user's functions that call a model compiled
    elsewhere (in body): their rows keep their names."""
    code, out, _ = run("analyze", str(CAPTURES / "library_frames"), "--format", "markdown")
    assert code == 0
    for caller, n in oracle("library_frames")["compilations_by_caller"].items():
        assert markdown_row(out, f"{caller} (library_frames.py)")[2] == str(n)
    assert "compiled at" not in out


def test_rows_of_several_ranks_say_how_their_sums_split(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """two_ranks: rank 0 compiled f once, rank 1 three times (two recompiles). A row reads the sum and each rank's
    value, in every format and in the gate's lines; JSON keeps the sum beside each rank's value."""
    data = oracle("two_ranks")
    per = {rank: r["expect"] for rank, r in data["ranks"].items()}
    compiles = {rank: e["compilations"] for rank, e in per.items()}
    recompiles = {rank: e.get("recompiles", 0) for rank, e in per.items()}
    assert compiles == data["expect"]["rank_compilations"]

    def split(values: dict[str, int]) -> str:
        return f"{sum(values.values())} (" + ", ".join(f"rank {r}: {v}" for r, v in sorted(values.items())) + ")"

    f_line = line_of("two_ranks", "two_ranks.py", "def f(x):")
    label = f"f (two_ranks.py:{f_line})"
    code, out, _ = run("analyze", str(CAPTURES / "two_ranks"), "--format", "markdown")
    assert markdown_row(out, label)[2:4] == [split(compiles), split(recompiles)]
    base, cand = str(CAPTURES / "two_ranks"), str(CAPTURES / "ddp_ranks")
    code, out, _ = run("compare", base, cand, "--format", "markdown")
    cells = markdown_row(out, label)
    assert cells[0] == "baseline only" and cells[2:4] == [split(compiles), split(recompiles)]
    code, out, _ = run("compare", base, cand)
    assert split(compiles) in out
    code, out, _ = run("compare", base, cand, "--format", "json")
    row = next(r for r in json.loads(out)["functions"] if r["baseline"] and r["baseline"]["qualified_name"] == "f")
    assert row["baseline"]["ranks_summed"] == data["world_size"]
    assert row["baseline"]["counts"]["observed_compilation_identities"] == sum(compiles.values())
    assert row["baseline"]["per_rank"]["observed_compilation_identities"] == compiles
    assert row["baseline"]["per_rank"]["confirmed_recompilation_identities"] == recompiles
    page = tmp_path / "ranks.html"
    assert run("compare", base, cand, "--format", "html", "-o", str(page))[0] == 0
    assert split(compiles) in html.unescape(page.read_text())
    code, out, _ = run("check", cand, base, "--max-new-recompiles", "0")
    assert code == 1 and f"{label}: 0 -> {split(recompiles)}" in out

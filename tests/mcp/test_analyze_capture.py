"""analyze_capture: one run on its own, answered from the workloads' own records (oracle.json), through the
in-memory MCP client."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from dynamo_diff_mcp.budget import RESPONSE_LIMIT

from .conftest import CAPTURES, Session, error_code, size_of, text_of


def oracle(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads((CAPTURES / name / "oracle.json").read_text())


def test_a_failed_compile_says_whether_the_program_went_on(session: Session) -> None:
    """backend_failure: the backend refuses two graphs; under suppress_errors one frame runs eagerly, the other's
    exception reaches the workload (which caught exactly one BackendCompilerFailed)."""
    result = session.call("analyze_capture", capture="captures/backend_failure", full=True)
    page = result.structured_content
    assert page is not None
    failed = {f["report"]["name"]: f["report"] for f in page["functions"] if f["report"]["counts"].get("failed")}
    expect = oracle("backend_failure")
    assert sorted(failed) == sorted(expect["expect"]["failed_functions"])
    then = {name: [c["failure"]["then"] for c in r["compilations"] if c["failure"]] for name, r in failed.items()}
    assert then == {"suppressed": ["ran eagerly (suppress_errors)"], "raised": ["raised into the program"]}
    assert len(expect["exceptions"]) == 1 and expect["exceptions"][0]["type"] == "BackendCompilerFailed"
    text = text_of(result)
    assert (
        "FAILED BackendCompilerFailed" in text
        and "the error reached the program (torch.compile did not suppress it)" in text
    )
    # Functions with problems come first.
    assert [f["report"]["name"] for f in page["functions"]][-1] == "ok"


def test_why_it_recompiled_and_the_limit(session: Session) -> None:
    result = session.call("analyze_capture", capture="captures/recompile_limit", full=True)
    (fn,) = [f["report"] for f in result.structured_content["functions"]]  # type: ignore[index]
    expect = oracle("recompile_limit")["expect"]
    assert fn["counts"]["compiler_limit_events"] == expect["recompile_limit_hits"]
    # A page leaves out what is at its default (no recompile, no limit): `.get`.
    recompiled = [c for c in fn["compilations"] if c.get("recompile")]
    assert [c["recompile"][0]["category"] for c in recompiled] == ["shape"] * expect["recompiles"]
    (limited,) = [c for c in fn["compilations"] if c.get("limit")]
    assert limited["failure"]["then"] == "ran eagerly (recompile limit)" and not oracle("recompile_limit")["exceptions"]
    assert all(g["evidence_id"] for c in recompiled for g in c["recompile"])


def test_where_it_broke_one_function_and_errors(session: Session) -> None:
    result = session.call("analyze_capture", capture="captures/graph_break", function="with_item", full=True)
    (fn,) = [f["report"] for f in result.structured_content["functions"]]  # type: ignore[index]
    assert fn["frames"] == ["with_item", "torch_dynamo_resume_in_with_item_at_18"]
    (gb,) = [b for c in fn["compilations"] for b in c.get("graph_breaks", [])]
    assert gb["gb_id"] == "gb0124" and gb["site"].endswith("graph_break.py:18") and gb["evidence_id"]
    assert (
        error_code(session.call("analyze_capture", capture="captures/graph_break", function="nope"))
        == "unknown_function"
    )


def test_pages_cover_every_function_once(connect: Callable[..., Session]) -> None:
    session = connect()
    seen, offset = [], 0
    while offset is not None:
        page = session.call("analyze_capture", capture="captures/guards", page_size=1, offset=offset).structured_content
        assert page is not None
        assert (page.get("counts") is not None) == (offset == 0)  # the run's totals on the first page only
        seen += [f["index"] for f in page["functions"]]
        offset = page["next_offset"]
    assert seen == list(range(len(seen))) and len(seen) == page["total_functions"]


def test_evidence_is_found_by_function_with_summaries_and_searched_in_one_call(session: Session) -> None:
    """Which setting let `suppressed` run eagerly? The function's records name themselves, and one grep call
    finds the flag inside its 40,000-character compilation_metrics."""
    index = session.call("get_evidence", capture="captures/backend_failure", function="suppressed", full=True)
    items = index.structured_content["items"]  # type: ignore[index]
    assert items and {i["function"] for i in items} == {"suppressed"}
    (metrics,) = [i for i in items if i["kind"] == "compilation_metrics"]
    assert "BackendCompilerFailed" in metrics["summary"]
    found = session.call(
        "get_evidence", capture="captures/backend_failure", evidence_id=metrics["id"], grep="suppress_errors", full=True
    )
    page = found.structured_content  # type: ignore[index]
    assert page["total_matches"] >= 1 and '"config_suppress_errors": true' in page["matches"][0]["lines"][0]
    assert len(text_of(found)) < 2_000
    by_kind = session.call("get_evidence", capture="captures/backend_failure", kind="artifact:dynamo_error", full=True)
    assert {i["kind"] for i in by_kind.structured_content["items"]} == {"dynamo_error"}  # type: ignore[index]


def test_comparison_rows_carry_only_the_counts_that_say_something(session: Session) -> None:
    page = session.call(
        "compare_runs", baseline="captures/edit_v1", candidate="captures/edit_v2", page_size=20, full=True
    ).structured_content
    assert page is not None and len(page["rows"]) == page["total_rows"] == 3 and page.get("page_note") is None
    for entry in page["rows"]:
        row = entry["row"]
        for side in (row.get("baseline"), row.get("candidate")):
            if side is not None:  # a count not listed is 0: none is listed at 0, no compile time
                assert all(side["counts"].values()) and "compile_time_s" not in side["counts"], side["counts"]
        assert all(c["kind"] != "phase_time" for c in row.get("changes", []))
        assert "deltas" not in row and "pieces" not in row  # both sides list the counts; the text names the frames


def test_one_call_imports_a_folder_of_runs_and_suggests_comparing_them(session: Session) -> None:
    result = session.call("import_trace", path="v1_bundles")
    page = result.structured_content
    assert page is not None and page["kind"] == "import_page" and page["folder_of_runs"] and page["total"] == 2
    labels = sorted(r["capture"]["label"] for r in page["captures"])
    assert labels == sorted(p.name for p in (CAPTURES.parent / "v1_bundles").iterdir() if p.is_dir())
    assert page["next_calls"][0].startswith("compare_runs(")


def test_errors_and_suggestions_name_tools_not_cli_commands(session: Session) -> None:
    result = session.call("analyze_capture", capture="no-such-run")
    assert error_code(result) == "unknown_capture" and "import_trace(path=...)" in text_of(result)
    assert result.meta is not None and result.meta["dynamo-diff/error"]["hint"] == {
        "action": "import_first",
        "args": {},
    }
    first = session.call("import_trace", path="captures/edit_v1").structured_content
    result = session.call("analyze_capture", capture="no-such-run")
    assert "list_captures()" in text_of(result) and "dynamo-diff" not in text_of(result)
    assert result.meta is not None and result.meta["dynamo-diff/error"]["hint"]["action"] == "list_captures"
    assert first is not None
    first_id = first["captures"][0]["capture"]["id"]
    assert first["next_calls"] == [f'analyze_capture(capture="{first_id[:12]}")']
    second = session.call("import_trace", path="captures/edit_v2").structured_content
    assert second is not None and second["next_calls"][0].startswith(f'compare_runs(baseline="{first_id[:12]}"')


def test_the_rank_view_groups_every_rank(session: Session) -> None:
    """multi_rank_runtime: 7 ranks (0-4 one run, 5-6 another; corpus index and file sizes). Two behaviour groups
    cover every rank with its counts; rank 0's recompile guard names another object address than ranks 1-4
    (`grep -o "___check_obj_id(fn, [0-9]*)"`), which does not split the group."""
    page = session.call(
        "compare_ranks", capture="corpus/tlparse-tests/multi_rank_runtime", full=True
    ).structured_content
    assert page is not None
    groups = page["ranks"]["groups"]
    assert [(g["rank_ranges"], g["size"], g["representative"]) for g in groups] == [("0-4", 5, 0), ("5-6", 2, 5)]
    assert [g["counts"]["observed_compilation_identities"] for g in groups] == [4, 2]
    assert [d["rank"] for d in page["ranks"]["divergences"]] == [5]
    assert "0" in page["ranks"]["counts"]  # the reference rank; others only where they differ from their group
    assert all(v for g in groups for v in g["counts"].values())


def test_every_count_someone_acts_on_points_to_its_records(session: Session) -> None:
    """recompile_limit: the failed compilation, the limit hit and the two recompilations each name evidence, and
    each id opens (hash-checked) as the record kind that says so."""
    page = session.call("analyze_capture", capture="captures/recompile_limit", full=True).structured_content
    assert page is not None
    (fn,) = [f["report"] for f in page["functions"]]
    evidence = fn["count_evidence"]
    assert set(evidence) >= {"failed", "compiler_limit_events", "confirmed_recompilation_identities"}
    assert len(evidence["confirmed_recompilation_identities"]) == fn["counts"]["confirmed_recompilation_identities"]
    kinds = {}
    for key, ids in evidence.items():
        for evidence_id in ids:
            excerpt = session.call("get_evidence", capture=page["capture"], evidence_id=evidence_id, max_chars=200)
            kinds.setdefault(key, set()).add(excerpt.structured_content["evidence"]["kind"])  # type: ignore[index]
    assert kinds["compiler_limit_events"] == {"compilation_metrics"}
    assert kinds["confirmed_recompilation_identities"] <= {"recompile_reasons", "compilation_metrics"}


def test_rows_name_what_was_compiled_and_say_their_rank_sums(session: Session) -> None:
    """An agent reads the same rows a user does: the Llama upgrade as one row named by the model
    (llama_213/214's oracle: LlamaForCausalLM.forward, compiled from module level), and the counts of a capture of
    two ranks as sums that say how they split (two_ranks: rank 0 compiled f once, rank 1 three times; ddp_ranks:
    each rank compiled Net.forward once)."""
    name = oracle("llama_213")["forward_code"]["qualname"]
    result = session.call(
        "compare_runs",
        baseline="captures/llama_213",
        candidate="captures/llama_214",
        change=["torch_version"],
        full=True,
    )
    assert not result.is_error, text_of(result)
    (row,) = [e["row"] for e in result.structured_content["rows"]]  # type: ignore[index]
    assert row["baseline"]["qualified_name"] == name and row["baseline"]["name_from"] == "compiled"
    assert f"[0] {name} (compiled at llama_upgrade.py:" in text_of(result)
    ranks = oracle("two_ranks")["ranks"]
    compiles = {r: v["expect"]["compilations"] for r, v in sorted(ranks.items())}
    split = f"{sum(compiles.values())} (" + ", ".join(f"rank {r}: {n}" for r, n in compiles.items()) + ")"
    result = session.call("analyze_capture", capture="captures/two_ranks", full=True)
    (fn,) = [f["report"] for f in result.structured_content["functions"]]  # type: ignore[index]
    assert fn["ranks_summed"] == len(ranks) and fn["per_rank"]["observed_compilation_identities"] == compiles
    assert f"compilations {split}" in text_of(result)
    text, offset = "", 0
    while offset is not None:  # every page of rows (the response bound cuts the pages)
        result = session.call(
            "compare_runs", baseline="captures/two_ranks", candidate="captures/ddp_ranks", offset=offset
        )
        text += text_of(result)
        offset = result.structured_content["next_offset"]  # type: ignore[index]
    assert f"compilations {split}" in text
    forward = [c for c in oracle("ddp_ranks")["ranks"]["0"]["compilations"] if c["user_caller"] is None]
    assert len(forward) == 1 and "Net.forward (ddp_ranks.py:" in text and "compilations 2 (1 per rank x 2)" in text


def test_the_cli_facts_reach_the_agent_text(session: Session) -> None:
    """The guard's user line, the graph's dynamic size and an assumed change, in the text an agent reads (the
    shared renderers): expected values from the raw trace and the oracles."""
    raw = "".join(p.read_text(encoding="utf-8") for p in (CAPTURES / "global_guard" / "raw").glob("*.log"))
    assert 'if MODE == "sin":  # ' in raw and "global_guard.py:17 in apply" in raw
    text = text_of(session.call("analyze_capture", capture="captures/global_guard"))
    assert "0/0: G['MODE'] == 'sin' at global_guard.py:17: if MODE == \"sin\":" in text
    text = text_of(session.call("analyze_capture", capture="captures/auto_dynamic_on"))
    assert "dynamic: the graph has symbolic sizes: s77 = L['x'].size()[0] (6 when made)" in text
    on, off = oracle("auto_dynamic_on"), oracle("auto_dynamic_off")
    assert (on["automatic_dynamic_shapes"], off["automatic_dynamic_shapes"]) == (True, False)
    result = session.call("compare_runs", baseline="captures/auto_dynamic_on", candidate="captures/auto_dynamic_off")
    text = text_of(result)
    assert "COMPARABLE, ASSUMING the change under test is dynamo.automatic_dynamic_shapes" in text
    assert 'assumed, not named: compare_runs(change=["dynamo.automatic_dynamic_shapes"])' in text
    assert result.structured_content is not None


def test_a_function_too_big_for_a_page_gets_one_to_itself(session: Session) -> None:
    """ddp_ranks: DDP's forward has more compilations than an ordinary response holds (12,000 characters); the
    default page holds it alone, every compilation whole (up to the paged bound), and names the call for the next
    function. The function's own pages (offset counting its compilations, as each page's last line says) reach the
    same compilations, each one the trace's compilation_metrics records on its rank."""
    raw = {
        int(m.group(1)): set(re.findall(r'"compilation_metrics": \{"compile_id": "([^"]+)"', p.read_text()))
        for p in sorted((CAPTURES / "ddp_ranks" / "raw").glob("*.log"))
        if (m := re.search(r"_rank_(\d+)_", p.name))
    }
    first = session.call("analyze_capture", capture="captures/ddp_ranks", full=True)
    assert size_of(first) > RESPONSE_LIMIT  # it would not have fitted an ordinary page
    (entry,) = first.structured_content["functions"]  # type: ignore[index]
    assert not entry.get("truncated")
    name = entry["report"]["name"]
    whole = [(c.get("rank", 0), c["compile_id"]) for c in entry["report"]["compilations"]]
    assert first.structured_content["next_offset"] == 1  # type: ignore[index]
    assert 'more functions: analyze_capture(capture="' in text_of(first) and "offset=1)" in text_of(first)
    seen: list[tuple[int, str]] = []
    offset, calls = 0, 0
    while offset is not None:
        page = session.call(
            "analyze_capture", capture="captures/ddp_ranks", function=name, offset=offset, page_size=3, full=True
        )
        calls += 1
        (fn,) = [f["report"] for f in page.structured_content["functions"]]  # type: ignore[index]
        seen += [(c.get("rank", 0), c["compile_id"]) for c in fn["compilations"]]
        offset = page.structured_content.get("next_offset")  # type: ignore[union-attr]
        if offset is not None:
            assert 'more compilations: analyze_capture(capture="' in text_of(page)
            assert f'function="{name}", offset={offset})' in text_of(page)
        assert calls <= len(whole)
    assert calls > 1 and seen == whole and len(set(seen)) == len(seen)
    assert all(cid in raw[rank] for rank, cid in seen)


def test_a_value_the_code_pinned_is_said_in_the_text(session: Session) -> None:
    """pinned_index: torch made pos a symbol on each recompile and the indexed write fixed it to that call's value
    (symbolic_shape_specialization in the trace); the text an agent reads says so on the compilation, and the
    suggestion names the line instead of dynamic=True."""
    raw = "".join(p.read_text() for p in sorted((CAPTURES / "pinned_index" / "raw").glob("*.log")))
    pins = [json.loads(s.split("] ", 1)[1]) for s in raw.splitlines() if '{"symbolic_shape_specialization"' in s]
    assert [p["symbolic_shape_specialization"]["value"] for p in pins] == ["1", "2", "3"]
    text = " ".join(text_of(session.call("analyze_capture", capture="captures/pinned_index")).split())
    for p in pins:
        body = p["symbolic_shape_specialization"]
        line = body["user_stack"][-1]["line"]
        assert (
            f"specialized: {body['symbol']} ({body['sources'][0]}) fixed to {body['value']} at pinned_index.py:{line}"
        ) in text
    assert "the change is to pinned_index.py:" in text and "compile with dynamic=True" not in text


def test_a_recompile_says_what_the_new_entry_was_made_for(session: Session) -> None:
    """global_guard.py sets MODE to "sin", then "cos"; cast gets a float32, then a float64 tensor of 5: the new
    entries' own guards (their guard trees in the raw trace) say so next to the failing guard."""
    raw = "".join(p.read_text(encoding="utf-8") for p in (CAPTURES / "global_guard" / "raw").glob("*.log"))
    assert "EQUALS_MATCH: G['MODE'] == 'cos'" in raw and "torch.float64, device=None" in raw
    result = session.call("analyze_capture", capture="captures/global_guard", full=True)
    text = " ".join(text_of(result).split())
    assert "(made for: G['MODE'] == 'cos')" in text
    assert "(made for: L['x']: torch.float64, size=[5], stride=[1])" in text
    guards = [
        g
        for f in result.structured_content["functions"]
        for c in f["report"]["compilations"]  # type: ignore[index]
        for g in c.get("recompile", [])
    ]
    assert sorted(g["made_for"] for g in guards) == [
        ["G['MODE'] == 'cos'"],
        ["L['x']: torch.float64, size=[5], stride=[1]"],
    ]


def test_one_functions_compilations_come_in_one_call(session: Session) -> None:
    """ddp_ranks: DDP's forward has 8 compilations over its two ranks (the trace's compilation_metrics); asked for
    the function alone, one call shows every one (the whole-capture page cuts it)."""
    raw = [
        (int(m.group(1)), cid)
        for p in sorted((CAPTURES / "ddp_ranks" / "raw").glob("*.log"))
        if (m := re.search(r"_rank_(\d+)_", p.name))
        for cid in re.findall(r'"compilation_metrics": \{"compile_id": "([^"]+)"', p.read_text())
    ]
    name = "DistributedDataParallel(Net).forward"
    page = session.call("analyze_capture", capture="captures/ddp_ranks", function=name, full=True)
    assert page.structured_content.get("next_offset") is None  # type: ignore[union-attr]
    (fn,) = [f["report"] for f in page.structured_content["functions"]]  # type: ignore[index]
    seen = {(c.get("rank", 0), c["compile_id"]) for c in fn["compilations"]}
    assert len(seen) == 8 and seen < set(raw)
    assert "more compilations" not in text_of(page)


def test_a_cut_folds_compilations_that_say_the_same_thing_first(tmp_path: Path) -> None:
    """pair_recompile_limit_before: step recompiled at 0/1, 0/2, 0/3 on the Python int n (the trace's guards
    n == 2, 3, 4), then hit the limit at 0/4. Cut to fit, the three like recompiles fold into one note that names the
    one left out and the call that shows it, before any compilation is dropped."""
    from dynamo_diff_mcp import budget
    from dynamo_diff_service import Service

    raw = "".join(p.read_text() for p in (CAPTURES / "pair_recompile_limit_before" / "raw").glob("*.log"))
    assert all(f"n == {v}" in raw for v in (2, 3, 4, 5))
    service = Service.at(tmp_path / "store")
    capture = service.open(str(CAPTURES / "pair_recompile_limit_before")).capture
    (fn,) = service.report(capture).functions
    cut, notes = budget.shrink_function(fn, budget.size(fn) - 1, "c")
    assert [c.compile_id for c in cut.compilations] == ["0/0", "0/1", "0/3", "0/4"]
    assert notes == [
        "0/1..0/3 recompile [value]: n == 2 .. == 4 (3 compilations; the first and last shown, 0/2 left out: "
        'analyze_capture(capture="c", function="step"))'
    ]


def test_which_call_compiled_and_where_the_guarded_global_is_set(session: Session) -> None:
    """global_guard: apply is called from one line of body's loop (its raw dynamo_start stacks, `loc` the line's
    text); the loop sets the global MODE its guard reads, as does the module (the workload's source)."""
    raw = "".join(p.read_text() for p in sorted((CAPTURES / "global_guard" / "raw").glob("*.log")))
    stacks = [json.loads(s) for s in re.findall(r'"dynamo_start": \{"stack": (\[[^\]]*\])', raw)]
    call = stacks[0][-2]
    assert stacks[1][-2] == call and call["loc"] == "o.call(ca, apply, x)"
    source = (CAPTURES / "global_guard" / "sources" / "fixtures/workloads/global_guard.py").read_text()
    sites = [(n, s.strip()) for n, s in enumerate(source.splitlines(), 1) if re.match(r"\s*MODE = ", s)]
    result = session.call("analyze_capture", capture="captures/global_guard", function="apply", full=True)
    text = text_of(result)
    assert f"  called from: global_guard.py:{call['line']} {call['loc']} <- " in text
    set_at = "; ".join(f"global_guard.py:{n} {code}" for n, code in sites)
    assert f"\n    MODE set at: {set_at}\n" in text + "\n"
    (fn,) = [f["report"] for f in result.structured_content["functions"]]  # type: ignore[index]
    assert fn["called_from"][0]["line"] == call["line"]
    (guard,) = [g for c in fn["compilations"] for g in c.get("recompile", [])]
    assert [f["line"] for f in guard["assigned_at"]] == [n for n, _ in sites]


def test_the_loop_that_made_the_call_is_in_the_text_once_and_not_in_the_outline(session: Session) -> None:
    """trial_mode_limit: main's loop over `schedule` calls `out = cmodel(x, mode=mode)` (the raw trace's
    dynamo_start stacks: the innermost run_modes.py frame below forward); its three compilations share that call.
    The lines expected are the fixture's source snapshot's, from `schedule = [` to the call."""
    raw = "".join(p.read_text() for p in sorted((CAPTURES / "trial_mode_limit" / "raw").glob("*.log")))
    stacks = [json.loads(s) for s in re.findall(r'"dynamo_start": \{"stack": (\[[^\]]*\])', raw)]
    (call,) = {next(f["line"] for f in reversed(s[:-1]) if f["filename"] == s[-1]["filename"]) for s in stacks}
    source = (CAPTURES / "trial_mode_limit" / "sources" / "run_modes.py").read_text().splitlines()
    first = next(n for n, s in enumerate(source, 1) if s.strip().startswith("schedule = ["))
    shown = source[first - 1 : call]
    base = min(len(s) - len(s.lstrip()) for s in shown)
    expected = "".join(f"\n      {n} {s[base:]}" for n, s in zip(range(first, call + 1), shown, strict=True))
    result = session.call("analyze_capture", capture="captures/trial_mode_limit")
    text = text_of(result)
    assert f"\n    the loop run_modes.py:{call} runs in:{expected}\n" in text
    assert text.count("runs in:") == 1
    # the outline leaves source lines to the text; the whole document has them
    assert "call_context" not in json.dumps(result.structured_content)
    whole = session.call("analyze_capture", capture="captures/trial_mode_limit", full=True)
    (fn,) = [f["report"] for f in whole.structured_content["functions"]]  # type: ignore[index]
    assert [c["line"] for c in fn["call_context"]["lines"]] == list(range(first, call + 1))


def test_each_compilation_says_the_step_it_started_at(session: Session) -> None:
    """loop_steps: the workload records which compile ids each step of its loop made (its backend's own record)."""
    record = oracle("loop_steps")
    expected = {cid: e for e in record["compiled_at_steps"] for cid in e["compile_ids"]}
    result = session.call("analyze_capture", capture="captures/loop_steps", full=True)
    text = text_of(result)
    for cid, entry in expected.items():
        after = text.split(f"{cid} completed", 1)[1]
        assert f"when it started: step={entry['step']}, rows={entry['rows']}, probe={entry['probe']}" in after
    (fn,) = [f["report"] for f in result.structured_content["functions"]]  # type: ignore[index]
    steps = {c["compile_id"]: c["started_with"]["values"][0] for c in fn["compilations"]}
    assert steps == {cid: {"name": "step", "value": e["step"]} for cid, e in expected.items()}


def test_the_outline_leaves_the_start_values_to_the_text(session: Session) -> None:
    result = session.call("analyze_capture", capture="captures/loop_steps")
    assert "started_with" not in json.dumps(result.structured_content)
    assert "when it started: step=" in text_of(result)


def test_source_true_gives_the_runs_scripts_in_the_same_call(session: Session) -> None:
    """The run's scripts after its report, each whole and numbered as the bundle's snapshot holds it; the
    structured content stays the page's outline (the scripts are text). The report is the same but for the code
    around each call, which the text names by its lines in the script instead of quoting them."""
    plain = text_of(session.call("analyze_capture", capture="captures/loop_skip"))
    result = session.call("analyze_capture", capture="captures/loop_skip", source=True)
    text = text_of(result)
    loop = re.search(r"\n( +)the loop (loop_skip\.py:\d+) runs in:\n((?:\1 +\d+ .*\n)+)", plain)
    assert loop is not None, plain
    first, last = (int(n) for n in re.findall(r"^ +(\d+) ", loop[3], re.M)[:: len(loop[3].splitlines()) - 1])
    named = f"\n{loop[1]}the loop {loop[2]} runs in: lines {first}-{last} of loop_skip.py (the script below)\n"
    assert text.startswith(plain.replace(loop[0], named, 1))
    (snapshot,) = (CAPTURES / "loop_skip" / "sources").rglob("loop_skip.py")
    lines = snapshot.read_text(encoding="utf-8").splitlines()
    width = len(str(len(lines)))
    rel = snapshot.relative_to(CAPTURES / "loop_skip" / "sources")
    numbered = "\n".join(f"{n:>{width}} | {line}" for n, line in enumerate(lines, 1) if line.strip())
    assert f"-- {rel} ({len(lines)} lines)\n{numbered}" in text
    assert lines[first - 1].lstrip().startswith(("for ", "while "))  # the lines named hold the loop's header
    assert "scripts of this run" not in json.dumps(result.structured_content)
    # A function's own page has them too.
    function = session.call("analyze_capture", capture="captures/loop_skip", function="forward", source=True)
    assert f"-- {rel} ({len(lines)} lines)" in text_of(function)

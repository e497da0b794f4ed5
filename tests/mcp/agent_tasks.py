"""The agent task suite: questions a coding agent asks about torch.compile runs, each with the shortest path of
tool calls (MCP) and of CLI commands (for an agent with a shell) that answers it, and what the answer is.

Every expected answer comes from the fixture workloads' own records (oracle.json), never from our analyser. A
question is answered when every `expect` pattern appears in what the calls returned (the text an agent reads,
and the structured result), within `max_calls` calls and `max_chars` characters (the whole results, as JSON).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CAPTURES = FIXTURES / "captures"


def oracle(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CAPTURES / name / "oracle.json").read_text())
    return data


@dataclass(frozen=True)
class Task:
    id: str
    question: str
    calls: list[tuple[str, dict[str, Any]]]  # MCP tool calls, paths relative to fixtures/
    cli: list[list[str]]  # the same through the CLI (paths relative to fixtures/), JSON output
    expect: list[str]  # regular expressions the answer must match
    max_calls: int = 2
    max_chars: int = 12_000
    why: str = ""  # where the expected answer comes from
    tags: list[str] = field(default_factory=list)


def _capture(name: str) -> str:
    return f"captures/{name}"


TASKS: list[Task] = [
    Task(
        "limit",
        "Why did f keep recompiling in recompile_limit, and did it hit the recompile limit?",
        [("analyze_capture", {"capture": _capture("recompile_limit")})],
        [["analyze", _capture("recompile_limit"), "--by-function", "--format", "json"]],
        [
            r"\[shape\]|\"category\": ?\"shape\"",
            r"LIMIT|recompile_limit",
            r"ran (the frame |this call )?eagerly \(recompile limit\)",
        ],
        why=f"oracle: recompile_limit_hits={oracle('recompile_limit')['expect']['recompile_limit_hits']}, "
        "guard kinds size",
    ),
    Task(
        "break_site",
        "Where does with_print break the graph?",
        [("analyze_capture", {"capture": _capture("graph_break"), "function": "with_print"})],
        [["analyze", _capture("graph_break"), "--function", "with_print", "--format", "json"]],
        [re.escape(next(s for s in oracle("graph_break")["expect"]["graph_break_sites"] if s.endswith(":11")))],
        why="oracle: graph_break_sites",
    ),
    Task(
        "raised",
        "In backend_failure, which failed compilation reached the program as an exception?",
        [("analyze_capture", {"capture": _capture("backend_failure")})],
        [["analyze", _capture("backend_failure"), "--by-function", "--format", "json"]],
        [
            # The function `raised` (text: its line, then its compilation's; JSON: before the next function).
            r"\] raised \((?:[^\n]*\n){1,12}[^\n]*the error reached the program"
            r"|\"name\": ?\"raised\"(?:(?!\"name\")[\s\S])*\"then\": ?\"raised into the program\"",
            r"BackendCompilerFailed",
        ],
        why="oracle: exceptions=[BackendCompilerFailed] caught around `raised`",
    ),
    Task(
        "suppressed",
        "Why did `suppressed` not raise although its compile failed?",
        [("analyze_capture", {"capture": _capture("backend_failure"), "function": "suppressed"})],
        [["analyze", _capture("backend_failure"), "--function", "suppressed", "--format", "json"]],
        [r"ran (the frame )?eagerly \(suppress_errors\)"],
        why="workload: torch._dynamo.config.suppress_errors=True around `suppressed`",
    ),
    Task(
        "fullgraph",
        "What failed in fullgraph_error, where in the user's code, and with what type?",
        [("analyze_capture", {"capture": _capture("fullgraph_error")})],
        [["analyze", _capture("fullgraph_error"), "--by-function", "--format", "json"]],
        [
            r"FAILED Unsupported|\"fail_type\": ?\"Unsupported\"",
            re.escape(oracle("fullgraph_error")["expect"]["error_site"]),
        ],
        # (whether it was raised is not in the trace: torch raises an Unsupported only under fullgraph=True, which
        # the trace does not record; the answer says so)
        why="oracle: fail_types=[Unsupported], exceptions=1",
    ),
    Task(
        "guard",
        "Which guard made grad_mode's f recompile?",
        [("analyze_capture", {"capture": _capture("grad_mode")})],
        [["analyze", _capture("grad_mode"), "--by-function", "--format", "json"]],
        [r"grad_mode\]|\"category\": ?\"grad_mode\"", r"GLOBAL_STATE changed: grad_mode"],
        why="oracle: recompile_guard_kinds=[grad_mode]",
    ),
    Task(
        "library_caller",
        "In library_frames, which of the user's functions recompiled because of no_grad?",
        [("analyze_capture", {"capture": _capture("library_frames")})],
        [["analyze", _capture("library_frames"), "--by-function", "--format", "json"]],
        [r"\] evaluate \((?:[^\n]*\n){1,12}[^\n]*recompiled \[grad_mode\]|\"name\": ?\"evaluate\"[\s\S]*grad_mode"],
        why="oracle: compilations_by_caller evaluate=1 (under torch.no_grad)",
    ),
    Task(
        "edit",
        "Did the edit (edit_v1 -> edit_v2) remove gate's recompilation?",
        [("compare_runs", {"baseline": _capture("edit_v1"), "candidate": _capture("edit_v2")})],
        [["compare", _capture("edit_v1"), _capture("edit_v2"), "--format", "json"]],
        [r"gate[^\n]*recompiles (\(confirmed\) )?1 -> 0|\"confirmed_recompilation_identities\": ?-1"],
        why="oracle: recompiles_by_function gate 1 -> 0",
    ),
    Task(
        "break_fix",
        "How many graph breaks did the fix in break_fix remove, and in which function?",
        [("compare_runs", {"baseline": _capture("break_fix_v1"), "candidate": _capture("break_fix_v2")})],
        [["compare", _capture("break_fix_v1"), _capture("break_fix_v2"), "--format", "json"]],
        [r"step[^\n]*graph breaks 2 -> 0|\"graph_break_records\": ?-2"],
        why=f"oracle: graph_breaks {oracle('break_fix_v1')['expect']['graph_breaks']} -> 0",
    ),
    Task(
        "cache",
        "Did the warm Inductor run hit the FX graph cache?",
        [("compare_runs", {"baseline": _capture("inductor_cold"), "candidate": _capture("inductor_warm")})],
        [["compare", _capture("inductor_cold"), _capture("inductor_warm"), "--format", "json"]],
        [r"cache hits 0 -> 2|fx_graph cache: miss 1 -> hit 1|\"hit\": ?1"],
        why="oracle: fx_graph_cache_hits 0 -> 2",
    ),
    Task(
        "ranks",
        "Which rank of two_ranks diverged and recompiled?",
        [("compare_ranks", {"capture": _capture("two_ranks")})],
        [["compare", _capture("two_ranks"), "--ranks", "--format", "json"]],
        [r"rank 1", r"recompile|recompiles"],
        why=f"oracle: first_divergent_rank={oracle('two_ranks')['expect']['first_divergent_rank']}",
    ),
]


def _gb_ids(name: str) -> list[str]:
    """torch's graph-break registry ids in the workload's own counters (the reason texts end in their page)."""
    return sorted({m for reason in oracle(name)["counters"]["graph_break"] for m in re.findall(r"gb\d{4}", reason)})


def _guard(name: str, function: str, index: int = 0) -> str:
    """A failing guard as torch's guard_failures holds it, without its compile id and user-code comment."""
    text: str = oracle(name)["guard_failures"][function][index]
    return text.split(": ", 1)[1].split("  #", 1)[0].strip()


def _expected_size(name: str, function: str, index: int) -> str:
    """A failing size guard of an older entry, said whole (`tensor 'x' size mismatch ... expected 6, actual 10`) or,
    after the same guard of a later entry, as that entry and the size it expected (`0/1 (6)`)."""
    text: str = oracle(name)["guard_failures"][function][index]
    entry, expected = text.split(": ", 1)[0], re.findall(r"expected (\d+),", text)[0]
    grouped = rf"the same guard failed on [^\n]*\b{re.escape(entry)} \({expected}\)"
    return rf"{re.escape(_guard(name, function, index))}|{grouped}"


def _compile_id(name: str, function: str) -> str:
    """The compile id Dynamo was working on when the workload's backend saw `function`'s graph."""
    (graph,) = [g for g in oracle(name)["backend_graphs"] if g["code"]["co_name"] == function]
    return str(graph["compile_id"])


def _expected(name: str, key: str) -> Any:
    return oracle(name)["expect"][key]


# Written from traces the suite was not built from (fixtures recorded for them: data_breaks, global_guard,
# after_failure, after_failure_exit, auto_dynamic_on/off; later trial_hook_after, trial_nt_crash, trial_mode_limit,
# recorded by another session with `dynamo-diff capture`); the same questions are kept for a fresh trial.
HELD_OUT: list[Task] = [
    Task(
        "data_breaks",
        "In data_breaks, which operations break the graph, in which functions, and at which lines?",
        [("analyze_capture", {"capture": _capture("data_breaks")})],
        [["analyze", _capture("data_breaks"), "--by-function", "--format", "json"]],
        [re.escape(site) for site in _expected("data_breaks", "graph_break_sites")]
        + [re.escape(gb) for gb in _gb_ids("data_breaks")]
        + [r"nonzero|Dynamic shape operator", r"tolist"],
        why="oracle: graph_break_sites (line_of the marked lines), counters['graph_break'] (gb0036, gb0109)",
        tags=["held_out"],
    ),
    Task(
        "global_value",
        "In global_guard, what made apply recompile?",
        [("analyze_capture", {"capture": _capture("global_guard"), "function": "apply"})],
        [["analyze", _capture("global_guard"), "--function", "apply", "--format", "json"]],
        [re.escape(_guard("global_guard", "apply")), r"\[value\]|\"category\": ?\"value\""],
        why="oracle: guard_failures['apply'] (the module global MODE changed from 'sin' to 'cos')",
        tags=["held_out"],
    ),
    Task(
        "dtype",
        "In global_guard, which function recompiled because an input's dtype changed, and what did its guard expect?",
        [("analyze_capture", {"capture": _capture("global_guard")})],
        [["analyze", _capture("global_guard"), "--by-function", "--format", "json"]],
        [
            r"\] cast \((?:[^\n]*\n){1,16}[^\n]*"
            + re.escape(_guard("global_guard", "cast"))
            + r"|\"name\": ?\"cast\"[\s\S]*"
            + re.escape(_guard("global_guard", "cast"))
        ],
        why="oracle: guard_failures['cast'] (float32, then float64)",
        tags=["held_out"],
    ),
    Task(
        "went_on",
        "In after_failure, `first` failed to compile. Did the program go on afterwards, and what shows it?",
        [("analyze_capture", {"capture": _capture("after_failure")})],
        [["analyze", _capture("after_failure"), "--by-function", "--format", "json"]],
        [
            r"raised into the program|the error reached the program",
            rf"went on anyway: compilation {re.escape(_compile_id('after_failure', 'second'))} \(second\) started after"
            rf"|\"went_on\": ?true,\s*\"went_on_basis\": ?\"compilation "
            rf"{re.escape(_compile_id('after_failure', 'second'))} \(second\) started after",
        ],
        why="oracle: exceptions=[BackendCompilerFailed] caught, then the backend saw second's graph; exit_code 0",
        tags=["held_out"],
    ),
    Task(
        "did_not_go_on",
        "Did the program in after_failure_exit go on after `first` failed to compile?",
        [("analyze_capture", {"capture": _capture("after_failure_exit")})],
        [["analyze", _capture("after_failure_exit"), "--by-function", "--format", "json"]],
        [
            r"did not go on|\"went_on\": ?false",
            re.escape(
                f"exited with code {_expected('after_failure_exit', 'exit_code')} on an uncaught "
                f"{oracle('after_failure_exit')['exceptions'][0]['type']}"
            ),
        ],
        why="oracle: exit_code 1, exceptions=[BackendCompilerFailed] uncaught, one backend graph (first's)",
        tags=["held_out"],
    ),
    Task(
        "static_shapes",
        "Why does f recompile more in auto_dynamic_off than in auto_dynamic_on, and can the comparison be trusted?",
        [("compare_runs", {"baseline": _capture("auto_dynamic_on"), "candidate": _capture("auto_dynamic_off")})],
        [["compare", _capture("auto_dynamic_on"), _capture("auto_dynamic_off"), "--format", "json"]],
        [
            rf"recompiles \(confirmed\) {_expected('auto_dynamic_on', 'recompiles')} -> "
            rf"{_expected('auto_dynamic_off', 'recompiles')}"
            rf"|\"confirmed_recompilation_identities\": ?"
            rf"{_expected('auto_dynamic_off', 'recompiles') - _expected('auto_dynamic_on', 'recompiles')}\b",
            # The only difference is a setting the user set: taken as the change under test, and said to be assumed.
            r"CONFOUNDED|ASSUMING|\"verdict\": ?\"confounded\"|\"assumed\": ?\[\s*\"dynamo\.automatic_dynamic_shapes",
            r"dynamo\.automatic_dynamic_shapes",
            r"changes which guards dynamic shapes produce",
        ],
        why="oracles: recompiles 1 -> 3; auto_dynamic_off's workload set automatic_dynamic_shapes=False (its note)",
        tags=["held_out"],
    ),
    Task(
        "all_guards",
        "In auto_dynamic_off, f's last recompilation checked every earlier entry: what row counts did each expect?",
        [("analyze_capture", {"capture": _capture("auto_dynamic_off")})],
        [["analyze", _capture("auto_dynamic_off"), "--by-function", "--format", "json"]],
        # The last recompilation's failing guards: the last reason entries torch recorded, one per earlier entry.
        [_expected_size("auto_dynamic_off", "f", -n) for n in (1, 2, 3)],
        why="oracle: guard_failures['f'][-3:] (expected 8, 6 and 4 rows, actual 10)",
        tags=["held_out"],
    ),
    Task(
        "hook_global",
        "In trial_hook_after, why does forward compile on every step?",
        [("analyze_capture", {"capture": _capture("trial_hook_after"), "function": "forward"})],
        [["analyze", _capture("trial_hook_after"), "--function", "forward", "--format", "json"]],
        [
            # Every step recompiled: 6 compilations, 5 recompiles, each on the length of the global list the hook grows.
            rf"compilations {_expected('trial_hook_after', 'compilations')}\b|\"observed_compilation_identities\": ?"
            rf"{_expected('trial_hook_after', 'compilations')}\b",
            re.escape(_guard("trial_hook_after", "forward", 1)),
            re.escape(_guard("trial_hook_after", "forward", 0)),
            rf"{re.escape(_expected('trial_hook_after', 'guard_site'))}[^\n]*ACT_STATS\.append"
            rf"|\"site\": ?\"{re.escape(_expected('trial_hook_after', 'guard_site'))}\","
            r"\s*\"code\": ?\"ACT_STATS\.append",
        ],
        why="oracle (the run's stdout): 6 steps each COMPILED, guard_failures `not G['ACT_STATS']` and "
        "`len(G['ACT_STATS']) == N`, user code serve.py:51 ACT_STATS.append (a forward hook)",
        tags=["held_out"],
    ),
    Task(
        "crash_guard",
        "In trial_nt_crash, which compilation failed, on what guard, and did the program go on?",
        [("analyze_capture", {"capture": _capture("trial_nt_crash")})],
        [["analyze", _capture("trial_nt_crash"), "--by-function", "--format", "json"]],
        [
            r"FAILED TorchRuntimeError|\"fail_type\": ?\"TorchRuntimeError\"",
            re.escape(_guard("trial_nt_crash", "forward")),
            r"did not go on|\"went_on\": ?false",
            re.escape(f"exited with code {_expected('trial_nt_crash', 'exit_code')} on an uncaught TorchRuntimeError"),
        ],
        why="oracle (the run's stdout): step 4 EXCEPTION TorchRuntimeError after guard failure `tensor 'batch.feats' "
        "size mismatch at index 2. expected 16, actual 24`; re-raised, exit code 1",
        tags=["held_out"],
    ),
    Task(
        "limit_went_on",
        "In trial_mode_limit, what happened at the first calib call?",
        [("analyze_capture", {"capture": _capture("trial_mode_limit")})],
        [["analyze", _capture("trial_mode_limit"), "--by-function", "--format", "json"]],
        [
            rf"currently {_expected('trial_mode_limit', 'recompile_limit')}\)",
            r"LIMIT|recompile_limit",
            r"ran (the frame |this call )?eagerly \(recompile limit\)",
            r"the program went on|\"went_on\": ?true",
        ],
        why="oracle (the run's stdout/stderr): recompile_limit=2, step 4 (calib) no new compile, "
        "'[0/2] torch._dynamo hit config.recompile_limit (2)', steps 5-6 ran, exit 0",
        tags=["held_out"],
    ),
    Task(
        "crash_site",
        "In trial_nt_crash, at which line of the user's code did the failed compilation stop?",
        [("analyze_capture", {"capture": _capture("trial_nt_crash")})],
        [["analyze", _capture("trial_nt_crash"), "--by-function", "--format", "json"]],
        [re.escape(_expected("trial_nt_crash", "error_site"))],
        why='stderr: `from user code: File "score.py", line 48, in forward` (self.proj(batch.feats))',
        tags=["held_out"],
    ),
]
TASKS += HELD_OUT


def answered(task: Task, texts: list[str]) -> list[str]:
    """The expected patterns that do not appear in what the calls returned."""
    joined = "\n".join(texts)
    return [p for p in task.expect if re.search(p, joined) is None]

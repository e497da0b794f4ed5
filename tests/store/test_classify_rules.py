"""The counting rules of docs/SEMANTICS.md, each on a minimal record sequence shaped like torch 2.13 writes it."""

from __future__ import annotations

from typing import Any

from dynamo_diff_store.analysis import classify_records, count_compilations
from dynamo_diff_store.reading import CompileKey, Record, Span


class Log:
    def __init__(self) -> None:
        self.records: list[Record] = []

    def add(
        self,
        kind: str,
        body: Any,
        frame: int | None = 0,
        fcid: int | None = 0,
        attempt: int | None = 0,
        payload: str | None = None,
        ca: int | None = None,
    ) -> Log:
        n = len(self.records) + 1
        self.records.append(
            Record(
                kind=kind,
                body=body,
                compile=CompileKey(ca, frame, fcid, attempt),
                rank=None,
                line=n,
                span=Span("t.log", n * 100, 10),
                payload=payload,
                payload_ok=None if payload is None else True,
            )
        )
        return self

    def artifact(self, name: str, payload: str | None, **ids: Any) -> Log:
        return self.add("artifact", {"name": name, "encoding": "string"}, payload=payload, **ids)

    def start(self, **ids: Any) -> Log:
        return self.add("dynamo_start", {"stack": [{"filename": "m.py", "line": 3, "name": "f"}]}, **ids)

    def graph(self, **ids: Any) -> Log:
        return self.add("dynamo_output_graph", {}, payload="    def forward(self):\n        y = torch.sin(x)\n", **ids)

    def metrics(self, ops: int | None = 1, **fields: Any) -> Log:
        ids = {k: fields.pop(k) for k in ("frame", "fcid", "attempt", "ca") if k in fields}
        body = {
            "co_name": "f",
            "co_filename": "m.py",
            "co_firstlineno": 3,
            "graph_op_count": ops,
            "has_guarded_code": True,
            **fields,
        }
        return self.add("compilation_metrics", body, **ids)

    def classify(self):  # type: ignore[no-untyped-def]
        result = classify_records(self.records, rank=None)
        return result.compilations, count_compilations(result.compilations, result.incomplete)


def test_completed_needs_metrics_graph_and_ops() -> None:
    comps, counts = Log().start().graph().metrics(ops=2).classify()
    assert [c.outcome for c in comps] == ["completed"] and counts.completed == 1


def test_failure_wins_over_an_emitted_graph() -> None:
    comps, counts = Log().start().graph().metrics(fail_type="BackendCompilerFailed", fail_reason="boom").classify()
    assert comps[0].outcome == "failed" and counts.failed == 1 and counts.completed == 0


def test_guarded_code_without_graph_is_no_graph_observed() -> None:
    comps, counts = Log().start().metrics(ops=None).classify()
    assert comps[0].outcome == "no_graph_observed" and counts.no_graph_observed == 1


def test_two_terminal_records_for_one_attempt_are_unresolved() -> None:
    comps, counts = Log().start().graph().metrics().metrics().classify()
    assert comps[0].outcome == "unresolved" and counts.unresolved_outcomes == 1


def test_missing_terminal_evidence_is_unknown() -> None:
    comps, counts = Log().start().graph().classify()
    assert comps[0].outcome == "unknown" and counts.unknown_outcomes == 1


def test_an_unfinished_compilation_has_the_location_of_its_dynamo_start() -> None:
    """torch's log_dynamo_start ends the stack with the compiled code object (co_filename, co_firstlineno,
    co_name): a compilation without compilation_metrics has the same location as its finished siblings."""
    comps, _ = Log().start().graph().metrics().start(fcid=1).classify()
    assert [c.outcome for c in comps] == ["completed", "unknown"]
    finished, unfinished = (c.code for c in comps)
    assert unfinished.source == "dynamo_start"
    assert (unfinished.co_filename, unfinished.co_firstlineno, unfinished.co_name) == ("m.py", 3, "f")
    assert (finished.co_filename, finished.co_firstlineno, finished.co_name) == ("m.py", 3, "f")


def test_error_artifact_against_success_metrics_is_unresolved() -> None:
    comps, _ = Log().start().artifact("dynamo_error", "Traceback...\nRuntimeError: x").graph().metrics().classify()
    assert comps[0].outcome == "unresolved"


def test_later_frame_compile_without_evidence_is_not_a_confirmed_recompile() -> None:
    log = Log().start().graph().metrics().start(fcid=1).graph(fcid=1).metrics(fcid=1)
    comps, counts = log.classify()
    assert counts.confirmed_recompilation_identities == 0
    assert counts.additional_frame_compilations == 1 and comps[1].additional_frame_compilation


def test_recompile_confirmed_by_artifact_with_several_guards() -> None:
    reasons = "0/1: tensor 'x' size mismatch at index 0. expected 3, actual 4\n0/0: L['n'] == 2"
    log = Log().start().graph().metrics().artifact("recompile_reasons", reasons, fcid=1).start(fcid=1)
    log.graph(fcid=1).metrics(fcid=1, recompile_reason="0/1: tensor 'x' size mismatch at index 0.")
    comps, counts = log.classify()
    assert counts.confirmed_recompilation_identities == 1 and counts.confirmed_successful_recompilations == 1
    assert counts.guard_reason_entries == 2
    assert [r.category for r in comps[1].recompile.reasons] == ["shape", "value"]


def test_recompile_reason_payload_missing_marks_the_count_incomplete() -> None:
    log = Log().start().graph().metrics().artifact("recompile_reasons", None, fcid=1).start(fcid=1)
    _, counts = log.graph(fcid=1).metrics(fcid=1).classify()
    assert counts.confirmed_recompilation_identities == 1
    assert "guard_reason_entries" in counts.incomplete


def test_recompile_limit_is_a_limit_event_and_a_failure() -> None:
    # torch 2.13: no dynamo_start; metrics fail with Unsupported "Dynamo recompile limit exceeded ...".
    log = Log().start().graph().metrics().artifact("recompile_reasons", "0/0: L['n'] == 1", fcid=1)
    log.metrics(fcid=1, ops=None, fail_type="Unsupported", fail_reason="Dynamo recompile limit exceeded\n ...")
    comps, counts = log.classify()
    assert counts.compiler_limit_events == 1 and counts.failed == 1
    assert comps[1].code.co_name == "f"


def test_restarts_are_attempts_of_one_identity() -> None:
    log = (
        Log()
        .start()
        .artifact(
            "dynamo_graph_break_reason",
            "Graph break in user code at /m.py:5\nGraph Break Reason: x\n For more details ... gb0059.html",
        )
    )
    log.graph(attempt=1).metrics(attempt=1, restart_reasons=["graph break"])
    comps, counts = log.classify()
    assert counts.observed_compilation_identities == 1 and counts.observed_attempts == 2 and counts.restarts == 1
    assert counts.graph_break_records == 1 and counts.unique_graph_break_sites == 1
    assert comps[0].graph_breaks[0].gb_id == "gb0059" and comps[0].graph_breaks[0].site == "/m.py:5"


def test_ids_repeating_after_reset_are_kept_apart_by_order() -> None:
    comps, counts = Log().start().graph().metrics().start().graph().metrics().classify()
    assert [c.compile_id for c in comps] == ["0/0", "0/0#1"]
    assert counts.observed_compilation_identities == 2 and counts.unresolved_outcomes == 0


def test_compiled_autograd_ids_are_part_of_the_identity() -> None:
    comps, counts = Log().start(ca=0).graph(ca=0).metrics(ca=0).start(ca=1).graph(ca=1).metrics(ca=1).classify()
    assert [c.compile_id for c in comps] == ["!0/0/0", "!1/0/0"] and counts.completed == 2

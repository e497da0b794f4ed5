"""How a compilation went and ended: `compilation_metrics` (the forward's, the backward's and the run-time ones)
and the `dynamo_error` artifact; the outcome, failure, limit events and phase times read from them."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from dynamo_diff_schema.code_paths import library_path
from dynamo_diff_schema.compilation import CodeLocation, Failure, LimitEvent, Outcome

from dynamo_diff_store.analysis._facts import Fact
from dynamo_diff_store.analysis._folding import Folding, Identity, RecordKind, body, evidence_only
from dynamo_diff_store.reading import Record, loads_payload

# How torch words a recompile/cache limit hit: 2.13 fails the identity with fail_type 'Unsupported' and a
# reason starting "Dynamo recompile limit exceeded"; older torch used CacheLimitExceeded / cache_size_limit.
_LIMIT = re.compile(
    r"recompile limit exceeded|RecompileLimitExceeded|CacheLimitExceeded|FailOnRecompileLimitHit|"
    r"hit config\.(?:recompile_limit|cache_size_limit|accumulated_recompile_limit)|cache_size_limit reached",
    re.I,
)
# compilation_metrics fields that are phase durations (unit in the name); start/end stamps are not.
_PHASE = re.compile(r"(?:_time_(?:s|us|ms)|_time|duration_us|_compile_time_us)$")
_NOT_PHASE = re.compile(r"^(?:start_time|end_time|start_time_us|end_time_us)$|_time_saved_")

# The frames torch lists under "from user code:" in a dynamo_error text, outermost first.
_FROM_USER_CODE = "from user code:"
_USER_FRAME = re.compile(r'File "([^"]+)", line (\d+), in ')

_CONFIG_FIELDS = frozenset({"dynamo_config", "inductor_config"})
# torch 2.13 writes some phase durations twice, in seconds and in microseconds (the _us ones are the newer names
# of the same measurement: 0.061167 s and 61167 us). Each is kept once: the microsecond twin is dropped when the
# seconds one is there.
_TWINS = {
    "duration_us": "entire_frame_compile_time_s",
    "dynamo_cumulative_compile_time_us": "entire_frame_compile_time_s",
    "aot_autograd_cumulative_compile_time_us": "backend_compile_time_s",
    "inductor_cumulative_compile_time_us": "inductor_compile_time_s",
    "inductor_code_gen_cumulative_compile_time_us": "code_gen_time_s",
    "dynamo_compile_time_before_restart_us": "dynamo_time_before_restart_s",
    "structured_logging_overhead_us": "structured_logging_overhead_s",
    "remote_fx_graph_cache_get_time_us": "remote_fx_graph_cache_get_time_ms",
    "remote_fx_graph_cache_put_time_us": "remote_fx_graph_cache_put_time_ms",
}
# Python traceback frames ('File "...", line N') in failure payloads.
_TRACEBACK_FILE = re.compile(r'^\s*File "(?P<file>[^"\n]+)", line \d+', re.M)


def _metrics_files(rec: Record) -> Iterable[int | str]:
    fields = body(rec)
    return [fields[key] for key in ("co_filename", "fail_user_frame_filename") if isinstance(fields.get(key), str)]


def _error_files(rec: Record) -> Iterable[int | str]:
    return [m.group("file") for m in _TRACEBACK_FILE.finditer(rec.payload or "")]


def _without_config(data: dict[str, Any]) -> dict[str, Any]:
    kept = dict(data)
    for key in _CONFIG_FIELDS:
        kept.pop(key, None)
    return kept


def _read_run_facts(folding: Folding, fields: dict[str, Any]) -> None:
    """The Python and torch versions and the Dynamo and Inductor configuration, from a rank's first metrics that
    carry them."""
    run = folding.run
    if run.python_version is None and isinstance(fields.get("python_version"), str):
        run.python_version = fields["python_version"]
    if run.torch_version is None and isinstance(fields.get("pytorch_version"), str):
        run.torch_version = fields["pytorch_version"]
    for prefix in ("dynamo", "inductor"):
        raw = fields.get(f"{prefix}_config")
        if raw is None or prefix in run.config_seen:
            continue
        try:
            parsed = loads_payload(raw) if isinstance(raw, str) else raw
        except ValueError:
            continue
        if isinstance(parsed, dict):
            run.config_seen.add(prefix)
            for key, value in parsed.items():
                run.config[f"{prefix}.{key}"] = value


def _fold_metrics(folding: Folding, fact: Fact, ident: Identity) -> None:
    _read_run_facts(folding, fact.data)
    # The configuration strings are most of a record (~40 KB in torch 2.13) and are read once per rank
    # (above): keeping them per compilation made memory grow with the trace.
    kept = _without_config(fact.data)
    ident.metrics.append((fact.attempt, kept, folding.evidence(fact, fact.kind, ident)))


def _fold_bwd_metrics(folding: Folding, fact: Fact, ident: Identity) -> None:
    kept = _without_config(fact.data)
    ident.bwd_metrics.append((kept, folding.evidence(fact, fact.kind, ident)))


def _fold_error(folding: Folding, fact: Fact, ident: Identity) -> None:
    ident.errors.append((fact.data or "", folding.evidence(fact, "dynamo_error", ident)))


COMPILATION_METRICS = RecordKind("compilation_metrics", extract=body, fold=_fold_metrics, files=_metrics_files)
BWD_COMPILATION_METRICS = RecordKind(
    "bwd_compilation_metrics", extract=body, fold=_fold_bwd_metrics, files=_metrics_files
)
COMPILATION_METRICS_RUNTIME = RecordKind("compilation_metrics_runtime", fold=evidence_only)
DYNAMO_ERROR = RecordKind(
    "artifact:dynamo_error",
    extract=lambda rec: (rec.payload or "").strip()[-4000:],
    fold=_fold_error,
    files=_error_files,
    compiling=True,
)


def _user_site(errors: list[tuple[str, str]]) -> tuple[str, int] | None:
    """The innermost frame of the user's code (not torch, the standard library or an installed package) among
    those torch lists under "from user code:" in the last dynamo_error that has them."""
    for text, _ in reversed(errors):
        at = text.rfind(_FROM_USER_CODE)
        if at >= 0:
            frames = [(path, int(n)) for path, n in _USER_FRAME.findall(text[at:]) if library_path(path) is None]
            if frames:
                return frames[-1]
    return None


def final_metrics(ident: Identity) -> tuple[dict[str, Any], str | None]:
    """The last compilation_metrics of a compilation (its final attempt's) and its evidence id."""
    return (ident.metrics[-1][1], ident.metrics[-1][2]) if ident.metrics else ({}, None)


def outcome(ident: Identity) -> tuple[Outcome, str, Failure | None, list[LimitEvent]]:
    """Outcome of one identity (docs/SEMANTICS.md, "Outcomes"); returns (outcome, why, failure, limit events)."""
    per_attempt = Counter(attempt for attempt, _, _ in ident.metrics)
    failing = [(fields, ev) for _, fields, ev in ident.metrics if fields.get("fail_type")]
    failing += [(fields, ev) for fields, ev in ident.bwd_metrics if fields.get("fail_type")]
    succeeding = [(fields, ev) for _, fields, ev in ident.metrics if not fields.get("fail_type")]
    limits: list[LimitEvent] = []
    for fields, ev in failing:
        text = f"{fields.get('fail_type')}: {fields.get('fail_reason') or ''}"
        if _LIMIT.search(text):
            limits.append(
                LimitEvent(
                    kind="recompile_limit", message=str(fields.get("fail_reason") or text)[:2000], evidence_id=ev
                )
            )
    failure = None
    if failing or ident.errors:
        fields = failing[-1][0] if failing else {}
        reason = fields.get("fail_reason")
        if reason is None and ident.errors:
            reason = ident.errors[-1][0].splitlines()[-1] if ident.errors[-1][0] else None
        user_file = fields.get("fail_user_frame_filename")
        user_line = fields.get("fail_user_frame_lineno")
        if isinstance(user_file, str) and library_path(user_file) is not None and (site := _user_site(ident.errors)):
            user_file, user_line = site  # torch's innermost frame is its own (nn/modules/linear.py): the user's line
        failure = Failure(
            fail_type=fields.get("fail_type"),
            reason=str(reason) if reason is not None else None,
            user_file=user_file if isinstance(user_file, str) else None,
            user_line=user_line if isinstance(user_line, int) else None,
            suppressed=suppressed if isinstance(suppressed := fields.get("config_suppress_errors"), bool) else None,
            evidence_ids=[e for _, e in failing] + [e for _, e in ident.errors],
        )
    duplicated = [a for a, n in per_attempt.items() if n > 1]
    if duplicated:
        return (
            Outcome.UNRESOLVED,
            f"{per_attempt[duplicated[0]]} compilation_metrics records for attempt {duplicated[0]}",
            failure,
            limits,
        )
    if failure is not None and succeeding and not failing:
        return Outcome.UNRESOLVED, "a dynamo_error artifact and compilation_metrics without fail_type", failure, limits
    if failure is not None:
        return Outcome.FAILED, f"failed: {failure.fail_type or 'dynamo_error'}", failure, limits
    if not succeeding:
        return Outcome.UNKNOWN, "no compilation_metrics record (no terminal evidence)", None, limits
    fields = succeeding[-1][0]
    op_count = fields.get("graph_op_count")
    has_graph = bool(ident.graphs)
    if has_graph and isinstance(op_count, int) and op_count > 0:
        return Outcome.COMPLETED, f"metrics without failure, dynamo_output_graph, {op_count} ops", None, limits
    if not has_graph and not op_count and fields.get("has_guarded_code") is True:
        return Outcome.NO_GRAPH_OBSERVED, "guarded code without a graph or ops (skipped frame)", None, limits
    if has_graph and op_count == 0:
        # The backend was handed a graph that only returns its inputs (fullgraph=True does not let Dynamo skip
        # such a frame): the compilation completed, its graph is empty.
        return (
            Outcome.COMPLETED,
            "metrics without failure, dynamo_output_graph with no ops (an empty graph)",
            None,
            limits,
        )
    if has_graph and op_count is None:
        return Outcome.UNKNOWN, "graph emitted but compilation_metrics has no graph_op_count", None, limits
    if has_graph:
        return Outcome.UNKNOWN, f"graph emitted with graph_op_count={op_count}", None, limits
    return (
        Outcome.UNKNOWN,
        (f"metrics without failure but no graph; has_guarded_code={fields.get('has_guarded_code')!r}"),
        None,
        limits,
    )


# The phase-time keys among a metrics object's keys, by its key tuple: every compilation of a run writes the same
# hundred keys in the same order, so they are sorted out once rather than once per compilation.
_PHASE_KEYS: dict[tuple[str, ...], tuple[str, ...]] = {}


def _phase_keys(keys: tuple[str, ...]) -> tuple[str, ...]:
    known = _PHASE_KEYS.get(keys)
    if known is None:
        known = tuple(k for k in keys if _PHASE.search(k) and not _NOT_PHASE.search(k))
        if len(_PHASE_KEYS) < 256:  # a trace's keys are data: the memo stays small whatever it holds
            _PHASE_KEYS[keys] = known
    return known


def phase_times(final: dict[str, Any]) -> dict[str, float]:
    """Compile-phase times of the final metrics, each quantity once (in seconds when torch writes two units)."""
    phases = {}
    for k in _phase_keys(tuple(final)):
        v = final[k]
        if isinstance(v, int | float) and not isinstance(v, bool):
            phases[k] = float(v)
    for twin, kept in _TWINS.items():
        if twin in phases and kept in phases:
            del phases[twin]
    return dict(sorted(phases.items()))


def start_time(final: dict[str, Any]) -> float | None:
    value = final.get("start_time")
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    return None


def metrics_code(fields: dict[str, Any]) -> CodeLocation | None:
    """Where the compiled code is, as the metrics say."""
    name, filename, line = fields.get("co_name"), fields.get("co_filename"), fields.get("co_firstlineno")
    if not isinstance(name, str) and not isinstance(filename, str):
        return None
    return CodeLocation(
        co_filename=filename if isinstance(filename, str) else None,
        co_name=name if isinstance(name, str) else None,
        co_firstlineno=line if isinstance(line, int) else None,
        source="compilation_metrics",
    )

"""One run read on its own, per source function: what compiled, what recompiled and why, where it broke, what
failed and what happened next, with the evidence ids behind each line. What `analyze_capture` (MCP) and
`dynamo-diff analyze --by-function` (CLI JSON) return; built by dynamo_diff_compare.run_report_view."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from dynamo_diff_schema.base import Model
from dynamo_diff_schema.capture import CompiledStatus, RunStatus
from dynamo_diff_schema.compilation import InductorCode, LastRecord, SideEffect, Specialization, SymbolicSize
from dynamo_diff_schema.manifest import FrameValues
from dynamo_diff_schema.suggestions import Suggestion
from dynamo_diff_schema.version import SCHEMA_VERSION


class CodeLine(Model):
    """A line of the user's program: a frame of a call path, or a line that assigns a guarded name."""

    file: str = Field(
        description="The file: its path as the trace records it (a call path's frame), or the source snapshot's "
        "path (an assignment)."
    )
    line: int | None = None
    function: str | None = Field(None, description="The function the frame runs in (a call path's frame).")
    code: str | None = Field(
        None, description="The line's text (stripped): the trace record's, else the capture's source snapshot's."
    )


class ContextLine(Model):
    """A line of the code around a call (CallContext)."""

    line: int
    code: str = Field(
        description="The line as the source snapshot has it (its comment kept), less the indentation all the "
        "lines shown share."
    )
    skipped: int = Field(
        0,
        ge=0,
        description="Lines of the snapshot left out just before this one (blank lines not counted): the text says "
        "`... (N lines)` there.",
    )


class CallContext(Model):
    """The code around a call path's call, from the capture's source snapshot (parsed with ast, never run): the
    loop it runs in, else the function's lines before it."""

    kind: Literal["loop", "function"] = Field(
        description="'loop': the innermost for/while loop of the frame's function whose body holds the call; "
        "'function': no frame of the call path is in a loop, the lines of the innermost frame's function."
    )
    file: str = Field(description="The source snapshot's path.")
    frame: int = Field(ge=0, description="Which frame of `called_from` it is around (0: the innermost).")
    lines: list[ContextLine] = Field(
        description="In file order: for a loop, the line that defines what a for loop iterates over when that is "
        "a one-line assignment before it (in the function or at module level), the loop's header, then its body's "
        "lines up to and including the call line (at most 10 with the header; when longer, the header and the last "
        "lines before the call, `skipped` saying how many were left out); for a function, its def line and its "
        "lines up to the call (at most 6)."
    )


class GuardLine(Model):
    category: str
    text: str = Field(description="The failing guard as torch printed it (first line, without the user-code comment).")
    site: str | None = Field(
        None,
        description="file:line (the file's name) of the user's line torch attributes the guard to (its user stack "
        "trace, else its comment); None when torch names none (a tensor's dtype or size).",
    )
    code: str | None = Field(None, description="The text of that line, as torch printed it (stripped).")
    guarded: str | None = Field(
        None,
        description="The global, attribute or string key the guard reads, as the report names it: 'MODE' "
        "(G['MODE']), 'top_k' (L['self'].top_k), \"['mode']\" (L['cfg']['mode']); None for a guard on a tensor, "
        "on an argument itself, or through a call or an index.",
    )
    assigned_at: list[CodeLine] = Field(
        default_factory=list,
        description="Where the capture's source snapshots assign `guarded` (`MODE = `, `MODE += `, `obj.top_k = `, "
        "`setattr(obj, 'top_k', ...)`, `d['mode'] = `; a global at module level or in a function that declares it "
        "global), at most 2, the guarded function's file first. [] when none does or the capture has no snapshots.",
    )
    assigned_total: int = Field(0, description="How many such lines the snapshots hold in all.")
    evidence_id: str | None = None
    made_for: list[str] = Field(
        default_factory=list,
        description="What the new cache entry was made for: its own guard(s) on the failing guard's source (the "
        "compilation's GuardReason.made_for, at most 4), e.g. \"G['MODE'] == 'cos'\"; [] when the trace shows none.",
    )
    also_differs_from: str | None = Field(None, description="The older cache entry compared for `also_differs`.")
    also_differs: list[str] = Field(
        default_factory=list,
        description="The other guards whose value differs between that older entry's guard tree and the new one's, "
        "besides this failing guard (the compilation's GuardReason.also_differs, at most 6 texts).",
    )
    also_differs_count: int = Field(0, ge=0, description="How many guards differ in all.")


class BreakLine(Model):
    type: str = Field(description="The graph-break type (or the first line of its reason).")
    gb_id: str | None = Field(None, description="torch's graph-break registry id, e.g. 'gb0059'.")
    operator: str | None = Field(
        None, description="The operator or function the record names ('print', 'Tensor.item'), when it names one."
    )
    hint: str | None = Field(
        None,
        description="torch's first hint that is not a request to report the break to PyTorch (the capture's "
        "graph break keeps every hint), when the record has one.",
    )
    url: str | None = Field(None, description="The page of the graph-break type that torch's record links.")
    site: str | None = Field(None, description="file:line in the user's code.")
    code: str | None = Field(
        None,
        description="The text of that line (stripped): the capture's source snapshot's, else the one torch's break "
        "record gives in its user traceback (a bare trace); None when neither has it.",
    )
    from_user: str | None = Field(
        None,
        description="A break inside library code (torch, an installed package): the user's own line that called into "
        "it, the innermost frame of the break's user traceback in the user's files ('policy.py:19: dist = "
        "Normal(mu, std)'); None when the break is in the user's code or the traceback names no user line.",
    )
    evidence_id: str | None = None


class FailureLine(Model):
    fail_type: str | None = None
    message: str = Field(description="The telling line of torch's failure text.")
    site: str | None = Field(None, description="file:line of the user's code where it failed, when torch says.")
    then: str = Field(
        description="What happened next: 'ran eagerly (recompile limit)', 'ran eagerly (frame skipped)' (a "
        "graph-break record says torch skipped the frame and fell back to eager), 'ran eagerly (suppress_errors)', "
        "'raised into the program' (suppress_errors off, an error torch does not treat as soft) or 'unknown' "
        "(e.g. an Unsupported with no skip record: raised only under fullgraph, which the trace does not record)."
    )
    went_on: bool | None = Field(
        None,
        description="Whether the program went on after the failure: True (a later compilation started, or the run "
        "completed), False (the run exited on this uncaught exception), None (not known).",
    )
    went_on_basis: str | None = Field(
        None,
        description="The evidence `went_on` is read from: 'compilation 1/0 (second) started after it', 'the run "
        "completed (exit code 0); no compilation started after it', 'the run exited with code 1 on an uncaught "
        "BackendCompilerFailed; ...', or why it is not known.",
    )
    went_on_evidence: str | None = Field(
        None, description="The later compilation's first record, when that is the basis."
    )
    evidence_ids: list[str] = Field(default_factory=list)


class CompilationLine(Model):
    compile_id: str
    rank: int | None = Field(None, description="In a capture of several ranks: the rank it compiled on.")
    frame: str = Field(description="The compiled frame: the function itself, a resume function or a library frame.")
    outcome: str
    recompile: list[GuardLine] = Field(default_factory=list, description="Failing guards that made it recompile.")
    graph_breaks: list[BreakLine] = Field(default_factory=list)
    failure: FailureLine | None = None
    limit: str | None = Field(None, description="The compiler limit it hit, if any.")
    restarts: int = Field(0, description="Times Dynamo restarted its analysis (after a graph break).")
    restart_reasons: list[str] = Field(
        default_factory=list,
        description="What restarted it, once each: 'after the graph break', the exception torch named "
        "('TensorifyScalarRestartAnalysis'), else the first line of torch's reason.",
    )
    restarted_graph: str | None = Field(
        None,
        description="What the graph of the attempt its restart replaced held that the kept graph does not "
        "(GraphSummary.discarded): `attempt 0's graph (replaced at the restart) took L_self_w: f64[][], an input "
        "the kept graph has not; ops the kept graph has not: Tensor.item 1 (ev u1-e21)`.",
    )
    reached: LastRecord | None = Field(
        None, description="A compilation that never finished (no compilation_metrics): the last record it got to."
    )
    cache: list[str] = Field(default_factory=list, description="Cache decisions, e.g. 'fx_graph miss'.")
    graph_ops: int | None = None
    graph_op_kinds: list[str] = Field(
        default_factory=list,
        description="What its graph holds, by op, most first: 'getitem 6', 'autograd_function_apply 3', 'linear 1' "
        "(the target's last name, `Tensor.` kept for a method, `module` a submodule call; a higher-order op such as "
        "`tag_activation_checkpoint` is one op, its body not counted), at most 8 (the capture's graph.op_histogram "
        "has every one); [] when it has no graph.",
    )
    graph_inputs: list[str] = Field(
        default_factory=list,
        description="Its graph's inputs as the graph's signature prints them (the capture's graph.inputs): a "
        "float the graph takes as an input, not a constant, is one (`L_scale_: f64[][]`); [] when no graph.",
    )
    graph_inputs_omitted: int = Field(0, ge=0, description="Graph inputs left out (parameters and buffers too).")
    graph_evidence_id: str | None = Field(None, description="Its graph's dynamo_output_graph record.")
    graph_outputs: list[str] = Field(
        default_factory=list,
        description="What its graph returns, in order (`linear: f32[4, 10]`; GraphSummary.outputs); [] when the "
        "trace has no graph of it.",
    )
    graph_constants: list[str] = Field(
        default_factory=list,
        description="The Python floats its graph bakes in (GraphSummary.constants: `mul_ 0.99 x6`); [] when none.",
    )
    graph_literals_changed: list[str] = Field(
        default_factory=list,
        description="The literal arguments of its graph's calls that differ from its frame's previous graph "
        "(GraphSummary.literals, the same call and argument, in order): `pixel_shuffle(arg 1) 2 -> 4`; [] for a "
        "frame's first graph or when none differ.",
    )
    graph_literals_against: str | None = Field(
        None, description="The compile id of the previous graph `graph_literals_changed` compares with."
    )
    backward_compiled: bool | None = Field(
        None,
        description="Whether AOTAutograd's backward graph of it compiled in this run (bwd_compilation_metrics, at the "
        "first .backward() that reached it); None when it has no backward graph.",
    )
    aot_ops: dict[str, int] = Field(
        default_factory=dict,
        description="The ops of the graphs AOTAutograd made of it, by graph: 'forward' and 'backward' (training) or "
        "'inference'; {} when it made none (an eager backend) or the trace has none.",
    )
    aot_op_kinds: dict[str, list[str]] = Field(
        default_factory=dict,
        description="The ATen ops of AOTAutograd's graphs of it, by graph ('forward', 'backward', 'inference'), "
        "most first, the view and layout ops (view, transpose, permute, expand, ...) left out: ['addmm 2', "
        "'native_dropout 1']; {} when it made none or the capture predates them.",
    )
    inductor_code: list[InductorCode] = Field(
        default_factory=list,
        description="What Inductor generated for its graphs (the forward's or inference graph's, then the "
        "backward's): what `call` takes, the frozen weights, the kernels and the library kernels it calls; [] for "
        "another backend.",
    )
    side_effects: list[SideEffect] = Field(
        default_factory=list,
        description="The objects its code changes outside the graph, which torch replays after the graph runs.",
    )
    dynamic: list[SymbolicSize] = Field(
        default_factory=list,
        description="Its graph's symbolic sizes (it is dynamic in them), each with the input and dimension torch "
        "says it stands for: a recompilation's that made it dynamic, a first compilation's under dynamic=True or "
        "mark_dynamic; [] for a static graph.",
    )
    specialized: list[Specialization] = Field(
        default_factory=list,
        description="Symbols torch made and fixed back to one value while tracing, each with the user line that "
        "fixed it; [] when none was.",
    )
    compile_time_s: float | None = None
    guards_on_inputs: list[str] = Field(
        default_factory=list,
        description="What this entry guards on the frame's tensor arguments, from its guard tree (the "
        "compilation's guards.inputs): each argument's dtype, size and stride (None = symbolic), then the symbolic "
        'shape guards on them, e.g. "L[\'x\']: torch.float32, size=[None, 3], stride=[3, 1]", "2 <= '
        "L['x'].size()[0]\"; [] when the trace has no guard tree.",
    )
    guards_on_inputs_omitted: int = Field(0, ge=0, description="Arguments and shape guards left out of the list.")
    guards_on_values_omitted: int = Field(
        0, ge=0, description="Of those, the guards on what the arguments hold (the `guards on values:` line's)."
    )
    guards_evidence_id: str | None = Field(None, description="The guard tree record the list is read from.")
    sizes_accepted: list[str] = Field(
        default_factory=list,
        description="The sizes this entry accepts, of each size its symbolic shape guards name alone (the "
        "compilation's guards.sizes_accepted): \"L['x'].size()[2] 9 and up\", \"L['k'] 2-20\"; [] when none.",
    )
    sizes_related: int = Field(0, ge=0, description="Its shape guards relating several sizes (not tried).")
    called_from: list[CodeLine] = Field(
        default_factory=list,
        description="The call path that started it (the user's frames below the compiled one on its dynamo_start "
        "stack, innermost first, at most 3, each with its line's text: the record's, else the source snapshot's), "
        "only when it is another call than its function's `called_from` (e.g. a recompile from the eval loop; a "
        "resume function's stack that holds a frame more is the same call); [] when the same or not recorded.",
    )
    call_context: CallContext | None = Field(
        None,
        description="The code around that call path's call (CallContext), with `called_from`; None when it says "
        "no call path, or the snapshot has no file or line of it.",
    )
    evidence_ids: list[str] = Field(
        default_factory=list, description="Its main records: dynamo_start, compilation_metrics (list more by id)."
    )
    suggestions: list[Suggestion] = Field(
        default_factory=list,
        description="Next steps for a cause that is this compilation's own (a graph break, a suppressed failure).",
    )
    started_with: FrameValues | None = Field(
        None,
        description="Only in a capture recorded by `dynamo-diff capture`: the innermost user frame with values of "
        "the compilation's `started_with` (the call site; its small scalar locals when Dynamo started it: the loop "
        "step, request, batch); None when not observed.",
    )
    started_outer: FrameValues | None = Field(
        None,
        description="The outermost user frame the observer recorded with values, when it is not `started_with` (a "
        "training loop's step when the compilation started inside the functions it calls).",
    )


class FunctionReport(Model):
    name: str = Field(
        description="Qualified name from the source snapshot, else the code object's name; for a row named by "
        "what the user compiled (`compiled`), that target ('LlamaForCausalLM.forward')."
    )
    file: str | None = None
    line: int | None = None
    compiled: bool = Field(
        False,
        description="Named by what the user compiled (Dynamo compiled library code for a call from module-level "
        "code, from the function that compiled the model, or from a wrapper): `file` and `line` are then where "
        "torch.compile was called (the line None when not known).",
    )
    frames: list[str] = Field(
        default_factory=list,
        description="Frames counted in it (resume and library frames): each frame's name, a library frame's with "
        "where it is ('inner (torch/_dynamo/external_utils.py:67)').",
    )
    called_from: list[CodeLine] = Field(
        default_factory=list,
        description="The call of the program that first compiled it (its first compilation's user frames below the "
        "compiled one on the dynamo_start stack, innermost first, at most 3, each with its line's text: the "
        "record's, else the source snapshot's). A later compilation from another call says its own "
        "(CompilationLine.called_from). [] when the stack is not recorded.",
    )
    call_context: CallContext | None = Field(
        None,
        description="The code around that call: the loop it runs in, else its function's lines before it "
        "(CallContext); None when the source snapshot does not hold it.",
    )
    counts: dict[str, int] = Field(description="Its non-zero counts (in a capture of several ranks, summed).")
    ranks_summed: int | None = Field(
        None,
        description="In a capture of several ranks: how many ranks `counts` sums over (every rank of the capture). "
        "None: one rank.",
    )
    per_rank: dict[str, dict[str, int]] = Field(
        default_factory=dict,
        description="For each count whose value differs between the ranks summed: rank (as text) -> its value. "
        "A count not listed has the same value on every rank.",
    )
    compile_time_s: float = Field(0.0, description="Its compile time (entire_frame_compile_time_s summed).")
    count_evidence: dict[str, list[str]] = Field(
        default_factory=dict,
        description="For the counts someone acts on (failed, confirmed recompilations, graph breaks, limit hits, "
        "restarts): the evidence ids behind them, at most 5 each.",
    )
    compilations: list[CompilationLine] = Field(default_factory=list)
    suggestions: list[Suggestion] = Field(
        default_factory=list,
        description="Next steps computed from all its compilations (what varied between them): a size, dtype, "
        "mode, scalar or object that changed, the recompile limit hit.",
    )


class RunReport(Model):
    kind: Literal["run_report"] = "run_report"
    schema_version: str = SCHEMA_VERSION
    capture: str
    label: str | None = None
    torch: str | None = None
    run: RunStatus
    compiled: CompiledStatus | None = Field(
        None, description="Whether the run compiled anything; said first when it did not (None: not known)."
    )
    counts: dict[str, int] = Field(description="The capture's non-zero counts, summed over ranks.")
    sources_note: str | None = Field(
        None,
        description="Set when the source snapshots the lines shown come from were found beside a bare log at "
        "import, not recorded when it ran (they may differ from what ran): says so and how many files.",
    )
    compile_time_s: float = Field(0.0, description="The run's compile time (entire_frame_compile_time_s summed).")
    phase_times_s: dict[str, float] = Field(
        default_factory=dict, description="That time split into phases (Counts.phase_times_s, COMPILE_PHASES)."
    )
    functions: list[FunctionReport] = Field(default_factory=list)
    suggestions: list[Suggestion] = Field(
        default_factory=list, description="Next steps for the run as a whole (it compiled nothing)."
    )

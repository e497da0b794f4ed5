"""One compilation identity and everything the trace says about it."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Literal

from pydantic import Field

from dynamo_diff_schema.base import Model
from dynamo_diff_schema.manifest import FrameValues

# The settings torch's own modules are built with, as a guard on a submodule names them (`._modules['conv'].stride`):
# the store lists them after the user's values on `guards on values:`, the views count them instead of listing them.
MODULE_SETTING = re.compile(
    r"\._modules\['[^'\n]*'\]\.(?:stride|padding|dilation|groups|kernel_size|normalized_shape|output_padding|"
    r"padding_mode|eps|momentum|affine|track_running_stats|elementwise_affine|inplace|in_features|out_features|"
    r"in_channels|out_channels|num_features|negative_slope|approximate|padding_idx|max_norm|norm_type|"
    r"scale_grad_by_freq|sparse|align_corners|ceil_mode|count_include_pad|return_indices|batch_first|num_layers|"
    r"bidirectional|_reversed_padding_repeated_twice)\b(?![.\[])"
)


class Outcome(StrEnum):
    COMPLETED = "completed"
    FAILED = "failed"
    NO_GRAPH_OBSERVED = "no_graph_observed"
    UNKNOWN = "unknown"
    UNRESOLVED = "unresolved"


class GuardCategory(StrEnum):
    """What kind of guard failed, read from the guard text (never evaluated)."""

    SHAPE = "shape"
    STRIDE = "stride"
    DTYPE = "dtype"
    DEVICE = "device"
    VALUE = "value"
    IDENTITY = "identity"
    ALIASING = "aliasing"
    TYPE = "type"
    REQUIRES_GRAD = "requires_grad"
    GRAD_MODE = "grad_mode"
    GLOBAL_STATE = "global_state"
    SYMBOL = "symbol"
    OTHER = "other"


class CacheName(StrEnum):
    FX_GRAPH = "fx_graph"
    AOTAUTOGRAD = "aotautograd"


class CacheDecision(StrEnum):
    HIT = "hit"
    MISS = "miss"
    BYPASS = "bypass"


class CompileIdentity(Model):
    """Who a compilation is. `occurrence` separates ids that repeat after torch._dynamo.reset()."""

    rank: int | None = None
    compiled_autograd_id: int | None = None
    frame_id: int | None = None
    frame_compile_id: int | None = None
    occurrence: int = Field(0, ge=0, description="0 for the first time this id appears, 1 after a reset, ...")


class StackFrame(Model):
    filename: str
    line: int | None = None
    name: str | None = None
    code: str | None = Field(
        None,
        description="The text of that line as torch's record gives it (stripped): the line under the frame of a graph "
        "break's user traceback; None when the record has none.",
    )


class CodeLocation(Model):
    co_filename: str | None = None
    co_name: str | None = None
    co_firstlineno: int | None = None
    qualified_name: str | None = Field(None, description="Known when a source snapshot allows it.")
    source: str | None = Field(
        None, description="Where the location was read: 'compilation_metrics', 'dynamo_start' or 'frame_id'."
    )
    caller: StackFrame | None = Field(
        None,
        description="When the compiled frame is library code (torch, the standard library, an installed package): "
        "the nearest user frame of the dynamo_start stack (the call in the user's function; `line` is the line of "
        "the call). Rows count the compilation in that function.",
    )
    callers: list[StackFrame] = Field(
        default_factory=list,
        description="The user's frames below the compiled one on the dynamo_start stack, innermost first (at most "
        "4; not torch, the standard library or an installed package): the lines that called the compiled function "
        "(`line` is the line being run in each).",
    )
    callers_evidence: str | None = Field(
        None, description="The dynamo_start record whose stack `callers` was read from."
    )
    entered: Literal["module", "function"] | None = Field(
        None,
        description="When the compiled frame is library code: what the user's call went into, read from the "
        "dynamo_start stack between the user frame and the compiled one: 'module' (a module compiled with "
        "torch.compile: its __call__ in torch/_dynamo/eval_frame.py comes first), 'function' (a function compiled "
        "with torch.compile), None (no torch.compile entry on the stack).",
    )
    compiled_module: str | None = Field(
        None,
        description="On the frame a compiled module's call entered first (nothing but torch's call machinery "
        "between it and the user's call): the module's class as torch's guards on this frame name it (the `fn` "
        "that torch's `inner` wrapper calls; else `self`, or `args[0]` for a decorator's wrapper of a method), "
        "e.g. 'transformers.models.llama.modeling_llama.LlamaForCausalLM'. None when the guards do not say.",
    )


class Attempt(Model):
    attempt: int = Field(ge=0)
    restart_reason: str | None = None
    evidence_ids: list[str] = Field(default_factory=list)


class GuardReason(Model):
    """One failing guard of a recompilation, as torch printed it."""

    text: str
    category: GuardCategory
    evidence_id: str | None = None
    made_for: list[str] = Field(
        default_factory=list,
        description="What the new cache entry was made for: its own guard(s) on the failing guard's source, read "
        "from this compilation's guard tree (dynamo_cpp_guards_str), e.g. \"G['MODE'] == 'cos'\" or, for a "
        "tensor's guard, \"L['x']: torch.float64, size=[5], stride=[1]\"; [] when the tree has none on that source "
        "or is not in the trace.",
    )
    also_differs_from: str | None = Field(
        None,
        description="The older cache entry whose guard failed (the reason's `0/0:`), when its guard tree and this "
        "compilation's were compared for `also_differs`.",
    )
    also_differs: list[str] = Field(
        default_factory=list,
        description="The other guards whose value differs between that older entry's guard tree and this "
        "compilation's, besides the failing guard torch reported (torch reports only the first), compared source "
        "by source (a source guarded in only one tree is left out): tensor dtype, device, requires_grad, size, "
        'stride; `==` values; global-state settings; type and object ids. Like ones grouped ("2 parameters of '
        "L['self']: requires_grad True -> False\"), at most 6 texts; [] when nothing else differs or either tree is "
        "not in the trace.",
    )
    also_differs_count: int = Field(0, ge=0, description="How many guards differ in all (`also_differs` groups them).")


class RecompileEvidence(Model):
    confirmed: bool = Field(description="True only with a recompile_reasons artifact or metrics recompile_reason.")
    reasons: list[GuardReason] = Field(default_factory=list)
    evidence_ids: list[str] = Field(default_factory=list)


class GraphBreak(Model):
    gb_id: str | None = Field(None, description="The 'gbNNNN' id of torch's graph-break registry, when linked.")
    gb_type: str | None = Field(None, description="The graph-break type line of the message, when it has one.")
    reason: str
    explanation: str | None = Field(
        None, description="torch's 'Explanation:' of the break, verbatim; None when the record has none (older torch)."
    )
    hints: list[str] = Field(
        default_factory=list,
        description="torch's 'Hint:' lines, verbatim and in torch's order (generic ones such as 'Please report an "
        "issue to PyTorch.' included); [] when the record has none.",
    )
    operator: str | None = Field(
        None,
        description="The operator, function or method the break is about, when the explanation or the developer "
        "debug context names it: 'print' (builtin operator `print`), 'Tensor.item', 'Logger.set_runtime_stats_"
        "and_log'; None otherwise.",
    )
    url: str | None = Field(
        None, description="The page of the graph-break type that torch's record links ('please visit: ...'), verbatim."
    )
    user_file: str | None = None
    user_line: int | None = None
    user_stack: list[StackFrame] = Field(default_factory=list)
    evidence_id: str | None = None

    @property
    def key(self) -> str:
        """Stable across reworded messages: the registry id, else the type, else the reason's first line."""
        return self.gb_id or self.gb_type or self.reason.split("\n", 1)[0]

    @property
    def site(self) -> str | None:
        if self.user_file is None:
            return None
        return f"{self.user_file}:{self.user_line}" if self.user_line is not None else self.user_file


class Restart(Model):
    reason: str = Field(description="The restart reason as torch's compilation_metrics lists it, verbatim.")
    graph_break: bool = Field(
        False,
        description="The reason is the message of a graph break this compilation records (its type line is the "
        "reason's first line): torch traced the frame again to compile it up to the break.",
    )
    exception: str | None = Field(
        None,
        description="When torch wrote only the type of the exception that restarted the analysis "
        "(\"<class 'torch._dynamo.exc.TensorifyScalarRestartAnalysis'>\"): its class name, "
        "'TensorifyScalarRestartAnalysis'; None otherwise.",
    )
    evidence_id: str | None = None


class LastRecord(Model):
    """How far a compilation that never finished (no compilation_metrics) got: the last record torch wrote for
    its compile id, in file order (timing spans and tensor descriptions, which are not indexed, left out)."""

    kind: str = Field(
        description="Its record kind, an artifact by its name: 'dynamo_output_graph', 'aot_forward_graph'."
    )
    stage: str = Field(
        description="The stage of compiling that record is written in (docs/SEMANTICS.md, 'Unfinished "
        "compilations'): 'dynamo' (tracing the frame), 'backend' (Dynamo's graph handed to the backend), "
        "'aot_autograd', 'inductor', 'guards' (the compiled graph's guards built), or 'unknown'."
    )
    evidence_id: str | None = None


class Failure(Model):
    fail_type: str | None = None
    reason: str | None = None
    user_file: str | None = None
    user_line: int | None = None
    suppressed: bool | None = Field(
        None,
        description="torch's suppress_errors when this compilation failed (config_suppress_errors of its "
        "compilation_metrics): True, torch ran the frame without compiling it and the program went on; False, "
        "suppress_errors was off: torch raised the exception into the program unless it was a recompile-limit hit "
        "or a soft failure (Unsupported, UserError), which torch runs eagerly by skipping the frame outside "
        "fullgraph (docs/SEMANTICS.md, 'After a failure'); None, not recorded.",
    )
    evidence_ids: list[str] = Field(default_factory=list)


class LimitEvent(Model):
    kind: str = Field(description="e.g. 'recompile_limit'.")
    message: str
    evidence_id: str | None = None


class SymbolicSize(Model):
    """A symbolic size of the compiled graph (the graph is dynamic in it): the symbol its `dynamo_output_graph`
    sizes print, and, when this compilation's `create_symbol` record made it, the input and dimension it stands for
    and the size it had then."""

    symbol: str = Field(description="The symbol as torch printed it, e.g. 's77'.")
    source: str | None = Field(
        None, description="What it stands for, as torch wrote it ('L['x'].size()[0]'); None when not recorded here."
    )
    value: str | None = Field(None, description="The size when the symbol was created (torch's `val`).")
    evidence_id: str | None = Field(None, description="The create_symbol record, when there is one.")


class Specialization(Model):
    """A symbol torch made and then fixed to one value while tracing this compilation (its
    `symbolic_shape_specialization` record): the code at `file`:`line` pinned it, so the graph is not dynamic in it
    whatever dynamic=True or mark_dynamic ask."""

    symbol: str = Field(description="The symbol as torch printed it, e.g. 's24'.")
    source: str | None = Field(None, description="What it stands for, as torch wrote it (`L['pos']`).")
    value: str | None = Field(None, description="The value it was fixed to.")
    reason: str | None = Field(None, description="torch's reason, e.g. 'range_refined_to_singleton'.")
    file: str | None = Field(
        None,
        description="The file of the line that fixed it: the innermost frame of the user's own code on the "
        "record's user stack (the innermost frame when none is the user's).",
    )
    line: int | None = Field(None, ge=0, description="That line's number.")
    code: str | None = Field(None, description="That line's text, as the record or the source snapshot gives it.")
    via: str | None = Field(
        None,
        description="The library frame under that line where torch fixed it ('normalization.py:228: return "
        "F.layer_norm('), when the user's line called into torch or a package; None when it is the line itself.",
    )
    evidence_id: str | None = Field(None, description="The symbolic_shape_specialization record.")


class DiscardedGraph(Model):
    """The graph of an attempt whose analysis restarted (AOTAutograd's TensorifyScalarRestartAnalysis: a float made a
    graph input and pinned back to a constant): handed to the backend, then replaced by the next attempt's."""

    attempt: int = Field(ge=0, description="Its attempt (0: the first).")
    op_histogram: dict[str, int] = Field(default_factory=dict)
    inputs: list[str] = Field(
        default_factory=list,
        description="Its inputs as GraphSummary.inputs says them (`L_self_w: f64[][]`: a Python float it took as a "
        "0-d tensor).",
    )
    evidence_id: str | None = Field(None, description="Its dynamo_output_graph record.")


class GraphSummary(Model):
    op_count: int | None = Field(None, ge=0)
    empty: bool = Field(False, description="The graph reached the backend with no ops (e.g. fullgraph, `return x`).")
    op_histogram: dict[str, int] = Field(default_factory=dict)
    inputs: list[str] = Field(
        default_factory=list,
        description="The graph's inputs as its forward's signature prints them, the device left off: "
        '"L_x_: f32[16, 16][1, s89]" (sizes, then strides), "s89: Sym(s89)" (a symbolic size passed in), '
        '"L_scale_: f64[][]" (a Python float the graph takes as a 0-d tensor, not a constant); modules\' '
        "parameters and buffers are not listed; at most 8.",
    )
    inputs_omitted: int = Field(0, ge=0, description="Inputs left out of `inputs` (parameters and buffers too).")
    outputs: list[str] = Field(
        default_factory=list,
        description="What the graph returns, in order, each as its value's annotation prints it, sizes only and the "
        'device left off: "linear: f32[4, 10]", "attn_output_weights: f32[4, 12, 12]"; at most 8.',
    )
    constants: list[str] = Field(
        default_factory=list,
        description='The Python floats the graph bakes in, by op, counted, in order: "mul_ 0.99 x6", '
        '"add_ alpha=0.01", "clamp max=0.5", "* 1.5" (a float literal in an op\'s arguments of its code); [] '
        "when none or more than 6 distinct.",
    )
    literals: list[str] = Field(
        default_factory=list,
        description="Every literal argument of the graph's calls, in order: a positional one by its position, a "
        "keyword one by name, each as the code writes it (`round(decimals)=1`, `pixel_shuffle(arg 1)=4`, "
        "`conv1d(padding)='same'`, `getitem(index)=(slice(None, None, None), slice(0, 3, None))`); what a "
        "recompiled graph bakes in of the value whose guard failed. At most 120.",
    )
    discarded: DiscardedGraph | None = Field(
        None, description="The graph of the last attempt a restart replaced (None: the analysis did not restart)."
    )
    graph_evidence_id: str | None = Field(None, description="The dynamo_output_graph record the graph is read from.")
    symbolic_sizes: list[SymbolicSize] = Field(
        default_factory=list,
        description="The symbols in the sizes of the graph's values (dynamo_output_graph): the graph is dynamic in "
        "them; [] for a graph of static sizes, or when the record prints no sizes.",
    )
    evidence_ids: list[str] = Field(default_factory=list)


class AotSummary(Model):
    """What AOTAutograd made of the graph: forward and backward graphs (training) or one inference graph, and the
    backward's own compilation (compiled lazily, at the first .backward())."""

    forward_op_count: int | None = Field(None, ge=0, description="Ops of aot_forward_graph.")
    backward_op_count: int | None = Field(None, ge=0, description="Ops of aot_backward_graph.")
    inference_op_count: int | None = Field(None, ge=0, description="Ops of aot_inference_graph.")
    forward_ops: dict[str, int] = Field(
        default_factory=dict,
        description="aot_forward_graph's ops by ATen op, overload left off ('native_dropout': 1, 'addmm': 2), most "
        "first, at most 24; {} when there is none (or in captures of older releases).",
    )
    backward_ops: dict[str, int] = Field(default_factory=dict, description="aot_backward_graph's, the same way.")
    inference_ops: dict[str, int] = Field(default_factory=dict, description="aot_inference_graph's, the same way.")
    backward_compiled: bool = Field(False, description="A bwd_compilation_metrics record: the backward compiled.")
    backward_compile_time_s: float | None = Field(
        None, description="inductor_compile_time_s of the backward (bwd_compilation_metrics), when written."
    )
    evidence_ids: list[str] = Field(default_factory=list)


class InductorCode(Model):
    """What Inductor generated for one graph of the compilation (an `inductor_output_code` record: the Python module
    it wrote), read from the module's text and never run."""

    inputs: int | None = Field(
        None,
        ge=0,
        description="The arguments its `call` takes (the names it unpacks from `args`); None when not found.",
    )
    frozen_params: int = Field(
        0,
        ge=0,
        description="Module-level constants `_frozen_param*` (inductor.freezing: the weights folded into the code, no "
        "longer read from the module at each call).",
    )
    kernels: list[str] = Field(
        default_factory=list, description="The kernels it defines (cpp_fused_*, triton_*), in its order, at most 12."
    )
    kernels_total: int = Field(0, ge=0, description="Every kernel it defines.")
    kernel_calls: dict[str, int] = Field(
        default_factory=dict,
        description="How many times `call` runs each kernel of `kernels` (a kernel Inductor reuses for repeated work, "
        "such as a loop over heads, runs several times); 0 where no run was found; {} in captures of older releases.",
    )
    extern_calls: dict[str, int] = Field(
        default_factory=dict,
        description="The calls of `call` to library kernels (`extern_kernels.addmm`: 'addmm'), torch ops "
        "(`torch.ops.mkl._mkl_linear.default`: 'mkl._mkl_linear') and ATen fallbacks (`aten.sort.default`: "
        "'sort'), with how many times it makes each; at most 12.",
    )
    evidence_id: str | None = Field(None, description="The inductor_output_code record.")


class SideEffect(Model):
    """A Python object the compiled code changes outside its graph (a `dynamo_side_effects` record: torch replays
    the change after the graph runs): what it is, how torch names it, and the user's line that changed it."""

    type: str = Field(description="The object's type as torch names it ('dict', 'list', 'Decoder').")
    source: str | None = Field(
        None, description="How torch names it: \"L['self'].debug\", \"G['STATS']\"; None when it has none."
    )
    file: str | None = Field(None, description="The user's file of the innermost user frame that changed it.")
    line: int | None = None
    code: str | None = Field(None, description="That line's text, as torch printed it.")
    sites: int = Field(0, ge=0, description="Distinct user lines that changed it.")
    inside: str | None = Field(
        None,
        description="The library line that made the change, when the innermost frame is not the user's: "
        "'torch/optim/sgd.py:150: state[\"momentum_buffer\"] = momentum_buffer'.",
    )
    evidence_id: str | None = Field(None, description="The dynamo_side_effects record.")


class GuardSummary(Model):
    count: int = Field(ge=0)
    categories: dict[str, int] = Field(default_factory=dict)
    evidence_ids: list[str] = Field(default_factory=list)
    inputs: list[str] = Field(
        default_factory=list,
        description="What this entry guards on the frame's tensor arguments (frame locals L['name'], not attributes "
        "or module parameters), read from its guard tree (dynamo_cpp_guards_str), never evaluated: each argument's "
        "TENSOR_MATCH as \"L['x']: torch.float32, size=[None, 3], stride=[3, 1]\" (None = symbolic; device only "
        "when the tree names one), and each container argument in one item, its elements as the tree checks them "
        "(\"L['frames']: list of 3 [f32[2, 12] x3]\"), at most 6, then the symbolic shape guards naming their "
        "sizes or strides, whole "
        "(\"2 <= L['x'].size()[0]\"), at most 8; each at most 200 characters. [] when the trace has no tree.",
    )
    inputs_omitted: int = Field(0, ge=0, description="Arguments and shape guards left out of `inputs`.")
    values_omitted: int = Field(
        0, ge=0, description="Of `inputs_omitted`, the guards on what the arguments hold (attributes, items)."
    )
    inputs_evidence_id: str | None = Field(None, description="The guard tree record `inputs` is read from.")
    sizes_accepted: list[str] = Field(
        default_factory=list,
        description="For each size or stride (or int argument torch made symbolic) two or more of its symbolic shape "
        "guards name alone, the values from 0 (an int: -4096) to 4096 that pass all of them (\"L['x'].size()[2] 9 "
        'and up", "L[\'k\'] 2-20", "... 16, 24, 32, ... (step 8) and up"), the guards run as integer arithmetic and '
        "nothing else; an int bounded by tensors' sizes is tried with the sizes as made, and says them (\"L['k'] "
        "1-24 (L['x'].size()[1] = 24, as made)\"); [] when none or the trace has no tree.",
    )
    sizes_related: int = Field(
        0,
        ge=0,
        description="Symbolic shape guards relating two or more sizes (not tried: `sizes_accepted` is of each alone).",
    )


class CacheEvent(Model):
    cache: CacheName
    decision: CacheDecision
    reason: str | None = None
    evidence_id: str | None = None


class Compilation(Model):
    compile_id: str = Field(description="tlparse-style id: '[!ca/]frame/frame_compile_id', '#n' after a reset.")
    identity: CompileIdentity
    code: CodeLocation = Field(default_factory=CodeLocation)
    attempts: list[Attempt] = Field(default_factory=list)
    outcome: Outcome
    outcome_reason: str = Field("", description="Why this outcome was chosen, in one line.")
    recompile: RecompileEvidence | None = None
    additional_frame_compilation: bool = False
    graph_breaks: list[GraphBreak] = Field(default_factory=list)
    restarts: list[Restart] = Field(default_factory=list)
    failure: Failure | None = None
    limit_events: list[LimitEvent] = Field(default_factory=list)
    graph: GraphSummary | None = None
    aot: AotSummary | None = None
    inductor_code: list[InductorCode] = Field(
        default_factory=list,
        description="What Inductor generated, per graph in the order written: the forward's (or the inference "
        "graph's), then the backward's when it compiled.",
    )
    side_effects: list[SideEffect] = Field(
        default_factory=list,
        description="The objects its compiled code changes outside the graph (replayed after it), in torch's "
        "order, at most 8.",
    )
    specializations: list[Specialization] = Field(
        default_factory=list,
        description="Symbols torch made and fixed back to one value while tracing (symbolic_shape_specialization), "
        "in record order, one per symbol.",
    )
    guards: GuardSummary | None = None
    phase_times: dict[str, float] = Field(
        default_factory=dict,
        description="Metric name as torch writes it (unit in the name) -> value; a quantity torch writes twice "
        "(entire_frame_compile_time_s and dynamo_cumulative_compile_time_us) is kept once, in seconds.",
    )
    phase_evidence_id: str | None = Field(None, description="The compilation_metrics record the phase times are from.")
    start_time: float | None = Field(
        None,
        description="When the compilation started, in seconds since the epoch on the recording machine's clock "
        "(compilation_metrics start_time); None when the trace has no metrics for it.",
    )
    cache_events: list[CacheEvent] = Field(default_factory=list)
    reached: LastRecord | None = Field(
        None,
        description="A compilation that started and never finished (no compilation_metrics: the process stopped "
        "while compiling, or the trace was cut): the last record it got to. None for every other compilation.",
    )
    evidence_ids: list[str] = Field(default_factory=list)
    started_with: list[FrameValues] = Field(
        default_factory=list,
        description="Only in a capture recorded by `dynamo-diff capture` (observer 4+): the user's frames when "
        "Dynamo started this compilation, innermost first (at most 3), with their small scalar locals (the loop "
        "step, request, batch the program was at); [] when not observed.",
    )

    @property
    def restart_count(self) -> int:
        """Restarts of this compilation's analysis (the `restarts` count): the attempts after the first, or the
        restart reasons torch listed in its metrics when they are more (one rule for counts and row changes)."""
        return max(len(self.attempts) - 1, len(self.restarts), 0)

    @property
    def restart_evidence(self) -> list[str]:
        """The records behind its restarts: the compilation_metrics that lists the restart reasons, else (no
        reasons listed) the first record of each later attempt."""
        ids = [r.evidence_id for r in self.restarts if r.evidence_id]
        if not ids:
            ids = [e for a in self.attempts if a.attempt > 0 for e in a.evidence_ids[:1]]
        return list(dict.fromkeys(ids))

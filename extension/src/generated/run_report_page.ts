// Generated from run_report_page.schema.json by scripts/gen-types.js (npm run gen:types): do not edit.
// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.
/* eslint-disable */

/**
 * Whether the run compiled anything (docs/SEMANTICS.md, "Runs that compiled nothing").
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "CompiledState".
 */
export type CompiledState = "compiled" | "nothing_compiled" | "no_graph";
/**
 * What a suggestion is about (docs/SEMANTICS.md, "Suggestions").
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "SuggestionKind".
 */
export type SuggestionKind =
  | "mark_dynamic"
  | "dtype_device"
  | "grad_mode"
  | "dynamic_scalar"
  | "create_once"
  | "recompile_limit"
  | "graph_break"
  | "call_compiled"
  | "suppressed_failure";
/**
 * How a recorded run ended, as far as the capture can tell.
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "RunState".
 */
export type RunState = "completed" | "exited" | "killed" | "interrupted" | "trace_cut" | "partial" | "unknown";

/**
 * `analyze_capture` (MCP): a page of a `run_report`, one source function per entry with evidence ids.
 */
export interface RunReportPage {
  /**
   * The capture id.
   */
  capture: string;
  /**
   * Whether anything compiled (a run that compiled nothing has every count 0).
   */
  compiled?: CompiledStatus | null;
  /**
   * The run's non-zero counts (first page only).
   */
  counts?: {
    [k: string]: number;
  } | null;
  functions?: FunctionEntry[];
  kind: "run_report_page";
  label?: string | null;
  /**
   * Calls that usually come next (MCP tool calls).
   */
  next_calls?: string[];
  /**
   * Pass as offset for the next page; None on the last page.
   */
  next_offset?: number | null;
  offset: number;
  /**
   * MCP only (the CLI never sets it): set when this is the document's outline, a tool's default structured content: kind, ids (short ones, as the text writes them), run status, offsets and each item's identity and headline counts, without what the result's text says (a required text is written empty). It names the argument that returns the whole document (full=true).
   */
  outline?: string | null;
  run: RunStatus;
  schema_version?: string;
  /**
   * Set when the source snapshots the lines shown come from were found beside a bare log at import, not recorded when it ran (they may differ from what ran): says so and how many files.
   */
  sources_note?: string | null;
  /**
   * Next steps for the run as a whole (first page only): it compiled nothing.
   */
  suggestions?: Suggestion[];
  torch?: string | null;
  total_functions: number;
}
/**
 * Said first in every view when it is not `compiled`: a run that compiled nothing has every count 0, which
 * reads as a perfect run, and a CI gate fails on it.
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "CompiledStatus".
 */
export interface CompiledStatus {
  /**
   * Compilations (observed_compilation_identities) over all ranks.
   */
  compilations: number;
  state: CompiledState;
  /**
   * One line for people, e.g. 'torch.compile was called 2 times (Net at train.py:27) but no frame was compiled'.
   */
  summary: string;
  /**
   * How many times the observer saw torch.compile called (capture.manifest.observed.compile_calls has each call site); None: not observed (a bare trace, --no-observe, or no Python process seen).
   */
  torch_compile_calls?: number | null;
}
/**
 * A run report's function on a page.
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "FunctionEntry".
 */
export interface FunctionEntry {
  /**
   * Position of the function in the whole report (functions with problems first).
   */
  index: number;
  report: FunctionReport;
  /**
   * What was cut to fit (empty: nothing).
   */
  truncated?: string[];
}
/**
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "FunctionReport".
 */
export interface FunctionReport {
  /**
   * The code around that call: the loop it runs in, else its function's lines before it (CallContext); None when the source snapshot does not hold it.
   */
  call_context?: CallContext | null;
  /**
   * The call of the program that first compiled it (its first compilation's user frames below the compiled one on the dynamo_start stack, innermost first, at most 3, each with its line's text: the record's, else the source snapshot's). A later compilation from another call says its own (CompilationLine.called_from). [] when the stack is not recorded.
   */
  called_from?: CodeLine[];
  compilations?: CompilationLine[];
  /**
   * Its compile time (entire_frame_compile_time_s summed).
   */
  compile_time_s?: number;
  /**
   * Named by what the user compiled (Dynamo compiled library code for a call from module-level code, from the function that compiled the model, or from a wrapper): `file` and `line` are then where torch.compile was called (the line None when not known).
   */
  compiled?: boolean;
  /**
   * For the counts someone acts on (failed, confirmed recompilations, graph breaks, limit hits, restarts): the evidence ids behind them, at most 5 each.
   */
  count_evidence?: {
    [k: string]: string[];
  };
  /**
   * Its non-zero counts (in a capture of several ranks, summed).
   */
  counts: {
    [k: string]: number;
  };
  file?: string | null;
  /**
   * Frames counted in it (resume and library frames): each frame's name, a library frame's with where it is ('inner (torch/_dynamo/external_utils.py:67)').
   */
  frames?: string[];
  line?: number | null;
  /**
   * Qualified name from the source snapshot, else the code object's name; for a row named by what the user compiled (`compiled`), that target ('LlamaForCausalLM.forward').
   */
  name: string;
  /**
   * For each count whose value differs between the ranks summed: rank (as text) -> its value. A count not listed has the same value on every rank.
   */
  per_rank?: {
    [k: string]: {
      [k: string]: number;
    };
  };
  /**
   * In a capture of several ranks: how many ranks `counts` sums over (every rank of the capture). None: one rank.
   */
  ranks_summed?: number | null;
  /**
   * Next steps computed from all its compilations (what varied between them): a size, dtype, mode, scalar or object that changed, the recompile limit hit.
   */
  suggestions?: Suggestion[];
}
/**
 * The code around a call path's call, from the capture's source snapshot (parsed with ast, never run): the
 * loop it runs in, else the function's lines before it.
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "CallContext".
 */
export interface CallContext {
  /**
   * The source snapshot's path.
   */
  file: string;
  /**
   * Which frame of `called_from` it is around (0: the innermost).
   */
  frame: number;
  /**
   * 'loop': the innermost for/while loop of the frame's function whose body holds the call; 'function': no frame of the call path is in a loop, the lines of the innermost frame's function.
   */
  kind: "loop" | "function";
  /**
   * In file order: for a loop, the line that defines what a for loop iterates over when that is a one-line assignment before it (in the function or at module level), the loop's header, then its body's lines up to and including the call line (at most 10 with the header; when longer, the header and the last lines before the call, `skipped` saying how many were left out); for a function, its def line and its lines up to the call (at most 6).
   */
  lines: ContextLine[];
}
/**
 * A line of the code around a call (CallContext).
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "ContextLine".
 */
export interface ContextLine {
  /**
   * The line as the source snapshot has it (its comment kept), less the indentation all the lines shown share.
   */
  code: string;
  line: number;
  /**
   * Lines of the snapshot left out just before this one (blank lines not counted): the text says `... (N lines)` there.
   */
  skipped?: number;
}
/**
 * A line of the user's program: a frame of a call path, or a line that assigns a guarded name.
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "CodeLine".
 */
export interface CodeLine {
  /**
   * The line's text (stripped): the trace record's, else the capture's source snapshot's.
   */
  code?: string | null;
  /**
   * The file: its path as the trace records it (a call path's frame), or the source snapshot's path (an assignment).
   */
  file: string;
  /**
   * The function the frame runs in (a call path's frame).
   */
  function?: string | null;
  line?: number | null;
}
/**
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "CompilationLine".
 */
export interface CompilationLine {
  /**
   * The ATen ops of AOTAutograd's graphs of it, by graph ('forward', 'backward', 'inference'), most first, the view and layout ops (view, transpose, permute, expand, ...) left out: ['addmm 2', 'native_dropout 1']; {} when it made none or the capture predates them.
   */
  aot_op_kinds?: {
    [k: string]: string[];
  };
  /**
   * The ops of the graphs AOTAutograd made of it, by graph: 'forward' and 'backward' (training) or 'inference'; {} when it made none (an eager backend) or the trace has none.
   */
  aot_ops?: {
    [k: string]: number;
  };
  /**
   * Whether AOTAutograd's backward graph of it compiled in this run (bwd_compilation_metrics, at the first .backward() that reached it); None when it has no backward graph.
   */
  backward_compiled?: boolean | null;
  /**
   * Cache decisions, e.g. 'fx_graph miss'.
   */
  cache?: string[];
  /**
   * The code around that call path's call (CallContext), with `called_from`; None when it says no call path, or the snapshot has no file or line of it.
   */
  call_context?: CallContext | null;
  /**
   * The call path that started it (the user's frames below the compiled one on its dynamo_start stack, innermost first, at most 3, each with its line's text: the record's, else the source snapshot's), only when it is another call than its function's `called_from` (e.g. a recompile from the eval loop; a resume function's stack that holds a frame more is the same call); [] when the same or not recorded.
   */
  called_from?: CodeLine[];
  compile_id: string;
  compile_time_s?: number | null;
  /**
   * Its graph's symbolic sizes (it is dynamic in them), each with the input and dimension torch says it stands for: a recompilation's that made it dynamic, a first compilation's under dynamic=True or mark_dynamic; [] for a static graph.
   */
  dynamic?: SymbolicSize[];
  /**
   * Its main records: dynamo_start, compilation_metrics (list more by id).
   */
  evidence_ids?: string[];
  failure?: FailureLine | null;
  /**
   * The compiled frame: the function itself, a resume function or a library frame.
   */
  frame: string;
  graph_breaks?: BreakLine[];
  /**
   * The Python floats its graph bakes in (GraphSummary.constants: `mul_ 0.99 x6`); [] when none.
   */
  graph_constants?: string[];
  /**
   * Its graph's dynamo_output_graph record.
   */
  graph_evidence_id?: string | null;
  /**
   * Its graph's inputs as the graph's signature prints them (the capture's graph.inputs): a float the graph takes as an input, not a constant, is one (`L_scale_: f64[][]`); [] when no graph.
   */
  graph_inputs?: string[];
  /**
   * Graph inputs left out (parameters and buffers too).
   */
  graph_inputs_omitted?: number;
  /**
   * The compile id of the previous graph `graph_literals_changed` compares with.
   */
  graph_literals_against?: string | null;
  /**
   * The literal arguments of its graph's calls that differ from its frame's previous graph (GraphSummary.literals, the same call and argument, in order): `pixel_shuffle(arg 1) 2 -> 4`; [] for a frame's first graph or when none differ.
   */
  graph_literals_changed?: string[];
  /**
   * What its graph holds, by op, most first: 'getitem 6', 'autograd_function_apply 3', 'linear 1' (the target's last name, `Tensor.` kept for a method, `module` a submodule call; a higher-order op such as `tag_activation_checkpoint` is one op, its body not counted), at most 8 (the capture's graph.op_histogram has every one); [] when it has no graph.
   */
  graph_op_kinds?: string[];
  graph_ops?: number | null;
  /**
   * What its graph returns, in order (`linear: f32[4, 10]`; GraphSummary.outputs); [] when the trace has no graph of it.
   */
  graph_outputs?: string[];
  /**
   * The guard tree record the list is read from.
   */
  guards_evidence_id?: string | null;
  /**
   * What this entry guards on the frame's tensor arguments, from its guard tree (the compilation's guards.inputs): each argument's dtype, size and stride (None = symbolic), then the symbolic shape guards on them, e.g. "L['x']: torch.float32, size=[None, 3], stride=[3, 1]", "2 <= L['x'].size()[0]"; [] when the trace has no guard tree.
   */
  guards_on_inputs?: string[];
  /**
   * Arguments and shape guards left out of the list.
   */
  guards_on_inputs_omitted?: number;
  /**
   * Of those, the guards on what the arguments hold (the `guards on values:` line's).
   */
  guards_on_values_omitted?: number;
  /**
   * What Inductor generated for its graphs (the forward's or inference graph's, then the backward's): what `call` takes, the frozen weights, the kernels and the library kernels it calls; [] for another backend.
   */
  inductor_code?: InductorCode[];
  /**
   * The compiler limit it hit, if any.
   */
  limit?: string | null;
  outcome: string;
  /**
   * In a capture of several ranks: the rank it compiled on.
   */
  rank?: number | null;
  /**
   * A compilation that never finished (no compilation_metrics): the last record it got to.
   */
  reached?: LastRecord | null;
  /**
   * Failing guards that made it recompile.
   */
  recompile?: GuardLine[];
  /**
   * What restarted it, once each: 'after the graph break', the exception torch named ('TensorifyScalarRestartAnalysis'), else the first line of torch's reason.
   */
  restart_reasons?: string[];
  /**
   * What the graph of the attempt its restart replaced held that the kept graph does not (GraphSummary.discarded): `attempt 0's graph (replaced at the restart) took L_self_w: f64[][], an input the kept graph has not; ops the kept graph has not: Tensor.item 1 (ev u1-e21)`.
   */
  restarted_graph?: string | null;
  /**
   * Times Dynamo restarted its analysis (after a graph break).
   */
  restarts?: number;
  /**
   * The objects its code changes outside the graph, which torch replays after the graph runs.
   */
  side_effects?: SideEffect[];
  /**
   * The sizes this entry accepts, of each size its symbolic shape guards name alone (the compilation's guards.sizes_accepted): "L['x'].size()[2] 9 and up", "L['k'] 2-20"; [] when none.
   */
  sizes_accepted?: string[];
  /**
   * Its shape guards relating several sizes (not tried).
   */
  sizes_related?: number;
  /**
   * Symbols torch made and fixed back to one value while tracing, each with the user line that fixed it; [] when none was.
   */
  specialized?: Specialization[];
  /**
   * The outermost user frame the observer recorded with values, when it is not `started_with` (a training loop's step when the compilation started inside the functions it calls).
   */
  started_outer?: FrameValues | null;
  /**
   * Only in a capture recorded by `dynamo-diff capture`: the innermost user frame with values of the compilation's `started_with` (the call site; its small scalar locals when Dynamo started it: the loop step, request, batch); None when not observed.
   */
  started_with?: FrameValues | null;
  /**
   * Next steps for a cause that is this compilation's own (a graph break, a suppressed failure).
   */
  suggestions?: Suggestion[];
}
/**
 * A symbolic size of the compiled graph (the graph is dynamic in it): the symbol its `dynamo_output_graph`
 * sizes print, and, when this compilation's `create_symbol` record made it, the input and dimension it stands for
 * and the size it had then.
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "SymbolicSize".
 */
export interface SymbolicSize {
  /**
   * The create_symbol record, when there is one.
   */
  evidence_id?: string | null;
  /**
   * What it stands for, as torch wrote it ('L['x'].size()[0]'); None when not recorded here.
   */
  source?: string | null;
  /**
   * The symbol as torch printed it, e.g. 's77'.
   */
  symbol: string;
  /**
   * The size when the symbol was created (torch's `val`).
   */
  value?: string | null;
}
/**
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "FailureLine".
 */
export interface FailureLine {
  evidence_ids?: string[];
  fail_type?: string | null;
  /**
   * The telling line of torch's failure text.
   */
  message: string;
  /**
   * file:line of the user's code where it failed, when torch says.
   */
  site?: string | null;
  /**
   * What happened next: 'ran eagerly (recompile limit)', 'ran eagerly (frame skipped)' (a graph-break record says torch skipped the frame and fell back to eager), 'ran eagerly (suppress_errors)', 'raised into the program' (suppress_errors off, an error torch does not treat as soft) or 'unknown' (e.g. an Unsupported with no skip record: raised only under fullgraph, which the trace does not record).
   */
  then: string;
  /**
   * Whether the program went on after the failure: True (a later compilation started, or the run completed), False (the run exited on this uncaught exception), None (not known).
   */
  went_on?: boolean | null;
  /**
   * The evidence `went_on` is read from: 'compilation 1/0 (second) started after it', 'the run completed (exit code 0); no compilation started after it', 'the run exited with code 1 on an uncaught BackendCompilerFailed; ...', or why it is not known.
   */
  went_on_basis?: string | null;
  /**
   * The later compilation's first record, when that is the basis.
   */
  went_on_evidence?: string | null;
}
/**
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "BreakLine".
 */
export interface BreakLine {
  /**
   * The text of that line (stripped): the capture's source snapshot's, else the one torch's break record gives in its user traceback (a bare trace); None when neither has it.
   */
  code?: string | null;
  evidence_id?: string | null;
  /**
   * A break inside library code (torch, an installed package): the user's own line that called into it, the innermost frame of the break's user traceback in the user's files ('policy.py:19: dist = Normal(mu, std)'); None when the break is in the user's code or the traceback names no user line.
   */
  from_user?: string | null;
  /**
   * torch's graph-break registry id, e.g. 'gb0059'.
   */
  gb_id?: string | null;
  /**
   * torch's first hint that is not a request to report the break to PyTorch (the capture's graph break keeps every hint), when the record has one.
   */
  hint?: string | null;
  /**
   * The operator or function the record names ('print', 'Tensor.item'), when it names one.
   */
  operator?: string | null;
  /**
   * file:line in the user's code.
   */
  site?: string | null;
  /**
   * The graph-break type (or the first line of its reason).
   */
  type: string;
  /**
   * The page of the graph-break type that torch's record links.
   */
  url?: string | null;
}
/**
 * What Inductor generated for one graph of the compilation (an `inductor_output_code` record: the Python module
 * it wrote), read from the module's text and never run.
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "InductorCode".
 */
export interface InductorCode {
  /**
   * The inductor_output_code record.
   */
  evidence_id?: string | null;
  /**
   * The calls of `call` to library kernels (`extern_kernels.addmm`: 'addmm'), torch ops (`torch.ops.mkl._mkl_linear.default`: 'mkl._mkl_linear') and ATen fallbacks (`aten.sort.default`: 'sort'), with how many times it makes each; at most 12.
   */
  extern_calls?: {
    [k: string]: number;
  };
  /**
   * Module-level constants `_frozen_param*` (inductor.freezing: the weights folded into the code, no longer read from the module at each call).
   */
  frozen_params?: number;
  /**
   * The arguments its `call` takes (the names it unpacks from `args`); None when not found.
   */
  inputs?: number | null;
  /**
   * How many times `call` runs each kernel of `kernels` (a kernel Inductor reuses for repeated work, such as a loop over heads, runs several times); 0 where no run was found; {} in captures of older releases.
   */
  kernel_calls?: {
    [k: string]: number;
  };
  /**
   * The kernels it defines (cpp_fused_*, triton_*), in its order, at most 12.
   */
  kernels?: string[];
  /**
   * Every kernel it defines.
   */
  kernels_total?: number;
}
/**
 * How far a compilation that never finished (no compilation_metrics) got: the last record torch wrote for
 * its compile id, in file order (timing spans and tensor descriptions, which are not indexed, left out).
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "LastRecord".
 */
export interface LastRecord {
  evidence_id?: string | null;
  /**
   * Its record kind, an artifact by its name: 'dynamo_output_graph', 'aot_forward_graph'.
   */
  kind: string;
  /**
   * The stage of compiling that record is written in (docs/SEMANTICS.md, 'Unfinished compilations'): 'dynamo' (tracing the frame), 'backend' (Dynamo's graph handed to the backend), 'aot_autograd', 'inductor', 'guards' (the compiled graph's guards built), or 'unknown'.
   */
  stage: string;
}
/**
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "GuardLine".
 */
export interface GuardLine {
  /**
   * The other guards whose value differs between that older entry's guard tree and the new one's, besides this failing guard (the compilation's GuardReason.also_differs, at most 6 texts).
   */
  also_differs?: string[];
  /**
   * How many guards differ in all.
   */
  also_differs_count?: number;
  /**
   * The older cache entry compared for `also_differs`.
   */
  also_differs_from?: string | null;
  /**
   * Where the capture's source snapshots assign `guarded` (`MODE = `, `MODE += `, `obj.top_k = `, `setattr(obj, 'top_k', ...)`, `d['mode'] = `; a global at module level or in a function that declares it global), at most 2, the guarded function's file first. [] when none does or the capture has no snapshots.
   */
  assigned_at?: CodeLine[];
  /**
   * How many such lines the snapshots hold in all.
   */
  assigned_total?: number;
  category: string;
  /**
   * The text of that line, as torch printed it (stripped).
   */
  code?: string | null;
  evidence_id?: string | null;
  /**
   * The global, attribute or string key the guard reads, as the report names it: 'MODE' (G['MODE']), 'top_k' (L['self'].top_k), "['mode']" (L['cfg']['mode']); None for a guard on a tensor, on an argument itself, or through a call or an index.
   */
  guarded?: string | null;
  /**
   * What the new cache entry was made for: its own guard(s) on the failing guard's source (the compilation's GuardReason.made_for, at most 4), e.g. "G['MODE'] == 'cos'"; [] when the trace shows none.
   */
  made_for?: string[];
  /**
   * file:line (the file's name) of the user's line torch attributes the guard to (its user stack trace, else its comment); None when torch names none (a tensor's dtype or size).
   */
  site?: string | null;
  /**
   * The failing guard as torch printed it (first line, without the user-code comment).
   */
  text: string;
}
/**
 * A Python object the compiled code changes outside its graph (a `dynamo_side_effects` record: torch replays
 * the change after the graph runs): what it is, how torch names it, and the user's line that changed it.
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "SideEffect".
 */
export interface SideEffect {
  /**
   * That line's text, as torch printed it.
   */
  code?: string | null;
  /**
   * The dynamo_side_effects record.
   */
  evidence_id?: string | null;
  /**
   * The user's file of the innermost user frame that changed it.
   */
  file?: string | null;
  /**
   * The library line that made the change, when the innermost frame is not the user's: 'torch/optim/sgd.py:150: state["momentum_buffer"] = momentum_buffer'.
   */
  inside?: string | null;
  line?: number | null;
  /**
   * Distinct user lines that changed it.
   */
  sites?: number;
  /**
   * How torch names it: "L['self'].debug", "G['STATS']"; None when it has none.
   */
  source?: string | null;
  /**
   * The object's type as torch names it ('dict', 'list', 'Decoder').
   */
  type: string;
}
/**
 * A symbol torch made and then fixed to one value while tracing this compilation (its
 * `symbolic_shape_specialization` record): the code at `file`:`line` pinned it, so the graph is not dynamic in it
 * whatever dynamic=True or mark_dynamic ask.
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "Specialization".
 */
export interface Specialization {
  /**
   * That line's text, as the record or the source snapshot gives it.
   */
  code?: string | null;
  /**
   * The symbolic_shape_specialization record.
   */
  evidence_id?: string | null;
  /**
   * The file of the line that fixed it: the innermost frame of the user's own code on the record's user stack (the innermost frame when none is the user's).
   */
  file?: string | null;
  /**
   * That line's number.
   */
  line?: number | null;
  /**
   * torch's reason, e.g. 'range_refined_to_singleton'.
   */
  reason?: string | null;
  /**
   * What it stands for, as torch wrote it (`L['pos']`).
   */
  source?: string | null;
  /**
   * The symbol as torch printed it, e.g. 's24'.
   */
  symbol: string;
  /**
   * The value it was fixed to.
   */
  value?: string | null;
  /**
   * The library frame under that line where torch fixed it ('normalization.py:228: return F.layer_norm('), when the user's line called into torch or a package; None when it is the line itself.
   */
  via?: string | null;
}
/**
 * One user frame of the stack when a compilation started (not torch, the standard library, an installed
 * package), with its small scalar locals as the observer read them.
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "FrameValues".
 */
export interface FrameValues {
  file: string;
  function?: string | null;
  line?: number | null;
  /**
   * Its locals of type bool, int, float, str (cut to 40 characters) or None, names not starting with '_', at most 8, in the frame's order (a function's first bound in co_varnames order; a module's last bound in the order they were bound); other values are never read.
   */
  values?: NamedValue[];
}
/**
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "NamedValue".
 */
export interface NamedValue {
  name: string;
  value?: boolean | number | string | null;
}
/**
 * One next step, for one cause.
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "Suggestion".
 */
export interface Suggestion {
  /**
   * The cause in one line: what varied and the values seen.
   */
  cause: string;
  /**
   * The change to make.
   */
  change: string;
  /**
   * The compilations it is computed from.
   */
  compile_ids?: string[];
  /**
   * What it costs (a hint, never a claim that the program gets faster).
   */
  cost: string;
  /**
   * For a size guard: the dimension whose size varied.
   */
  dim?: number | null;
  /**
   * torch's page for a graph break's registry id.
   */
  docs?: string | null;
  /**
   * The records it is computed from.
   */
  evidence_ids?: string[];
  /**
   * The source function whose compilations it is computed from (None: the whole run).
   */
  function?: string | null;
  kind: SuggestionKind;
  /**
   * The call or setting to use, named exactly for the capture's torch version ('torch._dynamo.mark_dynamic(x, 0)', 'torch._dynamo.config.recompile_limit'); None when there is none.
   */
  knob?: string | null;
  /**
   * What varied, as torch's guard names it: 'x' (with `dim`), 'n', 'grad_mode', a gb id.
   */
  subject?: string | null;
  /**
   * torch's own explanation and hints, verbatim, where the record has them.
   */
  torch_hints?: string[];
  /**
   * The values seen, in the order the trace shows them (sizes, dtypes, ...).
   */
  values?: string[];
}
/**
 * How the run ended; a run that did not finish has low counts.
 */
export interface RunStatus {
  /**
   * Payload files are missing or records were rejected.
   */
  evidence_missing?: boolean;
  /**
   * The uncaught exception the observer saw, e.g. 'RuntimeError: x'.
   */
  exception?: string | null;
  exit_code?: number | null;
  /**
   * True: completed with a whole trace. False: it did not finish (or evidence is missing), counts may be low. None: unknown (a bare trace).
   */
  finished: boolean | null;
  /**
   * The facts behind the state, one per line.
   */
  reasons?: string[];
  /**
   * The signal that ended the command, e.g. 'SIGKILL'.
   */
  signal?: string | null;
  /**
   * Where the workload's end is known from: recorded by `dynamo-diff capture` (hash-verified manifest), declared by a manifest that is not hash-verified, or nowhere (a bare trace).
   */
  source: "capture" | "manifest" | "none";
  state: RunState;
  /**
   * One line for people, e.g. 'killed by SIGKILL'.
   */
  summary: string;
  /**
   * A trace file ends mid-record, or a compilation never finished.
   */
  trace_cut?: boolean;
}
/**
 * The first thing every view says about a capture: did the run finish? Counts of a run that stopped early
 * are low, so a run that did not finish must never look like an improvement.
 *
 * This interface was referenced by `RunReportPage`'s JSON-Schema
 * via the `definition` "RunStatus".
 */
export interface RunStatus1 {
  /**
   * Payload files are missing or records were rejected.
   */
  evidence_missing?: boolean;
  /**
   * The uncaught exception the observer saw, e.g. 'RuntimeError: x'.
   */
  exception?: string | null;
  exit_code?: number | null;
  /**
   * True: completed with a whole trace. False: it did not finish (or evidence is missing), counts may be low. None: unknown (a bare trace).
   */
  finished: boolean | null;
  /**
   * The facts behind the state, one per line.
   */
  reasons?: string[];
  /**
   * The signal that ended the command, e.g. 'SIGKILL'.
   */
  signal?: string | null;
  /**
   * Where the workload's end is known from: recorded by `dynamo-diff capture` (hash-verified manifest), declared by a manifest that is not hash-verified, or nowhere (a bare trace).
   */
  source: "capture" | "manifest" | "none";
  state: RunState;
  /**
   * One line for people, e.g. 'killed by SIGKILL'.
   */
  summary: string;
  /**
   * A trace file ends mid-record, or a compilation never finished.
   */
  trace_cut?: boolean;
}

"""The stage of compiling a record kind is written in: how far a compilation that never finished got."""

from __future__ import annotations

# The stage of compiling each record kind is written in (torch 2.13; an artifact by its name): Dynamo traces the
# frame (dynamo_start, recompile and graph-break reasons), writes the graph it hands to the backend
# (dynamo_output_graph); Inductor's pre-grad passes, AOTAutograd's graphs and wrappers, Inductor's joint and
# post-grad passes and its output code follow; then Dynamo builds the guards (dynamo_cpp_guards_str). First match.
_STAGE_PREFIXES = (
    ("dynamo_output_graph", "backend"),
    ("dynamo_guards", "guards"),
    ("dynamo_cpp_guards_str", "guards"),
    ("dynamo_", "dynamo"),
    ("recompile_reasons", "dynamo"),
    ("aot", "aot_autograd"),
    ("torch._functorch", "aot_autograd"),
    ("runtime_wrapper", "aot_autograd"),
    ("compiled_function_", "aot_autograd"),
    ("compiled_fn_wrapper", "aot_autograd"),
    ("backward_prologue", "aot_autograd"),
    ("backward_epilogue", "aot_autograd"),
    ("inductor", "inductor"),
    ("fx_graph", "inductor"),
    ("before_pre_grad_graph", "inductor"),
    ("after_pre_grad_graph", "inductor"),
    ("before_joint_graph", "inductor"),
    ("after_joint_graph", "inductor"),
    ("before_post_grad_graph", "inductor"),
    ("after_post_grad_graph", "inductor"),
    ("triton_kernel_info", "inductor"),
    ("output_code", "inductor"),
)


def record_stage(kind: str) -> str:
    """The stage of compiling a record kind is written in (`_STAGE_PREFIXES`), 'unknown' for any other."""
    return next((stage for prefix, stage in _STAGE_PREFIXES if kind.startswith(prefix)), "unknown")

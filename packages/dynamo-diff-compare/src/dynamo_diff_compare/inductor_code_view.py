"""What Inductor generated for a compilation, in a line: `inductor code: call takes 1 input; 7 frozen params; 2
kernels: cpp_fused_addmm_gelu_0, cpp_fused_addmm_gelu_1 x2; calls mkl._mkl_linear 2 (ev u1-e13)`."""

from __future__ import annotations

from dynamo_diff_schema.compilation import InductorCode

KERNELS_SAID = 6  # each with how many times `call` runs it when not once (`x4`)


def inductor_code_summary(code: InductorCode) -> str:
    """The module in one line, as `inductor code:` says it (and the evidence index's summary of its record)."""
    bits = []
    if code.inputs is not None:
        bits.append(f"call takes {code.inputs} input{'' if code.inputs == 1 else 's'}")
    if code.frozen_params:
        bits.append(f"{code.frozen_params} frozen params (weights folded into the code, not read at each call)")
    if code.kernels_total:
        names = code.kernels[:KERNELS_SAID]
        more = code.kernels_total - len(names)
        runs = code.kernel_calls
        bits.append(
            f"{code.kernels_total} kernel{'' if code.kernels_total == 1 else 's'}: "
            + ", ".join(name + (f" x{runs[name]}" if runs.get(name, 1) > 1 else "") for name in names)
            + (f", +{more} more" if more > 0 else "")
        )
    if code.extern_calls:
        bits.append("calls " + ", ".join(f"{name} {n}" for name, n in code.extern_calls.items()))
    return "; ".join(bits) or "no call found"


def inductor_code_text(codes: list[InductorCode], graphs: list[str]) -> str:
    """`inductor code: ...` for each module Inductor wrote, named by the AOTAutograd graph it is of (`graphs`, in
    order: forward, backward; or inference) when there are several."""
    if len(codes) == 1:
        body = inductor_code_summary(codes[0])
    else:
        names = [*graphs, *(f"graph {i + 1}" for i in range(len(graphs), len(codes)))]
        body = " | ".join(f"{name}: {inductor_code_summary(code)}" for name, code in zip(names, codes, strict=False))
    ids = ", ".join(c.evidence_id for c in codes if c.evidence_id)
    return f"inductor code: {body}" + (f" (ev {ids})" if ids else "")

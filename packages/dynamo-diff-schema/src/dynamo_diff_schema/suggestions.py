"""A next step for a cause the trace shows (a recompile, a break, a failure, a run that compiled nothing): what
to change, the knob to turn as the capture's torch version names it, what it costs, and the compilations it is
computed from. Suggestions are computed when a capture is shown (dynamo_diff_compare.suggestions), never stored:
they are hints read from the evidence, never a claim that the program gets faster (docs/SEMANTICS.md,
"Suggestions")."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from dynamo_diff_schema.base import Model


class SuggestionKind(StrEnum):
    """What a suggestion is about (docs/SEMANTICS.md, "Suggestions")."""

    MARK_DYNAMIC = "mark_dynamic"  # a size guard whose dimension took several values
    DTYPE_DEVICE = "dtype_device"  # a tensor's dtype or device changed between calls
    GRAD_MODE = "grad_mode"  # grad mode, a tensor's requires_grad or a module's training flag changed
    DYNAMIC_SCALAR = "dynamic_scalar"  # a Python int or float the graph specialised on took several values
    CREATE_ONCE = "create_once"  # an identity guard on an object that is new at every call
    RECOMPILE_LIMIT = "recompile_limit"  # the recompile limit was hit: the cause behind it and the knob
    GRAPH_BREAK = "graph_break"  # a graph break: torch's own explanation and hints, and its registry page
    CALL_COMPILED = "call_compiled"  # torch.compile was called but what it returned never was
    SUPPRESSED_FAILURE = "suppressed_failure"  # a failure that ran eagerly under suppress_errors: its cause


class Suggestion(Model):
    """One next step, for one cause."""

    kind: SuggestionKind
    function: str | None = Field(
        None, description="The source function whose compilations it is computed from (None: the whole run)."
    )
    cause: str = Field(description="The cause in one line: what varied and the values seen.")
    subject: str | None = Field(
        None, description="What varied, as torch's guard names it: 'x' (with `dim`), 'n', 'grad_mode', a gb id."
    )
    dim: int | None = Field(None, description="For a size guard: the dimension whose size varied.")
    values: list[str] = Field(
        default_factory=list, description="The values seen, in the order the trace shows them (sizes, dtypes, ...)."
    )
    change: str = Field(description="The change to make.")
    knob: str | None = Field(
        None,
        description="The call or setting to use, named exactly for the capture's torch version "
        "('torch._dynamo.mark_dynamic(x, 0)', 'torch._dynamo.config.recompile_limit'); None when there is none.",
    )
    cost: str = Field(description="What it costs (a hint, never a claim that the program gets faster).")
    torch_hints: list[str] = Field(
        default_factory=list, description="torch's own explanation and hints, verbatim, where the record has them."
    )
    docs: str | None = Field(None, description="torch's page for a graph break's registry id.")
    compile_ids: list[str] = Field(default_factory=list, description="The compilations it is computed from.")
    evidence_ids: list[str] = Field(default_factory=list, description="The records it is computed from.")

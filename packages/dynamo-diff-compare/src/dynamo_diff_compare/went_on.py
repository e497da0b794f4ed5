"""After a failed compilation: what torch did with the frame, and whether the program went on, with the evidence.

What torch did (`then`) is read from the compilation itself, first evidence first:

1. a recompile-limit hit: torch runs the frame eagerly;
2. a `dynamo_graph_break_reason` record of the compilation saying torch skips the frame and falls back to eager
   (torch 2.13, 2.14: 'Failed to handle graph break gracefully. Skipping the function and falling back to eager';
   older torch, only with graph-break logging on: 'Graph break: skip: from user code at'; torch 2.13 on, the same
   logging: '... which results in a skip'): torch ran the function without Dynamo, nothing was raised;
3. its compilation_metrics' config_suppress_errors on: the frame ran eagerly;
4. config_suppress_errors off and an error torch does not treat as a soft failure (anything but `Unsupported`
   and `UserError`): raised into the program (torch's convert_frame re-raises those when suppress_errors is off);
5. otherwise not known: torch raises an `Unsupported` only under fullgraph=True (or error_on_graph_break), and
   skips the frame otherwise; the trace records neither setting, and a skip record is not always written (older
   torch writes it only with graph-break logging on; torch writes none for a break it has already logged).

Whether the program went on is read from what comes after it, first evidence first:

1. a compilation on the same rank whose first record comes after the failed compilation's last record (evidence
   ids are numbered in the order the trace's records are read): the program ran on to it;
2. else how the run ended: it completed (exit code 0, recorded by capture), or it exited on an uncaught exception
   of the failure's own type (it did not go on), or it exited, was killed or interrupted otherwise, or nothing
   records how it ended (a bare trace): not known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dynamo_diff_schema.capture import Capture, RunState, RunStatus
from dynamo_diff_schema.compilation import Compilation

_EVIDENCE_ID = re.compile(r"^(.*)-e(\d+)$")


# What a graph-break record says when torch gives up on the whole frame and runs it eagerly (see above).
_SKIP_WORDS = ("Skipping the function and falling back to eager", "Graph break: skip:", "which results in a skip")
# The failures torch treats as soft: it skips the frame unless fullgraph / error_on_graph_break is set.
_SOFT_FAILURES = frozenset({"Unsupported", "UserError"})


def skip_record(comp: Compilation) -> str | None:
    """The evidence id of the compilation's record saying torch skipped the frame and fell back to eager ('' when
    the record has no id); None when it has none."""
    for gb in comp.graph_breaks:
        if any(words in gb.reason for words in _SKIP_WORDS):
            return gb.evidence_id or ""
    return None


def then_text(comp: Compilation) -> str:
    """What torch did with the frame after the failure: 'ran eagerly (recompile limit)', 'ran eagerly (frame
    skipped)', 'ran eagerly (suppress_errors)', 'raised into the program' or 'unknown'."""
    if comp.limit_events:
        return "ran eagerly (recompile limit)"
    if comp.failure is None:
        return "unknown"
    if skip_record(comp) is not None:
        return "ran eagerly (frame skipped)"
    if comp.failure.suppressed is None:
        return "unknown"
    if comp.failure.suppressed:
        return "ran eagerly (suppress_errors)"
    if comp.failure.fail_type in _SOFT_FAILURES or comp.failure.fail_type is None:
        return "unknown"
    return "raised into the program"


@dataclass(frozen=True)
class WentOn:
    went_on: bool | None  # None: not known
    basis: str  # the evidence it is read from, in words
    evidence_id: str | None = None  # the later compilation's first record, when that is the basis

    def text(self, then: str) -> str:
        """What torch did and whether the program went on, in plain words (`after_failure_text`)."""
        return after_failure_text(then, self.went_on, self.basis, self.evidence_id)


# What torch did with the error, by `then_text`, said so that what follows ("went on anyway") does not read as a
# contradiction: an error raised into the program can be caught there.
_THEN_WORDS = {
    "raised into the program": "the error reached the program (torch.compile did not suppress it)",
    "ran eagerly (suppress_errors)": "torch ran the frame eagerly (suppress_errors), so the error did not reach "
    "the program",
    # torch 2.13 runs a code object that hit the limit in run-only mode (convert_frame: FrameAction.RUN_ONLY):
    # the entries it has still run when their guards pass; nothing compiles for it again.
    "ran eagerly (recompile limit)": "torch ran this call eagerly (recompile limit) and compiles nothing more for "
    "the function; the entries compiled before still serve the calls whose guards pass",
    # A failed compilation's default frame strategy skips the code object for all later calls
    # (torch/_dynamo/types.py ConvertFrameReturn: SKIP, applied to the code): its entries no longer run.
    "ran eagerly (frame skipped)": "torch skipped the function: this call and every later call of it run eagerly, "
    "its compiled entries unused (its graph-break record says it fell back to eager), so the compiler's error did "
    "not reach the program (an exception the function raises itself, running eagerly, does)",
    "unknown": "whether the error reached the program is not in the trace",
}


# A raised error leaves the code object as it was (convert_frame re-raises; it returns no SKIP): the entries compiled
# for it before still run when their guards pass, and a call whose guards all fail compiles again.
_ENTRIES_SERVE = " (the entries compiled before it still serve the calls whose guards pass)"


# The same, short, when the text said it whole under an earlier compilation (`said_as`).
_THEN_SHORT = {
    "raised into the program": "the error reached the program",
    "ran eagerly (suppress_errors)": "torch ran the frame eagerly (suppress_errors)",
    "ran eagerly (recompile limit)": "torch ran this call eagerly (recompile limit)",
    "ran eagerly (frame skipped)": "torch skipped the function",
}


def after_failure_text(
    then: str,
    went_on: bool | None,
    basis: str | None,
    evidence_id: str | None = None,
    *,
    earlier: bool = False,
    said_as: str | None = None,
) -> str:
    """'the error reached the program (torch.compile did not suppress it); the program went on anyway:
    compilation 1/0 (second) started after it (ev u1-e6)'; without a basis, what torch did only. `earlier`: the
    frame had entries before the failed one (a raised error leaves them serving). `said_as`: the compile id under
    which the same text said what torch did whole (here it is short: 'torch skipped the function, as for 1/0')."""
    did = _THEN_WORDS.get(then, then)
    if said_as is not None and then in _THEN_SHORT:
        did = f"{_THEN_SHORT[then]}, as for {said_as}"
    if basis is None:
        return did
    ev = f" (ev {evidence_id})" if evidence_id else ""
    if went_on is None:
        went = "whether the program went on is not known"
    elif went_on:
        went = "the program went on anyway" if then == "raised into the program" else "the program went on"
        if then == "raised into the program" and earlier:
            went += _ENTRIES_SERVE
    else:
        went = "the program did not go on"
    return f"{did}; {went}: {basis}{ev}"


def _numbered(ids: list[str]) -> list[tuple[str, int]]:
    out = []
    for evidence_id in ids:
        match = _EVIDENCE_ID.match(evidence_id)
        if match:
            out.append((match.group(1), int(match.group(2))))
    return out


class Sequels:
    """Whether the program went on after each failed compilation of one capture."""

    def __init__(self, capture: Capture) -> None:
        self._run = capture.capture.run
        # evidence group -> (number of its first record, compile id, function, that record's id), in trace order
        self._starts: dict[str, list[tuple[int, str, str, str]]] = {}
        for rank in capture.ranks:
            for comp in rank.compilations:
                numbered = _numbered(comp.evidence_ids)
                if numbered:
                    group, first = min(numbered, key=lambda gn: gn[1])
                    name = comp.code.qualified_name or comp.code.co_name or "?"
                    self._starts.setdefault(group, []).append((first, comp.compile_id, name, f"{group}-e{first}"))
        for starts in self._starts.values():
            starts.sort()
        # a failure's evidence id -> its compilation (a comparison's failure change names the ids only)
        self._failed: dict[str, Compilation] = {
            evidence_id: comp
            for rank in capture.ranks
            for comp in rank.compilations
            if comp.failure is not None
            for evidence_id in comp.failure.evidence_ids
        }

    def of_evidence(self, evidence_id: str) -> tuple[Compilation, WentOn] | None:
        """The failed compilation behind a failure's evidence id, with whether the program went on after it."""
        comp = self._failed.get(evidence_id)
        sequel = self.of(comp) if comp is not None else None
        return None if comp is None or sequel is None else (comp, sequel)

    def of(self, comp: Compilation) -> WentOn | None:
        """None for a compilation that did not fail."""
        if comp.failure is None:
            return None
        numbered = _numbered(comp.evidence_ids + comp.failure.evidence_ids)
        if numbered:
            group = numbered[0][0]
            last = max(n for g, n in numbered if g == group)
            later = next((s for s in self._starts.get(group, []) if s[0] > last), None)
            if later is not None:
                return WentOn(True, f"compilation {later[1]} ({later[2]}) started after it", later[3])
        return _by_the_end(self._run, comp)


def _by_the_end(run: RunStatus, comp: Compilation) -> WentOn:
    """No compilation after it: how the run ended is the evidence."""
    none_after = "no compilation started after it"
    fail_type = comp.failure.fail_type if comp.failure is not None else None
    if run.state == RunState.COMPLETED:
        return WentOn(True, f"the run completed (exit code {run.exit_code}); {none_after}")
    if run.state == RunState.EXITED:
        uncaught = (run.exception or "").split(":", 1)[0].strip()
        code = f"code {run.exit_code}" if run.exit_code is not None else "a non-zero code"
        if fail_type and uncaught == fail_type and then_text(comp) == "raised into the program":
            return WentOn(False, f"the run exited with {code} on an uncaught {uncaught}; {none_after}")
        after = f" after an uncaught {uncaught}" if uncaught else ""
        return WentOn(None, f"{none_after}; the run exited with {code}{after}")
    if run.state == RunState.UNKNOWN:
        return WentOn(None, f"{none_after}, and a bare trace does not record how the program ended")
    return WentOn(None, f"{none_after}; the run did not finish: {run.summary}")

"""Which rows are named by what the user compiled, and by what name (docs/COMPARING.md, "The row is the user's
function").

A frame of library code is counted in the nearest user frame of the stack torch recorded (the store's
`code.caller`). That frame is the user's function when it is one: a `train_step` handed a compiled model and
calling it. It says nothing when it is module-level code (`<module>`), the function that compiled the model and
runs it (a `main`, a worker: the observer saw the `torch.compile` call in it), or a wrapper calling a function
it closed over (a decorator's `wrapper`, a helper defined in such a function): then the row is named by the
compiled target, with the torch.compile call kept (`LlamaForCausalLM.forward`, compiled at llama_upgrade.py:57).

The target's name comes from the observer (`manifest.observed.compile_calls[].target`: `LlamaForCausalLM`,
`DistributedDataParallel(Net)`), else from the trace (the module's class as the guards on the frame a compiled
module's call entered name it, `code.compiled_module`); a module's row is its `forward`. When neither says, the
row stays the calling code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dynamo_diff_match import CallSite, FunctionRef, SnapshotSet
from dynamo_diff_match.snapshots import calls_a_closure, enclosing_function
from dynamo_diff_schema.capture import Capture, FunctionGroup
from dynamo_diff_schema.code_paths import library_path
from dynamo_diff_schema.compilation import Compilation, StackFrame
from dynamo_diff_schema.manifest import CompileCall

MODULE_LEVEL = "<module>"
# torch's own frame around a compiled callable it cannot trace from its first line (`wrap_inline`: a function in a
# file Dynamo skips, such as the wrapper `@torch.no_grad()` makes).
_WRAP_INLINE = ("torch/_dynamo/external_utils.py", "inner")


def top_level_site(group: FunctionGroup, compilations: dict[str, Compilation]) -> StackFrame | None:
    """The call of torch's wrapper frame (`wrap_inline`'s `inner`) when torch's stack names none (a function
    compiled and called from a script's top level: torch's `dynamo_start` stack holds the compiled frame alone): the
    innermost user frame the observer saw when its first compilation started; None otherwise."""
    code = group.code
    if code.caller is not None or (library_path(code.co_filename), code.co_name) != _WRAP_INLINE:
        return None
    for cid in group.compile_ids:
        c = compilations.get(cid)
        if c is not None and c.started_with:
            frame = c.started_with[0]
            return StackFrame(filename=frame.file, line=frame.line, name=frame.function or MODULE_LEVEL)
    return None


@dataclass(frozen=True)
class Target:
    name: str  # 'LlamaForCausalLM.forward'
    compiled_at: str  # 'path:line' of the torch.compile call ('' when not known)


def compiled_targets(
    capture: Capture, groups: Iterable[tuple[FunctionGroup, StackFrame | None]], sources: SnapshotSet
) -> dict[tuple[str, int, str], Target]:
    """(file, line, name) of a user call site -> the target its library frames are named by, for the call sites
    whose row is named by what was compiled. `groups`: each function group with its call (`code.caller`, else
    `top_level_site`)."""
    sites: dict[tuple[str, int, str], list[FunctionGroup]] = {}
    top_level: set[tuple[str, int, str]] = set()
    for group, site in groups:
        if site is not None:
            key = (site.filename, site.line or 0, site.name or "?")
            sites.setdefault(key, []).append(group)
            if group.code.caller is None:
                top_level.add(key)
    manifest = capture.capture.manifest
    calls = list(manifest.observed.compile_calls) if manifest is not None and manifest.observed is not None else []
    out: dict[tuple[str, int, str], Target] = {}
    for (file, line, name), at_site in sites.items():
        entered = next((g.code.entered for g in at_site if g.code.entered is not None), None)
        if entered is None and (file, line, name) in top_level:
            entered = "function"  # torch's wrapper of a function (a module's call would have named its class)
        if entered is None:
            continue  # no torch.compile entry on the stack: nothing to name the row by
        classes = [g.code.compiled_module for g in at_site if g.code.compiled_module]
        module_class = classes[0] if classes else None
        call = _compile_call(calls, file, line, name, sources, module_class)
        named_by_target = (
            name == MODULE_LEVEL
            or (call is not None and call[1])
            or calls_a_closure(CallSite(file, line, name), sources)
        )
        if not named_by_target:
            continue
        if call is not None and call[0].target:
            target = call[0].target
        elif module_class is not None:
            target = module_class.rsplit(".", 1)[-1]
        else:
            continue  # neither the observer nor the trace names what was compiled: the row stays the calling code
        if entered == "module":
            target += ".forward"
        out[(file, line, name)] = Target(target, _where(call[0], sources) if call is not None else "")
    return out


def _compile_call(
    calls: list[CompileCall], file: str, line: int, name: str, sources: SnapshotSet, module_class: str | None
) -> tuple[CompileCall, bool] | None:
    """The torch.compile call whose result the user's call at (file, line, name) called, and whether that call
    was made in the same function (or, at module level, at module level): the one made there, else the one whose
    target is the module's class; None when none or several fit."""
    here = enclosing_function(file, line, sources)
    same: list[CompileCall] = []
    for call in calls:
        where, _, at = (call.caller or "").rpartition(":")
        if not at.isdigit() or not _same_path(where, file, sources):
            continue
        theirs = enclosing_function(where, int(at), sources)
        if (name == MODULE_LEVEL and theirs is None) or (here is not None and theirs == here and name != MODULE_LEVEL):
            same.append(call)
    if len(same) == 1:
        return same[0], True
    short = module_class.rsplit(".", 1)[-1] if module_class else None
    fitting = [c for c in (same or calls) if short is not None and (c.target or "").split("(", 1)[0] == short]
    if len(fitting) == 1:
        return fitting[0], bool(same)
    return None


def _same_path(a: str, b: str, sources: SnapshotSet) -> bool:
    return a == b or (sources.paths.get(a) is not None and sources.paths.get(a) == sources.paths.get(b))


def _where(call: CompileCall, sources: SnapshotSet) -> str:
    where, _, at = (call.caller or "").rpartition(":")
    return f"{sources.paths.get(where, where)}:{at}" if where else ""


def with_target(ref: FunctionRef, targets: dict[tuple[str, int, str], Target]) -> FunctionRef:
    site = ref.caller
    if site is None:
        return ref
    target = targets.get((site.file, site.line, site.name))
    if target is None:
        return ref
    return FunctionRef(
        ref.file,
        ref.first_line,
        ref.name,
        CallSite(site.file, site.line, site.name, target.name, target.compiled_at),
        ref.generated,
    )

"""A next step for each cause a capture shows, computed from the evidence of all of a function's compilations
(what varied between them, not only the last failing guard), with the knob named for the capture's torch version
and what it costs. A hint, never a claim that the program gets faster: where the evidence does not support one
(a guard text that does not parse, a value used in Python control flow, two objects that may differ on purpose)
there is none (docs/SEMANTICS.md, "Suggestions")."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from dynamo_diff_match.snapshots import SnapshotSet
from dynamo_diff_schema.capture import Capture, CompiledState
from dynamo_diff_schema.compilation import Compilation, GraphBreak, GuardCategory, Specialization
from dynamo_diff_schema.lists import joined
from dynamo_diff_schema.suggestions import Suggestion, SuggestionKind

from dynamo_diff_compare.break_words import loop_break
from dynamo_diff_compare.changes import gist
from dynamo_diff_compare.user_lines import Carried, carried, resumed, shown_site

# torch's page for a graph-break registry id, as torch 2.13 and 2.14 write it at the end of each break message.
GB_PAGE = "https://meta-pytorch.github.io/compile-graph-break-site/gb/{}.html"

# torch.compile's own names, by the version that introduced them: torch 2.7 renamed cache_size_limit to
# recompile_limit (the old name stays as an alias) and added allow_unspec_int_on_nn_module; the traces of 2.6 and
# earlier have neither in their dynamo_config (fixtures/corpus). The capture's own configuration wins when recorded.
_RENAMED_IN = (2, 7)


@dataclass(frozen=True)
class TorchSetup:
    """What the capture says of its torch: the version and the Dynamo settings its compilation_metrics recorded."""

    version: str | None = None
    config: Mapping[str, Any] = field(default_factory=dict)
    static_by_flag: bool = False
    static_targets: frozenset[str] = frozenset()

    def static_for(self, function: str | None) -> bool:
        """Automatic dynamic shapes off for this function: the whole run, or every torch.compile call of it that the
        observer saw passed dynamic=False (a call's target is the function's bare name)."""
        bare = (function or "").rsplit(".", 1)[-1]
        return self.static_by_flag or bare in self.static_targets

    @classmethod
    def of(cls, capture: Capture) -> TorchSetup:
        """The settings every recorded configuration agrees on: a run whose torch.compile calls differ (one with
        dynamic=False, one without) records several, and a setting they differ on is not known for a function."""
        values: dict[str, Any] = {}
        differ: set[str] = set()
        for observed in capture.capture.observed_config:
            for key, value in observed.values.items():
                if key in values and values[key] != value:
                    differ.add(key)
                values.setdefault(key, value)
        config = {k: v for k, v in values.items() if k not in differ}
        manifest = capture.capture.manifest
        calls = manifest.observed.compile_calls if manifest is not None and manifest.observed is not None else []
        targets: dict[str, set[bool | None]] = {}
        for call in calls:
            if call.target:
                targets.setdefault(call.target, set()).add(call.dynamic)
        static = frozenset(t for t, flags in targets.items() if flags == {False})
        return cls(capture.capture.producer.torch, config, _static_by_flag(capture, config), static)

    @property
    def release(self) -> tuple[int, int] | None:
        match = re.match(r"(\d+)\.(\d+)", self.version or "")
        return (int(match.group(1)), int(match.group(2))) if match else None

    def has(self, name: str) -> bool | None:
        """Whether this torch has `torch._dynamo.config.<name>`: from the recorded configuration, else None."""
        if not any(k.startswith("dynamo.") for k in self.config):
            return None
        return f"dynamo.{name}" in self.config

    def setting(self, name: str) -> Any:
        return self.config.get(f"dynamo.{name}")

    def recompile_limit_name(self) -> str:
        if self.has("recompile_limit"):
            return "recompile_limit"
        if self.has("cache_size_limit"):
            return "cache_size_limit"
        release = self.release
        return "cache_size_limit" if release is not None and release < _RENAMED_IN else "recompile_limit"

    def has_unspec_int_on_nn_module(self) -> bool:
        known = self.has("allow_unspec_int_on_nn_module")
        if known is not None:
            return known
        release = self.release
        return release is not None and release >= _RENAMED_IN


def _static_by_flag(capture: Capture, config: Mapping[str, Any]) -> bool:
    """Whether Dynamo's automatic dynamic shapes were off for the whole run (torch.compile(dynamic=False) patches
    them off for its own calls). A rank keeps the configuration of its first compilation only, so it is believed
    when the observer saw every torch.compile call with dynamic=False, or, unobserved, when one function compiled."""
    if config.get("dynamo.automatic_dynamic_shapes") is not False:
        return False
    manifest = capture.capture.manifest
    calls = manifest.observed.compile_calls if manifest is not None and manifest.observed is not None else []
    if calls:
        return all(call.dynamic is False for call in calls)
    codes = {(c.code.co_filename, c.code.co_name, c.code.co_firstlineno) for r in capture.ranks for c in r.compilations}
    return len(codes) <= 1


# "0/1: " before each entry of recompile_reasons (the cached entry it is checked against).
_ENTRY = re.compile(r"^\s*!?(?:\d+/)*\d+(?:#\d+)?:\s*")
_SIZE = re.compile(
    r"^tensor '(?P<name>[^']+)' size mismatch at index (?P<dim>\d+)\. expected (?P<e>\d+), actual (?P<a>\d+)"
)
_DTYPE = re.compile(r"^tensor '(?P<name>[^']+)' dtype mismatch\. expected (?P<e>\w+), actual (?P<a>\w+)")
_DEVICE = re.compile(
    r"^tensor '(?P<name>[^']+)' dispatch key set mismatch\. expected DispatchKeySet\((?P<e>\w+)\b.*"
    r"actual DispatchKeySet\((?P<a>\w+)\b"
)
_REQUIRES_GRAD = re.compile(r"^tensor '(?P<name>[^']+)' requires_grad mismatch\. expected requires_grad=(?P<e>[01])")
_VALUE = re.compile(r"^(?P<subject>[A-Za-z_][\w.]*|L\['[^']+'\](?:\.\w+)*) == (?P<value>\S+)$")
_OBJ_ID = re.compile(r"^___check_obj_id\((?P<subject>[^,]+), (?P<id>\d+)\)")
# torch 2.13: `___check_type_id(self, 9389...), type=<class '__main__.make_head.<locals>.Head'>`: a class defined
# inside a function is a new class each time that function runs.
_TYPE_ID = re.compile(
    r"^___check_type_id\((?P<subject>[^,]+), (?P<id>\d+)\), type=<class '(?P<cls>[^']*<locals>[^']*)'>"
)
_INT = re.compile(r"^-?\d+$")
_FLOAT = re.compile(r"^-?(?:\d+\.\d*|\.\d+)(?:e[-+]?\d+)?$|^-?\d+e[-+]?\d+$|^-?inf$|^nan$")
# A use in Python control flow: a dynamic int or float would be specialised again there.
_CONTROL = re.compile(r"^(?:if|elif|while|assert|for|match|case)\b|\bif\b.*\belse\b|\brange\(")
# A positional or keyword argument of a wrapper (torch's inner(*args, **kwargs) around a compiled module).
_WRAPPED_ARG = re.compile(r"^(?:args\[\d+\]|kwargs\['\w+'\])$")
_IDENT = re.compile(r"^[A-Za-z_]\w*$")


def _internal(subject: str) -> bool:
    """A name torch makes (`___stack0`, a slot of Dynamo's stack at a graph break; any name with a leading
    `___`): no variable of the user's code, so no call or assignment of theirs can name it."""
    return subject.startswith("___")


# torch's ScalarType names (guard texts) -> the dtype a user writes.
_DTYPES = {
    "Float": "torch.float32",
    "Double": "torch.float64",
    "Half": "torch.float16",
    "BFloat16": "torch.bfloat16",
    "Long": "torch.int64",
    "Int": "torch.int32",
    "Short": "torch.int16",
    "Char": "torch.int8",
    "Byte": "torch.uint8",
    "Bool": "torch.bool",
    "ComplexFloat": "torch.complex64",
    "ComplexDouble": "torch.complex128",
}


def _guard_parts(text: str) -> tuple[str, str | None]:
    """A failing guard without its entry prefix, and the user's source line torch appends after '  # ' (None when
    it appends none, as torch 2.6-2.9 do for some guards)."""
    first = text.split("\n", 1)[0]
    pieces = first.split("  #")
    guard = _ENTRY.sub("", pieces[0]).strip()
    source = pieces[1].strip() if len(pieces) > 2 and pieces[1].strip() else None
    return guard, source


_GUARD_TYPE = re.compile(r"type=<class '(?:[\w.]*\.)?(?P<cls>\w+)'>")
# `mode is Mode.TRAIN`: compared with a class's member by identity.
_IS_MEMBER = re.compile(r"\bis\s+(?:not\s+)?[A-Z]\w*\.[A-Z_][A-Z0-9_]*\b")
_ENUM_BASES = r"(?:enum\.)?(?:Enum|IntEnum|StrEnum|Flag|IntFlag|ReprEnum)"


def _member(text: str, source: str | None, sources: SnapshotSet | None) -> bool:
    """Whether an identity guard's object is an enum's member: its type a class the source snapshot derives from
    Enum, or the guarded line compares it with a class's member (`mode is Mode.TRAIN`)."""
    if source is not None and _IS_MEMBER.search(source):
        return True
    match = _GUARD_TYPE.search(text)
    if match is None or sources is None:
        return False
    pattern = re.compile(rf"^\s*class\s+{re.escape(match['cls'])}\s*\([^)]*\b{_ENUM_BASES}\b", re.M)
    return any(pattern.search(text_) for text_ in sources.files.values())


def _guard_site(text: str) -> str | None:
    """The `file.py:LINE` of the user line torch appends to a failing guard (`  # code  # file.py:35 in fn`)."""
    pieces = text.split("\n", 1)[0].split("  #")
    if len(pieces) < 3:
        return None
    match = re.match(r"\s*(?:.*[/\\])?([^/\\\s]+:\d+)\b", pieces[2])
    return match.group(1) if match else None


def _name(subject: str) -> str:
    """`L['x']` -> `x` (the local name torch's older guards wrap)."""
    match = re.fullmatch(r"L\['([^']+)'\](.*)", subject)
    return match.group(1) + match.group(2) if match else subject


@dataclass
class _Seen:
    """What one thing (a tensor's dimension, a scalar, a mode, an object) did across a function's recompiles."""

    kind: SuggestionKind
    subject: str
    dim: int | None = None
    values: list[str] = field(default_factory=list)
    compile_ids: list[str] = field(default_factory=list)
    evidence_ids: list[str] = field(default_factory=list)
    facets: list[str] = field(default_factory=list)
    source: str | None = None
    source_site: str | None = None  # where `source` is: the guard's `file.py:LINE` (torch's comment after it)
    control_flow: bool = False
    # torch made it symbolic and the code fixed it back to one value (symbolic_shape_specialization).
    pinned: Specialization | None = None
    pinned_at: list[str] = field(default_factory=list)
    pinned_values: list[str] = field(default_factory=list)
    # A value on Dynamo's stack (`___stack0`): where it lives in the user's code (the resumed function, the line its
    # graph broke at, the file), from the resume function's name; None where it is not a resume function.
    slot_at: tuple[str, str, str] | None = None
    # A name the code after a graph break gets from the function it resumes, which is not known to be the caller's
    # argument (a local of that function, or no source to tell): where it comes from.
    carried: Carried | None = None
    # An argument of the function, guarded in the code after its graph break (the caller's value): those breaks.
    resumed_args: list[Carried] = field(default_factory=list)

    def saw(self, comp: Compilation, evidence_id: str | None, *values: str) -> None:
        for value in values:
            if value not in self.values:
                self.values.append(value)
        if comp.compile_id not in self.compile_ids:
            self.compile_ids.append(comp.compile_id)
        if evidence_id and evidence_id not in self.evidence_ids:
            self.evidence_ids.append(evidence_id)


def _base(subject: str) -> str:
    """`self.n` -> `self`: the local a guard's subject starts from."""
    return re.split(r"[.\[]", subject, maxsplit=1)[0]


def _entry_names(comps: Sequence[Compilation]) -> dict[str, set[str]]:
    """The names a function's own frame (not the code after one of its graph breaks) has guards on, by function:
    its locals when the frame starts, its arguments. What tells an argument from a local without a source."""
    out: dict[str, set[str]] = {}
    for comp in comps:
        if comp.recompile is None or resumed(comp.code.co_name) is not None or not comp.code.co_name:
            continue
        for reason in comp.recompile.reasons:
            guard, _ = _guard_parts(reason.text)
            m = _SIZE.match(guard) or _DTYPE.match(guard) or _DEVICE.match(guard) or _REQUIRES_GRAD.match(guard)
            name = m["name"] if m else (v["subject"] if (v := _VALUE.match(guard) or _OBJ_ID.match(guard)) else None)
            if name is not None:
                out.setdefault(comp.code.co_name, set()).add(_base(_name(name.strip())))
    return out


def _ids(ids: Sequence[str]) -> str:
    return joined(ids, 6)


def _recompiles(seen: _Seen) -> str:
    return f"its guard failed at {_ids(seen.compile_ids)}"


def function_suggestions(
    comps: Sequence[Compilation],
    setup: TorchSetup,
    function: str | None = None,
    sources: SnapshotSet | None = None,
) -> list[Suggestion]:
    """The next steps computed from all of one function's compilations (in compile order): one per thing that
    varied between them, then the recompile limit when it was hit. `sources` (the capture's source snapshot) tells
    an argument from a local where the code after a graph break guards a name."""
    found: dict[tuple[str, str, int | None, int | None, str | None], _Seen] = {}
    comp: Compilation
    entered = _entry_names(comps)

    def seen(kind: SuggestionKind, subject: str, dim: int | None = None, rank: int | None = None) -> _Seen:
        # A stack slot is one value of one resume function: ___stack0 of another resume function is another value.
        # So is a name a resume function gets that is not the caller's argument (a local of the function it resumes).
        co_name = comp.code.co_name
        carry = None if _internal(subject) else carried(sources, comp.code.co_filename, co_name, subject)
        if carry is not None and carry.argument is None and _base(subject) in entered.get(carry.function, set()):
            carry = replace(carry, argument=True)  # the function's own frame guarded it on entry: an argument
        apart = _internal(subject) or (carry is not None and carry.argument is not True)
        made = found.setdefault((str(kind), subject, dim, rank, co_name if apart else None), _Seen(kind, subject, dim))
        if _internal(subject) and made.slot_at is None and (at := resumed(co_name)):
            file = (comp.code.co_filename or "?").replace("\\", "/").rsplit("/", 1)[-1]
            made.slot_at = (at[0], str(at[1]), file)
        if carry is not None and carry.argument is not True:
            made.carried = made.carried or carry
        elif carry is not None and carry not in made.resumed_args:
            made.resumed_args.append(carry)
        return made

    for comp in comps:
        for reason in comp.recompile.reasons if comp.recompile is not None else []:
            guard, source = _guard_parts(reason.text)
            ev = reason.evidence_id
            category = reason.category
            if category == GuardCategory.SHAPE and (m := _SIZE.match(guard)):
                seen(SuggestionKind.MARK_DYNAMIC, m["name"], int(m["dim"])).saw(comp, ev, m["e"], m["a"])
            elif category == GuardCategory.DTYPE and (m := _DTYPE.match(guard)):
                s = seen(SuggestionKind.DTYPE_DEVICE, m["name"])
                s.facets.append("dtype") if "dtype" not in s.facets else None
                s.saw(comp, ev, m["e"], m["a"])
            elif category == GuardCategory.DEVICE and (m := _DEVICE.match(guard)):
                s = seen(SuggestionKind.DTYPE_DEVICE, m["name"])
                s.facets.append("device") if "device" not in s.facets else None
                s.saw(comp, ev, m["e"], m["a"])
            elif category == GuardCategory.GRAD_MODE:
                s = seen(SuggestionKind.GRAD_MODE, "mode")
                s.facets.append("grad mode") if "grad mode" not in s.facets else None
                s.saw(comp, ev)
            elif category == GuardCategory.REQUIRES_GRAD and (m := _REQUIRES_GRAD.match(guard)):
                s = seen(SuggestionKind.GRAD_MODE, "mode")
                facet = f"requires_grad of {_name(m['name'])}"
                s.facets.append(facet) if facet not in s.facets else None
                expected = m["e"] == "1"
                s.saw(comp, ev, f"requires_grad={expected}", f"requires_grad={not expected}")
            elif category == GuardCategory.VALUE and (m := _VALUE.match(guard)):
                subject, value = _name(m["subject"]), m["value"]
                if subject.endswith(".training") and value in ("True", "False"):
                    s = seen(SuggestionKind.GRAD_MODE, "mode")
                    facet = f"{subject} (train/eval)"
                    s.facets.append(facet) if facet not in s.facets else None
                    s.saw(comp, ev, f"{subject}={value}", f"{subject}={value == 'False'}")
                elif _INT.match(value) or _FLOAT.match(value):
                    s = seen(SuggestionKind.DYNAMIC_SCALAR, subject)
                    s.facets.append("int" if _INT.match(value) else "float")
                    if s.source is None:
                        s.source, s.source_site = source, _guard_site(reason.text)
                    s.control_flow = s.control_flow or source is None or bool(_CONTROL.search(source))
                    s.saw(comp, ev, value)
            elif category == GuardCategory.IDENTITY and (m := _OBJ_ID.match(guard)):
                subject = _name(m["subject"].strip())
                if _member(reason.text, source, sources):
                    continue  # an enum's members (`mode is Mode.TRAIN`): long-lived objects that differ on purpose
                if not subject.endswith(".__code__"):  # another code object is another function, not a new one
                    # An object id is an address in one process: ids are compared within a rank only.
                    seen(SuggestionKind.CREATE_ONCE, subject, rank=comp.identity.rank).saw(comp, ev, m["id"])
            elif category == GuardCategory.TYPE and (m := _TYPE_ID.match(guard)):
                s = seen(SuggestionKind.CREATE_ONCE, _name(m["subject"].strip()), rank=comp.identity.rank)
                cls = m["cls"].removeprefix("__main__.")
                s.facets.append(cls) if cls not in s.facets else None
                s.saw(comp, ev, m["id"])
    pins = _pins(comps)
    for item in found.values():
        key = (item.subject, item.dim)
        if (
            item.kind in (SuggestionKind.MARK_DYNAMIC, SuggestionKind.DYNAMIC_SCALAR)
            and key in pins
            and not (_internal(item.subject))
        ):
            item.pinned, item.pinned_at, item.pinned_values = pins[key]
    out: list[Suggestion] = []
    for item in found.values():
        made = _suggest(item, setup, function)
        if made is not None and not any(o.kind == made.kind and o.subject == made.subject for o in out):
            out.append(made)
    limit = _limit_suggestion(comps, setup, function, out)
    return out + ([limit] if limit is not None else [])


# What a specialized symbol stood for: a size (`L['feats'].size()[1]`) or a value (`L['pos']`).
_SIZE_SOURCE = re.compile(r"^(?P<base>.+)\.size\(\)\[(?P<dim>\d+)\]$")


def _pins(
    comps: Sequence[Compilation],
) -> dict[tuple[str, int | None], tuple[Specialization, list[str], list[str]]]:
    """The symbols torch made and the code fixed back to one value at a user line, by what they stood for (the
    name a guard gives it, and the dimension of a size): the first such record, the compilations it was in and the
    values it was fixed to."""
    pins: dict[tuple[str, int | None], tuple[Specialization, list[str], list[str]]] = {}
    for comp in comps:
        for spec in comp.specializations:
            if spec.source is None or spec.line is None:
                continue  # no user line to name: nothing to say about where
            m = _SIZE_SOURCE.match(spec.source)
            key = (_name(m["base"]), int(m["dim"])) if m else (_name(spec.source), None)
            _, at, values = pins.setdefault(key, (spec, [], []))
            if comp.compile_id not in at:
                at.append(comp.compile_id)
            if spec.value is not None and spec.value not in values:
                values.append(spec.value)
    return pins


# A line that raises or asserts (a check of the input, not an operation on it).
_RAISES = re.compile(r"^\s*(raise|assert)\b")


def _pinned_site(spec: Specialization) -> str:
    """`flaky_job.py:33 (`logits = feats @ W + bias`)`."""
    file = (spec.file or "?").replace("\\", "/").rsplit("/", 1)[-1]
    return f"{file}:{spec.line}" + (f" (`{spec.code.strip()}`)" if spec.code else "")


def _pinned_cause(seen: _Seen, spec: Specialization, what: str) -> str:
    reason = f", {spec.reason}" if spec.reason else ""
    return (
        f"torch made {what} symbolic ({spec.symbol}) and the code at {_pinned_site(spec)} fixed it back to one "
        f"value{' each time' if len(seen.pinned_at) > 1 else ''} ({_ids(seen.pinned_values)}{reason}; at "
        f"{_ids(seen.pinned_at)}): that line pins it, so dynamic=True, mark_dynamic and automatic dynamic shapes do "
        "not keep it symbolic"
    )


def _suggest(seen: _Seen, setup: TorchSetup, function: str | None) -> Suggestion | None:
    name = seen.subject
    base: dict[str, Any] = {
        "function": function,
        "compile_ids": seen.compile_ids,
        "evidence_ids": seen.evidence_ids,
    }
    if _internal(name):
        return _slot(seen, setup, base)
    if seen.carried is not None:
        return _local(seen, setup, base)
    made = _named(seen, setup, function, base)
    if made is not None and seen.resumed_args and seen.kind != SuggestionKind.GRAD_MODE:
        sites = ", ".join(dict.fromkeys(c.site for c in seen.resumed_args))
        what = seen.resumed_args[0].function
        holds = ", so a mark before the call holds there too" if seen.kind == SuggestionKind.MARK_DYNAMIC else ""
        made = made.model_copy(
            update={
                "cause": f"{made.cause}; {name} is an argument of {what} (the caller's value{holds}), guarded in the "
                f"code after its graph break at {sites}"
            }
        )
    return made


def _named(seen: _Seen, setup: TorchSetup, function: str | None, base: dict[str, Any]) -> Suggestion | None:
    """A suggestion for something the caller passed or the function reads (an argument, an attribute, a global)."""
    name = seen.subject
    if seen.kind == SuggestionKind.MARK_DYNAMIC:
        if not (_IDENT.match(name) or _WRAPPED_ARG.match(name)) or len(seen.values) < 2:
            return None  # a parameter or attribute (`self.weight`): not a call site's tensor
        dim = seen.dim
        if _IDENT.match(name):
            what, arg, knob = f"dim {dim} of {name}", name, f"torch._dynamo.mark_dynamic({name}, {dim})"
        else:  # torch's wrapper around a compiled module names the call's arguments args[N] / kwargs['k']
            what = f"dim {dim} of the tensor the call passes as {name}"
            arg, knob = "that tensor", "torch._dynamo.mark_dynamic"
        flag = (
            "; automatic dynamic shapes were off (torch.compile(dynamic=False) or the config): each new size compiles "
            "again"
            if setup.static_for(function)
            else "; automatic dynamic shapes were on, so torch made that dimension dynamic when it recompiled and "
            "later sizes reuse that graph: marking it before the first call saves that recompile"
            if setup.setting("automatic_dynamic_shapes") is True and not setup.static_by_flag
            else ""
        )
        if seen.pinned is not None:
            spec = seen.pinned
            if spec.code is not None and _RAISES.match(spec.code):
                # The size was pinned on the way to the code's own raise (an input check): no operation needs
                # one size, and neither a mark nor another formulation is the change. The compilation's own
                # failure and break say what happened.
                return None
            return Suggestion(
                kind=seen.kind,
                subject=name,
                dim=dim,
                values=seen.values,
                cause=f"the size of {name} at dim {dim} took {', '.join(seen.values)} ({_recompiles(seen)}); "
                + _pinned_cause(seen, spec, f"dim {dim} of {name}"),
                change=f"the change is to {_pinned_site(spec)}: what it combines dim {dim} of {name} with needs one "
                f"size there ({spec.value}); make that operation take any size, or keep {name} at one size (marking "
                "it dynamic cannot help: torch fixes it again, or raises where the mark is enforced)",
                knob=None,
                cost="an operation that takes any size may need a different formulation; one size compiles once",
                **base,
            )
        small = [v for v in seen.values if v in ("0", "1")]
        stays = (
            f"; size{'s' if len(small) > 1 else ''} {' and '.join(small)} still compile{'' if len(small) > 1 else 's'} "
            "on its own (torch specialises sizes 0 and 1)"
            if small
            else ""
        )
        return Suggestion(
            kind=seen.kind,
            subject=name,
            dim=dim,
            values=seen.values,
            cause=f"the size of {name} at dim {dim} took {', '.join(seen.values)} ({_recompiles(seen)}){flag}",
            change=f"mark {what} dynamic before the call: torch._dynamo.mark_dynamic({arg}, {dim}) (or "
            "torch._dynamo.maybe_mark_dynamic, which lets it stay static, or torch.compile(..., dynamic=True) for "
            "every dimension)",
            knob=knob,
            cost="one graph for any size of that dimension: its kernels may be slower than ones built for one "
            f"size{stays}",
            **base,
        )
    if seen.kind == SuggestionKind.DTYPE_DEVICE:
        if len(seen.values) < 2:
            return None
        what = " and ".join(seen.facets)
        first = seen.values[0]
        if "dtype" in seen.facets:
            cast = f"{name}.to({_DTYPES[first]})" if first in _DTYPES else f"{name}.to(<one dtype>)"
        else:
            cast = f"{name}.to('{first.lower()}')"
        return Suggestion(
            kind=seen.kind,
            subject=name,
            values=seen.values,
            cause=f"the {what} of {name} took {', '.join(seen.values)} ({_recompiles(seen)})",
            change=f"cast before the call ({cast}), or compile a separate function for each {what} (two "
            "torch.compile wrappers of one function share its compiled entries)",
            cost="a separate function still compiles once per kind; a cast copies the tensor at each call and can "
            "change the results (precision, device)",
            **base,
        )
    if seen.kind == SuggestionKind.GRAD_MODE:
        what = ", ".join(seen.facets)
        values = f" ({', '.join(seen.values)})" if seen.values else ""
        return Suggestion(
            kind=seen.kind,
            subject=", ".join(seen.facets),
            values=seen.values,
            cause=f"{what} changed between calls{values} ({_recompiles(seen)})",
            change="call it in one mode (the evaluation under the same grad mode as training, tensors with the same "
            "requires_grad, the module in one of train()/eval()), or compile a separate function for each mode",
            cost="a separate function still compiles once per mode; keeping grad mode on in an evaluation keeps "
            "autograd's memory",
            **base,
        )
    if seen.kind == SuggestionKind.DYNAMIC_SCALAR:
        return _scalar(seen, setup, base)
    if seen.kind == SuggestionKind.CREATE_ONCE:
        # Two objects may differ on purpose (two activation functions passed in turn): one new object per
        # recompile, at least three of them, reads as one made at every call.
        if len(seen.values) < 2 or len(seen.compile_ids) < 2:
            return None
        if seen.facets:  # a type guard: the class itself is new at each call
            cls = seen.facets[0]
            maker = cls.split(".<locals>.", 1)[0]
            return Suggestion(
                kind=seen.kind,
                subject=name,
                values=[f"type id {v}" for v in seen.values],
                cause=f"the class of {name} ({cls}) was a new class at each of {len(seen.compile_ids) + 1} "
                f"compilations: it is defined inside {maker}, which made it again ({_recompiles(seen)})",
                change=f"define the class once, outside {maker} (or build the object once and reuse it)",
                cost="none for the graph; if each class differs on purpose, each one compiles once and this does not "
                "apply",
                **base,
            )
        return Suggestion(
            kind=seen.kind,
            subject=name,
            values=[f"id {v}" for v in seen.values],
            cause=f"{name} was another object at each of {len(seen.compile_ids) + 1} compilations (the graph holds "
            f"it by identity; {_recompiles(seen)})",
            change=f"create {name} once, outside the call (a module, function or closure made at every call is a new "
            "object each time)",
            cost="none for the graph; if the objects differ on purpose, each one compiles once and this does not apply",
            **base,
        )
    return None


def _slot(seen: _Seen, setup: TorchSetup, base: dict[str, Any]) -> Suggestion | None:
    """A value Dynamo kept on its stack across a graph break (`___stack0`): what varied and at which line of the
    user's code, never the slot's name as if it were a variable; nothing where it is not a resume function's, or
    where the evidence does not support a change."""
    if seen.slot_at is None:
        return None
    function, line, file = seen.slot_at
    where = f"{file}:{line}"
    live = (
        f"live at line {line} of {function} ({where}) when its graph broke there (Dynamo resumed after the break "
        "with it as an input; no variable of the code)"
        + (
            f", guarded where it is used ({seen.source_site or 'the line'}: `{seen.source}`)"
            if seen.source and seen.source_site != where
            else f" (`{seen.source}`)"
            if seen.source
            else ""
        )
    )
    subject = f"the value at line {line} of {function}"
    if seen.kind == SuggestionKind.MARK_DYNAMIC and len(seen.values) > 1:
        flag = (
            "; automatic dynamic shapes were on, so torch made that dimension dynamic when it recompiled and later "
            "sizes reuse that graph"
            if setup.setting("automatic_dynamic_shapes") is True and not setup.static_for(base["function"])
            else ""
        )
        return Suggestion(
            kind=seen.kind,
            subject=subject,
            dim=seen.dim,
            values=seen.values,
            cause=f"the size at dim {seen.dim} of the tensor {live} took {', '.join(seen.values)} "
            f"({_recompiles(seen)}){flag}",
            change=f"no mark_dynamic call can name that tensor: remove the graph break at {where} so it stays inside "
            "one graph, or compile with dynamic=True (sizes are dynamic from the first compilation, in the code "
            "after a break too)",
            knob="torch.compile(..., dynamic=True)",
            cost="one graph for any size of that dimension: its kernels may be slower than ones built for one size",
            **base,
        )
    if seen.kind == SuggestionKind.DYNAMIC_SCALAR and not seen.control_flow:
        kind = "float" if "float" in seen.facets else "int"
        knob = _scalar_knob(kind, setup, base["function"])
        return Suggestion(
            kind=seen.kind,
            subject=subject,
            values=seen.values,
            cause=f"the Python {kind} {live} was compiled as a constant ({', '.join(seen.values)}) and took another "
            f"value ({_recompiles(seen)})",
            change=f"compute that {kind} as a tensor at {where} (with torch operations), or compute it outside the "
            f"compiled function and pass it in as a tensor argument, or {knob}",
            knob=knob,
            cost=f"the graph then reads the {kind} at run time instead of folding it in: a dynamic value may give "
            "slower kernels, and a tensor argument is one more input",
            **base,
        )
    return None  # a dtype, device or object identity of a stack value: no change to its code is known


_NO_MARK = "torch._dynamo.mark_dynamic inside {function} raises (torch refuses to trace it)"


def _local(seen: _Seen, setup: TorchSetup, base: dict[str, Any]) -> Suggestion | None:
    """A name the code after a graph break gets from the function it resumes that is not the caller's argument (a
    local the function made, or one the capture has no source to tell): where it comes from and what can change
    there, never a call or a cast before the call that names it as if the caller passed it."""
    carry = seen.carried
    assert carry is not None
    name, fn = seen.subject, carry.function
    local = carry.argument is False
    made = carry.made
    made_at = f"{made.site}" + (f" (`{made.code}`)" if made is not None and made.code else "") if made else None
    where = (
        f"{name} is a local of {fn}, made at {made_at}, that the code after its graph break at {carry.site} gets "
        f"as an input (Dynamo compiles that code as torch_dynamo_resume_in_{fn}_at_{carry.line})"
        if local
        else f"the code after the graph break at {carry.site} gets {name} from {fn} as an input (an argument or a "
        f"local of {fn}: the capture has no source of {fn} to tell)"
    )
    subject = f"{name}, a local of {fn}" if local else f"{name}, after the graph break at {carry.site}"
    no_mark = _NO_MARK.format(function=fn)
    dynamic = "compile with dynamic=True (sizes are dynamic from the first compilation, in the code after a break too)"
    if seen.kind == SuggestionKind.MARK_DYNAMIC and len(seen.values) > 1:
        flag = (
            "; automatic dynamic shapes were on, so torch made that dimension dynamic when it recompiled and later "
            "sizes reuse that graph"
            if setup.setting("automatic_dynamic_shapes") is True and not setup.static_for(base["function"])
            else ""
        )
        if local:
            change = (
                f"{name} is no argument of {fn}, so no caller can pass or mark it, and {no_mark}: remove the graph "
                f"break at {carry.site} so that {name} stays in one graph with what it is made from, or {dynamic}"
            )
        else:
            change = (
                f"if {name} is an argument of {fn}, mark it before the call: torch._dynamo.mark_dynamic({name}, "
                f"{seen.dim}); if it is a local, no caller can mark it and {no_mark}: remove the graph break at "
                f"{carry.site}, or {dynamic}"
            )
        return Suggestion(
            kind=seen.kind,
            subject=subject,
            dim=seen.dim,
            values=seen.values,
            cause=f"the size of {name} at dim {seen.dim} took {', '.join(seen.values)} ({_recompiles(seen)}): {where}"
            f"{flag}",
            change=change,
            knob="torch.compile(..., dynamic=True)",
            cost="one graph for any size of that dimension: its kernels may be slower than ones built for one size",
            **base,
        )
    if seen.kind == SuggestionKind.DYNAMIC_SCALAR and not seen.control_flow:
        kind = "float" if "float" in seen.facets else "int"
        knob = _scalar_knob(kind, setup, base["function"], on_module=name.startswith("self."))
        at = f" where {fn} makes it, at {made_at}," if made_at else f" where {fn} gets or makes it"
        return Suggestion(
            kind=seen.kind,
            subject=subject,
            values=seen.values,
            cause=f"the Python {kind} {name} was compiled as a constant ({', '.join(seen.values)}) and took another "
            f"value ({_recompiles(seen)}; used in `{seen.source}`): {where}",
            change=f"compute {name} as a tensor{at} (with torch operations), or compute it outside the compiled "
            f"function and pass it in as a tensor argument, or {knob}",
            knob=knob,
            cost=f"the graph then reads the {kind} at run time instead of folding it in: a dynamic value may give "
            "slower kernels, and a tensor argument is one more input",
            **base,
        )
    if seen.kind == SuggestionKind.DTYPE_DEVICE and len(seen.values) > 1:
        what = " and ".join(seen.facets)
        first = seen.values[0]
        cast = (
            (f"{name}.to({_DTYPES[first]})" if first in _DTYPES else f"{name}.to(<one dtype>)")
            if "dtype" in seen.facets
            else f"{name}.to('{first.lower()}')"
        )
        at = f"where {fn} makes it, at {made_at}" if made_at else f"where {fn} gets or makes it"
        return Suggestion(
            kind=seen.kind,
            subject=subject,
            values=seen.values,
            cause=f"the {what} of {name} took {', '.join(seen.values)} ({_recompiles(seen)}): {where}",
            change=f"cast it {at}: {cast}, or cast what it is made from before the call to {fn}",
            cost="a cast copies the tensor at each call and can change the results (precision, device)",
            **base,
        )
    if (
        seen.kind == SuggestionKind.CREATE_ONCE
        and not seen.facets
        and len(seen.values) > 1
        and len(seen.compile_ids) > 1
    ):
        return Suggestion(
            kind=seen.kind,
            subject=subject,
            values=[f"id {v}" for v in seen.values],
            cause=f"{name} was another object at each of {len(seen.compile_ids) + 1} compilations (the graph holds "
            f"it by identity; {_recompiles(seen)}): {where}",
            change=f"create it once, outside {fn}, and pass it in or keep it (an object {fn} makes at every call is a "
            "new object each time)",
            cost="none for the graph; if the objects differ on purpose, each one compiles once and this does not apply",
            **base,
        )
    if seen.kind == SuggestionKind.CREATE_ONCE and seen.facets:
        return _named(seen, setup, base["function"], base)  # a class made inside a function: said by its maker
    return None


def _scalar_knob(kind: str, setup: TorchSetup, function: str | None, *, on_module: bool = False) -> str:
    """The setting that lets a Python int or float stay dynamic, for the capture's torch and how it compiled."""
    if on_module and kind == "int" and setup.has_unspec_int_on_nn_module():
        return "torch._dynamo.config.allow_unspec_int_on_nn_module = True"
    if setup.setting(f"specialize_{kind}") is True:
        return f"torch._dynamo.config.specialize_{kind} = False"
    if setup.static_for(function):
        return "torch.compile(..., dynamic=None)"
    return "torch.compile(..., dynamic=True)"


def _scalar(seen: _Seen, setup: TorchSetup, base: dict[str, Any]) -> Suggestion | None:
    """A Python int or float the graph was specialised to, when its use is arithmetic the graph can take as data."""
    if seen.control_flow:
        return None  # an `if n:` or `range(n)` specialises a dynamic value again; no source line: not known
    name = seen.subject
    kind = "float" if "float" in seen.facets else "int"
    knob = _scalar_knob(kind, setup, base["function"], on_module=name.startswith("self."))
    values = ", ".join(seen.values)
    if seen.pinned is not None:
        spec = seen.pinned
        return Suggestion(
            kind=seen.kind,
            subject=name,
            values=seen.values,
            cause=f"the Python {kind} {name} was compiled as a constant ({values}) and took another value "
            f"({_recompiles(seen)}); " + _pinned_cause(seen, spec, name),
            change=f"the change is to {_pinned_site(spec)}: index or slice with tensor operations instead of the "
            f"Python {kind} {name} (and pass {name} as a tensor), so the graph takes it as data",
            knob=None,
            cost=f"the graph then reads {name} at run time instead of folding it in: tensor indexing may be slower "
            "than a constant slice, and a tensor argument is one more input",
            **base,
        )
    how = {
        "torch._dynamo.config.allow_unspec_int_on_nn_module = True": ", or let Dynamo treat int attributes of "
        "modules as dynamic (torch._dynamo.config.allow_unspec_int_on_nn_module = True)",
        f"torch._dynamo.config.specialize_{kind} = False": f", or stop specialising {kind}s "
        f"(torch._dynamo.config.specialize_{kind} = False)",
        "torch.compile(..., dynamic=None)": ", or compile without dynamic=False (dynamic=None, the default, makes "
        f"{'an int' if kind == 'int' else 'a float'} that changed dynamic at its first recompile; later values "
        "reuse that graph)",
        "torch.compile(..., dynamic=True)": ", or compile with dynamic=True (the same as "
        "torch._dynamo.config.assume_static_by_default = False: ints, floats and sizes are dynamic from the first "
        "compilation, not from their first change)",
    }.get(knob or "", "")
    return Suggestion(
        kind=seen.kind,
        subject=name,
        values=seen.values,
        cause=f"the Python {kind} {name} was compiled as a constant ({values}) and took another value "
        f"({_recompiles(seen)}; used in `{seen.source}`)",
        change=f"pass {name} as a tensor (torch.tensor({name})){how}",
        knob=knob,
        cost=f"the graph then reads {name} at run time instead of folding it in: a dynamic value may give slower "
        "kernels, and a tensor argument is one more input",
        **base,
    )


def _limit_suggestion(
    comps: Sequence[Compilation], setup: TorchSetup, function: str | None, causes: Sequence[Suggestion]
) -> Suggestion | None:
    hits = [c for c in comps if any(e.kind == "recompile_limit" for e in c.limit_events)]
    if not hits:
        return None
    name = setup.recompile_limit_name()
    current = setup.setting(name)
    if current is None:
        said = re.search(r"currently set to (\d+)", hits[0].limit_events[0].message)
        current = said.group(1) if said else None
    now = f" (currently {current})" if current is not None else ""
    behind = "; ".join(f"{s.kind}: {s.cause}" for s in causes if s.kind != SuggestionKind.RECOMPILE_LIMIT)
    if behind:
        change = f"remove what drove it there (the suggestion{'s' if len(causes) > 1 else ''} above); raise "
        change += f"torch._dynamo.config.{name}{now} only if every variant is wanted"
    else:
        change = f"find what varied (its recompile reasons), or raise torch._dynamo.config.{name}{now} if every "
        change += "variant is wanted"
    evidence = [e.evidence_id for c in hits for e in c.limit_events if e.evidence_id]
    return Suggestion(
        kind=SuggestionKind.RECOMPILE_LIMIT,
        function=function,
        subject=name,
        values=[str(current)] if current is not None else [],
        cause=f"the recompile limit was hit at {_ids([c.compile_id for c in hits])} after {len(comps) - len(hits)} "
        f"compilation(s); nothing more compiled for the function (its calls ran its earlier entries where their "
        "guards passed, else eagerly)" + (f"; behind it: {behind}" if behind else ""),
        change=change,
        knob=f"torch._dynamo.config.{name}",
        cost="a higher limit allows more compilations, each with its compile time and a cached graph",
        compile_ids=[c.compile_id for c in hits],
        evidence_ids=list(dict.fromkeys([*evidence, *(e for s in causes for e in s.evidence_ids)])),
    )


_EXPLANATION = re.compile(r"^\s*Explanation:\s*(.+)$")
_HINT = re.compile(r"^\s*Hint:\s*(.+)$")
_GB_ID = re.compile(r"/gb/(gb\d+)\.html")
_CONFIG_KNOB = re.compile(r"`?(torch\._dynamo\.config\.\w+)(?: = (\w+))?`?")
# torch's hint that is not a change to the user's code.
_NOT_A_CHANGE = re.compile(r"\b(?:report|file) an issue\b", re.I)  # as break_words leaves them out


def torch_hints(text: str) -> list[str]:
    """torch's "Explanation:" and "Hint:" lines of a message, verbatim and in order (torch 2.7 and later write
    them under a graph break's type and in an Unsupported failure)."""
    out = []
    for line in text.split("\n"):
        if (m := _EXPLANATION.match(line)) or (m := _HINT.match(line)):
            out.append(("Explanation: " if line.strip().startswith("Explanation") else "Hint: ") + m.group(1).strip())
    return out


def _break_texts(gb: GraphBreak) -> tuple[str | None, list[str], str | None]:
    """A break's explanation, hints and operator: the record's own fields where the reader keeps them, else read
    from its reason."""
    explanation = getattr(gb, "explanation", None)
    hints = [re.sub(r"^\s*Hint:\s*", "", h) for h in getattr(gb, "hints", None) or []]
    operator = getattr(gb, "operator", None)
    if explanation:
        explanation = re.sub(r"^\s*Explanation:\s*", "", explanation)
    if explanation is None and not hints:
        lines = torch_hints(gb.reason)
        explanation = next((x.split(": ", 1)[1] for x in lines if x.startswith("Explanation: ")), None)
        hints = [x.split(": ", 1)[1] for x in lines if x.startswith("Hint: ")]
    return explanation, hints, operator


def _from_hints(hints: Sequence[str]) -> tuple[str | None, str | None]:
    """torch's hints that are changes to make, joined (the first, then what else torch says), and the config knob
    one of them names."""
    changes = [h for h in hints if not _NOT_A_CHANGE.search(h)]
    knob = None
    for hint in changes:
        if m := _CONFIG_KNOB.search(hint):
            knob = m.group(1) + (f" = {m.group(2)}" if m.group(2) else "")
            break
    if not changes:
        return None, None
    change = changes[0].rstrip(".") + "".join(f"; torch also says: {h.rstrip('.')}" for h in changes[1:3])
    return change, knob


def compilation_suggestions(comp: Compilation, function: str | None = None) -> list[Suggestion]:
    """The next steps whose cause is this compilation's own: each graph break, a failure that torch ran eagerly
    (suppress_errors), an Unsupported failure whose message carries torch's hints and that no break record of the
    compilation already names (fullgraph)."""
    out: list[Suggestion] = []
    done: set[tuple[str, str | None]] = set()
    # A break inside a for/while loop makes torch skip the whole function (torch 2.8+: "graph break in loop").
    in_loop = comp.failure is not None and loop_break(comp.failure.reason or "")
    for gb in comp.graph_breaks:
        if (gb.key, gb.site) in done:
            continue
        done.add((gb.key, gb.site))
        explanation, hints, operator = _break_texts(gb)
        if gb.gb_id is None and not hints:
            continue  # nothing beyond the break's type to go on
        change, knob = _from_hints(hints)
        if in_loop:
            what_call = f"`{operator}`" if operator else "what breaks the graph"
            change = (
                f"move {what_call} out of the for/while loop or out of the compiled function: a graph break inside "
                "a loop makes torch skip the whole function, which then runs eagerly at every call"
                + (f"; torch's hint: {change}" if change else "")
            )
        what = gb.gb_type or gb.reason.split("\n", 1)[0]
        op = f" ({operator})" if operator else ""
        page = getattr(gb, "url", None) or (GB_PAGE.format(gb.gb_id) if gb.gb_id else None)
        out.append(
            Suggestion(
                kind=SuggestionKind.GRAPH_BREAK,
                function=function,
                subject=gb.gb_id or what,
                cause=f"graph break{' ' + gb.gb_id if gb.gb_id else ''} at {gb.site or '?'}: {what}{op}",
                change=change or f"see torch's page for {gb.gb_id}",
                knob=knob,
                cost="the change is at the break's site; what a whole graph gains depends on what the break split",
                torch_hints=[*([f"Explanation: {explanation}"] if explanation else []), *(f"Hint: {h}" for h in hints)],
                docs=page,
                compile_ids=[comp.compile_id],
                evidence_ids=[gb.evidence_id] if gb.evidence_id else [],
            )
        )
    failure = comp.failure
    if failure is None or comp.limit_events:
        return out
    text = failure.reason or ""
    lines = torch_hints(text)
    hints = [x.split(": ", 1)[1] for x in lines if x.startswith("Hint: ")]
    site = f" at {shown_site(f'{failure.user_file}:{failure.user_line}')}" if failure.user_file else ""
    if failure.suppressed:
        change, knob = _from_hints(hints)
        out.append(
            Suggestion(
                kind=SuggestionKind.SUPPRESSED_FAILURE,
                function=function,
                subject=failure.fail_type,
                cause=f"{failure.fail_type or 'a failure'}{site}: {gist(text)}; torch ran the frame without compiling "
                "it (suppress_errors)",
                change=(change or f"fix what failed: {gist(text)}")
                + "; torch._dynamo.config.suppress_errors = False raises it where it happens",
                knob=knob or "torch._dynamo.config.suppress_errors = False",
                cost="until it is fixed the frame runs eagerly, uncompiled, at every call",
                torch_hints=lines,
                compile_ids=[comp.compile_id],
                evidence_ids=failure.evidence_ids[:2],
            )
        )
    elif hints and (m := _GB_ID.search(text)) and not any(gb.gb_id == m.group(1) for gb in comp.graph_breaks):
        # (a break record of the same type is already its suggestion above: the failure is that break, e.g. a
        # frame torch skipped, not a second cause)
        change, knob = _from_hints(hints)
        what = text.split("\n", 1)[0]
        out.append(
            Suggestion(
                kind=SuggestionKind.GRAPH_BREAK,
                function=function,
                subject=m.group(1),
                cause=f"{failure.fail_type or 'failure'} {m.group(1)}{site}: {what} (a graph break where none is "
                "allowed: fullgraph)",
                change=change or f"see torch's page for {m.group(1)}",
                knob=knob,
                cost="the change is at the break's site",
                torch_hints=lines,
                docs=GB_PAGE.format(m.group(1)),
                compile_ids=[comp.compile_id],
                evidence_ids=failure.evidence_ids[:2],
            )
        )
    return out


def run_suggestions(capture: Capture) -> list[Suggestion]:
    """The next steps for the run as a whole: torch.compile was called but nothing it returned ever was."""
    compiled = capture.capture.compiled
    if compiled is None or compiled.state != CompiledState.NOTHING_COMPILED or not compiled.torch_compile_calls:
        return []  # not observed: whether torch.compile was called is not known
    calls = compiled.torch_compile_calls
    return [
        Suggestion(
            kind=SuggestionKind.CALL_COMPILED,
            subject="torch.compile",
            values=[str(calls)],
            cause=f"torch.compile was called {calls} time(s) but no frame was compiled: what it returned was never "
            "called (torch writes no trace until a compiled call runs)",
            change="call the object torch.compile returns (model = torch.compile(model); model(x)), not the "
            "original; compiling a module in place: model.compile()",
            cost="the first call of the compiled object compiles (its compile time)",
        )
    ]


def capture_suggestions(
    capture: Capture, functions: Iterable[tuple[str, Sequence[Compilation]]], sources: SnapshotSet | None = None
) -> list[Suggestion]:
    """Every suggestion of a capture: the run's, then each function's (from all its compilations), then each
    compilation's; a break repeated on several ranks once, with every compilation it is computed from."""
    setup = TorchSetup.of(capture)
    out = run_suggestions(capture)
    per_compilation: dict[tuple[str | None, str, str | None, str], Suggestion] = {}
    for name, comps in functions:
        out += function_suggestions(comps, setup, name, sources)
        for comp in comps:
            for s in compilation_suggestions(comp, name):
                key = (s.function, str(s.kind), s.subject, s.cause)
                if key in per_compilation:
                    kept = per_compilation[key]
                    kept.compile_ids.extend(i for i in s.compile_ids if i not in kept.compile_ids)
                    kept.evidence_ids.extend(i for i in s.evidence_ids if i not in kept.evidence_ids)
                else:
                    per_compilation[key] = s
    return out + list(per_compilation.values())


def suggestion_text(s: Suggestion) -> str:
    """One suggestion in one line (wrapped by the caller): the change, the knob, why, what it costs."""
    knob = f" [{s.knob}]" if s.knob and s.knob not in s.change else ""
    docs = f" See {s.docs}." if s.docs else ""
    if s.kind == SuggestionKind.GRAPH_BREAK:
        # Shown under its break, whose line already names the site, the operator and torch's page: the change alone.
        return f"suggestion ({s.kind}): {s.change}{knob}."
    return f"suggestion ({s.kind}): {s.change}{knob}. Why: {s.cause}. Cost: {s.cost}.{docs}"


def suggestion_brief(s: Suggestion) -> str:
    """The change and its knob only (a page for an agent: the structured result has the cause, values and cost)."""
    knob = f" [{s.knob}]" if s.knob and s.knob not in s.change else ""
    return f"suggestion ({s.kind}): {s.change}{knob}"

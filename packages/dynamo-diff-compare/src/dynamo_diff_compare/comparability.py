"""Is the pair comparable at all? Observe first, then declare.

Each capture yields facts about its set-up, each from one source:
- observed: what the trace shows (torch version and git, Python, the compiler configuration, the cache state, the
  devices of the traced tensors);
- observer: what `dynamo-diff capture`'s observer saw inside the process (torch.compile arguments, seeds,
  accelerators);
- recorded: what capture recorded about the command (its command line, the environment variables named);
- declared: what the user declared (only what cannot be observed: calls, warm-up, ...).

Keys found equal are `checked`; keys that differ are `differences`, each naming the areas (counts and changes) it
can affect; keys one side cannot show are `missing`. A difference that comes with another one (a torch version's own
defaults, a setting torch derives from a torch.compile argument, the command of another program) or that changes
nothing counted (a launcher's rendezvous port) is `explained` instead (consequences.py): it confounds nothing. The
verdict is `confounded` when anything differs, `unknown` when an essential key (the torch version, Dynamo's
configuration) could not be checked, else `comparable`. A declaration that an observation of the same run
contradicts is listed, and the observation is what is compared.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from dynamo_diff_schema.capture import Capture, CompiledState
from dynamo_diff_schema.comparison import (
    ALL_AREAS,
    Area,
    Checked,
    Comparability,
    Contradiction,
    Difference,
    Verdict,
)
from dynamo_diff_schema.manifest import Manifest

from dynamo_diff_compare.consequences import (
    explain_setting,
    launcher_only,
    program_of,
    same_program,
    side_defaults,
    words_text,
)
from dynamo_diff_compare.effects import effect
from dynamo_diff_compare.setting_values import canonical, normalize

# Without these the deltas cannot be read at all: the verdict is `unknown` when either is missing.
ESSENTIAL = ("torch_version", "dynamo config")

_BACKEND_ONLY = (Area.FAILURES, Area.CACHE, Area.COMPILE_TIME)
_CACHE_ONLY = (Area.CACHE, Area.COMPILE_TIME)
# What each key can change. A key not listed here can change everything.
AFFECTS: dict[str, tuple[Area, ...]] = {
    "inductor config": _BACKEND_ONLY,
    "cache_state": _CACHE_ONLY,
    "compile.backend": _BACKEND_ONLY,
    "compile.mode": _BACKEND_ONLY,
    "compile.options": _BACKEND_ONLY,
    "compile.fullgraph": (Area.COMPILATIONS, Area.GRAPH_BREAKS, Area.FAILURES, Area.COMPILE_TIME),
    "accelerators": _BACKEND_ONLY,
    "backend": _BACKEND_ONLY,
    "backend_options": _BACKEND_ONLY,
}


def affects(key: str) -> list[Area]:
    if key.startswith("inductor."):
        return list(_BACKEND_ONLY)
    return list(AFFECTS.get(key, ALL_AREAS))


@dataclass
class _Facts:
    """One capture's set-up: key -> (source, value), plus why whole groups of keys are unavailable."""

    values: dict[str, tuple[str, Any]] = field(default_factory=dict)
    families: dict[str, dict[str, Any]] = field(default_factory=dict)  # 'dynamo config' -> {'dynamo.x': v}
    unavailable: dict[str, str] = field(default_factory=dict)  # group -> why
    declared: dict[str, Any] = field(default_factory=dict)


def _cache_state(capture: Capture) -> str | None:
    hits, misses = capture.counts.cache_hits, capture.counts.cache_misses
    if not hits and not misses:
        return None
    if hits and not misses:
        return "warm (every cache lookup hit)"
    if misses and not hits:
        return "cold (every cache lookup missed)"
    return "partly warm (some lookups hit, some missed)"


def _command(manifest: Manifest) -> str | None:
    """The command line with the interpreter reduced to its name and paths made relative to where it ran."""
    argv = manifest.workload.command
    if not argv:
        return None
    base = manifest.workload.cwd or manifest.sources.root
    out = [PurePosixPath(argv[0]).name]
    if out[0].startswith("python"):
        out[0] = "python"
    prefix = base.rstrip("/") + "/" if base else None
    out += [arg[len(prefix) :] if prefix and arg.startswith(prefix) else arg for arg in argv[1:]]
    return " ".join(out)


def _distinct(values: Iterable[Any]) -> list[Any]:
    seen: dict[str, Any] = {}
    for value in values:
        seen.setdefault(canonical(value), value)
    return [seen[k] for k in sorted(seen)]


# Keys read from the trace's records: a run that compiled no frame has none of them (torch wrote no record).
_TRACE_KEYS = ("torch_version", "torch_git", "python", "devices", "cache_state")


def _facts(capture: Capture) -> _Facts:
    info = capture.capture
    facts = _Facts()
    if not capture.ranks and info.compiled.state == CompiledState.NOTHING_COMPILED:
        facts.unavailable["trace"] = "it compiled no frame and wrote no trace file: its configuration is not known"
    if info.producer.torch:
        facts.values["torch_version"] = ("observed", info.producer.torch)
    if info.producer.torch_git:
        facts.values["torch_git"] = ("observed", info.producer.torch_git)
    if info.producer.python:
        facts.values["python"] = ("observed", info.producer.python.split()[0])
    config = next((c for c in info.observed_config if c.values), None)
    if config is not None:
        for key, value in config.values.items():
            family = f"{key.split('.', 1)[0]} config"
            facts.families.setdefault(family, {})[key] = normalize(value)
    devices = sorted({d for c in info.observed_config for d in c.devices})
    if devices:
        facts.values["devices"] = ("observed", devices)
    state = _cache_state(capture)
    if state is not None:
        facts.values["cache_state"] = ("observed", state)
    if info.entry_script:
        # The script the trace's stacks start from; a bundle's command names it more exactly (below).
        facts.values["program"] = ("observed", info.entry_script)
    manifest = info.manifest
    if manifest is None:
        facts.unavailable["command"] = "a bare trace records no command"
        facts.unavailable["observer"] = "a bare trace: torch.compile arguments and seeds were not observed"
        return facts
    command = _command(manifest)
    if command is not None:
        facts.values["command"] = ("recorded", command)
        program = program_of(manifest.workload.command, manifest.workload.cwd or manifest.sources.root)
        if program is not None:
            facts.values["program"] = ("recorded", program)
    else:
        facts.unavailable["command"] = "the manifest records no command"
    for name, value in manifest.workload.environment.items():
        facts.values[f"env.{name}"] = ("recorded", value)
    observed = manifest.observed
    if observed is None:
        facts.unavailable["observer"] = (
            "torch.compile arguments and seeds were not observed (--no-observe, or an earlier capture)"
        )
    elif not observed.processes:
        facts.unavailable["observer"] = "the observer saw no Python process"
    else:
        calls = [c for c in observed.compile_calls if not c.disable]
        facts.values["compile.backend"] = ("observer", _distinct(c.backend for c in calls))
        facts.values["compile.mode"] = ("observer", _distinct(c.mode for c in calls))
        facts.values["compile.dynamic"] = ("observer", _distinct(c.dynamic for c in calls))
        facts.values["compile.fullgraph"] = ("observer", _distinct(c.fullgraph for c in calls))
        facts.values["compile.options"] = ("observer", _distinct(c.options for c in calls))
        facts.values["seeds"] = ("observer", _distinct(f"{s.function}({s.value})" for s in observed.seeds))
        accelerators = sorted({d for p in observed.processes for d in p.devices})
        facts.values["accelerators"] = ("observer", accelerators)
    declared = manifest.declarations.model_dump(exclude={"extra", "cache_policy"})
    declared.update({f"extra.{k}": v for k, v in manifest.declarations.extra.items()})
    facts.declared = {k: v for k, v in declared.items() if v not in (None, {}, [])}
    return facts


def _group(key: str) -> str:
    """Which source a key comes from, when the whole source can be unavailable on a side."""
    if key in _TRACE_KEYS or key.endswith(" config"):
        return "trace"
    if key.startswith(("compile.", "env.")) or key in ("seeds", "accelerators"):
        return "command" if key.startswith("env.") else "observer"
    return "command" if key in ("command", "program") else key


def _contradiction(key: str, declared: Any, facts: _Facts) -> Any:
    """The observation a declaration contradicts, or None when they agree (or nothing observed the key)."""

    def observed(name: str) -> Any:
        return facts.values[name][1] if name in facts.values else None

    if key == "backend":
        backends = observed("compile.backend")
        if backends and not any(str(declared) in str(b) or str(b) in str(declared) for b in backends):
            return backends
    elif key == "dynamic":
        values = observed("compile.dynamic")
        wanted = None if declared == "auto" else declared
        if values and wanted not in values:
            return values
    elif key == "seed":
        seeds = observed("seeds")
        if seeds is not None and f"torch.manual_seed({declared})" not in seeds:
            return seeds or "no seed set"
    elif key == "device":
        devices = observed("devices")
        if devices and str(declared).split(":", 1)[0] not in devices:
            return devices
    return None


# Declarations an observation answers: when both sides observed it, the declaration is not compared.
_OBSERVED_BY = {"backend": "compile.backend", "dynamic": "compile.dynamic", "seed": "seeds", "device": "devices"}


def is_intended(key: str, intended: Iterable[str]) -> bool:
    """`--change KEY` names a key, a configuration family ('dynamo config' or 'dynamo.') or a key prefix."""
    for given in intended:
        name = given.strip()
        if not name:
            continue
        family = name.removesuffix(" config").removesuffix(".")
        if key == name or key.startswith(f"{family}.") or key == f"{family} config":
            return True
    return False


def assumable_change(comp: Comparability) -> list[str]:
    """The keys a comparison may take as the change under test when the user named none: it is confounded only by
    settings the user set (each difference's `why` says so: not a torch version's default), and nothing was named
    or contradicts. [] otherwise."""
    if comp.verdict != Verdict.CONFOUNDED or comp.intended or comp.contradictions:
        return []
    if not all((d.why or "").startswith("set by the user") for d in comp.differences):
        return []
    return [d.key for d in comp.differences]


def check_comparability(
    baseline: Capture, candidate: Capture, *, intended: Iterable[str] = (), assume: bool = False
) -> Comparability:
    """`intended`: keys whose difference is the change under test (listed under `intended`, never confounding).
    `assume` (compare, never check): with no `intended`, differences that are all settings the user set are taken
    as the change under test (`assumable_change`), and `assumed` names them."""
    intended = list(intended)
    if assume and not intended:
        comp = check_comparability(baseline, candidate)
        keys = assumable_change(comp)
        if not keys:
            return comp
        assumed = check_comparability(baseline, candidate, intended=keys)
        why = {d.key: d.why for d in comp.differences}  # 'set by the user in the candidate': kept on the change
        intended_why = [d.model_copy(update={"why": d.why or why.get(d.key)}) for d in assumed.intended]
        return assumed.model_copy(update={"assumed": keys, "intended": intended_why})
    sides = {"baseline": _facts(baseline), "candidate": _facts(candidate)}
    base, cand = sides["baseline"], sides["candidate"]
    differences: list[Difference] = []
    checked: list[Checked] = []
    missing: list[str] = []
    contradictions: list[Contradiction] = []

    for key in sorted(set(base.values) | set(cand.values)):
        b, c = base.values.get(key), cand.values.get(key)
        if b is None or c is None:
            side = "baseline" if b is None else "candidate"
            if _group(key) not in sides[side].unavailable:  # else one line below says why the whole group is
                missing.append(f"{side}: {key} not available")
        elif key == "program" and isinstance(b[1], str) and isinstance(c[1], str) and same_program(b[1], c[1]):
            checked.append(Checked(key=key, source=b[0], value=b[1]))
        elif canonical(b[1]) != canonical(c[1]):
            differences.append(Difference(key=key, source=b[0], baseline=b[1], candidate=c[1], affects=affects(key)))
        else:
            checked.append(Checked(key=key, source=b[0], value=b[1]))

    for family in sorted(set(base.families) | set(cand.families)):
        b_values, c_values = base.families.get(family), cand.families.get(family)
        if b_values is None or c_values is None:
            side = "baseline" if b_values is None else "candidate"
            if _group(family) in sides[side].unavailable:
                continue  # one line below says why (a run that compiled nothing wrote no configuration)
            if family == "inductor config" and "dynamo config" in sides[side].families:
                # Only Inductor writes it: one side did not compile with Inductor.
                differences.append(
                    Difference(
                        key=family,
                        source="observed",
                        baseline="present" if b_values else "absent (Inductor did not run)",
                        candidate="present" if c_values else "absent (Inductor did not run)",
                        affects=affects(family),
                    )
                )
            else:
                missing.append(f"{side}: {family} not in the trace (no compilation_metrics with it)")
            continue
        found = 0
        for key in sorted(set(b_values) | set(c_values)):
            bv, cv = b_values.get(key, "<absent>"), c_values.get(key, "<absent>")
            if canonical(bv) != canonical(cv):
                differences.append(
                    Difference(
                        key=key,
                        source="observed",
                        baseline=bv,
                        candidate=cv,
                        rank=next((c.rank for c in baseline.capture.observed_config if c.values), None),
                        affects=affects(key),
                    )
                )
            else:
                found += 1
        checked.append(Checked(key=family, source="observed", value=f"{found} keys equal"))

    for group in sorted(set(base.unavailable) | set(cand.unavailable)):
        whys = {side: f.unavailable[group] for side, f in sides.items() if group in f.unavailable}
        if len(whys) == 2 and len(set(whys.values())) == 1:
            missing.append(f"both: {next(iter(whys.values()))}")
        else:
            missing += [f"{side}: {why}" for side, why in whys.items()]

    # Declarations: what both sides declared, unless an observation on both sides already answers it.
    for side, facts in sides.items():
        for key, value in facts.declared.items():
            seen = _contradiction(key, value, facts)
            if seen is not None:
                contradictions.append(Contradiction(side=side, key=key, declared=value, observed=seen))
    for key in sorted(set(base.declared) | set(cand.declared)):
        if key in _OBSERVED_BY and all(_OBSERVED_BY[key] in f.values for f in sides.values()):
            continue
        b, c = base.declared.get(key), cand.declared.get(key)
        if b is None or c is None:
            missing.append(
                f"{'baseline' if b is None else 'candidate'}: {key} not declared (the other side declares it)"
            )
        elif canonical(b) != canonical(c):
            differences.append(Difference(key=key, source="declared", baseline=b, candidate=c, affects=affects(key)))
        else:
            checked.append(Checked(key=key, source="declared", value=b))

    # The program is read from the command: naming the command as the change names the program with it.
    if any(is_intended("command", [name]) for name in intended):
        intended.append("program")
    expected = [d for d in differences if is_intended(d.key, intended)]
    differences, explained = _explain(
        [d for d in differences if not is_intended(d.key, intended)], expected, baseline, candidate, base, cand
    )
    essential_missing = [
        key
        for key in ESSENTIAL
        if not any(c.key == key for c in checked) and not any(d.key == key for d in differences + expected)
    ]
    if differences:
        verdict = Verdict.CONFOUNDED
    elif essential_missing:
        verdict = Verdict.UNKNOWN
    else:
        verdict = Verdict.COMPARABLE
    no_trace = any("trace" in f.unavailable for f in sides.values())  # its line says why
    for key in essential_missing:
        if not any(key in m for m in missing) and not no_trace:
            missing.append(f"both: {key} not in the traces")
    return Comparability(
        verdict=verdict,
        differences=_with_effects(differences),
        missing=missing,
        checked=checked,
        intended=_with_effects(expected),
        contradictions=contradictions,
        explained=_with_effects(explained),
    )


def _with_effects(differences: list[Difference]) -> list[Difference]:
    """Each difference with the phrase of what its key changes (effects.py)."""
    return [d.model_copy(update={"effect": effect(d.key)}) for d in differences]


def _explain(
    differences: list[Difference],
    intended: list[Difference],
    baseline: Capture,
    candidate: Capture,
    base: _Facts,
    cand: _Facts,
) -> tuple[list[Difference], list[Difference]]:
    """Split the differences into those that confound and those that come with another difference (or change
    nothing counted). An explained difference names what it follows from and why; one that stays may say why."""
    roots = {d.key for d in differences + intended}
    defaults = (side_defaults(baseline), side_defaults(candidate))
    dynamic = (
        base.values["compile.dynamic"][1] if "compile.dynamic" in base.values else None,
        cand.values["compile.dynamic"][1] if "compile.dynamic" in cand.values else None,
    )
    kept: list[Difference] = []
    explained: list[Difference] = []
    for d in differences:
        follows, why = None, None
        is_explained = False
        if d.key.startswith(("dynamo.", "inductor.")):
            explanation, why = explain_setting(d.key, d.baseline, d.candidate, defaults, dynamic=dynamic)
            if explanation is not None and explanation.follows_from in roots:
                follows, why, is_explained = explanation.follows_from, explanation.why, True
        elif d.key == "torch_git" and "torch_version" in roots:
            follows, why, is_explained = "torch_version", "another torch version is another build", True
        elif d.key == "command" and isinstance(d.baseline, str) and isinstance(d.candidate, str):
            why = words_text(d.baseline, d.candidate)
            if launcher_only(d.baseline, d.candidate):
                why = (
                    f"only a launcher's rendezvous options differ ({why}): they choose where the ranks meet, "
                    "not what they compile"
                )
                is_explained = True
            elif "program" in roots and _only_program_words(d.baseline, d.candidate, base, cand):
                follows, why, is_explained = "program", f"the command runs the other program ({why})", True
        (explained if is_explained else kept).append(d.model_copy(update={"follows_from": follows, "why": why}))
    return kept, explained


def _only_program_words(baseline: str, candidate: str, base: _Facts, cand: _Facts) -> bool:
    """The two command lines differ only where they name their programs."""
    programs = (base.values.get("program"), cand.values.get("program"))
    if programs[0] is None or programs[1] is None:
        return False
    b, c = str(programs[0][1]), str(programs[1][1])
    return baseline.replace(b, "\0") == candidate.replace(c, "\0")

#!/usr/bin/env python3
"""Record the retained torch.compile fixtures under fixtures/captures/ as bundles.

Each fixture is recorded by `dynamo-diff capture`'s own code (dynamo_diff_store.bundle.record), so the
fixtures are exactly what users get. Run it with the workspace's python and point it at an interpreter that
has torch 2.13.0 (and tlparse 0.4.3 beside it); this script installs nothing:

    python3.11 -m venv .venv-torch
    .venv-torch/bin/pip install torch==2.13.0 tlparse==0.4.3
    uv run python tools/generate_fixtures.py --python .venv-torch/bin/python [--only NAME ...] [--force]

For every workload it records a bundle (manifest.json, raw/, sources/, report/) with

    TORCH_TRACE=<bundle>/raw               (set by capture)
    TORCHINDUCTOR_CACHE_DIR=<fresh dir>    (inductor_cold: a fixed dir, kept; inductor_warm: that dir again)
    DYNAMO_DIFF_ORACLE=<bundle>/oracle.json (the workload's own oracle, next to the manifest, not hashed)
    TORCHINDUCTOR_FX_GRAPH_CACHE=1, TORCHINDUCTOR_COMPILE_THREADS=1, PYTHONHASHSEED=0

checks the exit code and the oracle, keeps report/ (raw.jsonl + the payload files it references, no HTML)
only for a few captures and only when small, writes ``fixture.json`` (what was kept) and moves the bundle to
fixtures/captures/<name>. An existing capture is never overwritten without --force.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from dynamo_diff_store.recording import CachePolicy, CaptureRequest, find_tlparse, parse_declarations, record

REPO = Path(__file__).resolve().parent.parent
WORKLOADS = REPO / "fixtures" / "workloads"
CAPTURES = REPO / "fixtures" / "captures"

# Fixed locations outside the repo, so that runs are reproducible:
# - the edit pair is executed from ONE path, whichever version runs;
# - inductor_warm reuses the cache that inductor_cold filled.
WORK = Path(tempfile.gettempdir()) / "dynamo-diff-fixtures"
EDIT_DIR = WORK / "edit"
# Each pair of versions of one file runs from one fixed directory.
PAIR_DIRS = {
    "edit_": EDIT_DIR,
    "break_fix_": WORK / "break_fix",
    "dynamic_flag_": WORK / "dynamic_flag",
    "pair_": WORK / "pair",
    "call_site_": WORK / "call_site",
    "rename_file_": WORK / "rename_file",
}
INDUCTOR_CACHE = WORK / "inductor-cache-cold"

# name -> script (relative to fixtures/workloads); order matters (cold < warm).
ALL = [
    ("stable", "stable.py"),
    ("shape", "shape.py"),
    ("scalar", "scalar.py"),
    ("pinned_index", "pinned_index.py"),
    ("multiple_guards", "multiple_guards.py"),
    ("dynamic", "dynamic.py"),
    ("grad_mode", "grad_mode.py"),
    ("object_identity", "object_identity.py"),
    ("graph_break", "graph_break.py"),
    ("backend_failure", "backend_failure.py"),
    ("no_graph", "no_graph.py"),
    ("recompile_limit", "recompile_limit.py"),
    ("fullgraph_error", "fullgraph_error.py"),
    ("skipped_frame", "skipped_frame.py"),
    ("inductor_cold", "inductor_cold.py"),
    ("inductor_warm", "inductor_warm.py"),
    ("training", "training.py"),
    ("training_flip", "training_flip.py"),
    # What runs after a failed compilation (the function skipped) and after the recompile limit (entries serve).
    ("after_skip", "after_skip.py"),
    # A compilation that fails with an error raised into the program: the entries before it keep serving.
    ("after_raise", "after_raise.py"),
    # A float attribute made a symbolic float by its recompilation, its entries guarded on its range.
    ("float_attribute", "float_attribute.py"),
    # A graph break inside a for loop (random.random()): torch skips the whole frame.
    ("loop_skip", "loop_skip.py"),
    # A head served under no_grad with inductor.freezing: the weights folded into the generated code.
    ("inductor_freezing", "inductor_freezing.py"),
    ("inductor_heads", "inductor_heads.py"),
    ("module_settings", "module_settings.py"),
    ("two_backends", "two_backends.py"),
    ("int_then_float", "int_then_float.py"),
    ("pool_kernel", "pool_kernel.py"),
    ("fft_length", "fft_length.py"),
    ("log_softmax_split", "log_softmax_split.py"),
    ("log_softmax_fused", "log_softmax_fused.py"),
    ("failed_between", "failed_between.py"),
    ("size_ranges", "size_ranges.py"),
    ("shift_ranges", "shift_ranges.py"),
    # error_on_recompile set after warmup: a recompile raises RecompileError, which the loop catches.
    ("error_on_recompile", "error_on_recompile.py"),
    # The same tensor passed as both arguments: the no-aliasing guard fails, an entry for the aliased pair.
    ("aliased_inputs", "aliased_inputs.py"),
    # SGD with momentum, its step compiled: each parameter's state dict written outside the graph, then recompiled.
    ("optimizer_state", "optimizer_state.py"),
    # A @torch.no_grad() function compiled from the top level: torch compiles its own wrapper frame.
    ("no_grad_function", "no_grad_function.py"),
    # Tensors passed in a list, a nested tuple and a dict: the guards on each item; a longer list recompiles.
    ("container_args", "container_args.py"),
    # A custom op without a fake implementation: every call's compilation fails with the same error, raised.
    ("custom_op_no_fake", "custom_op_no_fake.py"),
    # A cached_property read in a helper: the helper and the property's __get__ fail on its lock; __get__'s stack
    # names only the script's call, its break's user stack the helper.
    ("cached_property_break", "cached_property_break.py"),
    # A torch.Generator passed to multinomial: a break on an argument Dynamo cannot put in a graph.
    ("generator_arg", "generator_arg.py"),
    # Padded positions filled with float("-inf") before a softmax: the fill value baked into the graph.
    ("masked_fill_inf", "masked_fill_inf.py"),
    # dynamic=True with a LayerNorm that pins the feature size in torch's code; a float branched on after a break.
    ("dynamic_norm", "dynamic_norm.py"),
    # CPU autocast turned on for the last calls: a GLOBAL_STATE guard on autocast's flags.
    ("autocast_switch", "autocast_switch.py"),
    # Checkpointed blocks around a custom autograd.Function: higher-order ops in the graph.
    ("checkpoint_fn", "checkpoint_fn.py"),
    ("compiled_autograd", "compiled_autograd.py"),
    ("two_ranks", "two_ranks.py"),
    ("edit_v1", "edit_v1/model.py"),
    ("edit_v2", "edit_v2/model.py"),
    # Run status and comparability (no declarations: everything compared is observed or recorded).
    ("midrun_complete", "midrun.py"),
    ("midrun_again", "midrun.py"),
    ("midrun_raise", "midrun.py"),
    ("midrun_kill", "midrun.py"),
    ("cache_cold", "inductor_cache.py"),
    ("cache_warm", "inductor_cache.py"),
    ("observed_on", "observed.py"),
    ("observed_off", "observed.py"),
    # The observer's values of the user's loop at each compilation's start (a shape change at step 2).
    ("loop_steps", "loop_steps.py"),
    # One recompilation per kind of guard (categories known by construction).
    ("guards", "guards.py"),
    # A graph with no ops that reaches the backend (completed, empty) beside frames with no graph.
    ("empty_graph", "empty_graph.py"),
    # torch._dynamo.reset() in the middle: compile ids repeat.
    ("reset", "reset.py"),
    # A graph-break fix: two print()s removed (run from one fixed path, like the edit pair).
    ("break_fix_v1", "break_fix_v1/model.py"),
    ("break_fix_v2", "break_fix_v2/model.py"),
    # Frames compiled in torch (wrap_inline's `inner`) and in a site-packages decorator, called from user code.
    ("library_frames", "library_frames.py"),
    # A torch upgrade: one transformers model, the same script under torch 2.13.0 and 2.14.1 (see TORCH_FOR).
    ("llama_213", "llama_upgrade.py"),
    ("llama_214", "llama_upgrade.py"),
    ("llama_214_tuned", "llama_upgrade.py"),
    # torch.compile(dynamic=True) against the default: one argument of one call edited (run from one fixed path).
    ("dynamic_flag_v1", "dynamic_flag_v1/model.py"),
    ("dynamic_flag_v2", "dynamic_flag_v2/model.py"),
    # One 2-rank job launched by torchrun on two rendezvous ports (see COMMAND_FOR): only the port differs.
    ("torchrun_port_a", "torchrun_ranks.py"),
    ("torchrun_port_b", "torchrun_ranks.py"),
    # Killed by SIGKILL inside a compilation (the workload's own backend kills it), and the same run to the end.
    ("killed_compile_complete", "killed_compile.py"),
    ("killed_compile_kill", "killed_compile.py"),
    ("killed_compile_resume", "killed_compile.py"),
    # Compiled Autograd graphs whose generated file names (`<eval_with_key>.N`) shift with the Inductor cache:
    # cold, warm, and warm with the two backward graphs captured in the other order.
    ("ca_cold", "ca_cache.py"),
    ("ca_warm", "ca_cache.py"),
    ("ca_swapped", "ca_swapped.py"),
    # Runs that compiled nothing: torch.compile called, its result never called; torch writes no trace file.
    ("compiled_nothing", "compiled_nothing.py"),
    ("compiled_nothing_ranks", "compiled_nothing_ranks.py"),
    # torch.compile of a DistributedDataParallel-wrapped model, 2 gloo ranks: DDP's library frames and Net.forward.
    ("ddp_ranks", "ddp_ranks.py"),
    # A compiled nn.Sequential called through a decorator of the user's own (its wrapper is the nearest user frame).
    ("wrapped_call", "wrapped_call.py"),
    # Inductor's FX graph and AOTAutograd caches bypassed (a custom pass they cannot hash): a bypass record of each.
    ("cache_bypass", "cache_bypass.py"),
    # A float argument changing value under aot_eager: a recompile that restarts (TensorifyScalarRestartAnalysis).
    ("tensorify_restart", "tensorify_restart.py"),
    # One pair per suggestion kind (fixtures/suggestion_pairs.json): the workload, and it with the suggestion applied.
    ("pair_mark_dynamic_before", "pairs/mark_dynamic_before.py"),
    ("pair_mark_dynamic_after", "pairs/mark_dynamic_after.py"),
    ("pair_dtype_device_before", "pairs/dtype_device_before.py"),
    ("pair_dtype_device_after", "pairs/dtype_device_after.py"),
    ("pair_grad_mode_before", "pairs/grad_mode_before.py"),
    ("pair_grad_mode_after", "pairs/grad_mode_after.py"),
    ("pair_dynamic_scalar_before", "pairs/dynamic_scalar_before.py"),
    ("pair_dynamic_scalar_after", "pairs/dynamic_scalar_after.py"),
    ("pair_create_once_before", "pairs/create_once_before.py"),
    ("pair_create_once_after", "pairs/create_once_after.py"),
    ("pair_recompile_limit_before", "pairs/recompile_limit_before.py"),
    ("pair_recompile_limit_after", "pairs/recompile_limit_after.py"),
    ("pair_graph_break_before", "pairs/graph_break_before.py"),
    ("pair_graph_break_after", "pairs/graph_break_after.py"),
    ("pair_call_compiled_before", "pairs/call_compiled_before.py"),
    ("pair_call_compiled_after", "pairs/call_compiled_after.py"),
    ("pair_suppressed_failure_before", "pairs/suppressed_failure_before.py"),
    ("pair_suppressed_failure_after", "pairs/suppressed_failure_after.py"),
    # Questions the agent suite was not built from: data-dependent breaks, a global's value and a dtype, a failure
    # the program goes on after (or not), automatic dynamic shapes on and off.
    ("data_breaks", "data_breaks.py"),
    ("global_guard", "global_guard.py"),
    ("after_failure", "after_failure.py"),
    ("after_failure_exit", "after_failure.py"),
    ("auto_dynamic_on", "auto_dynamic.py"),
    ("auto_dynamic_off", "auto_dynamic.py"),
    # A recompile removed at the call site (mark_dynamic added in the loop), the compiled function renamed and moved
    # to another file (run from one fixed directory; every file of the version's folder is copied there).
    ("call_site_v1", "call_site_v1/main.py"),
    ("call_site_v2", "call_site_v2/main.py"),
    # The script renamed (decoder.py -> decoding.py), a method given an argument and a function renamed.
    ("rename_file_v1", "rename_file_v1/decoder.py"),
    ("rename_file_v2", "rename_file_v2/decoding.py"),
    # Recompile guards on values Dynamo keeps on its stack across a graph break (___stack0), not user variables.
    ("stack_slots", "stack_slots.py"),
    # Recompile guards on names the code after a graph break carries across it: a local of the function, an argument.
    ("resume_locals", "resume_locals.py"),
]
SCRIPTS = dict(ALL)
# The torch each fixture is recorded with when it is not the default (--python); its interpreter is given with
# --python-for VERSION=PATH. transformers must be importable there for the llama pair (never a dependency of ours).
DEFAULT_TORCH = "2.13.0"
TORCH_FOR = {"llama_214": "2.14.1", "llama_214_tuned": "2.14.1"}
# A fault the command line does not show (midrun.py reads DYNAMO_DIFF_FAULT), and the exit status it must give.
FAULTS = {
    "midrun_raise": "raise",
    "midrun_kill": "kill",
    "killed_compile_kill": "kill",
    "killed_compile_resume": "kill_resume",
    "after_failure_exit": "uncaught",
}
EXPECTED_EXIT = {
    "after_failure_exit": 1,
    "midrun_raise": 1,
    "midrun_kill": -9,
    "killed_compile_kill": -9,
    "killed_compile_resume": -9,
}
# Arguments between the interpreter and the script (a launcher).
_TORCHRUN = ["-m", "torch.distributed.run", "--nproc-per-node", "2", "--master-addr", "127.0.0.1", "--master-port"]
COMMAND_FOR = {"torchrun_port_a": [*_TORCHRUN, "29531"], "torchrun_port_b": [*_TORCHRUN, "29532"]}
# Other variables a workload reads that its command line does not show.
ENV_FOR = {"llama_214_tuned": {"DYNAMO_DIFF_LLAMA_TUNED": "1"}, "auto_dynamic_off": {"DYNAMO_DIFF_STATIC_SHAPES": "1"}}
# Recorded without capture's observer (the observer must change nothing: compare with observed_on).
NOT_OBSERVED = {"observed_off"}
# cache_cold and cache_warm share one TORCHINDUCTOR_CACHE_DIR (custom policy), emptied before cache_cold.
SHARED_CACHE = WORK / "inductor-cache-shared"
# Captures that share one TORCHINDUCTOR_CACHE_DIR (custom policy), and the first of each set (which empties it).
SHARED_CACHES = {
    "cache_cold": SHARED_CACHE,
    "cache_warm": SHARED_CACHE,
    **dict.fromkeys(("ca_cold", "ca_warm", "ca_swapped"), WORK / "inductor-cache-ca"),
}
FIRST_SHARED = {"cache_warm": "cache_cold", "ca_warm": "ca_cold", "ca_swapped": "ca_cold"}

# What each workload declares about itself (recorded in the manifest as declarations, never as observations):
# calls = iterations of the workload's loop, the backend handed to torch.compile, torch.compile's dynamic=
# ("auto" for its default), seed, device. dynamic.py compiles one function with each setting: not declared.
_EAGER = {"seed": "0", "device": "cpu", "warmup_calls": "0", "backend": "counting(eager)"}
DECLARED: dict[str, dict[str, str]] = {
    "stable": {**_EAGER, "calls": "5", "dynamic": "false"},
    "shape": {**_EAGER, "calls": "5", "dynamic": "false"},
    "scalar": {**_EAGER, "calls": "4", "dynamic": "false"},
    "pinned_index": {**_EAGER, "calls": "4", "dynamic": "auto"},
    "tensorify_restart": {**_EAGER, "calls": "3", "dynamic": "auto", "backend": "counting(aot_eager)"},
    "multiple_guards": {**_EAGER, "calls": "3", "dynamic": "false"},
    "dynamic": {**_EAGER, "calls": "7"},
    "grad_mode": {**_EAGER, "calls": "4", "dynamic": "auto"},
    "object_identity": {**_EAGER, "calls": "4", "dynamic": "auto"},
    "graph_break": {**_EAGER, "calls": "6", "dynamic": "auto"},
    "backend_failure": {**_EAGER, "calls": "4", "dynamic": "auto", "backend": "counting(eager), raising on mul"},
    "no_graph": {**_EAGER, "calls": "3", "dynamic": "auto"},
    "recompile_limit": {**_EAGER, "calls": "5", "dynamic": "false"},
    "fullgraph_error": {**_EAGER, "calls": "1", "dynamic": "auto"},
    "skipped_frame": {**_EAGER, "calls": "3", "dynamic": "auto"},
    "inductor_cold": {**_EAGER, "calls": "4", "dynamic": "auto", "backend": "inductor"},
    "inductor_warm": {**_EAGER, "calls": "4", "dynamic": "auto", "backend": "inductor"},
    "training": {**_EAGER, "calls": "3", "dynamic": "auto", "backend": "inductor"},
    "training_flip": {**_EAGER, "calls": "5", "dynamic": "auto"},
    "checkpoint_fn": {**_EAGER, "calls": "3", "dynamic": "auto"},
    "after_skip": {**_EAGER, "calls": "10", "dynamic": "auto"},
    "after_raise": {**_EAGER, "calls": "7", "dynamic": "auto"},
    "float_attribute": {**_EAGER, "calls": "8", "dynamic": "auto"},
    "loop_skip": {**_EAGER, "calls": "6", "dynamic": "auto"},
    "inductor_freezing": {**_EAGER, "calls": "4", "dynamic": "auto", "backend": "inductor"},
    "inductor_heads": {**_EAGER, "calls": "2", "dynamic": "auto", "backend": "inductor"},
    "module_settings": {**_EAGER, "calls": "3", "dynamic": "auto"},
    "two_backends": {**_EAGER, "calls": "6", "dynamic": "auto"},
    "int_then_float": {**_EAGER, "calls": "4", "dynamic": "auto"},
    "pool_kernel": {**_EAGER, "calls": "5", "dynamic": "auto"},
    "fft_length": {**_EAGER, "calls": "5", "dynamic": "auto"},
    "log_softmax_split": {**_EAGER, "calls": "2", "dynamic": "auto", "backend": "inductor"},
    "log_softmax_fused": {**_EAGER, "calls": "2", "dynamic": "auto", "backend": "inductor"},
    "failed_between": {**_EAGER, "calls": "6", "dynamic": "auto", "backend": "counting(aot_eager)"},
    "size_ranges": {**_EAGER, "calls": "4", "dynamic": "auto"},
    "shift_ranges": {**_EAGER, "calls": "3", "dynamic": "true"},
    "error_on_recompile": {**_EAGER, "calls": "6", "dynamic": "auto"},
    "aliased_inputs": {**_EAGER, "calls": "4", "dynamic": "auto"},
    "optimizer_state": {**_EAGER, "calls": "3", "dynamic": "auto"},
    "no_grad_function": {**_EAGER, "calls": "3", "dynamic": "auto"},
    "container_args": {**_EAGER, "calls": "3", "dynamic": "auto"},
    "custom_op_no_fake": {**_EAGER, "calls": "3", "dynamic": "auto"},
    "cached_property_break": {**_EAGER, "calls": "2", "dynamic": "auto"},
    "generator_arg": {**_EAGER, "calls": "3", "dynamic": "auto"},
    "masked_fill_inf": {**_EAGER, "calls": "2", "dynamic": "auto"},
    "dynamic_norm": {**_EAGER, "calls": "6"},
    "autocast_switch": {**_EAGER, "calls": "4", "dynamic": "auto"},
    "compiled_autograd": {**_EAGER, "calls": "3", "dynamic": "auto", "backend": "counting(aot_eager)"},
    "two_ranks": {**_EAGER, "calls": "3", "dynamic": "false"},
    "edit_v1": {**_EAGER, "calls": "4", "dynamic": "auto"},
    "edit_v2": {**_EAGER, "calls": "4", "dynamic": "auto"},
    "call_site_v1": {**_EAGER, "calls": "3", "dynamic": "auto"},
    "call_site_v2": {**_EAGER, "calls": "3", "dynamic": "auto"},
    "rename_file_v1": {**_EAGER, "calls": "5", "dynamic": "auto"},
    "rename_file_v2": {**_EAGER, "calls": "5", "dynamic": "auto"},
    "resume_locals": {**_EAGER, "calls": "3", "dynamic": "auto"},
}

# report/ (tlparse's raw.jsonl + the payload files it references) is kept only for a few representative
# captures, and only if small: the other captures' reports would only duplicate their raw traces. Every
# capture is still converted (the manifest records tlparse's version and exit status).
REPORT_KEEP = {"stable", "graph_break", "recompile_limit", "backend_failure", "two_ranks"}
REPORT_MAX_BYTES = 300_000

# Variables that would change what torch writes; never inherited.
SCRUB = (
    "TORCH_LOGS",
    "TORCH_LOGS_OUT",
    "TORCH_COMPILE_DEBUG",
    "TORCHDYNAMO_VERBOSE",
    "TORCH_TRACE",
    "TORCHINDUCTOR_CACHE_DIR",
    "TORCHINDUCTOR_FX_GRAPH_CACHE",
    "TORCHINDUCTOR_FORCE_DISABLE_CACHES",
    "TORCH_COMPILE_DISABLE",
    "TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS",
    "PYTORCH_JIT",
    "DYNAMO_DIFF_ORACLE",
    "MASTER_ADDR",
    "MASTER_PORT",
    "RANK",
    "WORLD_SIZE",
    "LOCAL_RANK",
    "DYNAMO_DIFF_FAULT",
    "DYNAMO_DIFF_LLAMA_TUNED",
    "DYNAMO_DIFF_STATIC_SHAPES",
)
RECORDED_ENV = ("PYTHONHASHSEED", "TORCHINDUCTOR_FX_GRAPH_CACHE", "TORCHINDUCTOR_COMPILE_THREADS")


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def torch_version(python: str) -> str | None:
    proc = subprocess.run(
        [python, "-c", "import torch; print(torch.__version__)"], capture_output=True, text=True, timeout=300
    )
    return proc.stdout.strip().splitlines()[-1] if proc.returncode == 0 and proc.stdout.strip() else None


def capture_workload(python: str, name: str, bundle: Path, tlparse: str | None) -> tuple[int | None, str | None]:
    """Record one workload into `bundle` with capture's own code; (exit code, why incomplete)."""
    script = WORKLOADS / SCRIPTS[name]
    env = {k: v for k, v in os.environ.items() if k not in SCRUB}
    env.update(
        {
            "DYNAMO_DIFF_ORACLE": str(bundle / "oracle.json"),
            "TORCHINDUCTOR_FX_GRAPH_CACHE": "1",
            "TORCHINDUCTOR_COMPILE_THREADS": "1",
            "PYTHONHASHSEED": "0",
            "PYTHONPATH": str(WORKLOADS),
            "DYNAMO_DIFF_WORKLOADS": str(WORKLOADS),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
    )
    if name in FAULTS:
        env["DYNAMO_DIFF_FAULT"] = FAULTS[name]
    env.update(ENV_FOR.get(name, {}))
    cache: CachePolicy = "fresh"
    cache_dir: Path | None = None
    if name in SHARED_CACHES:
        if name not in FIRST_SHARED and SHARED_CACHES[name].exists():
            shutil.rmtree(SHARED_CACHES[name])
        cache, cache_dir = "custom", SHARED_CACHES[name]
    elif name == "inductor_cold":
        if INDUCTOR_CACHE.exists():
            shutil.rmtree(INDUCTOR_CACHE)
        cache_dir = INDUCTOR_CACHE
    elif name == "inductor_warm":
        cache, cache_dir = "warm", INDUCTOR_CACHE
    executed, cwd = script, REPO
    pair_dir = next((d for prefix, d in PAIR_DIRS.items() if name.startswith(prefix)), None)
    if pair_dir is not None:
        # Both versions run from the same path -> same co_filename in traces; the project root is that
        # directory, so the snapshot is sources/model.py in both bundles.
        pair_dir.mkdir(parents=True, exist_ok=True)
        for stale in pair_dir.glob("*.py"):  # the other version's files (a file only one version has)
            stale.unlink()
        executed, cwd = pair_dir / script.name, pair_dir
        for source in script.parent.glob("*.py"):
            shutil.copyfile(source, pair_dir / source.name)
    request = CaptureRequest(
        command=[python, *COMMAND_FOR.get(name, []), str(executed)],
        bundle=bundle,
        label=name,
        declarations=parse_declarations([f"{k}={v}" for k, v in DECLARED.get(name, {}).items()]),
        environment=RECORDED_ENV,
        cache=cache,
        cache_dir=cache_dir,
        tlparse=tlparse,
        convert=tlparse is not None,
        cwd=cwd,
        root=cwd,
        env=env,
        observe=name not in NOT_OBSERVED,
    )
    result = record(request, say=lambda text: print(f"  {text}"))
    if pair_dir is not None and sha256(executed) != sha256(script):
        raise SystemExit(f"{name}: executed source changed during the run")
    return result.exit_code, result.incomplete_reason


def fill_cold_cache_if_missing(python: str, tlparse: str | None) -> None:
    if INDUCTOR_CACHE.is_dir() and any(INDUCTOR_CACHE.iterdir()):
        return
    print("  inductor_warm: cold cache missing, running inductor_cold first (not retained)")
    with tempfile.TemporaryDirectory(prefix="dd-cold-") as tmp:
        capture_workload(python, "inductor_cold", Path(tmp) / "bundle", None)


def prune_report(bundle: Path, keep: bool) -> dict[str, Any]:
    """Keep report/'s raw.jsonl files and the payload files they reference (no HTML), if small; else drop it."""
    report = bundle / "report"
    if not report.is_dir():
        if not any((bundle / "raw").iterdir()):
            return {"kept": False, "why": "no trace file to convert (the run compiled no frame)"}
        return {"kept": False, "why": "no report (tlparse not found or conversion failed)"}
    plan: list[Path] = []
    for jsonl in sorted(report.rglob("raw.jsonl")):
        plan.append(jsonl)
        with jsonl.open(encoding="utf-8") as handle:
            for line in handle:
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                name = rec.get("payload_filename") if isinstance(rec, dict) else None
                if isinstance(name, str) and (jsonl.parent / name).is_file():
                    plan.append(jsonl.parent / name)
    total = sum(p.stat().st_size for p in plan)
    if not keep or total > REPORT_MAX_BYTES:
        shutil.rmtree(report)
        why = "not in REPORT_KEEP" if not keep else f"{total} bytes > {REPORT_MAX_BYTES}"
        return {"kept": False, "why": why, "bytes": total}
    wanted = {p.resolve() for p in plan}
    for path in sorted(report.rglob("*"), reverse=True):
        if path.is_file() and path.resolve() not in wanted:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return {"kept": True, "what": "raw.jsonl + referenced payload files (HTML/index dropped)", "bytes": total}


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--python", required=True, help="an interpreter with torch 2.13.0 (tlparse beside it)")
    ap.add_argument(
        "--python-for",
        action="append",
        default=[],
        metavar="VERSION=PATH",
        help="the interpreter for fixtures recorded with another torch (TORCH_FOR), "
        "e.g. 2.14.1=.venv-torch214/bin/python",
    )
    ap.add_argument("--only", nargs="+", metavar="NAME", choices=list(SCRIPTS))
    ap.add_argument("--force", action="store_true", help="overwrite existing captures")
    ap.add_argument("--no-tlparse", action="store_true")
    args = ap.parse_args()

    def absolute(python: str) -> str:  # pairs run from another directory
        return str(Path(python).absolute()) if os.sep in python else python

    pythons = {DEFAULT_TORCH: absolute(args.python)}
    for given in args.python_for:
        wanted, _, path = given.partition("=")
        pythons[wanted] = absolute(path)
    names = [n for n, _ in ALL if not args.only or n in args.only]
    versions: dict[str, str] = {}
    for wanted in sorted({TORCH_FOR.get(n, DEFAULT_TORCH) for n in names}):
        python = pythons.get(wanted)
        found = torch_version(python) if python else None
        if found is None or found.split("+", 1)[0] != wanted:
            print(f"torch {wanted} is needed (found {found} with {python}); see the module docstring", file=sys.stderr)
            return 2
        versions[wanted] = found
    tlparse = None if args.no_tlparse else find_tlparse([args.python])
    if tlparse is None and not args.no_tlparse:
        print("note: tlparse not found beside that python or on PATH; no report")
    CAPTURES.mkdir(parents=True, exist_ok=True)
    WORK.mkdir(parents=True, exist_ok=True)
    failures = 0
    for name in names:
        dest = CAPTURES / name
        if dest.exists() and not args.force:
            print(f"{name}: {dest.relative_to(REPO)} exists; refusing to overwrite (use --force)")
            failures += 1
            continue
        if name == "inductor_warm":
            fill_cold_cache_if_missing(args.python, tlparse)
        shared = SHARED_CACHES.get(name)
        if name in FIRST_SHARED and shared is not None and not (shared.is_dir() and any(shared.iterdir())):
            print(f"  {name}: the shared cache is empty, running {FIRST_SHARED[name]} first (not retained)")
            with tempfile.TemporaryDirectory(prefix="dd-cold-") as tmp:
                capture_workload(args.python, FIRST_SHARED[name], Path(tmp) / "bundle", None)
        wanted = TORCH_FOR.get(name, DEFAULT_TORCH)
        print(f"{name}: running {SCRIPTS[name]} with torch {versions[wanted]} ...", flush=True)
        stage = Path(tempfile.mkdtemp(prefix=f"dd-{name}-", dir=WORK)) / "bundle"
        exit_code, incomplete = capture_workload(pythons[wanted], name, stage, tlparse)
        if exit_code != EXPECTED_EXIT.get(name, 0) or not (stage / "oracle.json").is_file():
            print(f"{name}: FAILED ({incomplete or 'no oracle.json'}); bundle kept at {stage}")
            failures += 1
            continue
        notes: dict[str, Any] = {
            "workload": f"fixtures/workloads/{SCRIPTS[name]}",
            "report": prune_report(stage, name in REPORT_KEEP),
        }
        (stage / "fixture.json").write_text(json.dumps(notes, indent=2, sort_keys=True) + "\n")
        if dest.exists():
            shutil.rmtree(dest)
        shutil.move(str(stage), str(dest))
        shutil.rmtree(stage.parent, ignore_errors=True)
        os.chmod(dest, 0o755)
        for p in dest.rglob("*"):
            os.chmod(p, 0o755 if p.is_dir() else 0o644)
        size = sum(p.stat().st_size for p in dest.rglob("*") if p.is_file())
        print(f"{name}: ok, {size / 1024:.0f} KiB{', report kept' if notes['report']['kept'] else ''}")
    total = sum(p.stat().st_size for p in (REPO / "fixtures").rglob("*") if p.is_file())
    ours = sum(p.stat().st_size for p in CAPTURES.rglob("*") if p.is_file())
    print(f"fixtures/captures: {ours / 1e6:.2f} MB; fixtures/ total: {total / 1e6:.2f} MB")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

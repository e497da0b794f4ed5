#!/usr/bin/env python3
"""Record the retained TORCH_TRACE fixtures under fixtures/captures/.

Run with the python of an environment that has torch 2.13.0 (and tlparse
0.4.3 for the report check); this script installs nothing:

    python -m venv .venv-torch
    .venv-torch/bin/pip install torch==2.13.0 tlparse==0.4.3
    .venv-torch/bin/python tools/generate_fixtures.py [--only NAME ...] [--force]

For every workload it makes a new staging directory, runs the workload as a
subprocess with

    TORCH_TRACE=<stage>/raw              (the trace directory, kept as written)
    DYNAMO_DIFF_ORACLE=<stage>/oracle.json (the workload's own oracle)
    TORCHINDUCTOR_CACHE_DIR=<fresh dir>  (inductor_warm: inductor_cold's dir)
    TORCHINDUCTOR_FX_GRAPH_CACHE=1

checks the exit code, runs tlparse over each trace file to check it converts,
keeps ``report/`` (raw.jsonl + the payload files it references, no HTML) only
when that subset is small, writes ``capture.json`` (what ran and what was
kept) and moves the stage to fixtures/captures/<name>.  An existing capture is
never overwritten without --force.
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
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
WORKLOADS = REPO / "fixtures" / "workloads"
CAPTURES = REPO / "fixtures" / "captures"

# Fixed locations outside the repo, so that runs are reproducible:
# - the edit pair is executed from ONE path, whichever version runs;
# - inductor_warm reuses the cache that inductor_cold filled.
WORK = Path(tempfile.gettempdir()) / "dynamo-diff-fixtures"
EDIT_DIR = WORK / "edit"
INDUCTOR_CACHE = WORK / "inductor-cache-cold"

# name -> script (relative to fixtures/workloads); order matters (cold < warm).
ALL = [
    ("stable", "stable.py"),
    ("shape", "shape.py"),
    ("scalar", "scalar.py"),
    ("multiple_guards", "multiple_guards.py"),
    ("dynamic", "dynamic.py"),
    ("grad_mode", "grad_mode.py"),
    ("object_identity", "object_identity.py"),
    ("graph_break", "graph_break.py"),
    ("backend_failure", "backend_failure.py"),
    ("no_graph", "no_graph.py"),
    ("recompile_limit", "recompile_limit.py"),
    ("fullgraph_error", "fullgraph_error.py"),
    ("inductor_cold", "inductor_cold.py"),
    ("inductor_warm", "inductor_warm.py"),
    ("training", "training.py"),
    ("compiled_autograd", "compiled_autograd.py"),
    ("two_ranks", "two_ranks.py"),
    ("edit_v1", "edit_v1/model.py"),
    ("edit_v2", "edit_v2/model.py"),
]
SCRIPTS = dict(ALL)

# report/ (tlparse's raw.jsonl + the payload files it references) is kept only
# for a few representative captures, and only if small: the other captures'
# reports would only duplicate their raw traces. Every capture is still
# converted, to check that tlparse accepts it (recorded in capture.json).
REPORT_KEEP = {"stable", "graph_break", "recompile_limit", "backend_failure", "two_ranks"}
REPORT_MAX_BYTES = 300_000
TIMEOUT_S = 300

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
)


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def find_tlparse() -> str | None:
    cand = Path(sys.executable).parent / "tlparse"
    if cand.exists():
        return str(cand)
    return shutil.which("tlparse")


def tool_version(cmd: list[str]) -> str | None:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout.strip() or None
    except Exception:
        return None


def fill_cold_cache_if_missing(python: str) -> None:
    if INDUCTOR_CACHE.is_dir() and any(INDUCTOR_CACHE.iterdir()):
        return
    print("  inductor_warm: cold cache missing, running inductor_cold first (not retained)")
    with tempfile.TemporaryDirectory(prefix="dd-cold-") as tmp:
        run_workload(python, "inductor_cold", Path(tmp), fresh_cache=True)


def _text(data: str | bytes | None) -> str:
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else (data or "")


def run_workload(python: str, name: str, stage: Path, fresh_cache: bool | None = None) -> dict[str, Any]:
    """Run one workload with stage/raw as TORCH_TRACE; return run metadata."""
    script = WORKLOADS / SCRIPTS[name]
    (stage / "raw").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k not in SCRUB}
    env.update(
        {
            "TORCH_TRACE": str(stage / "raw"),
            "DYNAMO_DIFF_ORACLE": str(stage / "oracle.json"),
            "TORCHINDUCTOR_FX_GRAPH_CACHE": "1",
            "TORCHINDUCTOR_COMPILE_THREADS": "1",
            "PYTHONHASHSEED": "0",
            "PYTHONPATH": str(WORKLOADS),
            "DYNAMO_DIFF_WORKLOADS": str(WORKLOADS),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
    )
    cache_note: str
    tmp_cache: tempfile.TemporaryDirectory[str] | None = None
    if name == "inductor_cold" or fresh_cache:
        if INDUCTOR_CACHE.exists():
            shutil.rmtree(INDUCTOR_CACHE)
        INDUCTOR_CACHE.mkdir(parents=True)
        env["TORCHINDUCTOR_CACHE_DIR"] = str(INDUCTOR_CACHE)
        cache_note = "fresh empty dir (kept for inductor_warm)"
    elif name == "inductor_warm":
        env["TORCHINDUCTOR_CACHE_DIR"] = str(INDUCTOR_CACHE)
        cache_note = "inductor_cold's cache dir, reused"
    else:
        tmp_cache = tempfile.TemporaryDirectory(prefix="dd-inductor-cache-")
        env["TORCHINDUCTOR_CACHE_DIR"] = tmp_cache.name
        cache_note = "fresh empty dir"

    executed = script
    if name.startswith("edit_"):
        # Both versions run from the same path -> same co_filename in traces.
        EDIT_DIR.mkdir(parents=True, exist_ok=True)
        executed = EDIT_DIR / "model.py"
        shutil.copyfile(script, executed)
    before = sha256(executed)

    cmd = [python, str(executed)]
    t0 = time.time()
    try:
        proc = subprocess.run(cmd, cwd=stage, env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
        rc, out, err = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = -1, _text(e.stdout), f"timeout after {TIMEOUT_S}s\n{_text(e.stderr)}"
    finally:
        if tmp_cache is not None:
            tmp_cache.cleanup()
    dur = time.time() - t0
    (stage / ".stdout.txt").write_text(out if isinstance(out, str) else "")
    (stage / ".stderr.txt").write_text(err if isinstance(err, str) else "")
    meta = {
        "workload": str(script.relative_to(REPO)),
        "executed_as": str(executed) if executed != script else str(script.relative_to(REPO)),
        "exit_code": rc,
        "duration_s": round(dur, 1),
        "inductor_cache": cache_note,
        "env": {
            "TORCH_TRACE": "raw/",
            "DYNAMO_DIFF_ORACLE": "oracle.json",
            "TORCHINDUCTOR_FX_GRAPH_CACHE": "1",
            "TORCHINDUCTOR_COMPILE_THREADS": "1",
            "PYTHONHASHSEED": "0",
        },
    }
    if name.startswith("edit_"):
        if sha256(executed) != before:
            raise SystemExit(f"{name}: executed source changed during the run")
        (stage / "sources").mkdir()
        shutil.copyfile(executed, stage / "sources" / "model.py")
        meta["sources"] = {"sources/model.py": {"sha256": before, "executed_path": str(executed)}}
    return meta


def tlparse_check(tlparse: str, stage: Path, keep: bool) -> dict[str, Any]:
    """Convert every trace file; keep raw.jsonl + referenced payloads if small."""
    files = sorted(p for p in (stage / "raw").iterdir() if p.is_file())
    result: dict[str, Any] = {"tool": tool_version([tlparse, "--version"]), "files": {}, "kept": False}
    kept_plan: list[tuple[Path, Path]] = []  # (src, dst relative to report/)
    total = 0
    with tempfile.TemporaryDirectory(prefix="dd-tlparse-") as tmp:
        for f in files:
            out = Path(tmp) / f.stem
            proc = subprocess.run(
                [tlparse, str(f), "-o", str(out), "--overwrite", "--no-browser"],
                capture_output=True,
                text=True,
                timeout=300,
            )
            ok = proc.returncode == 0 and (out / "raw.jsonl").is_file()
            result["files"][f.name] = {"exit_code": proc.returncode, "converted": ok}
            if not ok:
                continue
            sub = Path(".") if len(files) == 1 else Path(f.stem)
            refs = set()
            with open(out / "raw.jsonl", encoding="utf-8") as fh:
                for line in fh:
                    try:
                        rec = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(rec, dict) and rec.get("payload_filename"):
                        refs.add(rec["payload_filename"])
            kept_plan.append((out / "raw.jsonl", sub / "raw.jsonl"))
            total += (out / "raw.jsonl").stat().st_size
            for r in sorted(refs):
                src = (out / r).resolve()
                if out.resolve() in src.parents and src.is_file():
                    kept_plan.append((src, sub / r))
                    total += src.stat().st_size
            result["files"][f.name]["payload_files"] = len(refs)
        result["kept_bytes"] = total
        all_ok = bool(files) and all(v["converted"] for v in result["files"].values())
        result["all_converted"] = all_ok
        if all_ok and keep and total <= REPORT_MAX_BYTES:
            for src, rel in kept_plan:
                dst = stage / "report" / rel
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dst)
            result["kept"] = True
            result["kept_what"] = "raw.jsonl + referenced payload files (HTML/index dropped)"
        else:
            result["kept_what"] = (
                "nothing: conversion failed"
                if not all_ok
                else "nothing: not in REPORT_KEEP"
                if not keep
                else f"nothing: {total} bytes > {REPORT_MAX_BYTES}"
            )
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", metavar="NAME", choices=list(SCRIPTS))
    ap.add_argument("--force", action="store_true", help="overwrite existing captures")
    ap.add_argument("--no-tlparse", action="store_true")
    args = ap.parse_args()

    try:
        import torch
    except ImportError:
        print("torch is not importable by this python; see the module docstring", file=sys.stderr)
        return 2

    names = [n for n, _ in ALL if not args.only or n in args.only]
    tlparse = None if args.no_tlparse else find_tlparse()
    if tlparse is None and not args.no_tlparse:
        print("note: tlparse not found next to this python or on PATH; no report check")
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
            fill_cold_cache_if_missing(sys.executable)
        print(f"{name}: running {SCRIPTS[name]} ...", flush=True)
        stage = Path(tempfile.mkdtemp(prefix=f"dd-{name}-", dir=WORK))
        meta = run_workload(sys.executable, name, stage)
        if meta["exit_code"] != 0 or not (stage / "oracle.json").is_file():
            print(f"{name}: FAILED (exit {meta['exit_code']}); stage kept at {stage}")
            print((stage / ".stderr.txt").read_text()[-3000:])
            failures += 1
            continue
        meta["torch_version"] = torch.__version__
        meta["python"] = sys.version.split()[0]
        meta["raw_files"] = {
            p.name: {"bytes": p.stat().st_size, "sha256": sha256(p)}
            for p in sorted((stage / "raw").iterdir())
            if p.is_file()
        }
        if tlparse:
            meta["tlparse"] = tlparse_check(tlparse, stage, name in REPORT_KEEP)
            if not meta["tlparse"]["all_converted"]:
                print(f"{name}: WARNING tlparse did not convert every file")
        for junk in (".stdout.txt", ".stderr.txt"):
            (stage / junk).unlink()
        (stage / "capture.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
        if dest.exists():
            shutil.rmtree(dest)
        shutil.move(str(stage), str(dest))
        os.chmod(dest, 0o755)
        for p in dest.rglob("*"):
            os.chmod(p, 0o755 if p.is_dir() else 0o644)
        size = sum(p.stat().st_size for p in dest.rglob("*") if p.is_file())
        print(
            f"{name}: ok in {meta['duration_s']}s, {size / 1024:.0f} KiB"
            f"{', report kept' if meta.get('tlparse', {}).get('kept') else ''}"
        )
    total = sum(p.stat().st_size for p in (REPO / "fixtures").rglob("*") if p.is_file())
    ours = sum(p.stat().st_size for p in CAPTURES.rglob("*") if p.is_file())
    print(f"fixtures/captures: {ours / 1e6:.2f} MB; fixtures/ total: {total / 1e6:.2f} MB")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

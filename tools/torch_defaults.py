#!/usr/bin/env python3
"""Write the table of a torch version's compiler defaults, as its traces record them.

A trace's `compilation_metrics` carry the whole Dynamo and Inductor configuration (`dynamo_config`,
`inductor_config`) but not which values the user set. Comparing two torch versions needs to know which
differences are only the versions' own defaults, so each version we know gets a table, made from the real wheel:

    python3.11 -m venv .venv-torch && .venv-torch/bin/pip install torch==2.13.0
    uv run python tools/torch_defaults.py --python .venv-torch/bin/python

It runs the interpreter three times with torch's own serialisers of those two fields
(`torch._dynamo.utils._get_dynamo_config_for_logging`, `_scrubbed_inductor_config_for_logging`), with every TORCH*
and PYTORCH* environment variable removed, so nothing but the version's code decides a value:
- once as it is;
- once on one CPU (`os.sched_setaffinity` before torch is imported) with other HOME and TMPDIR folders,
- once with CUDA_VISIBLE_DEVICES empty.
A key whose value differs between the runs depends on the machine (the number of CPUs, a folder, a GPU): it is
listed under `machine_dependent` with no default, and a comparison never calls its value a default.

The table is written to packages/dynamo-diff-compare/src/dynamo_diff_compare/torch_defaults/<version>.json, named by
the version without its local build tag (2.13.0 for 2.13.0+cpu); the build it was made from is recorded inside.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
TABLES = REPO / "packages" / "dynamo-diff-compare" / "src" / "dynamo_diff_compare" / "torch_defaults"

_PROBE = r"""
import json, os, sys
if os.environ.get("DD_ONE_CPU"):
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
import torch
import torch._inductor.config  # noqa: F401  (the serialiser reads it; a compiling process has imported it)
from torch._dynamo import utils

def parsed(text):
    value = json.loads(text) if isinstance(text, str) else None
    if not isinstance(value, dict):
        raise SystemExit("the serialiser gave no JSON object: %r" % (text,)[:200])
    return value

print(json.dumps({
    "torch": torch.__version__,
    "git": getattr(torch.version, "git_version", None),
    "python": sys.version.split()[0],
    "dynamo": parsed(utils._get_dynamo_config_for_logging()),
    "inductor": parsed(utils._scrubbed_inductor_config_for_logging()),
}, sort_keys=True))
"""


def probe(python: str, extra: dict[str, str]) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TORCH", "PYTORCH"))}
    env.update(extra)
    proc = subprocess.run(
        [python, "-c", _PROBE],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        cwd=tempfile.gettempdir(),
    )
    if proc.returncode != 0:
        raise SystemExit(f"{python}: the probe failed:\n{proc.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def flatten(run: dict[str, Any]) -> dict[str, Any]:
    return {f"{family}.{key}": value for family in ("dynamo", "inductor") for key, value in run[family].items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--python", required=True, help="an interpreter with the torch version to describe")
    ap.add_argument("--out", type=Path, default=TABLES, help="the folder of tables")
    args = ap.parse_args()
    # The probe runs in another directory: a relative path is made absolute (a bare name is looked up on PATH).
    python = str(Path(args.python).absolute()) if os.sep in args.python else args.python

    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as tmp:
        runs = [
            probe(python, {}),
            probe(python, {"DD_ONE_CPU": "1", "HOME": home, "TMPDIR": tmp}),
            probe(python, {"CUDA_VISIBLE_DEVICES": ""}),
        ]
    first = runs[0]
    if len({r["torch"] for r in runs}) != 1:
        raise SystemExit("the runs saw different torch versions")
    values = [flatten(r) for r in runs]
    keys = sorted(set().union(*values))
    canonical = [{k: json.dumps(v.get(k, "<absent>"), sort_keys=True) for k in keys} for v in values]
    varies = sorted(k for k in keys if len({c[k] for c in canonical}) > 1)
    table = {
        "about": "Compiler defaults of one torch version as its traces record them (compilation_metrics "
        "dynamo_config / inductor_config), written by tools/torch_defaults.py from the real wheel with no TORCH* "
        "environment variables. machine_dependent: keys whose default changed with the CPUs, folders or GPUs the "
        "probe ran with (never called a default).",
        "torch": first["torch"],
        "git": first["git"],
        "python": first["python"],
        "machine_dependent": varies,
        "defaults": {k: v for k, v in values[0].items() if k not in varies},
    }
    version = str(first["torch"]).split("+", 1)[0]
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{version}.json"
    path.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(
        f"wrote {path.relative_to(REPO) if path.is_relative_to(REPO) else path}: {len(table['defaults'])} defaults, "
        f"{len(varies)} machine-dependent ({', '.join(varies[:8])}{' ...' if len(varies) > 8 else ''})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Campaign: path attacks on raw directories, bundles and tlparse exports.

`..`, absolute paths, symlinks out (to a secret file and to a secret directory), symlink loops, FIFOs, device
files and names with control characters. Every attack must be refused with a structured error code, and the
secret's bytes must never reach the store. The same entries, `..`, absolute paths and NUL are sent to the MCP
tools (import_trace, and compare_runs by path) confined to one allowed root: each must be refused with
`path_not_allowed` or `unsafe_path` (tests/mcp/test_allowed_roots.py checks the same over a real MCP session).

    uv run python tools/campaigns/path_attacks.py [--smoke]
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import FIXTURES, Figures, arguments, finish
from dynamo_diff_mcp.roots import AllowedRoots
from dynamo_diff_mcp.server import ERROR_META, create_server
from dynamo_diff_store import Store
from mcp.types import CallToolResult

SECRET = b"TOP-SECRET-CANARY-7d1f"
RAW = FIXTURES / "captures" / "stable"
EXPORT = FIXTURES / "corpus" / "tlparse-exports" / "comp_metrics"
PAYLOAD = "-_0_0_1/dynamo_output_graph_0.txt"
REFUSED = {"error:unsafe_path"}
MCP_REFUSED = {"error:path_not_allowed", "error:unsafe_path"}


def secret_file(outside: Path) -> Path:
    target = outside / "secret.log"
    # a valid-looking trace so that nothing but the path can be the reason for refusal
    target.write_bytes((next((RAW / "raw").glob("*.log"))).read_bytes() + SECRET + b"\n")
    return target


def attack(kind: str, where: Path, name: str, outside: Path) -> None:
    """Plant one hostile entry called `name` in directory `where`."""
    entry = where / name
    if kind == "symlink_out_file":
        entry.symlink_to(secret_file(outside))
    elif kind == "symlink_out_dir":
        secret_file(outside)
        entry.symlink_to(outside, target_is_directory=True)
    elif kind == "symlink_loop":
        entry.symlink_to(entry)
    elif kind == "symlink_cycle_dir":
        entry.symlink_to(where, target_is_directory=True)
    elif kind == "fifo":
        os.mkfifo(entry)
    elif kind == "device":
        entry.symlink_to("/dev/zero")
    elif kind == "dangling":
        entry.symlink_to(outside / "nowhere")
    elif kind == "absolute_symlink_in_root_name":
        entry.symlink_to(Path("/etc/passwd"))
    else:
        raise ValueError(kind)


ENTRY_ATTACKS = [
    "symlink_out_file",
    "symlink_out_dir",
    "symlink_loop",
    "symlink_cycle_dir",
    "fifo",
    "device",
    "dangling",
    "absolute_symlink_in_root_name",
]
NAMES = ["dedicated_log_torch_trace_rank_1_x.log", "dedicated_log_torch_trace_\x1b[31m\n\r.log"]
PAYLOAD_NAMES = ["../../outside/secret.log", "/etc/passwd", "a/../../../outside/secret.log", "..", "/", "x\x00y"]


def build_raw(work: Path, kind: str, name: str) -> Path:
    target = work / "raw"
    shutil.copytree(RAW / "raw", target)
    attack(kind, target, name, work / "outside")
    return target


def build_bundle(work: Path, kind: str, name: str) -> Path:
    bundle = work / "bundle"
    shutil.copytree(RAW, bundle, symlinks=True)
    spot = {"raw": bundle / "raw", "sources": bundle / "sources", "root": bundle}[name]
    spot.mkdir(exist_ok=True)
    if name == "root":
        # replace a bundle part (raw/, sources/, manifest.json) by the attack
        shutil.rmtree(bundle / "sources", ignore_errors=True)
        attack(kind, bundle, "sources", work / "outside")
    else:
        attack(kind, spot, "dedicated_log_torch_trace_rank_3_y.log" if name == "raw" else "model.py", work / "outside")
    return bundle


def build_manifest_attack(work: Path, kind: str) -> Path:
    bundle = work / "bundle"
    shutil.copytree(RAW, bundle, symlinks=True)
    (bundle / "manifest.json").unlink()
    attack(kind, bundle, "manifest.json", work / "outside")
    return bundle


def build_export_entry(work: Path, kind: str) -> Path:
    export = work / "export"
    shutil.copytree(EXPORT, export, symlinks=True)
    (export / PAYLOAD).unlink()
    attack(kind, export / PAYLOAD.split("/", maxsplit=1)[0], PAYLOAD.split("/")[1], work / "outside")
    return export


def build_export_name(work: Path, name: str) -> Path:
    export = work / "export"
    shutil.copytree(EXPORT, export, symlinks=True)
    secret_file(work / "outside")
    raw = (export / "raw.jsonl").read_text()
    quoted = name.replace("\\", "\\\\").replace("\x00", "\\u0000")
    (export / "raw.jsonl").write_text(
        raw.replace(f'"payload_filename":"{PAYLOAD}"', f'"payload_filename":"{quoted}"', 1)
    )
    return export


def mcp_cases(work: Path) -> list[tuple[str, str, dict[str, Any]]]:
    """An allowed root holding one good bundle and hostile entries; (label, tool, arguments) for each attack."""
    allowed = work / "root"
    shutil.copytree(RAW, allowed / "stable")
    outside = work / "outside"
    outside.mkdir()
    secret_file(outside)
    for kind in ENTRY_ATTACKS:
        attack(kind, allowed, f"{kind}.log", outside)
    attack("symlink_out_file", allowed, "escape\x1b[31m\n\r.log", outside)
    paths = [f"{kind}.log" for kind in ENTRY_ATTACKS] + [
        "escape\x1b[31m\n\r.log",
        "../outside/secret.log",
        "stable/../../outside/secret.log",
        str(outside / "secret.log"),
        "/etc/passwd",
        "/dev/zero",
        "stable\x00/raw",
    ]
    cases = [(f"mcp import_trace {path!r}", "import_trace", {"path": path}) for path in paths]
    cases.append(
        (
            "mcp import_trace manifest_path out",
            "import_trace",
            {"path": "stable", "manifest_path": str(outside / "secret.log")},
        )
    )
    cases.append(
        ("mcp compare_runs by path out", "compare_runs", {"baseline": "../outside/secret.log", "candidate": "./stable"})
    )
    return cases


def run_mcp(figures: Figures, root: Path) -> None:
    work = Path(tempfile.mkdtemp(dir=root))
    try:
        cases = mcp_cases(work)
        server = create_server(work / "store", AllowedRoots([work / "root"]))
        for label, tool, arguments in cases:

            def action(tool: str = tool, arguments: dict[str, Any] = arguments) -> str:
                result = anyio.run(server.call_tool, tool, arguments)
                # A tool answers a refusal with an error result carrying our code (never an exception).
                if isinstance(result, CallToolResult) and result.is_error and result.meta:
                    return f"error:{result.meta[ERROR_META]['code']}"
                return "served"

            outcome = figures.run(label, action, bound=20.0)
            if outcome not in MCP_REFUSED:
                figures.fail(f"{label}: not refused ({outcome})")
        leaked = [p for p in (work / "store").rglob("*") if p.is_file() and SECRET in p.read_bytes()]
        if leaked:
            figures.fail(f"mcp: the secret reached the store in {leaked[0]}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    arguments(__doc__ or "")  # --smoke: the same cases (they take a few seconds)
    figures = Figures("path_attacks")
    root = Path(tempfile.mkdtemp(prefix="path-attacks-"))
    cases: list[tuple[str, Callable[[Path], Path]]] = []
    for kind in ENTRY_ATTACKS:
        for name in NAMES:
            cases.append((f"raw dir: {kind} {name!r}", partial(build_raw, kind=kind, name=name)))
        for spot in ("raw", "sources", "root"):
            cases.append((f"bundle {spot}/: {kind}", partial(build_bundle, kind=kind, name=spot)))
        cases.append((f"bundle manifest.json: {kind}", partial(build_manifest_attack, kind=kind)))
        cases.append((f"tlparse payload file: {kind}", partial(build_export_entry, kind=kind)))
    for name in PAYLOAD_NAMES:
        cases.append((f"tlparse payload_filename {name!r}", partial(build_export_name, name=name)))
    try:
        for label, build in cases:
            work = Path(tempfile.mkdtemp(dir=root))
            (work / "outside").mkdir()
            store = Store(work / "store")

            def action(build: Callable[[Path], Path] = build, work: Path = work, store: Store = store) -> str:
                store.import_path(build(work), workers=1)
                return "capture"

            outcome = figures.run(label, action, bound=20.0)
            leaked = [p for p in (work / "store").rglob("*") if p.is_file() and SECRET in p.read_bytes()]
            if leaked:
                figures.fail(f"{label}: the secret reached the store in {leaked[0]}")
            if "symlink_cycle_dir" in label and outcome == "capture":
                pass  # a link back into the input stays inside it: skipped, never followed round
            elif outcome not in REFUSED and not outcome.startswith("error:"):
                figures.fail(f"{label}: not refused ({outcome})")
            elif outcome not in REFUSED:
                print(f"  note {label}: refused as {outcome}")
            shutil.rmtree(work, ignore_errors=True)
        run_mcp(figures, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    finish(figures)


if __name__ == "__main__":
    main()

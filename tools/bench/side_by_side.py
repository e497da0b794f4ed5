"""dynamo-diff (this clone) beside tlparse 0.4.3 and the dynamo-diff 0.1.1 release, on the same inputs.

Each tool is pip-installed into its own venv (cached; the clone's venv is reinstalled when packages/ changes)
and measured as a user meets it: the whole command (process start-up, the copy into a fresh store), wall time
(median of the runs, the tools' runs interleaved), and the peak RSS of the largest process of the command's
tree (`wait4` rusage: the figure `/usr/bin/time -v` prints), with the sum over the tree sampled every 0.1 s
beside it. Inputs, built from real torch traces (tools/bench/trace_inputs.py):

- a raw TORCH_TRACE log of copies of torch 2.13 Inductor, compiled-autograd and training captures (about 70%
  `chromium_event` records): `dynamo-diff import LOG` against `tlparse LOG` converting it;
- a tlparse export with thousands of payload files, converted from copies of the two torch 2.14 captures
  that 0.1.1 shipped (fixtures/v1_bundles; 0.1.1 refuses any other torch version, compiled autograd and
  backward compilations): `dynamo-diff import EXPORT` against 0.1.1's `dynamo-diff import EXPORT`;
- `--version` and `--help`; a comparison of 10,000 functions a side with source snapshots
  (tools/bench/compare_scaling.py's captures, compared in a fresh process: the comparison alone);
- full mode only: a 1 GiB raw log (memory must stay flat).

Prints a markdown table with each goal of issue 18 and whether it is met. Full mode exits 1 when a goal is
missed. `--smoke` (run by .ci/run) uses small inputs, where start-up dominates: absolute throughput and memory
are printed but not judged, the other goals are reported, and it exits 1 only when a regression guard fails:
the clone's import of the raw log slower than tlparse converting it, or its import of the export slower than
0.1.1's.

    uv run python tools/bench/side_by_side.py [--smoke] [--repeat 3] [--json FILE] [--keep DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from trace_inputs import ROOT, ExportFacts, LogFacts, MiB, build_log, convert, export_facts, payload_check

V1_BASES = tuple(
    sorted((ROOT / "fixtures" / "v1_bundles" / name / "raw").glob("*.log"))[0] for name in ("shape", "stable")
)
PACKAGES = ("schema", "store", "match", "compare", "service", "cli", "mcp")
TLPARSE = "tlparse==0.4.3"
RELEASE = "dynamo-diff==0.1.1"
CORES = 2

# Goals (issue 18).
RAW_MIB_S, RAW_MIB_S_STRETCH, RAW_PEAK_MIB = 100.0, 150.0, 110.0
EXPORT_SPEEDUP, EXPORT_RSS_RATIO = 10.0, 0.5
STARTUP_S = 0.15
COMPARE_S = 1.0
BIG_PEAK_MIB = 128.0

COMPARE_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from compare_scaling import capture
from contextlib import nullcontext
from dynamo_diff_compare import compare_captures, user_sources
try:  # since 0.3 the caller pauses the cyclic collector (as the service does); earlier releases paused inside
    from dynamo_diff_store import collector_paused
except ImportError:
    collector_paused = nullcontext
n = int(sys.argv[2])
base, b_files, b_paths = capture(n, candidate=False)
cand, c_files, c_paths = capture(n, candidate=True)
start = time.perf_counter()
with collector_paused():
    result = compare_captures(base, cand, baseline_sources=user_sources(b_files, b_paths),
                              candidate_sources=user_sources(c_files, c_paths))
print(json.dumps({"seconds": time.perf_counter() - start, "rows": len(result.functions)}))
"""


# ----------------------------------------------------------------------------------------------------- venvs


def _pip(venv: Path, *args: str) -> None:
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *args],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"pip install {' '.join(args)} failed in {venv}:\n{done.stderr[-3000:]}")


def _usable(venv: Path) -> bool:
    """Whether the venv's scripts still run: a script's first line names the interpreter by the path the venv was
    made at, so a venv made through a path that no longer exists (a cache once reached through a link in a
    clone) has scripts that fail with "No such file or directory"."""
    pip = venv / "bin" / "pip"
    try:
        first = pip.read_text(encoding="utf-8", errors="replace").splitlines()[0]
    except (OSError, IndexError):
        return False
    return first.startswith("#!") and Path(first[2:].split()[0]).exists()


def _new_venv(venv: Path, python: str) -> None:
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([python, "-m", "venv", str(venv)], check=True, capture_output=True)


def released_venv(cache: Path, name: str, requirement: str, python: str) -> Path:
    """A venv holding `requirement` from the package index, made once."""
    venv = cache / name
    stamp = venv / ".bench-ready"
    if not stamp.exists() or stamp.read_text() != requirement or not _usable(venv):
        print(f"creating venv {name} ({requirement}) ...", flush=True)
        _new_venv(venv, python)
        _pip(venv, requirement)
        stamp.write_text(requirement)
    return venv


def _digest(paths: Sequence[Path]) -> str:
    h = hashlib.sha256()
    for path in paths:
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def clone_venv(cache: Path, python: str) -> Path:
    """A venv holding this clone's eight distributions, installed (not editable) as pip builds them.

    Made again when a pyproject.toml changes (dependencies); when only sources change the eight are rebuilt
    and reinstalled without their dependencies."""
    dirs = [ROOT / "packages" / f"dynamo-diff-{p}" for p in PACKAGES] + [ROOT / "packages" / "dynamo-diff"]
    deps = _digest([d / "pyproject.toml" for d in dirs])
    sources = _digest(sorted(p for d in dirs for p in d.rglob("*") if p.is_file() and "__pycache__" not in p.parts))
    venv = cache / "clone"
    stamp = venv / ".bench-ready"
    state = json.loads(stamp.read_text()) if stamp.exists() else {}
    if state.get("deps") != deps or not _usable(venv):
        print("creating venv clone (this clone's packages/) ...", flush=True)
        _new_venv(venv, python)
        _pip(venv, "hatchling", *map(str, dirs))
    elif state.get("sources") != sources:
        print("reinstalling this clone's packages into venv clone ...", flush=True)
        _pip(venv, "--no-deps", "--no-build-isolation", "--force-reinstall", *map(str, dirs))
    else:
        return venv
    stamp.write_text(json.dumps({"deps": deps, "sources": sources}))
    return venv


# ------------------------------------------------------------------------------------------------ measuring


@dataclass
class Run:
    seconds: float
    peak_mib: float  # the largest process of the tree (ru_maxrss)
    tree_mib: float  # the sum over the tree, sampled
    stdout: str = ""


@dataclass
class Measured:
    runs: list[Run]

    @property
    def seconds(self) -> float:
        return statistics.median(r.seconds for r in self.runs)

    @property
    def peak_mib(self) -> float:
        return max(r.peak_mib for r in self.runs)

    @property
    def tree_mib(self) -> float:
        return max(r.tree_mib for r in self.runs)


def _tree_rss(root: int) -> int:
    """Resident bytes of `root` and its descendants now (from /proc)."""
    parent: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        parent[int(entry.name)] = int(fields[1])
        rss[int(entry.name)] = int(fields[21])
    members, frontier = {root}, [root]
    while frontier:
        frontier = [pid for pid, ppid in parent.items() if ppid in frontier and pid not in members]
        members.update(frontier)
    return sum(rss.get(pid, 0) for pid in members) * os.sysconf("SC_PAGE_SIZE")


def run_once(cmd: Sequence[str], env: dict[str, str], cwd: Path, sample: bool) -> Run:
    """Run `cmd` once: wall time from fork to exit, the largest process's peak RSS (`wait4`), and when `sample`
    the largest sum of its tree's RSS seen every 0.1 s. Exits the benchmark when the command fails."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(list(cmd), stdout=out, stderr=err, env=env, cwd=cwd, stdin=subprocess.DEVNULL)
        stop = threading.Event()
        tree = [0]

        def sampler() -> None:
            while not stop.wait(0.1):
                tree[0] = max(tree[0], _tree_rss(proc.pid))

        thread = threading.Thread(target=sampler, daemon=True)
        if sample:
            thread.start()
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        stop.set()
        if sample:
            thread.join()
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode(errors="replace")
        if proc.returncode:
            message = err.read().decode(errors="replace")[-3000:]
            raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}:\n{message}")
    peak = usage.ru_maxrss / 1024
    return Run(elapsed, peak, max(tree[0] / MiB, peak), stdout)


def interleaved(commands: dict[str, Callable[[], Run]], repeat: int) -> dict[str, Measured]:
    """Run each command `repeat` times, alternating their order, each after `sync` (so that one run's writes
    are not flushed during the next)."""
    runs: dict[str, list[Run]] = {name: [] for name in commands}
    names = list(commands)
    for i in range(repeat):
        for name in names if i % 2 == 0 else names[::-1]:
            subprocess.run(["sync"], check=False)
            runs[name].append(commands[name]())
    return {name: Measured(r) for name, r in runs.items()}


# ---------------------------------------------------------------------------------------------------- table


@dataclass
class Row:
    goal: str
    input: str
    clone: str
    peer: str
    ratio: str
    target: str
    met: str
    failed: bool  # a goal missed (full mode exits 1)
    figures: dict[str, Any] = field(default_factory=dict)
    judged_in_smoke: bool = True  # False: an absolute figure that start-up dominates at smoke sizes


@dataclass
class Bench:
    """The tools, the work directory and the table being filled."""

    dd_venv: Path
    rel_venv: Path
    tl_venv: Path
    work: Path
    repeat: int
    smoke: bool
    rows: list[Row] = field(default_factory=list)
    guards: list[tuple[str, bool]] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.dd = self.dd_venv / "bin" / "dynamo-diff"
        self.rel = self.rel_venv / "bin" / "dynamo-diff"
        self.tlparse = self.tl_venv / "bin" / "tlparse"
        self.env = clean_env()
        self.store = self.work / "store"
        self.store_rel = self.work / "store-0.1.1"
        self.tl_out = self.work / "tlparse-out"
        self.dd_env = {**self.env, "DYNAMO_DIFF_STORE": str(self.store)}

    def fresh(self) -> None:
        for path in (self.store, self.store_rel, self.tl_out):
            shutil.rmtree(path, ignore_errors=True)

    def into(self, out: Path, cmd: list[str], env: dict[str, str]) -> Callable[[], Run]:
        """A run of `cmd` that writes into `out`, removed before each run (a fresh store every time)."""

        def run() -> Run:
            shutil.rmtree(out, ignore_errors=True)
            return run_once(cmd, env, self.work, sample=True)

        return run

    def import_(self, path: Path) -> Callable[[], Run]:
        return self.into(self.store, [str(self.dd), "import", str(path)], self.dd_env)

    def add(self, row: Row) -> None:
        if self.smoke and row.judged_in_smoke is False:
            row.met, row.failed = "not judged (smoke: start-up dominates small inputs)", False
        self.rows.append(row)

    def raw_log(self, raw: Path, size: float, facts: LogFacts) -> float:
        """dynamo-diff import LOG against tlparse converting it; returns the clone's peak RSS."""
        tl_cmd = [str(self.tlparse), str(raw), "-o", str(self.tl_out), "--overwrite", "--no-browser"]
        m = interleaved({"clone": self.import_(raw), "tlparse": self.into(self.tl_out, tl_cmd, self.env)}, self.repeat)
        self.facts["compilations_raw"] = dd_count(self.dd_venv, self.store)
        what = f"raw log {size:.0f} MiB ({facts.records:,} records, {facts.chromium_events:,} chromium_event)"
        clone, peer = m["clone"], m["tlparse"]
        speed = peer.seconds / clone.seconds
        rate = size / clone.seconds
        met = judge(rate >= RAW_MIB_S)
        if rate >= RAW_MIB_S:
            met += " (stretch: " + ("yes" if rate >= RAW_MIB_S_STRETCH else "no") + ")"
        self.add(
            Row(
                "raw trace import speed",
                what,
                fmt_run(clone, size),
                f"tlparse 0.4.3: {fmt_run(peer, size)}",
                f"{speed:.1f}x faster",
                f">= {RAW_MIB_S:.0f} MiB/s (stretch {RAW_MIB_S_STRETCH:.0f})",
                met,
                rate < RAW_MIB_S,
                {"clone": asdict(clone), "tlparse": asdict(peer)},
                judged_in_smoke=False,
            )
        )
        self.add(
            Row(
                "raw trace import peak RSS",
                what,
                fmt_mem(clone),
                f"tlparse 0.4.3: {fmt_mem(peer)}",
                f"{clone.peak_mib / peer.peak_mib:.2f}x",
                f"<= {RAW_PEAK_MIB:.0f} MiB",
                judge(clone.peak_mib <= RAW_PEAK_MIB),
                clone.peak_mib > RAW_PEAK_MIB,
                judged_in_smoke=False,
            )
        )
        self.guards.append(("raw log: the clone's import is faster than tlparse converting the log", speed > 1))
        return clone.peak_mib

    def export(self, export: Path, facts: ExportFacts) -> None:
        """dynamo-diff import EXPORT against 0.1.1's."""
        size = facts.imported_bytes / MiB
        rel_env = {**self.env, "DYNAMO_DIFF_STORE": str(self.store_rel)}
        rel_cmd = [str(self.rel), "import", str(export)]
        m = interleaved(
            {"clone": self.import_(export), "0.1.1": self.into(self.store_rel, rel_cmd, rel_env)}, self.repeat
        )
        self.facts["compilations_export"] = dd_count(self.dd_venv, self.store)
        try:
            counts = json.loads(m["0.1.1"].runs[-1].stdout)["counts"]
            self.facts["compilations_export_0.1.1"] = int(counts["observed_compilation_identities"])
        except (ValueError, LookupError, TypeError):
            self.facts["compilations_export_0.1.1"] = None
        what = f"tlparse export {size:.0f} MiB ({facts.payload_files:,} payload files)"
        clone, peer = m["clone"], m["0.1.1"]
        speed = peer.seconds / clone.seconds
        ratio = clone.peak_mib / peer.peak_mib
        self.add(
            Row(
                "tlparse export import speed",
                what,
                fmt_run(clone, size),
                f"0.1.1: {fmt_run(peer, size)}",
                f"{speed:.1f}x faster",
                f">= {EXPORT_SPEEDUP:.0f}x 0.1.1",
                judge(speed >= EXPORT_SPEEDUP),
                speed < EXPORT_SPEEDUP,
                {"clone": asdict(clone), "0.1.1": asdict(peer)},
            )
        )
        self.add(
            Row(
                "tlparse export import peak RSS",
                what,
                fmt_mem(clone),
                f"0.1.1: {fmt_mem(peer)}",
                f"{ratio:.2f}x",
                f"<= {EXPORT_RSS_RATIO}x 0.1.1",
                judge(ratio <= EXPORT_RSS_RATIO),
                ratio > EXPORT_RSS_RATIO,
            )
        )
        self.guards.append(("tlparse export: the clone's import is faster than 0.1.1's", speed > 1))

    def inductor_export(self, export: Path) -> None:
        """The clone alone on tlparse's export of the raw log (0.1.1 refuses torch 2.13 and compiled autograd)."""
        facts = export_facts(export)
        size = facts.imported_bytes / MiB
        m = interleaved({"clone": self.import_(export)}, self.repeat)["clone"]
        self.facts["compilations_raw_export"] = dd_count(self.dd_venv, self.store)
        self.add(
            Row(
                "tlparse export of the raw log (information)",
                f"Inductor export {size:.0f} MiB ({facts.payload_files:,} payload files)",
                f"{fmt_run(m, size)}, {fmt_mem(m)}",
                "0.1.1 refuses it (torch 2.13, compiled autograd)",
                "",
                "",
                "",
                False,
                {"clone": asdict(m)},
            )
        )

    def startup(self) -> None:
        for flag in ("--version", "--help"):
            for binary in (self.dd, self.rel):  # warm the page cache
                run_once([str(binary), flag], self.env, self.work, sample=False)
            m = interleaved(
                {
                    "clone": partial(run_once, [str(self.dd), flag], self.env, self.work, False),
                    "0.1.1": partial(run_once, [str(self.rel), flag], self.env, self.work, False),
                },
                max(self.repeat, 5),
            )
            clone, peer = m["clone"], m["0.1.1"]
            self.add(
                Row(
                    f"`dynamo-diff {flag}`",
                    "",
                    f"{clone.seconds:.2f} s, {clone.peak_mib:.0f} MiB",
                    f"0.1.1: {peer.seconds:.2f} s, {peer.peak_mib:.0f} MiB",
                    f"{clone.seconds / peer.seconds:.1f}x the time",
                    f"<= {STARTUP_S} s",
                    judge(clone.seconds <= STARTUP_S),
                    clone.seconds > STARTUP_S,
                    {"clone": asdict(clone), "0.1.1": asdict(peer)},
                )
            )

    def compare(self, functions: int) -> None:
        times: list[float] = []
        rows = 0
        python = str(self.dd_venv / "bin" / "python")
        for _ in range(self.repeat):
            run = run_once(
                [python, "-c", COMPARE_CHILD, str(ROOT / "tools" / "bench"), str(functions)], self.env, ROOT, False
            )
            result = json.loads(run.stdout)
            times.append(float(result["seconds"]))
            rows = int(result["rows"])
        seconds = statistics.median(times)
        self.add(
            Row(
                "compare with source snapshots",
                f"{functions:,} functions a side (compare_scaling.py)",
                f"{seconds:.2f} s ({rows:,} rows)",
                "",
                "",
                f"< {COMPARE_S:.0f} s",
                judge(seconds < COMPARE_S),
                seconds >= COMPARE_S,
                {"seconds": times, "rows": rows},
            )
        )

    def big_log(self, size_mib: int, small_peak: float, small_mib: float) -> None:
        big = self.work / "big.log"
        facts = build_log(big, size_mib * MiB)
        try:
            m = interleaved({"clone": self.import_(big)}, 1)["clone"]
        finally:
            big.unlink()
            self.fresh()
        self.add(
            Row(
                "memory flat in input size",
                f"raw log {facts.bytes / MiB:,.0f} MiB ({facts.records:,} records)",
                f"{fmt_run(m, facts.bytes / MiB)}, {fmt_mem(m)}",
                "",
                f"{m.peak_mib / small_peak:.2f}x the {small_mib:.0f} MiB log's peak",
                f"<= {BIG_PEAK_MIB:.0f} MiB",
                judge(m.peak_mib <= BIG_PEAK_MIB),
                m.peak_mib > BIG_PEAK_MIB,
                {"clone": asdict(m)},
            )
        )

    def report(self) -> None:
        print()
        print("| goal | input | dynamo-diff (this clone) | peer | ratio | target | met |")
        print("|---|---|---|---|---|---|---|")
        for r in self.rows:
            print(f"| {r.goal} | {r.input} | {r.clone} | {r.peer} | {r.ratio} | {r.target} | {r.met} |")
        f = self.facts
        print()
        print(
            f"Wall time: median of {self.repeat} runs ({max(self.repeat, 5)} for start-up), tools interleaved;"
            " peak RSS: the command's largest process (tree: the sum over its processes, sampled every 0.1 s);"
            " MiB/s: input MiB (of an export: raw.jsonl and the payload files) over wall time."
            f" {f['cpus']} cores; load average {f['load_before']:.1f} before, {f['load_after']:.1f} after."
        )
        print(
            f"Compilations read by the clone: raw log {f.get('compilations_raw')}, its tlparse export"
            f" {f.get('compilations_raw_export')}; the 0.1.1 export {f.get('compilations_export')}"
            f" (0.1.1: {f.get('compilations_export_0.1.1')})."
        )
        # A figure is only worth printing for an import that read what it was given: the counts are read back
        # (a silent None once hid a changed `list` document) and agree across the two input forms and with 0.1.1.
        self.guards.append(
            (
                "the clone's imports are read back and count the same compilations as each other and as 0.1.1",
                f.get("compilations_raw") is not None
                and f.get("compilations_raw") == f.get("compilations_raw_export")
                and f.get("compilations_export") == f.get("compilations_export_0.1.1"),
            )
        )
        print()
        for text, ok in self.guards:
            print(f"guard {'passed' if ok else 'FAILED'}: {text}")
        if self.smoke:
            print("smoke mode: goals are reported, not enforced; the guards above decide the exit status")
        else:
            missed = [r.goal for r in self.rows if r.failed]
            print("goals missed: " + (", ".join(missed) if missed else "none"))

    def status(self) -> int:
        guards_ok = all(ok for _, ok in self.guards)
        if self.smoke:
            return 0 if guards_ok else 1
        return 0 if guards_ok and not any(r.failed for r in self.rows) else 1


def judge(ok: bool) -> str:
    return "yes" if ok else "**no**"


def fmt_run(m: Measured, mib: float) -> str:
    return f"{m.seconds:.2f} s, {mib / m.seconds:.0f} MiB/s"


def fmt_mem(m: Measured) -> str:
    return f"{m.peak_mib:.0f} MiB (tree {m.tree_mib:.0f})"


def dd_count(venv: Path, store: Path) -> int | None:
    """Compilations of the one capture in `store`, from `dynamo-diff list -f json` (None when that fails)."""
    done = subprocess.run(
        [str(venv / "bin" / "dynamo-diff"), "list", "-f", "json"],
        capture_output=True,
        text=True,
        check=False,
        env={**clean_env(), "DYNAMO_DIFF_STORE": str(store)},
    )
    try:
        listed = json.loads(done.stdout)
        rows = listed["captures"] if isinstance(listed, dict) else listed  # a capture_list document (2.4), or a list
        return int(rows[0]["counts"]["observed_compilation_identities"])
    except (ValueError, LookupError, TypeError):
        return None


def clean_env() -> dict[str, str]:
    """The environment a user's shell would give the commands: no venv or path of ours, bytecode caches on."""
    drop = ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(NO_COLOR="1", COLUMNS="120")
    return env


def show(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small inputs; fail only on the regression guards")
    parser.add_argument("--repeat", type=int, default=3, help="runs per command; the median is printed")
    parser.add_argument("--raw-mib", type=int, help="raw log size (default 100; smoke 32)")
    parser.add_argument("--export-log-mib", type=int, help="size of the log the export is made from (125; smoke 16)")
    parser.add_argument("--big-mib", type=int, default=1024, help="the memory-flatness log (full mode; 0 skips it)")
    parser.add_argument("--functions", type=int, default=10_000, help="functions a side in the comparison")
    parser.add_argument("--cache", type=Path, help="where the venvs live (default: the CI cache's bench/)")
    parser.add_argument("--python", default=sys.executable, help="the Python the venvs are made with")
    parser.add_argument("--keep", type=Path, help="build the inputs in this directory and keep them")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    raw_mib = args.raw_mib or (32 if args.smoke else 100)
    export_log_mib = args.export_log_mib or (16 if args.smoke else 125)

    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) > CORES:
        os.sched_setaffinity(0, cpus[:CORES])  # every command inherits it
    # The CI cache outside the clone (.ci/cache-dir.sh has the same rule), so that every clone reuses the venvs.
    ci_cache = os.environ.get("DYNAMO_DIFF_CI_CACHE") or Path.home() / ".cache" / "dynamo-diff-ci"
    cache = (args.cache or Path(ci_cache) / "bench").resolve()  # a real path: scripts name their interpreter by it
    cache.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    tl_venv = released_venv(cache, "tlparse-0.4.3", TLPARSE, args.python)
    rel_venv = released_venv(cache, "dynamo-diff-0.1.1", RELEASE, args.python)
    dd_venv = clone_venv(cache, args.python)
    print(f"venvs ready in {time.monotonic() - started:.0f} s ({show(cache)})", flush=True)

    work = Path(args.keep or tempfile.mkdtemp(prefix="dd-side-by-side-"))
    work.mkdir(parents=True, exist_ok=True)
    bench = Bench(dd_venv, rel_venv, tl_venv, work, args.repeat, args.smoke)
    bench.facts.update(mode="smoke" if args.smoke else "full", cpus=len(os.sched_getaffinity(0)))
    try:
        started = time.monotonic()
        raw = work / "trace.log"
        raw_facts = build_log(raw, raw_mib * MiB)
        good, bad = payload_check(raw)
        if bad or good != raw_facts.payloads:
            raise SystemExit(f"the built log has {bad} payload(s) whose md5 does not match")
        v1_log = work / "v1.log"
        v1_facts = build_log(v1_log, export_log_mib * MiB, V1_BASES)
        export = work / "export-v1"
        convert(bench.tlparse, v1_log, export)
        exp = export_facts(export)
        raw_size = raw_facts.bytes / MiB
        print(f"inputs built in {time.monotonic() - started:.0f} s")
        print(
            f"raw log: {raw_size:.1f} MiB, {raw_facts.records:,} records ({raw_facts.chromium_events:,} chromium_event,"
            f" {raw_facts.payloads:,} payloads, every md5 checked): {raw_facts.copies} copies of the torch 2.13"
            f" captures {', '.join(raw_facts.bases)}"
        )
        print(
            f"tlparse export: {exp.imported_bytes / MiB:.1f} MiB imported (raw.jsonl and {exp.payload_files:,} payload"
            f" files; {exp.files:,} files in all), tlparse's output for a {v1_facts.bytes / MiB:.1f} MiB log of"
            f" {v1_facts.records:,} records: {v1_facts.copies} copies of the torch 2.14 captures"
            f" {', '.join(v1_facts.bases)} that 0.1.1 shipped"
        )
        bench.facts.update(raw_log=asdict(raw_facts), export_log=asdict(v1_facts), export=asdict(exp))
        load = os.getloadavg()[0]
        bench.facts["load_before"] = load
        busy = "  (a busy machine: the figures are noisy)" if load > 1 else ""
        print(f"load average {load:.1f} on {bench.facts['cpus']} cores{busy}", flush=True)

        raw_peak = bench.raw_log(raw, raw_size, raw_facts)
        inductor = work / "export-inductor"
        shutil.rmtree(inductor, ignore_errors=True)
        bench.tl_out.rename(inductor)  # tlparse's last output for the raw log
        bench.export(export, exp)
        bench.inductor_export(inductor)
        bench.startup()
        bench.compare(args.functions)
        if not args.smoke and args.big_mib:
            bench.big_log(args.big_mib, raw_peak, raw_size)
        bench.facts["load_after"] = os.getloadavg()[0]
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    bench.report()
    if args.json:
        document = {"facts": bench.facts, "rows": [asdict(r) for r in bench.rows], "guards": bench.guards}
        args.json.write_text(json.dumps(document, indent=1) + "\n")
    return bench.status()


if __name__ == "__main__":
    raise SystemExit(main())

"""What the pytest plugin (dynamo-diff-pytest) adds to a user's test run: wall time and memory.

The same generated test project is run by the whole `pytest` command, as a user meets it (interpreter start-up,
collection, the plugin's own imports), with the plugin disabled (`-p no:dynamo_diff`, its pytest11 entry point)
and enabled; the runs of the variants are interleaved, each variant is run once first to warm the caches (that run
is not counted), and the medians are compared. Three projects:

1. compile: Inductor on CPU, a few dozen compilations over the module's tests (each test compiles its own functions
   at two input sizes, a few break the graph on a `print`), every test with a `dynamo_budget` that it meets.
   Inductor's cache (TORCHINDUCTOR_CACHE_DIR) is the benchmark's own and is warm after the first run, so the C++
   compiler is not what is timed: the fastest the module gets, where the plugin's share is largest.
   Goal: at most 5% added wall time.
2. nothing compiled: 200 tests (one in ten imports torch and adds two tensors, the rest are plain Python), every
   test with a `dynamo_budget`; once more with `--dynamo-diff-store` as well (every test recorded).
   Goal: at most 20 ms added per test.
3. memory: 1,000 tests, every one with a `dynamo_budget`, one in ten compiling a function of its own (the `eager`
   backend: what grows is the plugin's, not Inductor's). A conftest samples the process's RSS (VmRSS in
   /proc/self/status) after tests 100, 500 and 1,000, and its peak (VmHWM). Goal: from test 100 to test 1,000
   the run grows at most 8 MiB more than the run without the plugin (about 9 KB a test).

    uv run python tools/bench/pytest_overhead.py --python VENV/bin/python [--smoke] [--repeat 5] [--json FILE]

Each run prints the whole command's wall time, its main thread's CPU time (read by the project's conftest at the
end of the run: start-up, collection, the tests and every hook) and the part of that spent in the call's hook
wrappers outside the test functions (the plugin's recording, import and count). The goals are judged on the main
thread's CPU: on a machine shared with other work the wall times of the same command vary by a factor of two,
while the plugin's work is all on that thread. The wall times are printed beside it, to read on an idle machine.

`--python` is an interpreter with torch, pytest and the workspace packages installed (dynamo-diff-pytest and what it
needs, e.g. `pip install --no-deps packages/dynamo-diff-schema ... packages/dynamo-diff-pytest`); the benchmark says
what is missing otherwise. `--smoke` runs smaller projects twice each (about a minute) and judges nothing; full mode
prints whether each goal is met and exits 1 when one is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = "dynamo_diff"  # the pytest11 entry point's name: `-p no:dynamo_diff` disables it
COMPILE_ADDED, NOTHING_MS, MEMORY_MIB = 0.05, 20.0, 8.0

INI = """[pytest]
markers =
    dynamo_budget: registered here too, so that the run without the plugin knows the marker
    dynamo_snapshot: as above
"""

CONFTEST = r"""
import json, os, time

import pytest

_SAMPLES = [int(k) for k in os.environ.get("BENCH_SAMPLES", "100,500,1000").split(",")]
_seen = []
_rss = {}
_around = [0.0, 0.0]  # main-thread CPU and wall seconds of each test's call outside the test function itself


def _status():
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024
    return out


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_call(item):  # outermost: every hook wrapper of the call, the plugin's included
    cpu, wall = time.thread_time(), time.perf_counter()
    try:
        return (yield)
    finally:
        _around[0] += time.thread_time() - cpu
        _around[1] += time.perf_counter() - wall


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_pyfunc_call(pyfuncitem):  # innermost: the test function
    cpu, wall = time.thread_time(), time.perf_counter()
    try:
        return (yield)
    finally:
        _around[0] -= time.thread_time() - cpu
        _around[1] -= time.perf_counter() - wall


def pytest_runtest_logfinish(nodeid, location):
    _seen.append(nodeid)
    if len(_seen) in _SAMPLES:
        _rss[str(len(_seen))] = _status()["VmRSS"]


def pytest_sessionfinish(session):
    out = os.environ.get("BENCH_RSS_OUT")
    if out:
        with open(out, "w") as f:
            json.dump({"tests": len(_seen), "rss_mib": _rss, "peak_mib": _status()["VmHWM"],
                       "around_cpu_s": _around[0], "around_wall_s": _around[1],
                       "main_thread_cpu_s": time.thread_time()}, f)
"""


def compile_module(tests: int) -> str:
    """Each test compiles its own function with Inductor at two sizes (a recompile on the new size); every fourth
    prints inside it (a graph break: the function and its resume function compile)."""
    out = ["import pytest", "import torch", ""]
    for i in range(tests):
        breaks = i % 4 == 3
        body = [f"def f{i}(x):", f"    y = (x * {i + 1}).sin() + x.cos().exp()"]
        if breaks:
            body.append(f"    print('f{i}', end='')")
        body += [f"    return (y @ y.T).relu().sum(dim=0) + {i}", ""]
        out += body
        out += [
            f"@pytest.mark.dynamo_budget(recompiles={1 + int(breaks)}, graph_breaks={2 if breaks else 0})",
            f"def test_f{i}():",
            f"    f = torch.compile(f{i}, dynamic=False)",
            "    for n in (8, 16):",
            "        x = torch.randn(n, n)",
            f"        torch.testing.assert_close(f(x), f{i}(x))",
            "",
        ]
    return "\n".join(out) + "\n"


def nothing_module(tests: int) -> str:
    out = ["import pytest", "", "pytestmark = pytest.mark.dynamo_budget()", ""]
    for i in range(tests):
        if i % 10 == 0:
            out += [f"def test_torch_{i}():", "    import torch", ""]
            out += [f"    assert (torch.ones(3) + {i}).sum() == {3 * (i + 1)}", ""]
        else:
            out += [f"def test_plain_{i}():", f"    assert sum(range({i})) == {i * (i - 1) // 2}", ""]
    return "\n".join(out) + "\n"


def memory_module(tests: int) -> str:
    out = ["import pytest", "import torch", "", "pytestmark = pytest.mark.dynamo_budget(recompiles=None)", ""]
    for i in range(tests):
        if i % 10 == 0:
            out += [
                f"def g{i}(x):",
                f"    return (x + {i}).relu() * 2",
                "",
                f"def test_compiles_{i}():",
                f"    assert torch.compile(g{i}, backend='eager')(torch.ones(2)).sum() == {2 * 2 * (i + 1)}",
                "",
            ]
        else:
            out += [f"def test_plain_{i}():", f"    assert {i} + 1 == {i + 1}", ""]
    return "\n".join(out) + "\n"


@dataclass
class Run:
    seconds: float
    cpu: float  # user + system seconds of the pytest process and the children it waited for (wait4)
    peak_mib: float  # the pytest process's peak RSS (wait4)
    report: dict[str, Any] = field(default_factory=dict)  # what the conftest wrote (RSS samples, hook times)


@dataclass
class Variant:
    name: str
    args: list[str]
    runs: list[Run] = field(default_factory=list)

    def median(self) -> float:
        return statistics.median(r.seconds for r in self.runs)

    def cpu(self) -> float:
        return statistics.median(r.cpu for r in self.runs)

    def main_cpu(self) -> float:
        return statistics.median(float(r.report.get("main_thread_cpu_s", 0.0)) for r in self.runs)

    def hooks(self) -> float:
        return statistics.median(float(r.report.get("around_cpu_s", 0.0)) for r in self.runs)

    def spread(self) -> str:
        times = sorted(r.seconds for r in self.runs)
        return f"{times[0]:.2f}-{times[-1]:.2f}"


def missing(python: str) -> str | None:
    """What the interpreter lacks, in words, or None."""
    probe = (
        "import importlib.util, json\n"
        "from importlib.metadata import entry_points\n"
        "mods = [m for m in ('torch', 'pytest', 'dynamo_diff_pytest', 'dynamo_diff_service') "
        "if importlib.util.find_spec(m) is None]\n"
        f"eps = [e.name for e in entry_points(group='pytest11') if e.name == {PLUGIN!r}]\n"
        "print(json.dumps({'missing': mods, 'entry_point': bool(eps)}))\n"
    )
    try:
        done = subprocess.run([python, "-c", probe], check=False, capture_output=True, text=True, timeout=120)
    except OSError as err:
        return f"{python} cannot be run: {err.strerror or err}"
    if done.returncode != 0:
        return f"{python} failed the probe: {done.stderr.strip().splitlines()[-1:]}"
    found = json.loads(done.stdout)
    if found["missing"]:
        return f"{python} cannot import {', '.join(found['missing'])}"
    if not found["entry_point"]:
        return f"{python} has no pytest11 entry point {PLUGIN!r} (install packages/dynamo-diff-pytest, not editable)"
    return None


def run_pytest(python: str, project: Path, args: Sequence[str], env: dict[str, str], timeout: float) -> Run:
    rss_out = project / "rss.json"
    rss_out.unlink(missing_ok=True)
    command = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
    start = time.perf_counter()
    with (project / "last.out").open("w") as log:
        proc = subprocess.Popen(
            command, cwd=project, env={**env, "BENCH_RSS_OUT": str(rss_out)}, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:
            proc.kill()
            raise
        proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        tail = (project / "last.out").read_text(errors="replace").splitlines()[-25:]
        raise SystemExit(f"pytest {' '.join(args)} in {project} exited {proc.returncode}:\n" + "\n".join(tail))
    if seconds > timeout:
        print(f"  (a run took {seconds:.0f} s)", file=sys.stderr)
    report = json.loads(rss_out.read_text()) if rss_out.exists() else {}
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, report)


def measure(python: str, project: Path, variants: list[Variant], repeat: int, env: dict[str, str]) -> None:
    for variant in variants:  # warm-up: bytecode, the page cache, Inductor's cache; not counted
        run_pytest(python, project, variant.args, env, 600)
    for _ in range(repeat):
        for variant in variants:
            variant.runs.append(run_pytest(python, project, variant.args, env, 600))


def project_dir(base: Path, name: str, module: str, conftest: str | None = CONFTEST) -> Path:
    path = base / name
    path.mkdir(parents=True)
    (path / "pytest.ini").write_text(INI)
    (path / f"test_{name}.py").write_text(module)
    if conftest is not None:
        (path / "conftest.py").write_text(conftest)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=None, help="interpreter with torch, pytest and dynamo-diff-pytest")
    parser.add_argument("--smoke", action="store_true", help="small projects, two runs each, nothing judged")
    parser.add_argument("--repeat", type=int, default=None, help="counted runs of each variant (5; smoke 2)")
    parser.add_argument("--only", nargs="+", choices=("compile", "nothing", "memory"), default=None)
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument("--keep", type=Path, default=None, help="generate the projects here and keep them")
    parser.add_argument(
        "--inductor-cache", type=Path, default=None, help="Inductor's cache folder (default: a new one, in --keep)"
    )
    args = parser.parse_args(argv)
    python = args.python or str(ROOT / ".venv-bench" / "bin" / "python")
    if args.python is None and not Path(python).exists():
        python = sys.executable
    # The projects run in folders of their own: a path made absolute (a venv's link kept), a bare name looked up.
    python = str(Path.cwd() / python) if os.sep in python else shutil.which(python) or python
    problem = missing(python)
    if problem:
        print(
            f"pytest_overhead: {problem}.\nGive --python an interpreter that has torch, pytest and the workspace "
            "packages, e.g.:\n  python3 -m venv .venv-bench && .venv-bench/bin/pip install torch==2.13.0 pytest "
            "pydantic jsonschema orjson rich hatchling\n  .venv-bench/bin/pip install --no-deps --no-build-isolation "
            + " ".join(
                f"packages/dynamo-diff-{p}" for p in ("schema", "store", "match", "compare", "service", "pytest")
            ),
            file=sys.stderr,
        )
        return 2
    repeat = args.repeat or (2 if args.smoke else 5)
    sizes = {"compile": 16, "nothing": 200, "memory": 1000}
    if args.smoke:
        sizes = {"compile": 4, "nothing": 50, "memory": 200}
    chosen = args.only or ["compile", "nothing", "memory"]
    base = args.keep or Path(tempfile.mkdtemp(prefix="pytest-overhead-"))
    if args.keep and base.exists():
        shutil.rmtree(base)
    base.mkdir(parents=True, exist_ok=True)
    tmp = base / "tmp"
    tmp.mkdir()
    env = {
        **os.environ,
        "TMPDIR": str(tmp),  # pytest's temporary directories (the plugin's slices) stay in the benchmark's folder
        "TORCHINDUCTOR_CACHE_DIR": str(args.inductor_cache or base / "inductor-cache"),
        "PYTHONHASHSEED": "0",
    }
    for name in ("TORCH_TRACE", "TORCH_LOGS", "GITHUB_STEP_SUMMARY", "PYTEST_ADDOPTS", "PYTEST_PLUGINS"):
        env.pop(name, None)
    figures: dict[str, object] = {"python": python, "smoke": args.smoke, "repeat": repeat, "sizes": sizes}
    load = os.getloadavg()[0]
    print(f"python {python}; {os.cpu_count()} cores; load average {load:.1f} at the start; {repeat} counted runs each")
    verdicts: list[bool] = []
    try:
        if "compile" in chosen:
            n = sizes["compile"]
            project = project_dir(base, "compile", compile_module(n))
            variants = [Variant("without the plugin", ["-p", f"no:{PLUGIN}"]), Variant("with budgets", [])]
            measure(python, project, variants, repeat, env)
            compilations = n * 2 + sum(1 for i in range(n) if i % 4 == 3) * 2
            print(f"\n## compile-heavy: {n} tests, Inductor, {compilations} compilations (goal <= {COMPILE_ADDED:.0%})")
            added = table(variants, per=None)
            ok = added["with budgets"]["main_cpu"] <= COMPILE_ADDED
            verdicts.append(ok)
            print(f"added main-thread CPU {added['with budgets']['main_cpu']:+.1%} -> {_met(ok)}")
            figures["compile"] = {"variants": [asdict(v) for v in variants], "added": added}
        if "nothing" in chosen:
            n = sizes["nothing"]
            project = project_dir(base, "nothing", nothing_module(n))
            store = base / "store"
            variants = [
                Variant("without the plugin", ["-p", f"no:{PLUGIN}"]),
                Variant("with budgets", []),
                Variant("with budgets and --dynamo-diff-store", ["--dynamo-diff-store", str(store)]),
            ]
            measure(python, project, variants, repeat, env)
            print(f"\n## nothing compiled: {n} tests, one in ten imports torch (goal <= {NOTHING_MS:.0f} ms a test)")
            added = table(variants, per=n)
            most = max(a["main_cpu"] for a in list(added.values())[1:])
            ok = most <= NOTHING_MS
            verdicts.append(ok)
            print(f"added main-thread CPU at most {most:+.2f} ms a test -> {_met(ok)}")
            figures["nothing"] = {"variants": [asdict(v) for v in variants], "added_ms": added}
        if "memory" in chosen:
            n = sizes["memory"]
            project = project_dir(base, "memory", memory_module(n), CONFTEST)
            variants = [Variant("without the plugin", ["-p", f"no:{PLUGIN}"]), Variant("with budgets", [])]
            marks = [str(k) for k in (n // 10, n // 2, n)]
            first, last = marks[0], marks[-1]
            measure(python, project, variants, max(1, repeat // 2), {**env, "BENCH_SAMPLES": ",".join(marks)})
            print(f"\n## memory: {n} tests, budgets on all, {n // 10} compile (eager); RSS after test k, MiB")
            print("| variant | s | " + " | ".join(f"RSS @{k}" for k in marks) + f" | peak | growth {first}->{last} |")
            print("|---|---:|" + "---:|" * (len(marks) + 2))
            growth = {}
            for v in variants:
                rss = [r.report["rss_mib"] for r in v.runs]
                at = {k: statistics.median(s[k] for s in rss) for k in marks}
                peak = statistics.median(float(r.report["peak_mib"]) for r in v.runs)
                growth[v.name] = at[last] - at[first]
                cells = " | ".join(f"{at[k]:.1f}" for k in marks)
                print(f"| {v.name} | {v.median():.1f} | {cells} | {peak:.1f} | {growth[v.name]:+.1f} |")
            extra = growth["with budgets"] - growth["without the plugin"]
            ok = extra <= MEMORY_MIB
            verdicts.append(ok)
            per_test = extra * 1024 / (int(last) - int(first))
            print(
                f"the plugin's own growth from test {first} to {last}: {extra:+.1f} MiB ({per_test:+.1f} KiB a test; "
                f"goal <= {MEMORY_MIB:.0f} MiB) -> {_met(ok)}"
            )
            figures["memory"] = {"variants": [asdict(v) for v in variants], "extra_growth_mib": extra}
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    if args.smoke:
        return 0
    return 0 if all(verdicts) else 1


def table(variants: list[Variant], per: int | None) -> dict[str, dict[str, float]]:
    """Prints the variants' medians; returns what each adds to the first: by the whole command's wall time, by
    the CPU time of its main thread (start-up, the tests and the plugin's hooks: what load from other processes
    inflates far less than wall time, and what the goals are judged on), and by the main thread's CPU in the
    call's hook wrappers around the test functions (the plugin's own work). A fraction of the first's time (of its
    main thread's CPU for the last two), or with `per`, milliseconds per test."""
    off = variants[0]
    unit = "ms a test" if per else "%"
    print(
        "| variant | wall s, median | wall s, range | main thread CPU s | in the call's hooks s | peak RSS MiB "
        f"| added wall {unit} | added main thread CPU {unit} | added in hooks {unit} |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    added: dict[str, dict[str, float]] = {}
    for v in variants:
        deltas = (v.median() - off.median(), v.main_cpu() - off.main_cpu(), v.hooks() - off.hooks())
        if per:
            wall, cpu, hooks = (d / per * 1000 for d in deltas)
            shown = f"{wall:+.1f} | {cpu:+.1f} | {hooks:+.1f}"
        else:
            wall, cpu, hooks = deltas[0] / off.median(), deltas[1] / off.main_cpu(), deltas[2] / off.main_cpu()
            shown = f"{wall:+.1%} | {cpu:+.1%} | {hooks:+.1%}"
        added[v.name] = {"wall": wall, "main_cpu": cpu, "hooks": hooks}
        peak = statistics.median(r.peak_mib for r in v.runs)
        print(
            f"| {v.name} | {v.median():.2f} | {v.spread()} | {v.main_cpu():.2f} | {v.hooks():.3f} | {peak:.0f} "
            f"| {shown} |"
        )
    return added


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


if __name__ == "__main__":
    raise SystemExit(main())

"""Import throughput of many-rank jobs, local process pool against Ray tasks on a local Ray instance.

Builds synthetic N-rank TORCH_TRACE directories from the real rank logs of the `two_ranks` capture (even ranks
copy its rank 0, odd ranks its rank 1; the rank is rewritten in each file name and record header:
`trace_inputs.write_rank_job`), imports each into a fresh store in a fresh process with each executor, and prints
wall time, ranks/s, MiB/s and the importing process's (the driver's) peak RSS. Every import of one job must give
the same capture id and compilation count, whichever the executor.

For Ray the instance is started in the child before the timed import (the import then uses it, as it uses any
instance its process is connected to) and its start is printed on its own; the per-task overhead of Ray is
measured with empty tasks on the same instance.

    uv run python tools/bench/rank_scaling.py [--ranks 64 512 4096] [--executors local ray] [--ray-max-ranks N]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from trace_inputs import MiB, write_rank_job

CHILD = r"""
import json, os, resource, sys, tempfile, time
from pathlib import Path
from dynamo_diff_store import Store
store, job, executor = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
extra = {}
if executor == "ray":
    import ray
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    temp = tempfile.mkdtemp(prefix="dynamo-diff-ray-bench-")
    start = time.perf_counter()
    ray.init(address="local", num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False,
             configure_logging=False, _temp_dir=temp)
    extra["ray_start_s"] = time.perf_counter() - start
    noop = ray.remote(num_cpus=1)(lambda: None)
    ray.get([noop.remote() for _ in range(64)])  # workers up
    start = time.perf_counter()
    ray.get([noop.remote() for _ in range(1000)])
    extra["ray_task_ms"] = time.perf_counter() - start  # 1,000 tasks: seconds in all = ms per task
phases = {}
def progress(phase, done, total):
    now = time.perf_counter()
    phases.setdefault(phase + "_first", now)
    if done == total:
        phases.setdefault(phase + "_last", now)
start = time.perf_counter()
result = Store(store).import_path(job, executor=executor, progress=progress)
end = time.perf_counter()
elapsed = end - start
# copy: staging (copy + sha256, in this process); analyse: the ranks; rest: assembly of capture.json and the index.
extra["copy_s"] = phases["analyse_first"] - start
extra["analyse_s"] = phases["analyse_last"] - phases["analyse_first"]
extra["rest_s"] = end - phases["analyse_last"]
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
if executor == "ray":
    import shutil
    ray.shutdown()
    shutil.rmtree(temp, ignore_errors=True)
print(json.dumps({"seconds": elapsed, "rss_mib": rss, "id": result.summary.capture.id,
                  "compilations": result.summary.counts.observed_compilation_identities, **extra}))
"""


def measure(store: Path, job: Path, executor: str) -> dict[str, float | str]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(store), str(job), executor], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"import of {job} with {executor} failed:\n{done.stderr[-3000:]}")
    result: dict[str, float | str] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ranks", type=int, nargs="+", default=[64, 512, 4096])
    parser.add_argument("--executors", nargs="+", choices=["local", "ray"], default=["local", "ray"])
    parser.add_argument("--ray-max-ranks", type=int, default=None, help="Run Ray only for jobs up to this size.")
    args = parser.parse_args()
    rows = []
    overhead: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory(prefix="dd-rank-scaling-") as tmp:
        base = Path(tmp)
        for ranks in args.ranks:
            job = write_rank_job(base / f"job-{ranks}", {r: r % 2 for r in range(ranks)})
            size = sum(p.stat().st_size for p in job.iterdir()) / MiB
            seen: set[tuple[str, float | str]] = set()
            for executor in args.executors:
                if executor == "ray" and args.ray_max_ranks is not None and ranks > args.ray_max_ranks:
                    continue
                store = base / f"store-{ranks}-{executor}"
                got = measure(store, job, executor)
                seen.add((str(got["id"]), got["compilations"]))
                secs = float(got["seconds"])
                phases = tuple(float(got[k]) for k in ("copy_s", "analyse_s", "rest_s"))
                rows.append((ranks, size, executor, secs, ranks / secs, size / secs, float(got["rss_mib"]), *phases))
                if executor == "ray":
                    overhead.append((float(got["ray_start_s"]), float(got["ray_task_ms"])))
                print(f"  {ranks} ranks, {executor}: {secs:.2f} s", file=sys.stderr, flush=True)
                shutil.rmtree(store)
            if len(seen) != 1:
                print(f"FAIL: the executors disagree on the {ranks}-rank job: {sorted(seen)}")
                return 1
            shutil.rmtree(job)
    print(
        "| ranks | MiB | executor | wall s | ranks/s | MiB/s | driver peak RSS MiB "
        "| copy s | analyse s | assemble+index s |"
    )
    print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for ranks, size, executor, secs, rps, mps, rss, copy, analyse, rest in rows:
        print(
            f"| {ranks:,} | {size:.1f} | {executor} | {secs:.2f} | {rps:.0f} | {mps:.1f} | {rss:.0f} "
            f"| {copy:.2f} | {analyse:.2f} | {rest:.2f} |"
        )
    for start, task_ms in overhead:
        print(f"Ray: local instance started in {start:.1f} s; an empty task costs {task_ms:.2f} ms (1,000 in a row)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

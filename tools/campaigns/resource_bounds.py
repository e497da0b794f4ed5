"""Campaign: inputs just over each limit are refused with `resource_limit`; memory stays bounded on a big trace.

For every Limits field an input exactly at the bound is imported and one just over it is refused with
`resource_limit` naming that limit. Then large raw traces are generated in /tmp by repeating a fixture's
records (every copy is new compilations: one per 53 KB), each imported in a child process, and the child's
peak RSS is reported (full: 256 MiB and 1 GiB; smoke: 128 and 256 MiB). The campaign fails when the peak
passes 512 MiB or grows with the trace (by more than 32 MiB from the smaller to the larger). Then jobs of many
ranks (copies of the two_ranks capture's rank logs, tools/bench/trace_inputs.py; full: 256 and 4,096 ranks,
smoke: 64 and 1,024) are imported the same way: the importing process may grow by at most RANK_GROWTH per 1,000
ranks (it held each rank's configuration and summary: 45 KB a rank). The generated inputs are deleted afterwards.

    uv run python tools/campaigns/resource_bounds.py [--smoke]
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from common import FIXTURES, Figures, arguments, finish
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_store import Limits, Store
from trace_inputs import write_rank_job

SEED = next((FIXTURES / "captures" / "stable" / "raw").glob("*.log"))
EXPORT = FIXTURES / "corpus" / "tlparse-exports" / "comp_metrics"
RSS_CEILING = 512 << 20
RSS_GROWTH = 32 << 20
RANK_GROWTH = 12 << 20  # per 1,000 ranks (measured: 4-7 MiB; 45 MiB before the ranks were held on disk)
RANKS_CHILD = (
    "import resource, sys; from pathlib import Path; from dynamo_diff_store import Store;"
    "r = Store(Path(sys.argv[1])).import_path(Path(sys.argv[2]));"
    "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss;"  # before the summary is read back
    "print(len(r.summary.ranks), peak)"
)
CHILD = (
    "import resource, sys; from pathlib import Path; from dynamo_diff_store import Store, Limits;"
    "r = Store(Path(sys.argv[1])).import_path(Path(sys.argv[2]), workers=1, limits=Limits(max_total_bytes=2 << 30));"
    "print(r.summary.counts.observed_compilation_identities, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
)


def measure(work: Path) -> dict[str, int]:
    """The value each limit sees for the seed input (so that `value - 1` is just under it)."""
    data = SEED.read_bytes()
    lines = data.splitlines(keepends=True)
    records = sum(1 for line in lines if line[:1] in b"VIWEC" and not line.startswith(b"\t"))
    return {
        "max_total_bytes": len(data),
        "max_line_bytes": max(len(line.rstrip(b"\n")) for line in lines),
        "max_records": records,
    }


def probe(work: Path, name: str, limit: int, source: Path) -> DynamoDiffError | None:
    store = Store(work / f"store-{name}-{limit}")
    try:
        store.import_path(source, limits=replace(Limits(), **{name: limit}), workers=1)
    except DynamoDiffError as err:
        return err
    finally:
        shutil.rmtree(store.path, ignore_errors=True)
    return None


def bisect_bound(work: Path, name: str, source: Path, hi: int) -> int:
    """The smallest value of limit `name` at which `source` is accepted (searching 1..hi)."""
    lo = 1
    while lo < hi:
        mid = (lo + hi) // 2
        err = probe(work, name, mid, source)
        if err is None:
            hi = mid
        else:
            lo = mid + 1
    return lo


def main() -> None:
    args = arguments(__doc__ or "")
    figures = Figures("resource_bounds")
    work = Path(tempfile.mkdtemp(prefix="bounds-"))
    try:
        raw_dir = work / "raw"
        raw_dir.mkdir()
        shutil.copy(SEED, raw_dir / SEED.name)
        cases = [
            ("max_total_bytes", raw_dir, SEED.stat().st_size * 2),
            ("max_line_bytes", raw_dir, SEED.stat().st_size),
            ("max_record_bytes", raw_dir, SEED.stat().st_size),
            ("max_records", raw_dir, 100_000),
            ("max_files", raw_dir, 10),
            ("max_json_depth", raw_dir, 64),
            ("max_total_bytes", EXPORT, 1 << 26),
            ("max_record_bytes", EXPORT, 1 << 26),
            ("max_files", EXPORT, 10_000),
            ("max_json_depth", EXPORT, 64),
        ]
        for name, source, hi in cases:

            def action(name: str = name, source: Path = source, hi: int = hi) -> str:
                bound = bisect_bound(work, name, source, hi)
                if bound == 1:
                    return "not reached by this input"
                err = probe(work, name, bound - 1, source)
                if err is None or err.code != ErrorCode.RESOURCE_LIMIT or err.details.get("limit") != name:
                    figures.fail(f"{name} on {source.name}: one under the bound gave {err!r}")
                if probe(work, name, bound, source) is not None:
                    figures.fail(f"{name} on {source.name}: exactly at the bound was refused")
                return f"just over -> resource_limit ({name}={bound - 1})"

            figures.run(f"{name} on {source.name}", action, bound=120.0)

        sizes = (128 << 20, 256 << 20) if args.smoke else (256 << 20, 1 << 30)
        peaks: list[int] = []

        def big_trace(size: int) -> str:
            big = work / "big" / "dedicated_log_torch_trace_big.log"
            big.parent.mkdir(exist_ok=True)
            chunk = SEED.read_bytes()
            with big.open("wb") as out:
                while out.tell() < size:
                    out.write(chunk)
            t0 = time.monotonic()
            proc = subprocess.run(  # noqa: PLW1510
                [sys.executable, "-c", CHILD, str(work / "big-store"), str(big.parent)],
                capture_output=True,
                text=True,
                timeout=3600,
            )
            elapsed = time.monotonic() - t0
            actual = big.stat().st_size
            big.unlink()
            shutil.rmtree(work / "big-store", ignore_errors=True)
            if proc.returncode != 0:
                figures.fail(f"big trace import failed: {proc.stderr[-2000:]}")
                return "failed"
            compilations, rss_kib = proc.stdout.split()
            rss = int(rss_kib) * 1024
            peaks.append(rss)
            print(
                f"  big trace: {actual / 2**20:.0f} MiB, {int(compilations):,} compilations, imported in "
                f"{elapsed:.1f}s, peak RSS {rss / 2**20:.0f} MiB"
            )
            if rss > RSS_CEILING:
                figures.fail(f"peak RSS {rss / 2**20:.0f} MiB on a {actual / 2**20:.0f} MiB trace")
            return "big trace streamed"

        for size in sizes:
            figures.run(f"big trace {size >> 20} MiB", partial(big_trace, size), bound=3600.0)
        if len(peaks) == 2 and peaks[1] - peaks[0] > RSS_GROWTH:
            figures.fail(
                f"peak RSS grew with the trace: {peaks[0] / 2**20:.0f} MiB at {sizes[0] >> 20} MiB, "
                f"{peaks[1] / 2**20:.0f} MiB at {sizes[1] >> 20} MiB"
            )

        rank_counts = (64, 1024) if args.smoke else (256, 4096)
        rank_peaks: list[int] = []

        def many_ranks(ranks: int) -> str:
            job = write_rank_job(work / f"job-{ranks}", {r: r % 2 for r in range(ranks)})
            t0 = time.monotonic()
            proc = subprocess.run(  # noqa: PLW1510
                [sys.executable, "-c", RANKS_CHILD, str(work / "ranks-store"), str(job)],
                capture_output=True,
                text=True,
                timeout=3600,
            )
            elapsed = time.monotonic() - t0
            shutil.rmtree(job, ignore_errors=True)
            shutil.rmtree(work / "ranks-store", ignore_errors=True)
            if proc.returncode != 0:
                figures.fail(f"{ranks}-rank import failed: {proc.stderr[-2000:]}")
                return "failed"
            imported, rss_kib = (int(v) for v in proc.stdout.split())
            if imported != ranks:
                figures.fail(f"{ranks}-rank job imported as {imported} ranks")
            rank_peaks.append(int(rss_kib) * 1024)
            print(
                f"  {ranks:,} ranks imported in {elapsed:.1f}s, "
                f"importing process peak RSS {rank_peaks[-1] / 2**20:.0f} MiB"
            )
            return "many ranks imported"

        for ranks in rank_counts:
            figures.run(f"{ranks} ranks", partial(many_ranks, ranks), bound=3600.0)
        if len(rank_peaks) == 2:
            allowed = RANK_GROWTH * (rank_counts[1] - rank_counts[0]) / 1000
            grown = rank_peaks[1] - rank_peaks[0]
            print(
                f"  grew {grown / 2**20:.1f} MiB from {rank_counts[0]:,} to {rank_counts[1]:,} ranks "
                f"(allowed {allowed / 2**20:.1f})"
            )
            if grown > allowed:
                figures.fail(
                    "the importing process grew with the ranks: "
                    f"{rank_peaks[0] / 2**20:.0f} MiB at {rank_counts[0]:,}, "
                    f"{rank_peaks[1] / 2**20:.0f} MiB at {rank_counts[1]:,} ranks"
                )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"  campaign process peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    finish(figures)


if __name__ == "__main__":
    main()

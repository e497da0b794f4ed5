"""Campaign: kill -9 the importing process at random points, for raw logs and tlparse exports.

After each kill: every capture the index lists has its directory; every capture directory is whole (capture.json
reads, every file matches the hashes its id was made from: `Store.verify`); after a re-import (which
reconciles the index and removes the dead process's staging directory) the store verifies clean, holds the
capture under the same id as an uninterrupted import, and nothing is left in tmp/. No worker process of the
killed importer may outlive it by more than 3 s.

    uv run python tools/campaigns/crash_consistency.py [--smoke] [--seed N]   (full: 60 trials, smoke: 8)
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import FIXTURES, Figures, arguments, finish
from dynamo_diff_store import Store

INPUTS = {
    "raw": FIXTURES / "captures" / "inductor_cold" / "raw",
    "tlparse": FIXTURES / "corpus" / "tlparse-exports" / "multi_rank_schedule",
}
CHILD = (
    "import sys; from pathlib import Path; from dynamo_diff_store import Store;"
    "Store(Path(sys.argv[1])).import_path(Path(sys.argv[2]))"
)


def child(store: Path, source: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", CHILD, str(store), str(source)], stderr=subprocess.DEVNULL)


def survivors(marker: str) -> list[int]:
    """Pids of processes whose command line holds `marker` (the killed importer's workers share its argv)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in cmdline:
            found.append(int(entry.name))
    return found


def orphans_after_kill(store_dir: Path, label: str, figures: Figures) -> None:
    deadline = time.monotonic() + 3.0
    left = survivors(str(store_dir))
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = survivors(str(store_dir))
    if left:
        figures.fail(f"{label}: {len(left)} worker process(es) outlived the killed importer by 3 s")
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def check(store: Store, label: str, figures: Figures, expected_id: str, before: set[str]) -> str:
    if not store.path.exists():
        store.import_path(INPUTS[label.split(maxsplit=1)[0]])
        return "absent (killed before the store existed)"
    listed = {row.id for row in store.list_captures()}
    on_disk = {p.name for p in store.captures_dir.iterdir()} if store.captures_dir.is_dir() else set()
    if listed - on_disk:
        figures.fail(f"{label}: indexed without a directory: {sorted(listed - on_disk)}")
    report = store.verify()
    partial = [d for d in report.damage if d.file != "index.sqlite"]
    if partial:
        figures.fail(f"{label}: a partial capture is visible: {partial[:3]}")
    state = "committed" if expected_id in on_disk else "absent"
    if expected_id in on_disk and expected_id not in listed:
        state = "committed, not yet indexed"
    result = store.import_path(INPUTS[label.split(maxsplit=1)[0]])
    if result.capture.capture.id != expected_id:
        figures.fail(f"{label}: re-import gave {result.capture.capture.id[:12]}, expected {expected_id[:12]}")
    if {row.id for row in store.list_captures()} != before | {expected_id} or store.verify().damage:
        figures.fail(f"{label}: after re-import the index and the directories disagree: {store.verify().damage[:3]}")
    leftovers = list((store.path / "tmp").iterdir())
    if leftovers:
        figures.fail(f"{label}: staging left behind after re-import: {[p.name for p in leftovers]}")
    return state


def main() -> None:
    args = arguments(__doc__ or "")
    rng = random.Random(args.seed)
    figures = Figures("crash_consistency")
    trials = 8 if args.smoke else 60
    root = Path(tempfile.mkdtemp(prefix="crash-"))
    try:
        expected: dict[str, str] = {}
        duration: dict[str, float] = {}
        for kind, source in INPUTS.items():
            t0 = time.monotonic()
            proc = child(root / f"ref-{kind}", source)
            proc.wait()
            duration[kind] = time.monotonic() - t0
            expected[kind] = Store(root / f"ref-{kind}").list_captures()[0].id
        for trial in range(trials):
            kind = "raw" if trial % 2 == 0 else "tlparse"
            store_dir = root / f"trial-{trial}"
            # half the trials already hold another capture, so the kill can land in a store with history
            before: set[str] = set()
            if trial % 4 >= 2:
                other = Store(store_dir).import_path(INPUTS["tlparse" if kind == "raw" else "raw"])
                before.add(other.capture.capture.id)
            delay = rng.uniform(0.0, duration[kind] * 1.1)
            proc = child(store_dir, INPUTS[kind])
            time.sleep(delay)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            store = Store(store_dir)
            label = f"{kind} trial {trial} kill@{delay:.2f}s"
            orphans_after_kill(store_dir, label, figures)

            def action(store: Store = store, label: str = label, kind: str = kind, before: set[str] = before) -> str:
                return check(store, label, figures, expected[kind], before)

            figures.run(label, action, bound=60.0)
            shutil.rmtree(store_dir, ignore_errors=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    finish(figures)


if __name__ == "__main__":
    main()

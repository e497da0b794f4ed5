"""Campaign: change one byte of a stored artifact.

For every trial one byte of one stored file (a trace, a payload pack, its index, a manifest or source snapshot,
capture.json, files.json) is changed. Checks: every evidence read whose bytes cover the change fails with
`corrupt_store` naming the file; `Store.verify` reports that capture (and, for imported files, that file) and no
other; after undoing the change the store verifies clean. Then several captures are damaged at once and
`dynamo-diff verify` must name each of them and exit 1 (0 on a clean store, 2 on a missing store).

    uv run python tools/campaigns/tampering.py [--smoke] [--seed N]   (full: 400 trials, smoke: 40)
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tempfile
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import FIXTURES, Figures, arguments, finish
from dynamo_diff_schema.capture import Capture
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_store import Store

INPUTS = [
    FIXTURES / "captures" / "stable" / "raw",
    FIXTURES / "captures" / "two_ranks" / "raw",
    FIXTURES / "captures" / "training",
    FIXTURES / "corpus" / "tlparse-exports" / "comp_metrics",
    FIXTURES / "corpus" / "tlparse-exports" / "multi_rank_schedule",
]


def trial(store: Store, capture_id: str, path: Path, offset: int, figures: Figures) -> str:
    root = store.capture_dir(capture_id)
    rel = path.relative_to(root).as_posix()
    original = path.read_bytes()
    changed = bytearray(original)
    changed[offset] ^= 0x20 if changed[offset] not in (0x0A, 0x20) else 0x01
    path.write_bytes(bytes(changed))
    try:
        capture = capture_of(root)
        hits = 0
        for ev in capture.evidence if capture is not None else []:
            if f"input/{ev.file}" == rel and ev.offset <= offset < ev.offset + ev.length:
                hits += 1
                try:
                    store.read_evidence(capture_id, ev.id)
                    figures.fail(f"{rel}@{offset}: evidence {ev.id} read despite the change")
                except DynamoDiffError as err:
                    if err.code != ErrorCode.CORRUPT_STORE or ev.file not in err.message:
                        figures.fail(f"{rel}@{offset}: evidence {ev.id} failed as {err.code.value}: {err.message}")
        damage = store.verify().damage
        named = {d.capture_id for d in damage}
        if named != {capture_id}:
            figures.fail(f"{rel}@{offset}: verify named {sorted(map(str, named))}, expected only {capture_id[:12]}")
        if not any(d.file == rel for d in damage):
            figures.fail(f"{rel}@{offset}: verify did not name the file: {damage}")
        return "evidence refused + verify" if hits else "verify"
    finally:
        path.write_bytes(original)


def capture_of(root: Path) -> Capture | None:
    try:
        return Capture.model_validate_json((root / "capture.json").read_bytes())
    except ValueError:
        return None


def main() -> None:
    args = arguments(__doc__ or "")
    rng = random.Random(args.seed)
    figures = Figures("tampering")
    root = Path(tempfile.mkdtemp(prefix="tamper-"))
    try:
        store = Store(root / "store")
        ids = [store.import_path(p).capture.capture.id for p in INPUTS]
        if store.verify().damage:
            figures.fail(f"fresh store not clean: {store.verify().damage}")
        files = [
            (cid, p)
            for cid in ids
            for p in sorted(store.capture_dir(cid).rglob("*"))
            if p.is_file() and p.stat().st_size
        ]
        for _ in range(40 if args.smoke else 400):
            capture_id, path = rng.choice(files)
            offset = rng.randrange(path.stat().st_size)
            label = f"{capture_id[:12]}/{path.relative_to(store.capture_dir(capture_id))}@{offset}"
            figures.run(label, partial(trial, store, capture_id, path, offset, figures), bound=30.0)
        if store.verify().damage:
            figures.fail(f"store not clean after undoing every change: {store.verify().damage[:3]}")
        cli = ["dynamo-diff", "--store", str(store.path), "verify"]
        if shutil.which("dynamo-diff") is None:
            cli[0] = str(Path(sys.executable).parent / "dynamo-diff")

        def cli_checks() -> str:
            clean = subprocess.run(cli, check=False, capture_output=True, text=True)
            if clean.returncode != 0:
                figures.fail(f"verify on a clean store exited {clean.returncode}: {clean.stdout}{clean.stderr}")
            victims = rng.sample(ids, 3)
            for victim in victims:
                target = next(p for p in sorted((store.capture_dir(victim) / "input").rglob("*")) if p.is_file())
                target.write_bytes(target.read_bytes()[:-1])
            damaged = subprocess.run(cli, check=False, capture_output=True, text=True)
            if damaged.returncode != 1 or not all(v in damaged.stdout for v in victims):
                figures.fail(f"verify on 3 damaged captures exited {damaged.returncode}:\n{damaged.stdout}")
            missing = subprocess.run(
                [*cli[:2], str(root / "nowhere"), "verify"], check=False, capture_output=True, text=True
            )
            if missing.returncode != 2:
                figures.fail(f"verify on a missing store exited {missing.returncode}")
            return "cli exit codes 0/1/2"

        figures.run("dynamo-diff verify", cli_checks, bound=60.0)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    finish(figures)


if __name__ == "__main__":
    main()

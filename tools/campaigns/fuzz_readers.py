"""Campaign: mutation fuzzing of every reader (raw TORCH_TRACE logs, tlparse exports, bundle manifests).

Each mutated input is imported into a fresh store. It must end, within a time bound, as a capture (with notices)
or a DynamoDiffError: no traceback, no hang. Mutations: truncation at every line boundary and mid-line, byte
flips, invalid UTF-8, very long lines, deep JSON, duplicate keys, NaN, missing and extra payload lines, md5
mismatches, mixed ranks in one file, interleaved files.

Seeds: every fixture log and every top-level corpus log (all mutations, every truncation point); the other
corpus files (provenance logs, each file of the multi-rank directories) alone (all mutations, 100 sampled
truncation points each); each multi-rank corpus directory whole, one of its files mutated, imported with two
worker processes; each tlparse export.

    uv run python tools/campaigns/fuzz_readers.py [--smoke] [--seed N]
"""

from __future__ import annotations

import random
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (
    CORPUS_OTHER_LOGS,
    CORPUS_RANK_DIRS,
    RAW_SEEDS,
    TLPARSE_EXPORTS,
    TLPARSE_LOGS,
    Figures,
    arguments,
    finish,
)
from dynamo_diff_store import Limits, Store

BOUND = 20.0
LIMITS = Limits(max_total_bytes=64 << 20, max_record_bytes=8 << 20, max_line_bytes=8 << 20)

Mutator = Callable[[bytes, random.Random], bytes]


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def flip(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(out))
        out[i] ^= 1 << rng.randrange(8)
    return bytes(out)


def bad_utf8(data: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + rng.choice([b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x00"]) + data[i:]


def long_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data) or [b""]
    i = rng.randrange(len(lines))
    filler = rng.choice([b"A", b"\t", b"{", b"[", b"\\"]) * rng.choice([70_000, 1 << 20])
    return b"".join([*lines[:i], lines[i].rstrip(b"\n") + filler + b"\n", *lines[i + 1 :]])


def deep_json(data: bytes, rng: random.Random) -> bytes:
    depth = rng.choice([65, 500, 100_000])
    blob = b"[" * depth + b"]" * depth
    return _replace_json(data, rng, blob)


def dup_keys(data: bytes, rng: random.Random) -> bytes:
    return _replace_json(data, rng, b'{"frame_id": 0, "frame_id": 1, "attempt": 0}')


def nan(data: bytes, rng: random.Random) -> bytes:
    return _replace_json(data, rng, rng.choice([b'{"frame_id": NaN}', b'{"x": Infinity}', b"[-Infinity]"]))


def _replace_json(data: bytes, rng: random.Random, blob: bytes) -> bytes:
    """Replace one JSON object in the data (a glog record's metadata, a jsonl line) with `blob`."""
    spans = [m.span() for m in re.finditer(rb"\{[^\n]*\}", data)]
    if not spans:
        return data + blob + b"\n"
    a, b = rng.choice(spans)
    return data[:a] + blob + data[b:]


def drop_payload(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    payload = [i for i, line in enumerate(lines) if line.startswith(b"\t")]
    if not payload:
        return data
    i = rng.choice(payload)
    return b"".join(lines[:i] + lines[i + rng.randint(1, 3) :])


def extra_payload(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines) + 1)
    return b"".join(lines[:i] + [b"\tan extra payload line\n"] * rng.randint(1, 3) + lines[i:])


def bad_md5(data: bytes, rng: random.Random) -> bytes:
    hashes = list(re.finditer(rb'"has_payload": "([0-9a-f]{32})"', data))
    if not hashes:
        return flip(data, rng)
    m = rng.choice(hashes)
    return data[: m.start(1)] + b"0" * 32 + data[m.end(1) :]


def mixed_ranks(data: bytes, rng: random.Random) -> bytes:
    out = []
    for line in _lines(data):
        if line.startswith(b"V") and b'"rank"' not in line and rng.random() < 0.3:
            out.append(line.replace(b"{", b'{"rank": %d, ' % rng.randrange(4), 1))
        else:
            out.append(line)
    return b"".join(out)


def interleave(data: bytes, rng: random.Random) -> bytes:
    other = rng.choice(_ALL_SEED_BYTES)
    a, b = _lines(data), _lines(other)
    out: list[bytes] = []
    while a or b:
        src = a if (a and (not b or rng.random() < 0.5)) else b
        out.extend(src[: rng.randint(1, 5)])
        del src[: len(out[-1:]) and min(len(src), rng.randint(1, 5))]
    return b"".join(out)


def shuffle_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i, j = rng.randrange(len(lines) or 1), rng.randrange(len(lines) or 1)
    if lines:
        lines[i], lines[j] = lines[j], lines[i]
    return b"".join(lines)


MUTATORS: dict[str, Mutator] = {
    "byte_flip": flip,
    "invalid_utf8": bad_utf8,
    "long_line": long_line,
    "deep_json": deep_json,
    "duplicate_keys": dup_keys,
    "nan": nan,
    "missing_payload_lines": drop_payload,
    "extra_payload_lines": extra_payload,
    "md5_mismatch": bad_md5,
    "mixed_ranks": mixed_ranks,
    "interleaved": interleave,
    "swapped_lines": shuffle_lines,
}

_ALL_SEED_BYTES: list[bytes] = []


def truncations(data: bytes, smoke: bool, rng: random.Random, sample: int | None = None) -> Iterator[tuple[str, bytes]]:
    """Every line boundary and one mid-line cut per line (full), or a sample of 12 cuts (smoke) or `sample`."""
    cuts: list[int] = []
    pos = 0
    for line in _lines(data):
        cuts.append(pos)
        if len(line) > 2:
            cuts.append(pos + rng.randrange(1, len(line) - 1))
        pos += len(line)
    if smoke or sample is not None:
        cuts = sorted(rng.sample(cuts, min(12 if smoke else sample or 0, len(cuts))))
    for cut in cuts:
        yield f"truncate@{cut}", data[:cut]


def in_directory(name: str, data: bytes) -> Callable[[Path], Path]:
    """An input that is a directory holding one file `name` with `data`."""

    def build(work: Path) -> Path:
        (work / "in").mkdir()
        (work / "in" / name).write_bytes(data)
        return work / "in"

    return build


def alone(name: str, data: bytes) -> Callable[[Path], Path]:
    """An input that is the single file `name` with `data`."""

    def build(work: Path) -> Path:
        (work / name).write_bytes(data)
        return work / name

    return build


def import_bytes(store_root: Path, build: Callable[[Path], Path], workers: int = 1) -> Callable[[], str]:
    def action() -> str:
        work = Path(tempfile.mkdtemp(dir=store_root))
        try:
            target = build(work)
            result = Store(work / "store").import_path(target, limits=LIMITS, workers=workers)
            return "capture+notices" if result.summary.notices else "capture"
        finally:
            shutil.rmtree(work, ignore_errors=True)

    return action


def main() -> None:
    args = arguments(__doc__ or "")
    rng = random.Random(args.seed)
    figures = Figures("fuzz_readers")
    raw_seeds = [f for d in RAW_SEEDS for f in sorted(d.glob("*.log"))] + TLPARSE_LOGS
    _ALL_SEED_BYTES.extend(p.read_bytes() for p in raw_seeds[:8])
    per_seed = 2 if args.smoke else 12
    trunc_seeds = raw_seeds[:2] if args.smoke else raw_seeds
    if args.smoke:
        raw_seeds = rng.sample(raw_seeds, 8)
    root = Path(tempfile.mkdtemp(prefix="fuzz-readers-"))
    try:
        # raw logs: one file in a directory, mutated
        for seed in raw_seeds:
            data = seed.read_bytes()
            for name, mutate in MUTATORS.items():
                for k in range(per_seed if name != "long_line" else 1):
                    build = in_directory(seed.name, mutate(data, rng))
                    figures.run(
                        f"raw {seed.parent.parent.name}/{seed.name} {name}#{k}", import_bytes(root, build), bound=BOUND
                    )
        for seed in trunc_seeds:
            data = seed.read_bytes()
            for name, cut in truncations(data, args.smoke, rng):
                figures.run(f"raw {seed.name} {name}", import_bytes(root, alone(seed.name, cut)), bound=BOUND)
        # the rest of the corpus, file by file: every mutation, a sample of truncation points
        others = CORPUS_OTHER_LOGS if not args.smoke else rng.sample(CORPUS_OTHER_LOGS, 2)
        for seed in others:
            data = seed.read_bytes()
            for name, mutate in MUTATORS.items():
                for k in range(1 if args.smoke or name == "long_line" else per_seed):
                    build = in_directory(seed.name, mutate(data, rng))
                    figures.run(
                        f"corpus {seed.parent.name}/{seed.name} {name}#{k}", import_bytes(root, build), bound=BOUND
                    )
            for name, cut in truncations(data, args.smoke, rng, sample=100):
                build = alone(seed.name, cut)
                figures.run(f"corpus {seed.parent.name}/{seed.name} {name}", import_bytes(root, build), bound=BOUND)
        # multi-rank directories whole, one file mutated, ranks read by a pool of two workers
        for rank_dir in CORPUS_RANK_DIRS:
            members = sorted(p.name for p in rank_dir.iterdir() if p.is_file())
            for k in range(1 if args.smoke else 24):
                member = rng.choice(members)
                name, mutate = rng.choice(list(MUTATORS.items()))

                def build_dir(
                    work: Path, rank_dir: Path = rank_dir, member: str = member, mutate: Mutator = mutate
                ) -> Path:
                    shutil.copytree(rank_dir, work / rank_dir.name)
                    target = work / rank_dir.name / member
                    target.write_bytes(mutate(target.read_bytes(), rng))
                    return work / rank_dir.name

                figures.run(
                    f"corpus dir {rank_dir.name}/{member} {name}#{k}",
                    import_bytes(root, build_dir, workers=2),
                    bound=BOUND,
                )
        # two rank files interleaved into one / split across two files with the same rank
        # tlparse exports: mutate raw.jsonl or one payload file
        for export in TLPARSE_EXPORTS:
            files = sorted(p.relative_to(export) for p in export.rglob("*") if p.is_file())
            tries = 6 if args.smoke else 60
            for k in range(tries):
                victim = rng.choice(files)
                name, mutate = rng.choice(list(MUTATORS.items()))
                if name == "long_line" and args.smoke:
                    name, mutate = "byte_flip", flip

                def build_export(
                    work: Path, export: Path = export, victim: Path = victim, mutate: Mutator = mutate
                ) -> Path:
                    shutil.copytree(export, work / "export", symlinks=True)
                    target = work / "export" / victim
                    target.write_bytes(mutate(target.read_bytes(), rng))
                    return work / "export"

                figures.run(f"tlparse {export.name}/{victim} {name}#{k}", import_bytes(root, build_export), bound=BOUND)
            jsonl = export / "raw.jsonl"
            if jsonl.exists():
                for name, cut in truncations(jsonl.read_bytes(), args.smoke, rng):

                    def build_jcut(work: Path, export: Path = export, cut: bytes = cut) -> Path:
                        shutil.copytree(export, work / "export", symlinks=True)
                        (work / "export" / "raw.jsonl").write_bytes(cut)
                        return work / "export"

                    figures.run(f"tlparse {export.name}/raw.jsonl {name}", import_bytes(root, build_jcut), bound=BOUND)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    finish(figures)


if __name__ == "__main__":
    main()

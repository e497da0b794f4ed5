"""What the analysis of one rank is given (`RankJob`) and gives back (`RankResult`), the same for every executor (a
local process, a Ray task), and what is handed to it for a file still being copied (`Copying`)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dynamo_diff_schema.capture import Rank
from dynamo_diff_schema.evidence import Notice

from dynamo_diff_store.limits import Limits


@dataclass(frozen=True)
class RankJob:
    """One rank's files as (path relative to the staged input root, format), read in order.

    Format 'raw_log' is a TORCH_TRACE log; 'tlparse_jsonl' is a tlparse raw.jsonl with payload files beside it.
    `group` prefixes the rank's evidence ids ('r3', or 'u1' for a file without a rank).
    """

    root: str
    group: str
    rank: int | None
    files: tuple[tuple[str, str], ...] = ()
    limits: Limits = field(default_factory=Limits)
    # >1: read a large raw log as that many byte ranges in parallel processes (only when ranks are not
    # already read in parallel).
    chunk_workers: int = 1
    # Where the rank's compilations and evidence are written (`<group>.compilations.jsonl`, ...).
    work: str = ""
    # Read inside a program that is not ours (the pytest plugin in the user's test process): its collector is
    # paused as a guest pauses it (gc_pause), its generations left as they are.
    guest: bool = False


@dataclass(slots=True)
class RankResult:
    """One rank: what assembling the capture needs of it in memory (a few hundred bytes, so that the importing
    process does not grow with the number of ranks), the rest in the rank's work files: its summary (files,
    counts, functions), notices, compilations and evidence (read them with the methods)."""

    rank: int | None
    files: list[str]
    summary_file: str  # the rank's Rank without compilations, as JSON
    notices_file: str  # one Notice per line
    notice_count: int
    compilations_file: str
    compilation_count: int
    evidence_file: str
    evidence_count: int
    partial: bool
    record_kinds: Counter[str]
    records: int
    noise_lines: int
    observed_config: dict[str, Any]
    torch_version: str | None
    torch_git: str | None
    python_version: str | None
    entry_script: str | None = None
    devices: list[str] = field(default_factory=list)
    unfinished: list[str] = field(default_factory=list)  # compile ids started but never finished
    unfinished_last: dict[str, str] = field(default_factory=dict)  # of those: the kind of the last record
    cut_files: list[tuple[str, int | None]] = field(default_factory=list)  # files that end mid-record, and where
    evidence_missing: bool = False  # payload files missing or records rejected
    # compile id -> the observer's frames when it started (`Compilation.started_with`), set when assembling
    started_with: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def summary_json(self) -> str:
        """The rank's summary as the JSON text of a schema Rank without its `compilations` key."""
        return Path(self.summary_file).read_text(encoding="utf-8")

    def summary(self) -> Rank:
        """The rank's summary (files, counts, functions; `compilations` empty)."""
        return Rank.model_validate_json(self.summary_json()[:-1] + ',"compilations":[]}')

    def iter_notice_json(self) -> Iterator[str]:
        with Path(self.notices_file).open(encoding="utf-8") as lines:
            for line in lines:
                yield line.rstrip("\n")

    def notices(self) -> list[Notice]:
        return [Notice.model_validate_json(text) for text in self.iter_notice_json()]

    def iter_compilation_json(self) -> Iterator[str]:
        """Each compilation as the JSON text of a schema Compilation, in order."""
        with Path(self.compilations_file).open(encoding="utf-8") as lines:
            for line in lines:
                text = line.rstrip("\n")
                if self.started_with:
                    frames = self.started_with.get(json.loads(text).get("compile_id"))
                    if frames and text.endswith("}"):
                        # `started_with` is the model's last field: spliced in where model_dump_json puts it.
                        if text.endswith(',"started_with":[]}'):
                            text = text[: -len(',"started_with":[]}')] + "}"
                        text = text[:-1] + ',"started_with":' + json.dumps(frames, separators=(",", ":")) + "}"
                yield text

    def iter_evidence_json(self) -> Iterator[str]:
        """Each evidence entry as the JSON text of a schema Evidence (with the rank), in order."""
        rank = json.dumps(self.rank)
        with Path(self.evidence_file).open(encoding="utf-8") as lines:
            for line in lines:
                # Stored without the rank (decided only after the last record): spliced in after the id and kind.
                head, tail = line.rstrip("\n").split("\x1f", 1)
                yield f'{head},"rank":{rank},{tail}'


class SharedConfigs:
    """The ranks of one job observe the same configuration (a few hundred dynamo and inductor settings, about
    200 KB in memory each time a worker's result is unpickled): one copy per distinct configuration is kept, so
    that the importing process does not grow by that much per rank."""

    def __init__(self) -> None:
        self.seen: dict[str, dict[str, Any]] = {}

    def share(self, result: RankResult) -> RankResult:
        # The short strings every rank repeats are kept once too (a rank's result is a few hundred bytes then).
        result.torch_version = result.torch_version and sys.intern(result.torch_version)
        result.torch_git = result.torch_git and sys.intern(result.torch_git)
        result.python_version = result.python_version and sys.intern(result.python_version)
        result.record_kinds = Counter({sys.intern(kind): n for kind, n in result.record_kinds.items()})
        if result.observed_config:
            key = json.dumps(result.observed_config, sort_keys=True, default=repr)
            result.observed_config = self.seen.setdefault(key, result.observed_config)
        return result


@dataclass(frozen=True)
class Copying:
    """The one raw log of a job while the copy into the job's root is still writing it (an import that reads while
    it copies; storage owns the copy). `size`: the file's size when its copy began. `ready(upto)` returns once the
    staged file holds its first `upto` bytes (None) or is complete (its size then), and raises when the copy
    failed or was cancelled: the reading reads only bytes the copy has written (and hashed)."""

    file: str
    size: int
    ready: Callable[[int], int | None]

"""The observed configuration is stored once per distinct set-up, with the ranks that observed it (schema 2.2).

A job's ranks usually run with one configuration of a few hundred settings; stored per rank, a 4,096-rank capture
carried 4,096 copies of it (most of capture.json, and of the importing process's memory). Expected groupings come
from the raw files, read here with `json`, not from our reader."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from dynamo_diff_schema.capture import Capture, ObservedConfig
from dynamo_diff_store import Store

LIMIT_8 = '\\"recompile_limit\\": 8,'
LIMIT_3 = '\\"recompile_limit\\": 3,'


def configs_by_rank(job: Path) -> dict[int, tuple[str, str]]:
    """rank -> (dynamo_config, inductor_config) as the rank's compilation_metrics records hold them."""
    found: dict[int, set[tuple[str, str]]] = {}
    for path in job.iterdir():
        rank = int(path.name.split("_rank_")[1].split("_")[0])
        for line in path.read_text(encoding="utf-8").splitlines():
            if '{"compilation_metrics"' not in line:
                continue
            metrics = json.loads(line[line.index("{") :])["compilation_metrics"]
            found.setdefault(rank, set()).add((metrics["dynamo_config"], metrics["inductor_config"]))
    assert all(len(configs) == 1 for configs in found.values())  # one configuration a rank in these logs
    return {rank: next(iter(configs)) for rank, configs in found.items()}


def test_ranks_with_one_configuration_share_one_entry(tmp_path: Path, rank_job: Callable[..., Path]) -> None:
    job = rank_job(tmp_path / "job", {r: r % 2 for r in range(12)})
    for rank in range(8, 12):  # these four ranks ran with another recompile limit
        path = job / f"dedicated_log_torch_trace_rank_{rank}_job.log"
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        # Only the metrics record's own line (a timing span's payload repeats the configuration, under its md5).
        metrics = [n for n, line in enumerate(lines) if '{"compilation_metrics"' in line and LIMIT_8 in line]
        assert metrics
        for at in metrics:
            lines[at] = lines[at].replace(LIMIT_8, LIMIT_3)
        path.write_text("".join(lines), encoding="utf-8")
    groups: dict[tuple[str, str], list[int]] = {}
    for rank, config in sorted(configs_by_rank(job).items()):
        groups.setdefault(config, []).append(rank)
    assert sorted(groups.values()) == [list(range(8)), list(range(8, 12))]

    store = Store(tmp_path / "store")
    imported = store.import_path(job).summary
    for capture in (imported, store.load(imported.capture.id, evidence=False)):
        entries = capture.capture.observed_config
        assert sorted(entry.ranks for entry in entries) == sorted(groups.values())
        for entry in entries:
            assert entry.rank == entry.ranks[0]
            assert entry.values["dynamo.recompile_limit"] == (3 if 8 in entry.ranks else 8)
            assert entry.devices == ["cpu"]
    document = json.loads((tmp_path / "store" / "captures" / imported.capture.id / "capture.json").read_bytes())
    assert [len(entry["ranks"]) for entry in document["capture"]["observed_config"]] == [8, 4]


def test_a_schema_2_1_document_reads_back_with_one_rank_an_entry(tmp_path: Path, rank_job: Callable[..., Path]) -> None:
    store = Store(tmp_path / "store")
    imported = store.import_path(rank_job(tmp_path / "job", {0: 0, 1: 1})).summary
    document = json.loads(imported.model_dump_json())
    (entry,) = document["capture"]["observed_config"]
    assert entry["ranks"] == [0, 1]
    # What a 2.1 reader wrote: one entry per rank, no `ranks`.
    document["schema_version"] = "2.1"
    document["capture"]["observed_config"] = [
        {"rank": rank, "values": entry["values"], "devices": entry["devices"]} for rank in (0, 1)
    ]
    earlier = Capture.model_validate(document)
    assert [(c.rank, c.ranks) for c in earlier.capture.observed_config] == [(0, [0]), (1, [1])]
    assert ObservedConfig.model_validate({"values": {"dynamo.x": 1}}).ranks == [None]

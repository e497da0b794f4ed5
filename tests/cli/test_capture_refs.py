"""Every command that takes a capture takes it as `analyze` does: an id, prefix or label, or a path (a run's folder),
imported first. Run on a fresh store each time, so the folder is the only way to name the capture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import Run

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
EDIT_V1 = str(FIXTURES / "captures/edit_v1")
EDIT_V2 = str(FIXTURES / "captures/edit_v2")
TWO_RANKS = str(FIXTURES / "captures/two_ranks")


def _oracle(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads((FIXTURES / "captures" / name / "oracle.json").read_text())  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (["analyze", EDIT_V1], "capture"),
        (["evidence", EDIT_V1], "evidence_index"),
        (["evidence", EDIT_V1, "u1-e1"], "evidence_excerpt"),
        (["evidence", EDIT_V1, "u1-e1", "--grep", "torch"], "evidence_grep"),
        (["source", EDIT_V1, "gate"], "source"),
        (["source", EDIT_V1, "--diff", EDIT_V2], "source_diff"),
        (["compare", EDIT_V1, EDIT_V2], "comparison"),
        (["compare", TWO_RANKS, "--ranks"], "rank_view"),
        (["check", EDIT_V1, EDIT_V2], "check"),
    ],
    ids=lambda v: " ".join(Path(a).name for a in v) if isinstance(v, list) else v,
)
def test_a_folder_is_a_capture_for_every_command(run: Run, args: list[str], kind: str) -> None:
    code, out, err = run(*args, "--format", "json")
    assert code == 0, err
    assert json.loads(out)["kind"] == kind
    assert f"imported {args[1]} -> " in err  # said the way analyze says it


def test_evidence_of_a_folder_reads_the_record_the_trace_holds(run: Run) -> None:
    """The first record of the trace is torch's version line: the oracle names the torch that ran it."""
    code, out, err = run("evidence", EDIT_V1, "u1-e1", "--format", "json")
    assert code == 0, err
    excerpt = json.loads(out)
    assert excerpt["evidence"]["kind"] == "torch_version"
    assert _oracle("edit_v1")["torch_version"] in excerpt["text"]


def test_rm_takes_the_folder_a_capture_was_imported_from(run: Run) -> None:
    code, _, err = run("rm", EDIT_V1)
    assert code != 0 and "error[unknown_capture]" in err and "nothing removed" in err
    code, out, _ = run("list", "--format", "json")
    assert json.loads(out)["captures"] == []  # looking did not leave it in the store
    code, _, err = run("analyze", EDIT_V1)
    assert code == 0, err
    code, out, err = run("rm", EDIT_V1, "--format", "json")
    assert code == 0, err
    removed = json.loads(out)
    assert removed["kind"] == "removed"
    code, out, _ = run("list", "--format", "json")
    assert json.loads(out)["captures"] == []


def test_grep_searches_the_embedded_configuration_only_with_in_config(run: Run) -> None:
    """The count inside compilation_metrics' serialized configs is read from the trace with `json`."""
    path = str(FIXTURES / "captures/shape")
    code, out, err = run("evidence", path, "--kind", "compilation_metrics", "--format", "json")
    ev = json.loads(out)["items"][0]["id"]
    (log,) = (FIXTURES / "captures/shape/raw").glob("*.log")
    line = next(x for x in log.read_text().splitlines() if '{"compilation_metrics"' in x)
    metrics = json.loads(line[line.index("{") :])["compilation_metrics"]
    config = sum(v.count("suppress_errors") for k, v in metrics.items() if k.endswith("_config") and isinstance(v, str))
    assert config >= 1
    code, out, err = run("evidence", path, ev, "--grep", "suppress_errors")
    assert code == 0, err
    assert f"{config} more in the embedded configuration: --in-config" in err
    code, out, err = run("evidence", path, ev, "--grep", "suppress_errors", "--in-config", "--format", "json")
    assert json.loads(out)["in_config"] is True and json.loads(out)["config_matches"] == config

"""The service the CLI and the MCP server share: one rule for naming a capture, on a real store and real traces."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from dynamo_diff_schema import DynamoDiffError, ErrorCode
from dynamo_diff_service import Service, looks_like_path
from dynamo_diff_store import Store

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CAPTURES = FIXTURES / "captures"


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Service:
    monkeypatch.chdir(tmp_path)
    return Service(Store(tmp_path / "store"))


@pytest.mark.parametrize(
    ("ref", "path"),
    [("run", False), ("3f2a9c1b", False), ("./run", True), ("runs/a", True), ("~/t", True), ("t.log", True)],
)
def test_what_is_written_as_a_path(ref: str, path: bool) -> None:
    assert looks_like_path(ref) is path


def test_a_word_is_a_capture_first_and_a_folder_of_that_name_second(service: Service, tmp_path: Path) -> None:
    shutil.copytree(CAPTURES / "stable" / "raw", tmp_path / "stable")
    imported = service.open("stable")  # no capture has that name: the folder is imported
    assert imported.imported is not None and imported.imported.created and imported.notes == []
    shape = service.open(str(CAPTURES / "shape"), label="stable2")
    assert shape.imported is not None and shape.capture.capture.label == "stable2"
    shutil.copytree(CAPTURES / "shape" / "raw", tmp_path / "stable2")
    both = service.open("stable2")  # a label and a folder: the capture, and a note
    assert both.capture.capture.id == shape.capture.capture.id and both.imported is None
    assert "./stable2" in both.notes[0]
    other = service.open("./stable2")  # written as a path: the folder (its own bytes, another capture)
    assert other.imported is not None and other.capture.capture.id != shape.capture.capture.id


def test_a_path_that_does_not_exist_is_looked_up_as_a_label_then_refused(service: Service) -> None:
    service.open(str(CAPTURES / "stable"), label="team/stable")
    assert service.open("team/stable").capture.capture.label == "team/stable"
    with pytest.raises(DynamoDiffError) as err:
        service.open("runs/missing")
    assert err.value.code == ErrorCode.UNREADABLE_INPUT
    with pytest.raises(DynamoDiffError) as err:
        service.open("missing")
    assert err.value.code == ErrorCode.UNKNOWN_CAPTURE


def test_a_confined_service_refuses_paths_outside_and_still_finds_captures(tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    shutil.copytree(CAPTURES / "stable" / "raw", allowed / "stable")

    def confine(given: str, *, what: str = "path") -> Path:
        path = (allowed / given).resolve()
        if not path.is_relative_to(allowed):
            raise DynamoDiffError(ErrorCode.PATH_NOT_ALLOWED, f"{what} {given!r} is outside the allowed roots")
        return path

    service = Service(Store(tmp_path / "store"), confine=confine)
    opened = service.open("stable")  # a bare name: the folder under the allowed root
    assert opened.imported is not None
    assert service.open(opened.capture.capture.id[:12]).capture.capture.id == opened.capture.capture.id
    with pytest.raises(DynamoDiffError) as err:
        service.open("../outside/trace")
    assert err.value.code == ErrorCode.PATH_NOT_ALLOWED
    with pytest.raises(DynamoDiffError) as err:
        service.import_path("stable", manifest="../manifest.json")
    assert err.value.code == ErrorCode.PATH_NOT_ALLOWED and "manifest_path" in err.value.message


def test_compare_uses_the_snapshots_and_excerpts_are_hash_checked(service: Service) -> None:
    base = service.open(str(CAPTURES / "edit_v1")).capture
    cand = service.open(str(CAPTURES / "edit_v2")).capture
    comparison = service.compare(base, cand)
    assert {r.method for r in comparison.functions} - {"none"} <= {"structure", "line_diff"}
    excerpts = service.evidence_excerpts(comparison)
    assert excerpts and all(key.split(":")[0] in ("baseline", "candidate") for key in excerpts)
    for key, excerpt in excerpts.items():
        side, evidence_id = key.split(":", 1)
        capture_id = comparison.baseline.id if side == "baseline" else comparison.candidate.id
        as_written = service.read_evidence(capture_id, evidence_id, max_chars=3000).text
        # Condensed as `evidence` prints it; the record as written beside it where that changed anything.
        assert excerpt.text == service.evidence_excerpt(capture_id, evidence_id, max_chars=3000).text
        assert (excerpt.raw or excerpt.text) == as_written


def test_source_finds_a_function_by_its_qualified_name(service: Service) -> None:
    capture = service.open(str(CAPTURES / "training")).capture
    _, (location,) = service.source(capture.capture.id, "MLP.forward")  # the name compare shows
    workload = (FIXTURES / "workloads" / "training.py").read_text().splitlines()
    def_line = next(n for n, line in enumerate(workload, 1) if line.strip().startswith("def forward("))
    assert location.first_line == def_line and location.lines[0] == (def_line, workload[def_line - 1])
    with pytest.raises(DynamoDiffError) as err:
        service.source(capture.capture.id, "MLP.backward")
    assert err.value.code == ErrorCode.UNKNOWN_FUNCTION


def test_the_report_and_the_edit_use_the_captures_already_compared(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The HTML report's material and the demo's edit come from the two captures the comparison was made from:
    neither reads them from the store again (a large capture takes seconds to read); others are still read."""
    base = service.open(str(CAPTURES / "edit_v1")).capture
    cand = service.open(str(CAPTURES / "edit_v2")).capture
    comparison = service.compare(base, cand)
    reads: list[str] = []
    real = Service.load

    def counted(self: Service, ref: str, **kwargs: object) -> object:
        reads.append(ref)
        return real(self, ref, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Service, "load", counted)
    given = service.report_material(comparison, (base, cand))
    assert service.source_changes(comparison, (base, cand)) and reads == []
    again = service.report_material(comparison)  # without them: read from the store
    assert len(reads) == 2 and again.excerpts == given.excerpts
    assert again.baseline.compilations == given.baseline.compilations == [c for r in base.ranks for c in r.compilations]
    other = service.open(str(CAPTURES / "shape")).capture
    service.source_changes(comparison, (base, other))  # not the compared pair: read, not trusted
    assert len(reads) == 4


def test_the_reports_records_stay_within_their_bound_and_say_what_was_cut(service: Service) -> None:
    """The HTML report's graph, guard and code records of a torch upgrade (llama_213 -> llama_214): each record at
    most `per_record` characters, all of them at most `budget`, the rest listed without text; the page says which
    were cut and how to list the whole record, and its size follows the bound, not the records'."""
    from dynamo_diff_compare import comparison_html

    base = service.open(str(CAPTURES / "llama_213")).capture
    cand = service.open(str(CAPTURES / "llama_214")).capture
    comparison = service.compare(base, cand)
    whole, looked_up = service.report_records(comparison)
    # Against the store's own index: every linked kind of the compared compilations, whole records' sizes.
    compile_ids = {f"{s}:{c}" for r in comparison.functions for s in ("baseline", "candidate") if getattr(r, s)
                   for c in getattr(r, s).compile_ids}  # fmt: skip
    assert looked_up == compile_ids
    assert len(whole) == 16 and all(r.text is not None and len(r.text) <= 12_000 for r in whole.values())
    assert max(r.total_chars for r in whole.values()) > 200_000  # the guards: far larger than the page keeps
    bounded, _ = service.report_records(comparison, per_record=1_000, budget=5_500)
    assert list(bounded) == list(whole)  # the same records, in the same order (both runs of a function together)
    texts = [r.text for r in bounded.values()]
    assert sum(len(t or "") for t in texts) <= 5_500 and texts[:5] == [whole[k].text[:1_000] for k in list(whole)[:5]]  # type: ignore[index]
    assert texts[6:] == [None] * (len(texts) - 6)
    for key, record in bounded.items():  # what is embedded is the record's start, as `evidence` reads it
        side, ev = key.split(":", 1)
        capture_id = comparison.baseline.id if side == "baseline" else comparison.candidate.id
        if record.text is not None:
            assert service.read_evidence(capture_id, ev, max_chars=1_000).text.startswith(record.text)
    material = service.report_material(comparison, (base, cand))
    small = comparison_html(comparison, material=type(material)(
        material.excerpts, material.baseline, material.candidate, records=bounded, records_of=looked_up))  # fmt: skip
    assert small.count("not embedded (") == 10 and "lists the kept records of a kind" in small
    assert len(comparison_html(comparison, material=material)) - len(small) > 150_000

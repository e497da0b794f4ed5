"""Every MCP structured result is a schema document: it says its `kind`, and the committed `<kind>.schema.json`
validates it; the same for each tool's paged and error variants. Run through a real client session on real
fixture captures. A tool without cases here fails `test_every_tool_has_its_cases`."""

from __future__ import annotations

import json
from collections.abc import Callable

import jsonschema
import pytest
from dynamo_diff_mcp.server import Tools, document_kinds, document_model
from dynamo_diff_schema.documents import committed_schema_text
from mcp.types import CallToolResult

from .conftest import Session, text_of

Case = Callable[[Session], CallToolResult]


def _imported(session: Session, path: str) -> str:
    result = session.call("import_trace", path=path)
    assert not result.is_error, text_of(result)
    return str(result.structured_content["captures"][0]["capture"]["id"])  # type: ignore[index]


def _evidence_id(session: Session, capture: str, kind: str) -> str:
    index = session.call("get_evidence", capture=capture, kind=kind, full=True).structured_content
    return str(index["items"][0]["id"])  # type: ignore[index]


def _list_second_page(session: Session) -> CallToolResult:
    for name in ("stable", "shape"):
        _imported(session, f"captures/{name}")
    return session.call("list_captures", offset=1)


def _excerpt(session: Session) -> CallToolResult:
    cid = _imported(session, "captures/shape")
    return session.call("get_evidence", capture=cid, evidence_id=_evidence_id(session, cid, "compilation_metrics"))


def _grep(session: Session) -> CallToolResult:
    cid = _imported(session, "captures/shape")
    evidence_id = _evidence_id(session, cid, "recompile_reasons")
    return session.call("get_evidence", capture=cid, evidence_id=evidence_id, grep="size mismatch")


EDIT = {"baseline": "captures/edit_v1", "candidate": "captures/edit_v2"}

# (tool, variant) -> (the call on a fresh store, the kind it returns)
CASES: dict[tuple[str, str], tuple[Case, str]] = {
    ("import_trace", "one run"): (lambda s: s.call("import_trace", path="captures/two_ranks"), "import_page"),
    ("import_trace", "a folder of runs"): (lambda s: s.call("import_trace", path="v1_bundles"), "import_page"),
    ("import_trace", "a raw log with notices"): (
        lambda s: s.call("import_trace", path="corpus/tlparse-tests/simple_corrupted_json.log"),
        "import_page",
    ),
    ("import_trace", "error"): (lambda s: s.call("import_trace", path="captures/no_such_run"), "error"),
    ("list_captures", "empty"): (lambda s: s.call("list_captures"), "capture_page"),
    ("list_captures", "second page"): (_list_second_page, "capture_page"),
    ("list_captures", "error"): (lambda s: s.call("list_captures", offset=-1), "error"),
    ("analyze_capture", "first page"): (
        lambda s: s.call("analyze_capture", capture="captures/recompile_limit"),
        "run_report_page",
    ),
    ("analyze_capture", "later page"): (
        lambda s: s.call("analyze_capture", capture="captures/guards", offset=1, page_size=1),
        "run_report_page",
    ),
    ("analyze_capture", "error"): (
        lambda s: s.call("analyze_capture", capture="captures/graph_break", function="nope"),
        "error",
    ),
    ("compare_runs", "first page"): (lambda s: s.call("compare_runs", **EDIT), "comparison_page"),
    ("compare_runs", "later page"): (
        lambda s: s.call("compare_runs", **EDIT, offset=1, page_size=1),
        "comparison_page",
    ),
    ("compare_runs", "confounded, cut to fit"): (
        lambda s: s.call(
            "compare_runs", baseline="captures/stable", candidate="corpus/tlparse-tests/multi_rank_runtime"
        ),
        "comparison_page",
    ),
    ("compare_runs", "error"): (lambda s: s.call("compare_runs", **EDIT, page_size=0), "error"),
    ("compare_ranks", "first page"): (
        lambda s: s.call("compare_ranks", capture="captures/two_ranks"),
        "rank_view_page",
    ),
    ("compare_ranks", "error"): (
        lambda s: s.call("compare_ranks", capture="captures/two_ranks", ranks=[0, 7]),
        "error",
    ),
    ("get_evidence", "index"): (lambda s: s.call("get_evidence", capture="captures/stable"), "evidence_index"),
    ("get_evidence", "excerpt"): (_excerpt, "evidence_excerpt"),
    ("get_evidence", "grep"): (_grep, "evidence_grep"),
    ("get_evidence", "grep every record"): (
        lambda s: s.call("get_evidence", capture="captures/shape", grep="size mismatch"),
        "evidence_search",
    ),
    ("get_evidence", "error"): (
        lambda s: s.call("get_evidence", capture="captures/stable", evidence_id="r9-e999"),
        "error",
    ),
    ("get_source", "a function"): (
        lambda s: s.call("get_source", capture="captures/call_site_v2", function="prepare_inputs"),
        "source",
    ),
    ("get_source", "a file, later page"): (
        lambda s: s.call("get_source", capture="captures/call_site_v2", file="_oracle.py", offset=100),
        "source",
    ),
    ("get_source", "a function's diff"): (
        lambda s: s.call(
            "get_source", capture="captures/call_site_v1", against="captures/call_site_v2", function="preprocess"
        ),
        "source_diff",
    ),
    ("get_source", "error"): (lambda s: s.call("get_source", capture="captures/call_site_v2"), "error"),
}


def schema_of(kind: str) -> dict:  # type: ignore[type-arg]
    return json.loads(committed_schema_text(kind))  # type: ignore[no-any-return]


@pytest.mark.parametrize("case", list(CASES), ids=[f"{tool}: {variant}" for tool, variant in CASES])
def test_each_structured_result_is_the_document_its_kind_names(session: Session, case: tuple[str, str]) -> None:
    call, kind = CASES[case]
    result = call(session)
    document = result.structured_content
    assert document is not None, text_of(result)
    assert document["kind"] == kind and result.is_error == (kind == "error"), text_of(result)
    jsonschema.Draft202012Validator(schema_of(document["kind"])).validate(document)
    if result.is_error:  # the same document for programs that read `_meta`
        assert result.meta is not None and result.meta["dynamo-diff/error"] == document
    else:  # a kind the tool declares (its return annotation, which the SDK checks); tools/list publishes none
        (tool,) = [t for t in session.list_tools().tools if t.name == case[0]]
        assert tool.output_schema is None
        assert kind in document_kinds(document_model(getattr(Tools, case[0])))


@pytest.mark.parametrize("case", list(CASES), ids=[f"{tool}: {variant}" for tool, variant in CASES])
def test_each_whole_document_is_the_document_its_kind_names(session: Session, case: tuple[str, str]) -> None:
    """The same calls with full=true: the whole document, not its outline, validated the same way."""
    call, kind = CASES[case]
    whole = Session(
        lambda tool, **arguments: session.call(tool, **{**arguments, "full": True}), session.list_tools, session.store
    )
    document = call(whole).structured_content
    assert document is not None and document["kind"] == kind
    assert "outline" not in document
    jsonschema.Draft202012Validator(schema_of(kind)).validate(document)


def test_every_tool_has_its_cases(session: Session) -> None:
    """A tool added without cases here fails: each needs a result and an error case."""
    tools = {t.name for t in session.list_tools().tools}
    assert {tool for tool, _ in CASES} == tools
    for tool in tools:
        kinds = {kind for (name, _), (_, kind) in CASES.items() if name == tool}
        assert "error" in kinds and kinds - {"error"}, tool


def test_the_page_schemas_refuse_what_a_page_must_not_hold(session: Session) -> None:
    """The committed page schemas are not a formality: an MCP-only spelling or a wrong kind is refused."""
    _imported(session, "captures/stable")
    page = session.call("list_captures", full=True).structured_content
    assert page is not None
    validator = jsonschema.Draft202012Validator(schema_of("capture_page"))
    validator.validate(page)
    renamed = {**page, "captures": [{**page["captures"][0], "torch": "2.13"}]}
    assert not validator.is_valid(renamed)  # `torch_version` is the row's name for it
    assert not validator.is_valid({**page, "kind": "capture_list"})
    comparison = session.call("compare_runs", **EDIT).structured_content
    assert comparison is not None
    assert not jsonschema.Draft202012Validator(schema_of("rank_view_page")).is_valid(comparison)

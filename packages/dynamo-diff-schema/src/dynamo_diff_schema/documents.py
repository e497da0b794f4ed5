"""The public document kinds, their generated JSON Schemas and validation against the committed copies.

Every document carries `kind`, the name of the file that validates it (`<kind>.schema.json`); a comparison of
two captures and a rank view are one model (`Comparison`), and each file accepts only its own kind."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any, Final

from pydantic import BaseModel

from dynamo_diff_schema.capture import Capture
from dynamo_diff_schema.comparison import Comparison
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode, ErrorInfo
from dynamo_diff_schema.manifest import Manifest
from dynamo_diff_schema.pages import CapturePage, ComparisonPage, ImportPage, RunReportPage
from dynamo_diff_schema.results import (
    CaptureList,
    CheckVerdict,
    EvidenceDiff,
    EvidenceExcerpt,
    EvidenceExcerpts,
    EvidenceGrep,
    EvidenceIndex,
    EvidenceSearch,
    ExportResult,
    ImportResult,
    RemoveResult,
    SourceDiff,
    SourceResult,
    VerifyReport,
)
from dynamo_diff_schema.run_report import RunReport
from dynamo_diff_schema.snapshot import CompileSnapshot, SnapshotVerdict
from dynamo_diff_schema.version import SCHEMA_MAJOR

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

DOCUMENT_MODELS: Final[dict[str, type[BaseModel]]] = {
    "capture": Capture,
    "comparison": Comparison,
    "manifest": Manifest,
    "error": ErrorInfo,
    "run_report": RunReport,
    "capture_list": CaptureList,
    "import_result": ImportResult,
    "rank_view": Comparison,
    "check": CheckVerdict,
    "evidence_index": EvidenceIndex,
    "evidence_excerpt": EvidenceExcerpt,
    "evidence_grep": EvidenceGrep,
    "evidence_search": EvidenceSearch,
    "evidence_excerpts": EvidenceExcerpts,
    "evidence_diff": EvidenceDiff,
    "source": SourceResult,
    "source_diff": SourceDiff,
    "verify_report": VerifyReport,
    "removed": RemoveResult,
    "export_result": ExportResult,
    "compile_snapshot": CompileSnapshot,
    "snapshot_verdict": SnapshotVerdict,
    # The pages the MCP server returns where a whole document would not fit one response (pages.py).
    "capture_page": CapturePage,
    "import_page": ImportPage,
    "run_report_page": RunReportPage,
    "comparison_page": ComparisonPage,
    "rank_view_page": ComparisonPage,
}
KINDS: Final[tuple[str, ...]] = tuple(DOCUMENT_MODELS)
_ID_BASE = "https://dynamo-diff.invalid/schema"


def _check_kind(kind: str) -> type[BaseModel]:
    try:
        return DOCUMENT_MODELS[kind]
    except KeyError:
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT, f"unknown document kind {kind!r}; expected one of {', '.join(KINDS)}"
        ) from None


def generate_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema generated from the model (what the committed file must equal)."""
    model = _check_kind(kind)
    schema = model.model_json_schema(mode="serialization")
    if "kind" in schema.get("properties", {}) and kind != "manifest":  # a manifest's kind is its own word
        # The file of kind K accepts only documents of kind K (one model may serve two kinds: a rank view).
        described = schema["properties"]["kind"].get("description")
        schema["properties"]["kind"] = {"const": kind, "default": kind, "title": "Kind", "type": "string"}
        if described:
            schema["properties"]["kind"]["description"] = described
        schema["required"] = ["kind", *(name for name in schema.get("required", []) if name != "kind")]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{_ID_BASE}/v{SCHEMA_MAJOR}/{kind}.schema.json",
        **schema,
    }


def render_schema(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def schema_filename(kind: str) -> str:
    _check_kind(kind)
    return f"{kind}.schema.json"


def committed_schema_text(kind: str) -> str:
    return files("dynamo_diff_schema").joinpath("schemas", schema_filename(kind)).read_text(encoding="utf-8")


@cache
def _validator(kind: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator  # on first use: importing it costs more than a small import

    return Draft202012Validator(json.loads(committed_schema_text(kind)))


def validate(document: Any, kind: str) -> None:
    """Validate a JSON-compatible document against the committed schema of `kind`.

    Raises DynamoDiffError(invalid_document) listing up to ten problems with their JSON paths.
    """
    _check_kind(kind)
    errors = sorted(_validator(kind).iter_errors(document), key=lambda e: list(e.absolute_path))
    if errors:
        problems = [f"{'/'.join(str(p) for p in e.absolute_path) or '<root>'}: {e.message}" for e in errors[:10]]
        raise DynamoDiffError(
            ErrorCode.INVALID_DOCUMENT,
            f"document is not a valid {kind}: {problems[0]}",
            problems=problems,
            total=len(errors),
        )

"""Reading what torch wrote: raw TORCH_TRACE logs, tlparse exports, input folders and bundle manifests.

Everything here turns bytes into `Record`s (one structured-trace record each, with its byte span) and a
`FileReport` per file (what was cut, skipped or refused), under `Limits`. Nothing here interprets what a record
means for a compilation (that is `analysis`) or writes to the store (`storage`).
"""

from dynamo_diff_store.reading._beside import DEFAULT_EXCLUDES, BesideFile, NamedFiles, find_beside, library_file
from dynamo_diff_store.reading._filereport import FileReport, merge_reports, shift_lines
from dynamo_diff_store.reading._inputs import InputLayout, TraceFile, discover, rank_from_name, read_records
from dynamo_diff_store.reading._jsonload import (
    JSONRejected,
    JSONTooDeepError,
    StrictJSONError,
    loads_payload,
    loads_strict,
)
from dynamo_diff_store.reading._manifests import judge, manifest_bytes, read_manifest, translate_v1
from dynamo_diff_store.reading._rawlog import (
    cut_points,
    open_regular,
    read_raw_log,
    read_regular,
    record_boundaries,
    record_cuts,
)
from dynamo_diff_store.reading._records import CompileKey, Record, Span
from dynamo_diff_store.reading._tlparse_export import (
    PACK_INDEX_SUFFIX,
    PACK_SUFFIX,
    PackedPayloads,
    confine,
    jsonl_boundaries,
    jsonl_cuts,
    read_tlparse_export,
)

__all__ = [
    "DEFAULT_EXCLUDES",
    "PACK_INDEX_SUFFIX",
    "PACK_SUFFIX",
    "BesideFile",
    "CompileKey",
    "FileReport",
    "InputLayout",
    "JSONRejected",
    "JSONTooDeepError",
    "NamedFiles",
    "PackedPayloads",
    "Record",
    "Span",
    "StrictJSONError",
    "TraceFile",
    "confine",
    "cut_points",
    "discover",
    "find_beside",
    "jsonl_boundaries",
    "jsonl_cuts",
    "judge",
    "library_file",
    "loads_payload",
    "loads_strict",
    "manifest_bytes",
    "merge_reports",
    "open_regular",
    "rank_from_name",
    "read_manifest",
    "read_raw_log",
    "read_records",
    "read_regular",
    "read_tlparse_export",
    "record_boundaries",
    "record_cuts",
    "shift_lines",
    "translate_v1",
]

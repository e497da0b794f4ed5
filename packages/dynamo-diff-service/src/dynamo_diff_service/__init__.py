"""The operations the Dynamo Diff CLI and MCP server share, returning schema models: the only way in for a front
end (`Service.at(store path)`: import, list, rm, verify, record, open, compare, ranks, check, run report, evidence
index/excerpt/grep, source and a source diff, export). The CLI and the MCP server only parse arguments and render.

The store's default location is importable without the rest (the CLI reads it at start-up, before it knows
which command runs); the other names load their modules on first use."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from dynamo_diff_service._defaults import DEFAULT_STORE, STORE_ENV, default_store_path

if TYPE_CHECKING:
    from dynamo_diff_store import CaptureResult as Recorded  # what `record` returns; a name a front end may write

    from dynamo_diff_service._export import COUNT_COLUMNS, TABLES, ExportResult
    from dynamo_diff_service._refs import looks_like_path
    from dynamo_diff_service._service import (
        GREP_MAX_MATCHES,
        Opened,
        Progress,
        Service,
        check_name_fits,
        grep_document,
        read_source_map,
        source_map_of,
    )
    from dynamo_diff_service._source import SourceLocation

_LAZY = {
    "COUNT_COLUMNS": "_export",
    "TABLES": "_export",
    "ExportResult": "_export",
    "diff_target": "_refs",
    "looks_like_path": "_refs",
    "GREP_MAX_MATCHES": "_service",
    "Opened": "_service",
    "Progress": "_service",
    "Service": "_service",
    "check_name_fits": "_service",
    "grep_document": "_service",
    "read_source_map": "_service",
    "source_map_of": "_service",
    "SourceLocation": "_source",
}


# Not dynamo_diff_schema.lazy.lazy_names: `dynamo-diff COMMAND --help` reads the store defaults from this package
# and loads none of the working packages (tests/cli/test_startup.py).
def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import version

        globals()[name] = version("dynamo-diff-service")
        return globals()[name]
    if name == "Recorded":
        from dynamo_diff_store import CaptureResult

        globals()[name] = CaptureResult
        return CaptureResult
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "COUNT_COLUMNS",
    "DEFAULT_STORE",
    "GREP_MAX_MATCHES",
    "STORE_ENV",
    "TABLES",
    "ExportResult",
    "Opened",
    "Progress",
    "Recorded",
    "Service",
    "SourceLocation",
    "__version__",
    "check_name_fits",
    "default_store_path",
    "diff_target",
    "grep_document",
    "looks_like_path",
    "read_source_map",
    "source_map_of",
]

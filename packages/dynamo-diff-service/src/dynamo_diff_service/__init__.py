"""The operations the Dynamo Diff CLI and MCP server share (open, compare, evidence, source, the store's default
location), returning schema models; the CLI and the MCP server only parse arguments and render."""

from importlib.metadata import version as _version

from dynamo_diff_service._defaults import DEFAULT_STORE, STORE_ENV, default_store_path
from dynamo_diff_service._refs import looks_like_path
from dynamo_diff_service._service import Opened, Progress, Service, read_source_map, source_map_of
from dynamo_diff_service._source import SourceLocation

__version__ = _version("dynamo-diff-service")

__all__ = [
    "DEFAULT_STORE",
    "STORE_ENV",
    "Opened",
    "Progress",
    "Service",
    "SourceLocation",
    "__version__",
    "default_store_path",
    "looks_like_path",
    "read_source_map",
    "source_map_of",
]

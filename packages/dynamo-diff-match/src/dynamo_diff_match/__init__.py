"""Source-function identities and cross-run correspondence for Dynamo Diff."""

from importlib.metadata import version as _version

from dynamo_diff_match.codechanges import CodeChange, CodeSide, Frame, code_changes, defined_at
from dynamo_diff_match.correspond import (
    Correspondence,
    FunctionMatch,
    correspond,
    correspond_functions,
    qualified_name,
)
from dynamo_diff_match.identities import (
    CallSite,
    FunctionRef,
    Generated,
    SourceFunction,
    function_id,
    index_functions,
    structure_hash,
)
from dynamo_diff_match.linediff import MAX_DIFF_LINES, MAX_DIFF_WORK
from dynamo_diff_match.snapshots import SnapshotSet, locate
from dynamo_diff_match.sourcediff import FunctionDiff, source_diff
from dynamo_diff_match.spans import MAX_SOURCE_BYTES, function_span
from dynamo_diff_match.usermap import UserMap, load_user_map

__version__ = _version("dynamo-diff-match")

__all__ = [
    "MAX_DIFF_LINES",
    "MAX_DIFF_WORK",
    "MAX_SOURCE_BYTES",
    "CallSite",
    "CodeChange",
    "CodeSide",
    "Correspondence",
    "Frame",
    "FunctionDiff",
    "FunctionMatch",
    "FunctionRef",
    "Generated",
    "SnapshotSet",
    "SourceFunction",
    "UserMap",
    "__version__",
    "code_changes",
    "correspond",
    "correspond_functions",
    "defined_at",
    "function_id",
    "function_span",
    "index_functions",
    "load_user_map",
    "locate",
    "qualified_name",
    "source_diff",
    "structure_hash",
]

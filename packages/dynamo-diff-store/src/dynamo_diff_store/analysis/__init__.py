"""What the records mean: per-record facts, compilations classified per rank, counts, functions, run status.

`analyse_ranks` streams each rank's records (from `reading`) through `extract` (facts, one record at a time) and
the classifier (compilations, in file order), writing evidence as it goes; it is told of a file still being copied
only through `Copying` (how far the copy has got), never the copy itself. The counting and classification rules
are documented in docs/SEMANTICS.md.
"""

from dynamo_diff_store.analysis._byte_ranges import reads_in_ranges
from dynamo_diff_store.analysis._classify import classify_records
from dynamo_diff_store.analysis._counting import count_compilations
from dynamo_diff_store.analysis._executors import EXECUTORS, Executor, analyse_ranks, require_executor
from dynamo_diff_store.analysis._graphbreaks import parse_graph_break
from dynamo_diff_store.analysis._graphs import op_histogram
from dynamo_diff_store.analysis._guards import categorize
from dynamo_diff_store.analysis._kind_run import parse_torch_version
from dynamo_diff_store.analysis._kinds import files_named
from dynamo_diff_store.analysis._rank_analysis import analyse_rank
from dynamo_diff_store.analysis._rank_job import Copying, RankJob, RankResult
from dynamo_diff_store.analysis._reader_version import READER_VERSION
from dynamo_diff_store.analysis._run_status import TraceState, legacy_run_status, run_status, signal_name
from dynamo_diff_store.analysis._spill import SpillList

__all__ = [
    "EXECUTORS",
    "READER_VERSION",
    "Copying",
    "Executor",
    "RankJob",
    "RankResult",
    "SpillList",
    "TraceState",
    "analyse_rank",
    "analyse_ranks",
    "categorize",
    "classify_records",
    "count_compilations",
    "files_named",
    "legacy_run_status",
    "op_histogram",
    "parse_graph_break",
    "parse_torch_version",
    "reads_in_ranges",
    "require_executor",
    "run_status",
    "signal_name",
]

"""Graph breaks: the `dynamo_graph_break_reason` artifact (its text is read by `_graphbreaks.parse_graph_break`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from dynamo_diff_schema.compilation import GraphBreak

from dynamo_diff_store.analysis._facts import Fact
from dynamo_diff_store.analysis._folding import Folding, Identity, RecordKind, payload
from dynamo_diff_store.analysis._graphbreaks import parse_graph_break
from dynamo_diff_store.reading import Record

# A graph-break site line: 'Graph break in user code at <file>:<line>'.
_SITE_FILE = re.compile(r"^Graph break in user code at (?P<file>.+?):\d+\s*$", re.M)


def _graph_break_files(rec: Record) -> Iterable[int | str]:
    if not rec.payload:
        return []
    gb = parse_graph_break(rec.payload, None)
    found: list[int | str] = [gb.user_file] if gb.user_file else []
    found += [frame.filename for frame in gb.user_stack if frame.filename]
    found += [m.group("file") for m in _SITE_FILE.finditer(rec.payload)]
    return found


def _fold_graph_break(folding: Folding, fact: Fact, ident: Identity) -> None:
    ev = folding.evidence(fact, "dynamo_graph_break_reason", ident)
    if fact.data is None:
        ident.incomplete.add("unique_graph_break_sites")
        ident.graph_breaks.append(GraphBreak(reason="(payload missing)", evidence_id=ev))
    else:
        ident.graph_breaks.append(fact.data.model_copy(update={"evidence_id": ev}))


GRAPH_BREAK_REASON = RecordKind(
    "artifact:dynamo_graph_break_reason",
    extract=payload(lambda p: parse_graph_break(p, None)),
    fold=_fold_graph_break,
    files=_graph_break_files,
    compiling=True,
)

"""A capture-wide grep reads each compilation's partitioned AOT graphs, not the joint graph they were split from
(every node of it would be shown twice), and says how many it passed over; `--kind aot_joint_graph` reads them.
failed_between: an aot_eager compilation of a module with parameters writes a joint, a forward and a backward graph
(the raw log says which compile ids have which)."""

from __future__ import annotations

import json
from collections import defaultdict

from .conftest import Run
from .test_break_words import log_of, records

NAME = "failed_between"


def test_a_search_passes_over_joint_graphs_split_into_forward_and_backward(run: Run) -> None:
    kinds: dict[str, set[str]] = defaultdict(set)
    joint_with_addmm = 0
    matched_elsewhere = 0
    for meta, payload in records(log_of(NAME)):
        kind = next(iter(meta), "")
        cid = f"{meta.get('frame_id')}/{meta.get('frame_compile_id')}"
        kinds[cid].add(kind)
        if kind == "aot_joint_graph":
            joint_with_addmm += "addmm" in payload
        elif kind in ("aot_forward_graph", "aot_backward_graph"):
            matched_elsewhere += "addmm" in payload
    joints = [cid for cid, ks in kinds.items() if "aot_joint_graph" in ks and "aot_forward_graph" in ks]
    assert len(joints) == 2 and joint_with_addmm == 2 and matched_elsewhere == 2
    capture = str(log_of(NAME).parents[1])
    code, out, err = run("evidence", capture, "--grep", "addmm", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["joint_graphs_skipped"] == len(joints)
    assert sorted(r["evidence"]["kind"] for r in doc["records"]) == ["aot_forward_graph"] * matched_elsewhere
    code, out, err = run("evidence", capture, "--grep", "addmm")
    assert code == 0, err
    assert f"({len(joints)} aot_joint_graph record(s) not searched: " in err and "--kind aot_joint_graph" in err
    code, out, err = run("evidence", capture, "--grep", "addmm", "--kind", "aot_joint_graph", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["joint_graphs_skipped"] == 0 and len(doc["records"]) == joint_with_addmm

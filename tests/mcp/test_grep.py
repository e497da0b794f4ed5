"""get_evidence's grep on real records: the record's own text first, the configuration it embeds only when asked
(in_config), overlapping parts shown once, at most max_matches shown and the rest counted. Expected counts come
from the trace file itself, read here with `json`, never from our reader."""

from __future__ import annotations

import json
import re
from typing import Any

from .conftest import CAPTURES, Session, text_of


def _metrics_line(name: str) -> tuple[str, dict[str, Any]]:
    """The first compilation_metrics line of a capture's raw trace, and its payload."""
    (log,) = (CAPTURES / name / "raw").glob("*.log")
    line = next(x for x in log.read_text().splitlines() if '{"compilation_metrics"' in x)
    return line, json.loads(line[line.index("{") :])["compilation_metrics"]


def _in_config(metrics: dict[str, Any], pattern: str) -> int:
    """Occurrences inside the serialized configurations (`*_config` string values)."""
    return sum(
        len(re.findall(pattern, v, re.IGNORECASE))
        for k, v in metrics.items()
        if k.endswith("_config") and isinstance(v, str)
    )


def _metrics_evidence(session: Session) -> tuple[str, str]:
    cid = session.call("import_trace", path="captures/shape").structured_content["captures"][0]["capture"]["id"]  # type: ignore[index]
    index = session.call("get_evidence", capture=cid, kind="compilation_metrics", full=True).structured_content
    return cid, index["items"][0]["id"]  # type: ignore[index]


def test_grep_reads_the_records_own_text_and_counts_the_configs(session: Session) -> None:
    line, metrics = _metrics_line("shape")
    config = _in_config(metrics, "suppress_errors")
    own = len(re.findall("suppress_errors", line, re.IGNORECASE)) - config
    assert own >= 1 and config >= 1  # the trace has both: torch's config_suppress_errors key and dynamo_config's
    cid, ev = _metrics_evidence(session)
    result = session.call("get_evidence", capture=cid, evidence_id=ev, grep="suppress_errors", full=True)
    page = result.structured_content
    assert page["total_matches"] == own and page["config_matches"] == config  # type: ignore[index]
    assert "dynamo_config" not in json.dumps(page["matches"]).split("suppress_errors")[0]  # type: ignore[index]
    assert f"{config} more in the embedded configuration: get_evidence(..., in_config=true)" in text_of(result)
    asked = session.call("get_evidence", capture=cid, evidence_id=ev, grep="suppress_errors", in_config=True)
    assert asked.structured_content["total_matches"] == own + config  # type: ignore[index]
    assert '\\"suppress_errors\\"' in text_of(asked)  # the dynamo_config entry, as the trace escapes it


def test_overlapping_windows_are_shown_once(session: Session) -> None:
    line, metrics = _metrics_line("shape")
    own = len(re.findall("fail_", line)) - _in_config(metrics, "fail_")
    cid, ev = _metrics_evidence(session)
    result = session.call("get_evidence", capture=cid, evidence_id=ev, grep="fail_")
    page = result.structured_content
    assert page["total_matches"] == own == page["shown_matches"]  # type: ignore[index]
    text = text_of(result)
    for key in ("fail_type", "fail_reason", "fail_user_frame_filename", "fail_user_frame_lineno"):
        assert text.count(f'"{key}"') == 1, key  # adjacent keys: one window, each key once


def test_context_lines_are_merged_into_blocks(session: Session) -> None:
    """A graph record (many short lines): matches whose context overlaps share one block; no line is shown twice."""
    cid = session.call("import_trace", path="captures/shape").structured_content["captures"][0]["capture"]["id"]  # type: ignore[index]
    index = session.call("get_evidence", capture=cid, kind="dynamo_output_graph", full=True).structured_content
    ev = index["items"][0]  # type: ignore[index]
    excerpt = session.call(
        "get_evidence", capture=cid, evidence_id=ev["id"], max_chars=5000, full=True
    ).structured_content
    record = excerpt["text"].splitlines()  # type: ignore[index]
    matching = [n + 1 for n, x in enumerate(record) if "l_x_" in x.lower()]
    assert len(matching) >= 2
    page = session.call("get_evidence", capture=cid, evidence_id=ev["id"], grep="l_x_", max_matches=50, full=True)
    blocks = page.structured_content["matches"]  # type: ignore[index]
    shown: list[int] = []
    for b in blocks:
        first = b.get("first_line", b["line"])
        shown += range(first, first + len(b["lines"]))
    assert len(shown) == len(set(shown))  # no line twice
    found = sorted(n for b in blocks for n in (b.get("matched_lines") or [b["line"]]))
    assert found == matching


def test_max_matches_caps_what_is_shown_and_says_how_many_more(session: Session) -> None:
    line, metrics = _metrics_line("shape")
    own = len(re.findall("e", line, re.IGNORECASE)) - _in_config(metrics, "e")
    cid, ev = _metrics_evidence(session)
    result = session.call("get_evidence", capture=cid, evidence_id=ev, grep="e", max_matches=3)
    page = result.structured_content
    assert page["total_matches"] == own and page["shown_matches"] == 3  # type: ignore[index]
    assert f"... {own - 3} more match(es)" in text_of(result)


def _records_with(name: str, index: list[dict[str, Any]], pattern: str) -> dict[str, int]:
    """Each record's lines that hold `pattern`, read from the record's own bytes in the fixture's log."""
    out = {}
    for entry in index:
        data = (CAPTURES / name / entry["file"]).read_bytes()[entry["offset"] : entry["offset"] + entry["length"]]
        if n := sum(1 for line in data.decode().splitlines() if pattern in line):
            out[entry["id"]] = n
    return out


def test_grep_without_an_id_searches_every_record(session: Session) -> None:
    """recompile_limit: the guard text `size mismatch` is in its recompile_reasons and compilation_metrics records;
    without an evidence id, grep names each record that has it, with its matches, the first max_matches shown and
    the others named by record."""
    cid = session.call("import_trace", path="captures/recompile_limit").structured_content["captures"][0]["capture"][
        "id"
    ]  # type: ignore[index]
    index = session.call("get_evidence", capture=cid, full=True).structured_content["items"]  # type: ignore[index]
    expected = _records_with("recompile_limit", index, "size mismatch")
    assert sum(expected.values()) == 5 and len(expected) == 4
    result = session.call("get_evidence", capture=cid, grep="size mismatch", max_matches=3, full=True)
    page = result.structured_content
    assert page["kind"] == "evidence_search"  # type: ignore[index]
    assert page["total_matches"] == 5 and page["shown_matches"] == 3  # type: ignore[index]
    assert page["records_matched"] == 4 and page["records_searched"] == len(index)  # type: ignore[index]
    assert {r["evidence"]["id"]: r["total_matches"] for r in page["records"]} == expected  # type: ignore[index]
    text = text_of(result)
    assert text.startswith(f"grep 'size mismatch' in {cid[:12]}: 5 match(es) in 4 of {len(index)} records")
    shown = [r for r in page["records"] if r.get("shown_matches")]  # type: ignore[index]
    assert sum(r["shown_matches"] for r in shown) == 3
    rest = [
        f"{r['evidence']['id']} ({r['total_matches'] - r.get('shown_matches', 0)})"
        for r in page["records"]  # type: ignore[index]
        if r.get("shown_matches", 0) < r["total_matches"]
    ]
    assert f"... 2 more match(es), in {', '.join(rest)}: get_evidence(" in text
    assert "tensor 'x' size mismatch at index 0. expected 2, actual 3" in text  # the record's own words


def test_a_search_outline_leaves_its_records_to_the_text(session: Session) -> None:
    """The outline (the default structured content) has a search's counts, not its records (each a whole evidence
    entry, longer than its line of text): the text names every record with a match and shows the one asked for;
    full=true has them (recompile_limit: 4 records hold `size mismatch`, the raw bytes say; max_matches=1 shows
    one)."""
    cid = session.call("import_trace", path="captures/recompile_limit").structured_content["captures"][0]["capture"][
        "id"
    ]  # type: ignore[index]
    index = session.call("get_evidence", capture=cid, full=True).structured_content["items"]  # type: ignore[index]
    expected = _records_with("recompile_limit", index, "size mismatch")
    result = session.call("get_evidence", capture=cid, grep="size mismatch", max_matches=1)
    page = result.structured_content
    assert page["records_matched"] == len(expected) == 4 and page["shown_matches"] == 1  # type: ignore[index]
    assert "records" not in page  # type: ignore[operator]
    text = text_of(result)
    assert all(ev in text for ev in expected)  # every record with a match is named in the text
    whole = session.call("get_evidence", capture=cid, grep="size mismatch", max_matches=1, full=True)
    assert [r["evidence"]["id"] for r in whole.structured_content["records"]] == list(expected)  # type: ignore[index]


def test_a_search_filtered_by_kind_reads_those_records_only(session: Session) -> None:
    cid = session.call("import_trace", path="captures/recompile_limit").structured_content["captures"][0]["capture"][
        "id"
    ]  # type: ignore[index]
    index = session.call("get_evidence", capture=cid, kind="recompile_reasons", full=True).structured_content["items"]  # type: ignore[index]
    expected = _records_with("recompile_limit", index, "size mismatch")
    page = session.call(
        "get_evidence", capture=cid, grep="size mismatch", kind="recompile_reasons", full=True
    ).structured_content
    assert page["records_searched"] == len(index) == 2  # type: ignore[index]
    assert page["total_matches"] == page["shown_matches"] == sum(expected.values()) == 3  # type: ignore[index]


def test_several_evidence_ids_are_searched_in_one_call(session: Session) -> None:
    """recompile_limit: two of the records holding `size mismatch` (the raw bytes say which and how often) named
    together: only those two are searched and their matches shown; one unknown id is an error naming it; several
    ids without grep are each record's excerpt in turn, in the order asked (as each alone reads)."""
    cid = session.call("import_trace", path="captures/recompile_limit").structured_content["captures"][0]["capture"][
        "id"
    ]  # type: ignore[index]
    index = session.call("get_evidence", capture=cid, full=True).structured_content["items"]  # type: ignore[index]
    expected = _records_with("recompile_limit", index, "size mismatch")
    two = sorted(expected, key=lambda ev: int(ev.rsplit("e", 1)[1]))[-2:]
    result = session.call(
        "get_evidence", capture=cid, evidence_id=f"{two[1]}, {two[0]}", grep="size mismatch", full=True
    )
    page = result.structured_content
    assert page["records_searched"] == page["records_matched"] == 2  # type: ignore[index]
    assert [r["evidence"]["id"] for r in page["records"]] == two  # type: ignore[index]  # in trace order
    assert page["total_matches"] == page["shown_matches"] == expected[two[0]] + expected[two[1]]  # type: ignore[index]
    text = text_of(result)
    assert text.startswith(f"grep 'size mismatch' in {cid[:12]} evidence_id={two[1]} {two[0]}:")
    assert all(f"{ev} " in text for ev in two) and not any(f"{ev} " in text for ev in expected if ev not in two)
    missing = session.call("get_evidence", capture=cid, evidence_id=f"{two[0]} u1-e999", grep="size")
    assert (
        missing.is_error and text_of(missing).startswith("error[unknown_evidence]") and "'u1-e999'" in text_of(missing)
    )
    bare = session.call("get_evidence", capture=cid, evidence_id=f"{two[1]} {two[0]}", full=True)
    assert not bare.is_error and bare.structured_content["kind"] == "evidence_excerpts"  # type: ignore[index]
    alone = [session.call("get_evidence", capture=cid, evidence_id=ev, full=True) for ev in (two[1], two[0])]
    excerpts = bare.structured_content["excerpts"]  # type: ignore[index]
    assert [e["evidence"]["id"] for e in excerpts] == [two[1], two[0]]  # the order asked
    assert [e["text"] for e in excerpts] == [a.structured_content["text"] for a in alone]  # type: ignore[index]
    assert text_of(bare) == "\n\n".join(text_of(a) for a in alone)
    assert all("size mismatch" in e["text"] for e in excerpts)  # the raw bytes' records, whole
    missing = session.call("get_evidence", capture=cid, evidence_id=f"{two[0]} u1-e999")
    assert missing.is_error and text_of(missing).startswith("error[unknown_evidence]")


def test_a_search_counts_the_configs_and_reads_them_when_asked(session: Session) -> None:
    """shape: suppress_errors is in each compilation_metrics record's own keys and in its embedded dynamo_config."""
    _, metrics = _metrics_line("shape")
    config = _in_config(metrics, "suppress_errors")
    cid, _ = _metrics_evidence(session)
    page = session.call(
        "get_evidence", capture=cid, grep="suppress_errors", kind="compilation_metrics", full=True
    ).structured_content
    records = page["records_searched"]  # type: ignore[index]
    assert page["config_matches"] >= config and records >= 1  # type: ignore[index]
    asked = session.call(
        "get_evidence", capture=cid, grep="suppress_errors", kind="compilation_metrics", in_config=True
    ).structured_content
    assert asked["total_matches"] == page["total_matches"] + page["config_matches"]  # type: ignore[index]


def test_a_long_line_among_short_ones_is_shown_once(session: Session) -> None:
    """A guard tree (dynamo_cpp_guards_str): its TENSOR_MATCH lines are longer than a short line, the lines around
    them short. A pattern on a module's path matches both kinds: every line is shown at most once, in one block
    with its neighbours, a long one as the text around its matches; every match of the record is counted. The
    pattern names what only the tree as written holds (the compact tree has no match), so it is searched there."""
    cid = session.call("import_trace", path="captures/training_flip").structured_content["captures"][0]["capture"]["id"]  # type: ignore[index]
    index = session.call("get_evidence", capture=cid, kind="dynamo_cpp_guards_str", full=True).structured_content
    ev = index["items"][0]["id"]  # type: ignore[index]
    (log,) = (CAPTURES / "training_flip" / "raw").glob("*.log")
    raw = log.read_text()
    start = raw.index('{"dynamo_cpp_guards_str"')
    after = raw[raw.index("\n", start) + 1 :].split("\n")
    tree = [x[1:] for x in after[: next(i for i, x in enumerate(after) if not x.startswith("\t"))]]
    pattern = r"_modules\['norm'\].*(DispatchKeySet|tag_safe|___check_type_id)"
    matching = [x for x in tree if re.search(pattern, x)]
    assert any(len(x) > 300 for x in matching) and any(len(x) <= 300 for x in matching)
    page = session.call("get_evidence", capture=cid, evidence_id=ev, grep=pattern, max_matches=200, full=True)
    blocks = page.structured_content["matches"]  # type: ignore[index]
    shown: list[int] = []
    for b in blocks:
        first = b.get("first_line", b["line"])
        shown += range(first, first + len(b["lines"]))
    assert len(shown) == len(set(shown))  # no line twice
    assert page.structured_content["total_matches"] == len(matching)  # type: ignore[index]
    assert page.structured_content.get("compact", False) is False  # type: ignore[union-attr]
    text = text_of(page)
    assert text.count("TYPE_MATCH: ___check_type_id(L['self']._modules['norm'], ") == 1


def test_a_guard_tree_is_searched_compact(session: Session) -> None:
    """A pattern the compact tree holds is matched there: one leaf a line, the object ids and the dispatch keys
    gone, every leaf that names the module's norm found (the tree as written counted independently)."""
    cid = session.call("import_trace", path="captures/training_flip").structured_content["captures"][0]["capture"]["id"]  # type: ignore[index]
    index = session.call("get_evidence", capture=cid, kind="dynamo_cpp_guards_str", full=True).structured_content
    ev = index["items"][0]["id"]  # type: ignore[index]
    (log,) = (CAPTURES / "training_flip" / "raw").glob("*.log")
    raw = log.read_text()
    start = raw.index('{"dynamo_cpp_guards_str"')
    after = raw[raw.index("\n", start) + 1 :].split("\n")
    tree = [x[1:] for x in after[: next(i for i, x in enumerate(after) if not x.startswith("\t"))]]
    leaves = [x for x in tree if re.search(r"\+- [A-Z_]+: .*_modules\['norm'\]", x)]
    markings = [x for x in leaves if "DIMENSION_DYNAMIC_MARKING_GUARD" in x]
    page = session.call(
        "get_evidence", capture=cid, evidence_id=ev, grep=r"_modules\['norm'\]", max_matches=200, full=True
    )
    assert page.structured_content["compact"] is True  # type: ignore[index]
    shown = [line for block in page.structured_content["matches"] for line in block["lines"]]  # type: ignore[index]
    # Five _dynamo_*_indices checks of a tensor are one line.
    assert page.structured_content["total_matches"] == len(leaves) - len(markings) + len(markings) // 5  # type: ignore[index]
    assert not any("DispatchKeySet" in line or "___check_type_id" in line for line in shown)
    assert "shown compact" in text_of(page)


def test_a_record_diffed_against_another_captures(session: Session) -> None:
    """get_evidence(diff='CAPTURE:ID'): edit_v1's and edit_v2's first graph (their workloads' backends: relu, mul
    against relu, mul, mul, mul, sub, mul, add): an `evidence_diff` whose `-` lines are v1's record and `+` lines
    v2's, as each alone reads; the same record against itself is `the same`; a malformed diff is invalid_argument."""
    ops = [
        json.loads((CAPTURES / n / "oracle.json").read_text())["backend_graphs"][0]["ops"]
        for n in ("edit_v1", "edit_v2")
    ]
    assert ops[0] == ["relu", "mul"] and len(ops[1]) == 7
    ids = {}
    for n in ("edit_v1", "edit_v2"):
        cid = session.call("import_trace", path=f"captures/{n}").structured_content["captures"][0]["capture"]["id"]  # type: ignore[index]
        index = session.call("get_evidence", capture=cid, kind="dynamo_output_graph", full=True).structured_content
        ids[n] = (cid, index["items"][0]["id"])  # type: ignore[index]
    (a_cid, a_ev), (b_cid, b_ev) = ids["edit_v1"], ids["edit_v2"]
    result = session.call("get_evidence", capture=a_cid, evidence_id=a_ev, diff=f"{b_cid}:{b_ev}", full=True)
    doc = result.structured_content
    assert doc["kind"] == "evidence_diff" and doc["lines_differ"] > 0 and not doc.get("lines_omitted")  # type: ignore[index,union-attr]
    texts = {
        n: session.call("get_evidence", capture=c, evidence_id=e, max_chars=5000, full=True).structured_content["text"]  # type: ignore[index]
        for n, (c, e) in ids.items()
    }
    lines = doc["lines"]  # type: ignore[index]
    assert {x[1:] for x in lines[2:] if x.startswith("-")} <= set(texts["edit_v1"].splitlines())
    assert {x[1:] for x in lines[2:] if x.startswith("+")} <= set(texts["edit_v2"].splitlines())
    assert all(line in text_of(result) for line in lines)
    same = session.call("get_evidence", capture=a_cid, evidence_id=a_ev, diff=a_ev, full=True).structured_content
    assert not same.get("lines") and same["lines_differ"] == 0  # type: ignore[index,union-attr]
    bad = session.call("get_evidence", capture=a_cid, evidence_id=a_ev, diff="nope")
    assert bad.is_error and "invalid_argument" in text_of(bad)

"""What an agent pays for a result: the structured content (the document's outline) is never more than twice the
text of the same result and says nothing the text does not, for every tool and every kind of page, on the real
fixture captures; and the text alone holds what the page holds (every row, function, entry and failing guard of
the page, whole)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from mcp.types import CallToolResult

from .conftest import CAPTURES, Session, text_of
from .test_outline import NOTE, facts

Call = Callable[[Session], CallToolResult]

PAIRS = [
    ("edit_v1", "edit_v2"),
    ("break_fix_v1", "break_fix_v2"),
    ("inductor_cold", "inductor_warm"),
    ("cache_cold", "cache_warm"),
    ("dynamic_flag_v1", "dynamic_flag_v2"),
    ("llama_213", "llama_214"),
    ("llama_214", "llama_214_tuned"),
    ("ca_cold", "ca_warm"),
    ("midrun_complete", "midrun_kill"),
    ("killed_compile_complete", "killed_compile_kill"),
    ("torchrun_port_a", "torchrun_port_b"),
    ("observed_off", "observed_on"),
    ("stable", "shape"),
]
RANKS = ["two_ranks", "ddp_ranks", "compiled_nothing_ranks"]
ONE_RUN = sorted(p.name for p in CAPTURES.iterdir() if (p / "manifest.json").exists())


def _cid(session: Session, name: str) -> str:
    result = session.call("import_trace", path=f"captures/{name}")
    return str(result.structured_content["captures"][0]["capture"]["id"])  # type: ignore[index]


def _evidence(session: Session, name: str, kind: str, grep: str | None = None) -> CallToolResult:
    cid = _cid(session, name)
    items = session.call("get_evidence", capture=cid, kind=kind, full=True).structured_content["items"]  # type: ignore[index]
    extra = {"grep": grep} if grep else {}
    return session.call("get_evidence", capture=cid, evidence_id=items[0]["id"], **extra)


CASES: dict[str, Call] = {
    "list_captures": lambda s: (_cid(s, "shape"), _cid(s, "stable"), s.call("list_captures"))[-1],
    "list_captures later page": lambda s: (_cid(s, "shape"), _cid(s, "stable"), s.call("list_captures", offset=1))[-1],
    "import_trace folder of runs": lambda s: s.call("import_trace", path="v1_bundles"),
    "evidence index": lambda s: s.call("get_evidence", capture=_cid(s, "llama_214")),
    "evidence index later page": lambda s: s.call("get_evidence", capture=_cid(s, "llama_214"), offset=20),
    "evidence excerpt": lambda s: _evidence(s, "shape", "compilation_metrics"),
    "evidence grep": lambda s: _evidence(s, "shape", "compilation_metrics", grep="fail_|compile_id"),
    "error": lambda s: s.call("analyze_capture", capture="captures/no_such_run"),
}
for _name in ONE_RUN:
    CASES[f"import_trace {_name}"] = lambda s, n=_name: s.call("import_trace", path=f"captures/{n}")
    CASES[f"analyze_capture {_name}"] = lambda s, n=_name: s.call("analyze_capture", capture=f"captures/{n}")
CASES["analyze_capture later page"] = lambda s: s.call("analyze_capture", capture="captures/guards", offset=1)
for _b, _c in PAIRS:
    CASES[f"compare_runs {_b} {_c}"] = lambda s, b=_b, c=_c: s.call(
        "compare_runs", baseline=f"captures/{b}", candidate=f"captures/{c}"
    )
CASES["compare_runs later page"] = lambda s: s.call(
    "compare_runs", baseline="captures/edit_v1", candidate="captures/edit_v2", offset=1, page_size=1
)
CASES["compare_runs past the end"] = lambda s: s.call(
    "compare_runs", baseline="captures/edit_v1", candidate="captures/edit_v2", offset=9
)
for _name in RANKS:
    CASES[f"compare_ranks {_name}"] = lambda s, n=_name: s.call("compare_ranks", capture=f"captures/{n}")


def sizes(result: CallToolResult) -> tuple[int, int]:
    text = sum(len(getattr(b, "text", "")) for b in result.content)
    return text, len(json.dumps(result.structured_content or {}, separators=(",", ":"), ensure_ascii=False))


@pytest.mark.parametrize("case", sorted(CASES), ids=sorted(CASES))
def test_structured_content_is_at_most_twice_the_text(session: Session, case: str) -> None:
    result = CASES[case](session)
    text, structured = sizes(result)
    assert structured <= 2 * text, (case, text, structured)
    if not result.is_error:  # the outline (the default structured content) says nothing the text does not
        outline = result.structured_content
        assert outline is not None and outline["outline"] == NOTE, case
        assert [what for what, pattern in facts(outline) if re.search(pattern, text_of(result)) is None] == [], case


def _rows_shown(result: CallToolResult) -> list[dict[str, Any]]:
    return result.structured_content["rows"]  # type: ignore[index,no-any-return]


def test_page_size_is_honoured(session: Session) -> None:
    """observed_on against library_frames, two programs: a row per user function of each (the oracles: observed.py's
    compiled functions, resume functions folded into theirs; library_frames' callers of the library frames it
    compiled): 7. With page_size 10 all come back, whole; the default page says how to get the rest."""
    observed = json.loads((CAPTURES / "observed_on" / "oracle.json").read_text())["expect"]
    library = json.loads((CAPTURES / "library_frames" / "oracle.json").read_text())["expect"]
    own = [f for f in observed["compilations_by_function"] if not f.startswith("torch_dynamo_resume_in_")]
    rows = len(own) + len(library["compilations_by_caller"])
    assert rows == 7
    args = {"baseline": "captures/observed_on", "candidate": "captures/library_frames"}
    result = session.call("compare_runs", **args, page_size=10)
    page = result.structured_content
    assert page["total_rows"] == rows and len(_rows_shown(result)) == rows and page["next_offset"] is None  # type: ignore[index]
    text = text_of(result)
    for entry in _rows_shown(result):
        assert f"[{entry['index']}] " in text  # each row of the page is in the text
    default = session.call("compare_runs", **args)
    shown = len(_rows_shown(default))
    if shown < 7:
        assert f"the other {7 - shown} from offset={shown} (or all at once: page_size=7)" in text_of(default)


def test_a_row_that_does_not_fit_is_left_for_the_next_page_whole(session: Session) -> None:
    """Rows are never cut to a character budget in the text: a page lists whole rows and says where to go on."""
    result = session.call("compare_runs", baseline="captures/llama_213", candidate="captures/llama_214", page_size=1)
    text = text_of(result)
    assert "…" not in text
    page = result.structured_content
    if page["total_rows"] > 1:  # type: ignore[index]
        assert page["next_offset"] == 1 and "offset=1" in text  # type: ignore[index]


def test_every_failing_guard_of_a_compilation_is_in_the_text(session: Session) -> None:
    """recompile_limit's last compilation (0/2, shape 4) fails the guards of both earlier ones (shapes 2 and 3):
    each is in the text, whole or, after the same guard of a later entry, as its entry and the size it expected."""
    result = session.call("analyze_capture", capture="captures/recompile_limit")
    text = text_of(result)
    assert "more)" not in text
    whole = session.call("analyze_capture", capture="captures/recompile_limit", full=True).structured_content
    for comp in whole["functions"][0]["report"]["compilations"]:  # type: ignore[index]
        for guard in comp.get("recompile", []):
            entry, expected = guard["text"].split(":", 1)[0], re.findall(r"expected (\d+),", guard["text"])[0]
            assert guard["text"] in text or re.search(rf"the same guard failed on [^\n]*{entry} \({expected}\)", text)
    assert re.search(r"expected 3, actual 4; the same guard failed on 0/0 \(2\)", text)


def test_an_evidence_index_page_lists_every_entry_in_its_text(session: Session) -> None:
    """The page's entries, as the whole document lists them (full=true), each on a line of the default page's text
    (which holds at least as many: its outline leaves the entries to the text)."""
    cid = _cid(session, "llama_214")
    result = session.call("get_evidence", capture=cid)
    items = session.call("get_evidence", capture=cid, full=True).structured_content["items"]  # type: ignore[index]
    lines = text_of(result).splitlines()
    assert len(items) >= 13  # more than the 12 the text used to list
    for item in items:
        assert sum(line.startswith(f"{item['id']} ") for line in lines) == 1
    assert "structured result" not in text_of(result)

"""One vocabulary: notice codes, change kinds and headline counts are defined once in the schema, written only
through those definitions, and documented."""

from __future__ import annotations

import re
from pathlib import Path

from dynamo_diff_schema import COUNT_KEYS, COUNT_LABELS, HEADLINE_COUNTS, ChangeKind, NoticeCode, Severity

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "packages").rglob("src/**/*.py"))


def source_lines() -> list[tuple[str, int, str]]:
    return [
        (str(path.relative_to(ROOT)), n, line)
        for path in SOURCES
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
    ]


def test_notices_and_changes_are_written_through_the_enums() -> None:
    bare = [f"{f}:{n}" for f, n, line in source_lines() if re.search(r"\bcode=\"[a-z0-9_]+\"", line)]
    assert bare == [], "write Notice(code=NoticeCode.X)"
    kinds = "|".join(k.value for k in ChangeKind)
    bare = [f"{f}:{n}" for f, n, line in source_lines() if re.search(rf"\bkind=\"({kinds})\"", line)]
    assert bare == [], "write Change(kind=ChangeKind.X)"


def test_every_notice_code_and_change_kind_is_documented_with_its_severity() -> None:
    semantics = (ROOT / "docs/SEMANTICS.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z0-9_]+)` \| (info|warning|error) \|", semantics, re.M))
    assert set(rows) == {c.value for c in NoticeCode}
    used: dict[str, set[str]] = {}
    for _, _, line in source_lines():
        for code in re.findall(r"NoticeCode\.([A-Z0-9_]+)", line):
            used.setdefault(NoticeCode[code].value, set())
    assert set(used) == {c.value for c in NoticeCode}, "a code nothing writes"
    assert set(rows.values()) <= {s.value for s in Severity}
    comparing = (ROOT / "docs/COMPARING.md").read_text(encoding="utf-8")
    table = comparing[comparing.index("| change | meaning |") :]
    table = table[: table.index("\n\n")]
    documented = set(re.findall(r"`([a-z_]+)`", table)) | {
        f"graph_break_{part}" for part in re.findall(r"`_(gone|moved)`", table)
    }
    assert {k.value for k in ChangeKind} <= documented


def test_headline_counts_are_counts_with_labels_and_the_editor_shows_the_first_ones() -> None:
    assert set(COUNT_LABELS) == set(COUNT_KEYS)
    keys = [key for key, _ in HEADLINE_COUNTS]
    assert len(set(keys)) == len(keys) and set(keys) <= set(COUNT_KEYS)
    tree = (ROOT / "extension/src/views/tree.ts").read_text(encoding="utf-8")
    columns = tree[tree.index("export const COUNT_COLUMNS") :]
    columns = columns[: columns.index("];")]
    shown = re.findall(r'key: "([a-z_]+)"', columns)
    assert shown == keys[: len(shown)]


def test_short_ids_are_made_in_one_place() -> None:
    cut = [f"{f}:{n}" for f, n, line in source_lines() if "[:12]" in line]
    assert cut == [], "use dynamo_diff_schema.short_id"

"""The scripts shown with several runs in one answer: a script a few lines away from one an earlier run of the same
answer showed whole (a before/after pair) is said as its changed lines, each numbered in its own file; a script
further away, or in an answer of one run, is shown whole."""

from __future__ import annotations

from dynamo_diff_compare import Script, ShownScripts, scripts_text

BEFORE = "\n".join(f"line {i}" for i in range(1, 21)) + "\n"
AFTER = BEFORE.replace("line 7\n", "line seven\n").replace("line 15\n", "line 15\nline 15b\n")
OTHER = "\n".join(f"other {i}" for i in range(1, 21)) + "\n"
READ = "read {file}"


def _script(name: str, content: str) -> Script:
    lines = content.splitlines()
    text = "\n".join(f"{n:>2} | {line}" for n, line in enumerate(lines, 1))
    return Script(name, len(lines), text, content)


def test_a_pairs_second_script_is_its_changed_lines() -> None:
    shown = ShownScripts()
    first = scripts_text([_script("train_before.py", BEFORE)], READ, shown, "before")
    assert "-- train_before.py (20 lines)\n 1 | line 1" in first
    second = scripts_text([_script("train_after.py", AFTER)], READ, shown, "after")
    assert second.splitlines()[1:] == [
        "-- train_after.py (21 lines): train_before.py of before above but for these lines (- its, + this run's; "
        "the whole file: read train_after.py)",
        "- 7 | line 7",
        "+ 7 | line seven",
        "+16 | line 15b",
    ]
    third = scripts_text([_script("other.py", OTHER)], READ, shown, "other")
    assert "-- other.py (20 lines)\n 1 | other 1" in third


def test_one_run_or_a_far_script_is_shown_whole() -> None:
    assert "-- train_after.py (21 lines)\n 1 | line 1" in scripts_text([_script("train_after.py", AFTER)], READ)
    shown = ShownScripts()
    scripts_text([_script("a.py", BEFORE)], READ, shown, "a")
    rewritten = BEFORE.replace("line 1", "LINE 1")  # 11 of 20 lines (1, 10-19) change: over a quarter
    assert "-- b.py (20 lines)\n 1 | LINE 1" in scripts_text([_script("b.py", rewritten)], READ, shown, "b")


def test_the_same_script_again_is_named() -> None:
    shown = ShownScripts()
    scripts_text([_script("helpers.py", BEFORE)], READ, shown, "before")
    again = scripts_text([_script("helpers.py", BEFORE)], READ, shown, "after")
    assert again.splitlines()[1:] == ["-- helpers.py (20 lines): the same as helpers.py of before above"]

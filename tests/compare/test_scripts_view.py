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


HARNESS = "".join(f"    record(step, value_{i}, note='shared harness line {i}')\n" for i in range(12))


def _own(tag: str, n: int) -> str:
    return "".join(f"{tag}_{i} = compute_{tag}({i})  # the script's own line {i}\n" for i in range(n))


def test_lines_an_earlier_script_printed_are_one_line_naming_them() -> None:
    """Three scripts of one answer with their own heads and one harness pasted in each (12 lines): the first prints
    it, the second and third say it as one line naming the first's lines (never the second's, which did not print
    them); the other lines keep their numbers."""
    first = _own("a", 30) + "\n" + HARNESS
    second = _own("b", 25) + HARNESS + _own("tail", 2)
    third = _own("c", 28) + HARNESS
    shown = ShownScripts()
    one = scripts_text([_script("a.py", first)], READ, shown, "a")
    assert "32 |     record(step, value_0" in one
    two = scripts_text([_script("b.py", second)], READ, shown, "b").splitlines()
    assert two[1] == "-- b.py (39 lines)"
    assert "26-37 | the same as lines 32-43 of a.py of a above" in two
    assert two[-2:] == [
        "38 | tail_0 = compute_tail(0)  # the script's own line 0",
        "39 | tail_1 = compute_tail(1)  # the script's own line 1",
    ]
    assert not any("record(step" in line for line in two)
    three = scripts_text([_script("c.py", third)], READ, shown, "c").splitlines()
    assert three[-1] == "29-40 | the same as lines 32-43 of a.py of a above"


def test_a_short_run_of_common_lines_is_printed() -> None:
    """Common lines under the bound (5 lines and 160 characters) are printed: a reference would be as long."""
    shown = ShownScripts()
    scripts_text([_script("a.py", _own("a", 20) + "import torch\nimport json\n" + _own("x", 3))], READ, shown, "a")
    two = scripts_text([_script("b.py", _own("b", 20) + "import torch\nimport json\n")], READ, shown, "b")
    assert "the same as lines" not in two and "21 | import torch" in two

"""A recompilation's failing guards said once when every older entry failed the same guard (torch names one per
older entry): the texts are torch 2.13's own (a compiled block called with a new activation function each time;
the trial run act_sweep), each older entry named with its own values, an object's id left out."""

from __future__ import annotations

from dynamo_diff_compare.guard_groups import grouped_guards
from dynamo_diff_schema.run_report import GuardLine


def _said(g: GuardLine) -> str:
    return f"[{g.category}] {g.text}"


def test_an_identity_guard_failed_by_each_entry_names_the_entries_without_their_ids() -> None:
    ids = {"0/4": 140315090794064, "0/3": 140315090860240}
    lines = [
        GuardLine(
            category="identity", text=f"{cid}: ___check_obj_id(act, {n}), type=<class 'builtin_function_or_method'>"
        )
        for cid, n in ids.items()
    ]
    (text,) = grouped_guards(lines, _said)
    assert text == (
        "[identity] 0/4: ___check_obj_id(act, 140315090794064), type=<class 'builtin_function_or_method'>; the same "
        "guard failed on 0/3"
    )


def test_a_value_guard_keeps_each_entrys_value_and_a_different_guard_starts_again() -> None:
    lines = [
        GuardLine(category="value", text="0/2: n == 4"),
        GuardLine(category="value", text="0/1: n == 3"),
        GuardLine(category="type", text="0/0: ___check_type_id(levels, 139743625339776), type=<class 'tuple'>"),
    ]
    assert grouped_guards(lines, _said) == [
        "[value] 0/2: n == 4; the same guard failed on 0/1 (3)",
        "[type] 0/0: ___check_type_id(levels, 139743625339776), type=<class 'tuple'>",
    ]

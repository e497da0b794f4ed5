"""Correspondence between two runs, scenario by scenario: the rows a user sees (status, method, ids)."""

from __future__ import annotations

from dynamo_diff_match import CallSite, FunctionRef, SnapshotSet, correspond, correspond_functions, index_functions
from dynamo_diff_schema import MatchMethod, RowStatus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

Row = tuple[str | None, str | None, RowStatus, MatchMethod]

MODEL = """import torch


def helper(x):
    return x.relu()


@torch.compile
def step(x, n):
    y = x.sin()
    print("graph break")
    return helper(y) + n


class Net(torch.nn.Module):
    def forward(self, x):
        def inner(y):
            return y * 2

        return inner(x).cos()
"""


def observe(root: str, files: dict[str, str], *qualified: str) -> tuple[list[FunctionRef], SnapshotSet]:
    """Refs (as a trace would give them) for the named definitions, plus the run's snapshot set."""
    refs = []
    for rel, text in files.items():
        for f in index_functions(rel, text):
            if f.qualified_name in qualified:
                refs.append(FunctionRef(f"{root}/{rel}", f.first_line, f.name))
    return refs, SnapshotSet(files, {f"{root}/{rel}": rel for rel in files})


def resume(root: str, rel: str, parent: str, line: int) -> FunctionRef:
    return FunctionRef(f"{root}/{rel}", line, f"torch_dynamo_resume_in_{parent}_at_{line}")


def rows(
    base: tuple[list[FunctionRef], SnapshotSet], cand: tuple[list[FunctionRef], SnapshotSet], *extra: FunctionRef
) -> list[Row]:
    b_extra = [r for r in extra if r.file.startswith("/base/")]
    c_extra = [r for r in extra if not r.file.startswith("/base/")]
    result = correspond(base[0] + b_extra, base[1], cand[0] + c_extra, cand[1])
    return [(r.baseline_id, r.candidate_id, r.status, r.method) for r in result]


ALL = ("helper", "step", "Net.forward", "Net.forward.<locals>.inner")


def matched(*pairs: tuple[str, MatchMethod]) -> list[Row]:
    return [(f"model.py::{q}", f"model.py::{q}", RowStatus.MATCHED, m) for q, m in pairs]


def test_identical_runs_match_everything_by_structure() -> None:
    rs = rows(observe("/base", {"model.py": MODEL}, *ALL), observe("/cand", {"model.py": MODEL}, *ALL))
    assert rs == matched(*((q, MatchMethod.STRUCTURE) for q in ALL))


def test_file_moved_to_another_directory_and_lines_inserted_above() -> None:
    # Another checkout directory; same relative path; a license header pushes every function down.
    moved = "# Copyright header\n# more header\n\n" + MODEL
    assert rows(
        observe("/base", {"model.py": MODEL}, *ALL), observe("/elsewhere/ckout", {"model.py": moved}, *ALL)
    ) == (matched(*((q, MatchMethod.STRUCTURE) for q in ALL)))


def test_function_moved_within_the_file() -> None:
    head, tail = MODEL.split("@torch.compile\n")
    step_src, rest = tail.split("\n\nclass Net")
    moved = head + "class Net" + rest + "\n\n@torch.compile\n" + step_src + "\n"
    assert rows(observe("/base", {"model.py": MODEL}, *ALL), observe("/cand", {"model.py": moved}, *ALL)) == matched(
        *((q, MatchMethod.STRUCTURE) for q in ALL)
    )


def test_edited_bodies_match_by_line_diff() -> None:
    edited = MODEL.replace("    y = x.sin()\n", "    y = x.sin()\n    y = y * 3\n").replace(
        "        return inner(x).cos()\n", "        z = inner(x)\n        return z.cos().sin()\n"
    )
    assert rows(observe("/base", {"model.py": MODEL}, *ALL), observe("/cand", {"model.py": edited}, *ALL)) == [
        ("model.py::helper", "model.py::helper", RowStatus.MATCHED, MatchMethod.STRUCTURE),
        ("model.py::step", "model.py::step", RowStatus.MATCHED, MatchMethod.LINE_DIFF),
        ("model.py::Net.forward", "model.py::Net.forward", RowStatus.MATCHED, MatchMethod.LINE_DIFF),
        (
            "model.py::Net.forward.<locals>.inner",
            "model.py::Net.forward.<locals>.inner",
            RowStatus.MATCHED,
            MatchMethod.STRUCTURE,
        ),
    ]


def test_changed_or_added_decorator_still_maps_through_the_def_line() -> None:
    changed = MODEL.replace("@torch.compile\n", "@torch.compile(dynamic=True)\n").replace(
        "def helper(", "@torch.no_grad()\ndef helper("
    )
    base = observe("/base", {"model.py": MODEL}, "helper", "step")
    cand = observe("/cand", {"model.py": changed}, "helper", "step")
    assert rows(base, cand) == [
        ("model.py::helper", "model.py::helper", RowStatus.MATCHED, MatchMethod.LINE_DIFF),
        ("model.py::step", "model.py::step", RowStatus.MATCHED, MatchMethod.LINE_DIFF),
    ]


def test_statements_appended_at_the_end_of_a_function_still_match() -> None:
    edited = MODEL.replace("    return x.relu()\n", "    return x.relu()\n    print('unreachable')\n")
    assert rows(observe("/base", {"model.py": MODEL}, "helper"), observe("/cand", {"model.py": edited}, "helper")) == [
        ("model.py::helper", "model.py::helper", RowStatus.MATCHED, MatchMethod.LINE_DIFF)
    ]


def test_renamed_with_identical_body_matches_by_structure() -> None:
    renamed = MODEL.replace("def helper(", "def activation(").replace("return helper(y)", "return activation(y)")
    result = correspond(
        *observe("/base", {"model.py": MODEL}, *ALL), *observe("/cand", {"model.py": renamed}, *ALL, "activation")
    )
    by_base = {r.baseline_id: r for r in result}
    assert by_base["model.py::helper"].candidate_id == "model.py::activation"
    assert by_base["model.py::helper"].method is MatchMethod.STRUCTURE
    assert "renamed from helper" in by_base["model.py::helper"].reason
    # step's body changed (it calls the new name); its boundary still maps through the line diff.
    assert by_base["model.py::step"].method is MatchMethod.LINE_DIFF


TWINS = "def a(x):\n    return x + 1\n\n\ndef b(x):\n    return x + 1\n"


def test_two_identical_functions_are_told_apart_by_their_source_text() -> None:
    """Same body, different names: the ASTs (names blanked) collide, the source text (names kept) does not."""
    shifted = "import os\n\n\n" + TWINS
    assert rows(observe("/base", {"t.py": TWINS}, "a", "b"), observe("/cand", {"t.py": shifted}, "a", "b")) == [
        ("t.py::a", "t.py::a", RowStatus.MATCHED, MatchMethod.STRUCTURE),
        ("t.py::b", "t.py::b", RowStatus.MATCHED, MatchMethod.STRUCTURE),
    ]


def test_one_of_two_identical_functions_deleted() -> None:
    kept = "def a(x):\n    return x + 1\n"
    assert rows(observe("/base", {"t.py": TWINS}, "a", "b"), observe("/cand", {"t.py": kept}, "a")) == [
        ("t.py::a", "t.py::a", RowStatus.MATCHED, MatchMethod.STRUCTURE),
        ("t.py::b", None, RowStatus.BASELINE_ONLY, MatchMethod.NONE),
    ]


def test_identical_functions_with_no_line_evidence_are_ambiguous_not_guessed() -> None:
    base = observe("/base", {"old.py": "def f(x):\n    return x + 1\n"}, "f")
    cand = observe("/cand", {"new.py": TWINS}, "a", "b")
    result = correspond(*base, *cand)
    assert [(r.baseline_id, r.candidate_id, r.status, r.alternatives) for r in result] == [
        ("old.py::f", None, RowStatus.AMBIGUOUS, ("new.py::a", "new.py::b")),
        (None, "new.py::a", RowStatus.AMBIGUOUS, ("old.py::f",)),
        (None, "new.py::b", RowStatus.AMBIGUOUS, ("old.py::f",)),
    ]
    assert all(r.method is MatchMethod.NONE for r in result)


def test_functions_only_on_one_side() -> None:
    added = MODEL + "\n\ndef extra(x):\n    return x - 1\n"
    base = observe("/base", {"model.py": MODEL}, "helper", "step")
    cand = observe("/cand", {"model.py": added}, "helper", "extra")
    assert rows(base, cand) == [
        ("model.py::helper", "model.py::helper", RowStatus.MATCHED, MatchMethod.STRUCTURE),
        ("model.py::step", None, RowStatus.BASELINE_ONLY, MatchMethod.NONE),
        (None, "model.py::extra", RowStatus.CANDIDATE_ONLY, MatchMethod.NONE),
    ]
    reasons = {r.baseline_id or r.candidate_id: r.reason for r in correspond(*base, *cand)}
    assert "did not compile" in reasons["model.py::step"]  # its lines map to step, which is not observed


def test_resume_functions_follow_their_parent_and_their_line_maps() -> None:
    # step graph-breaks at print (line 11): Dynamo resumes at line 12 in torch_dynamo_resume_in_step_at_12.
    edited = "import math\n" + MODEL.replace("    y = x.sin()\n", "    y = x.sin()\n    y = y + math.pi\n")
    base = observe("/base", {"model.py": MODEL}, "step")
    cand = observe("/cand", {"model.py": edited}, "step")
    result = correspond(
        base[0] + [resume("/base", "model.py", "step", 12)],
        base[1],
        cand[0] + [resume("/cand", "model.py", "step", 14)],
        cand[1],
    )
    assert [(r.baseline_id, r.candidate_id, r.status, r.method) for r in result] == [
        ("model.py::step", "model.py::step", RowStatus.MATCHED, MatchMethod.LINE_DIFF),
        (
            "model.py::torch_dynamo_resume_in_step_at_12",
            "model.py::torch_dynamo_resume_in_step_at_14",
            RowStatus.MATCHED,
            MatchMethod.RESUME_PARENT,
        ),
    ]
    assert "resume line 12 maps to 14" in result[1].reason
    assert result[1].candidate_qualified_name == "torch_dynamo_resume_in_step_at_14"


def test_resume_of_an_unmatched_parent_shares_its_status() -> None:
    base = observe("/base", {"model.py": MODEL}, "step")
    result = correspond(base[0] + [resume("/base", "model.py", "step", 12)], base[1], [], SnapshotSet({}, {}))
    assert [(r.baseline_id, r.status) for r in result] == [
        ("model.py::step", RowStatus.BASELINE_ONLY),
        ("model.py::torch_dynamo_resume_in_step_at_12", RowStatus.BASELINE_ONLY),
    ]


def test_method_resume_is_named_like_python_names_it() -> None:
    refs, snaps = observe("/base", {"model.py": MODEL}, "Net.forward")
    refs.append(resume("/base", "model.py", "forward", 20))
    result = correspond(refs, snaps, refs, snaps)
    assert result[1].baseline_qualified_name == "Net.torch_dynamo_resume_in_forward_at_20"
    assert result[1].status is RowStatus.MATCHED and result[1].method is MatchMethod.RESUME_PARENT


def test_missing_snapshot_matches_only_by_location_and_says_so() -> None:
    base = [FunctionRef("/site/lib.py", 10, "forward")]
    cand = [FunctionRef("/site/lib.py", 10, "forward"), FunctionRef("/site/lib.py", 30, "other")]
    result = correspond(base, SnapshotSet({}, {}), cand, SnapshotSet({}, {}))
    assert [(r.baseline_id, r.candidate_id, r.status, r.method) for r in result] == [
        ("/site/lib.py::forward@10", "/site/lib.py::forward@10", RowStatus.MATCHED, MatchMethod.SAME_LOCATION),
        (None, "/site/lib.py::other@30", RowStatus.CANDIDATE_ONLY, MatchMethod.NONE),
    ]
    assert "no source snapshot" in result[0].reason
    assert "no source snapshot" in result[1].reason


def test_snapshot_missing_on_one_side_matches_by_location_and_says_so() -> None:
    base = observe("/base", {"model.py": MODEL}, "step", "helper")
    # The candidate's manifest knows the relative path but holds no text for it (e.g. the capture failed).
    cand_refs = [FunctionRef("/cand/model.py", 8, "step"), FunctionRef("/cand/model.py", 5, "helper")]
    result = correspond(*base, cand_refs, SnapshotSet({}, {"/cand/model.py": "model.py"}))
    assert [(r.baseline_id, r.candidate_id, r.status, r.method) for r in result] == [
        # helper moved: the only `helper` of that file on each side, paired by name (the weakest method).
        ("model.py::helper", "model.py::helper@5", RowStatus.MATCHED, MatchMethod.NAME),
        ("model.py::step", "model.py::step@8", RowStatus.MATCHED, MatchMethod.SAME_LOCATION),
    ]
    assert result[0].reason.startswith("same file and name, moved from line ")
    assert result[0].reason.endswith(" to 5; no source snapshot of /cand/model.py")
    assert result[1].reason == "same file, line and name; no source snapshot of /cand/model.py"


def test_resume_functions_of_a_parent_that_was_not_itself_observed() -> None:
    edited = "\n\n" + MODEL.replace("    y = x.sin()\n", "    y = x.sin() * 2\n")
    result = correspond(
        [resume("/base", "model.py", "step", 12)],
        observe("/base", {"model.py": MODEL})[1],
        [resume("/cand", "model.py", "step", 14)],
        observe("/cand", {"model.py": edited})[1],
    )
    assert [(r.baseline_qualified_name, r.candidate_qualified_name, r.status, r.method) for r in result] == [
        ("torch_dynamo_resume_in_step_at_12", "torch_dynamo_resume_in_step_at_14", RowStatus.MATCHED,
         MatchMethod.RESUME_PARENT),
    ]  # fmt: skip
    assert result[0].baseline_source is not None and result[0].baseline_source.qualified_name == "step"


INNER = ".venv/lib/python3.11/site-packages/torch/_dynamo/external_utils.py"
TRAIN = """import torch


def train_step(model, x):
    return model(x).sum()


def evaluate(model, x):
    with torch.no_grad():
        return model(x)
"""


def library_frame(root: str, caller: str, line: int, *, name: str = "inner", first_line: int = 67) -> FunctionRef:
    """A frame of torch's code compiled in place of the user's call at `line` of train.py."""
    return FunctionRef(f"{root}/{INNER}", first_line, name, CallSite(f"{root}/train.py", line, caller))


def test_a_library_frame_is_counted_in_the_users_function_that_called_it() -> None:
    files = {"train.py": TRAIN}
    base = [library_frame("/base", "train_step", 5), library_frame("/base", "evaluate", 10)]
    edited = TRAIN.replace("import torch\n", "import torch\nimport math\n")  # every line one down
    cand = [library_frame("/cand", "train_step", 6), library_frame("/cand", "evaluate", 11)]
    matches = correspond_functions(
        base,
        SnapshotSet(files, {"/base/train.py": "train.py"}),
        cand,
        SnapshotSet({"train.py": edited}, {"/cand/train.py": "train.py"}),
    )
    # One row per user function (the shared `inner` code object is two rows), matched by the user's source.
    assert [(m.baseline_id, m.candidate_id, m.status, m.method) for m in matches] == [
        ("train.py::train_step", "train.py::train_step", RowStatus.MATCHED, MatchMethod.STRUCTURE),
        ("train.py::evaluate", "train.py::evaluate", RowStatus.MATCHED, MatchMethod.STRUCTURE),
    ]
    for m in matches:
        (piece,) = m.pieces
        assert (piece.baseline_id, piece.candidate_id, piece.status) == (
            "torch/_dynamo/external_utils.py::inner@67",
            "torch/_dynamo/external_utils.py::inner@67",
            RowStatus.MATCHED,
        )
        # The frame keeps its own name; the row is named after the user's function.
        assert piece.baseline_qualified_name == "inner" and m.baseline_name in ("train_step", "evaluate")


def test_library_frames_without_snapshots_pair_by_the_callers_file_and_name() -> None:
    """Bare traces: the caller's first line is not known, only its name and the line of the call."""
    base = [library_frame("/base", "train_step", 5), FunctionRef("/base/train.py", 20, "helper")]
    cand = [
        library_frame("/cand", "train_step", 9),
        library_frame("/cand", "train_step", 9, name="wrapped", first_line=8),
    ]
    matches = correspond_functions(base, SnapshotSet({}, {}), cand, SnapshotSet({}, {}))
    (step,) = [m for m in matches if m.baseline_name == "train_step"]
    assert (step.status, step.method, step.baseline_id) == (
        RowStatus.MATCHED,
        MatchMethod.NAME,
        "/base/train.py::train_step",
    )
    assert step.baseline_location == ("/base/train.py", None)
    assert "only the library frames it called ran" in step.reason
    assert [(p.status, p.baseline_qualified_name, p.candidate_qualified_name) for p in step.pieces] == [
        (RowStatus.MATCHED, "inner", "inner"),
        (RowStatus.CANDIDATE_ONLY, None, "wrapped"),
    ]
    assert "the other side's function did not compile it" in step.pieces[1].reason
    (helper,) = [m for m in matches if m.baseline_name == "helper"]
    assert helper.status == RowStatus.BASELINE_ONLY


def test_a_library_frame_joins_the_users_function_when_that_function_compiled_too() -> None:
    own = FunctionRef("/base/train.py", 4, "train_step")
    matches = correspond_functions(
        [own, library_frame("/base", "train_step", 5)], SnapshotSet({}, {}), [own], SnapshotSet({}, {})
    )
    (m,) = matches
    assert m.status == RowStatus.MATCHED and [p.status for p in m.pieces] == [
        RowStatus.MATCHED,
        RowStatus.BASELINE_ONLY,
    ]


def test_huge_file_falls_back_to_ambiguous_quickly() -> None:
    # Thousands of repeated lines, no line unique on either side, and different at both ends of the bodies:
    # difflib would be quadratic here, so the line diff gives up and says so.
    base_body = "    x = x + 1\n    x = x * 2\n" * 2000
    cand_body = "    x = x * 2\n    x = x + 1\n" * 2000
    base_src = f"def f(x):\n{base_body}    return x\n\n\ndef g(x):\n{base_body}    return x\n"
    cand_src = f"def f(x):\n{cand_body}    return x\n\n\ndef g(x):\n{cand_body}    return x\n"
    # The bound is on work (MAX_DIFF_WORK, counted before difflib runs), not on time: no timing is asserted.
    result = correspond(
        *observe("/base", {"big.py": base_src}, "f", "g"), *observe("/cand", {"big.py": cand_src}, "f", "g")
    )
    assert [(r.baseline_id, r.candidate_id, r.status) for r in result] == [
        ("big.py::f", None, RowStatus.AMBIGUOUS),
        ("big.py::g", None, RowStatus.AMBIGUOUS),
        (None, "big.py::f", RowStatus.AMBIGUOUS),
        (None, "big.py::g", RowStatus.AMBIGUOUS),
    ]
    assert "line diff of big.py skipped: diff would take more than" in result[0].reason
    assert result[0].alternatives == ("big.py::f", "big.py::g")


def test_order_is_deterministic_whatever_the_input_order() -> None:
    base = observe("/base", {"model.py": MODEL}, *ALL)
    cand = observe("/cand", {"model.py": MODEL}, *ALL)
    forward = correspond(*base, *cand)
    backward = correspond(list(reversed(base[0])), base[1], list(reversed(cand[0])), cand[1])
    assert forward == backward


# --- property: blank and comment lines above functions never change which functions match ---------------------

PROPERTY_SOURCE = (
    MODEL
    + "\n\n"
    + TWINS
    + """

class Twin(torch.nn.Module):
    def forward(self, x):
        return x * 2


class Other(torch.nn.Module):
    def forward(self, x):
        return x * 2
"""
)
PROPERTY_NAMES = (
    "helper",
    "step",
    "Net.forward",
    "Net.forward.<locals>.inner",
    "a",
    "b",
    "Twin.forward",
    "Other.forward",
)
FIRST_LINES = sorted({f.first_line for f in index_functions("m.py", PROPERTY_SOURCE)})


def insert_above(text: str, inserts: dict[int, list[str]]) -> str:
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    for number, line in enumerate(lines, 1):
        out.extend(extra + "\n" for extra in inserts.get(number, []))
        out.append(line)
    return "".join(out)


filler = st.lists(st.sampled_from(["", "# note", "    # indented note", "#", "   "]), max_size=3)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    base_inserts=st.dictionaries(st.sampled_from(FIRST_LINES), filler),
    cand_inserts=st.dictionaries(st.sampled_from(FIRST_LINES), filler),
)
def test_blank_and_comment_lines_above_functions_do_not_change_matches(
    base_inserts: dict[int, list[str]], cand_inserts: dict[int, list[str]]
) -> None:
    base_src = insert_above(PROPERTY_SOURCE, base_inserts)
    cand_src = insert_above(PROPERTY_SOURCE, cand_inserts)
    result = correspond(
        *observe("/base", {"m.py": base_src}, *PROPERTY_NAMES), *observe("/cand", {"m.py": cand_src}, *PROPERTY_NAMES)
    )
    pairs = {r.baseline_qualified_name: r.candidate_qualified_name for r in result}
    assert pairs == {name: name for name in PROPERTY_NAMES}
    assert {r.status for r in result} == {RowStatus.MATCHED}


line_edits = st.lists(
    st.tuples(
        st.sampled_from(["delete", "duplicate", "insert"]),
        st.integers(min_value=0, max_value=200),
        st.sampled_from(["", "    pass", "def a(x):", "    return x + 1", "):", "# c", "class Q:"]),
    ),
    max_size=6,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=line_edits, with_resume=st.booleans())
def test_arbitrary_edits_never_crash_and_every_function_gets_one_row(
    edits: list[tuple[str, int, str]], with_resume: bool
) -> None:
    lines = PROPERTY_SOURCE.splitlines()
    for op, where, text in edits:
        at = where % (len(lines) + 1)
        if op == "delete" and at < len(lines):
            del lines[at]
        elif op == "duplicate" and at < len(lines):
            lines.insert(at, lines[at])
        else:
            lines.insert(at, text)
    edited = "\n".join(lines) + "\n"  # may no longer parse
    base = observe("/base", {"m.py": PROPERTY_SOURCE}, *PROPERTY_NAMES)
    cand_refs = [FunctionRef("/cand/m.py", r.first_line, r.name) for r in base[0]]  # where they were in the baseline
    if with_resume:
        cand_refs.append(resume("/cand", "m.py", "step", 12))
    result = correspond(*base, cand_refs, SnapshotSet({"m.py": edited}, {"/cand/m.py": "m.py"}))
    assert sorted(r.baseline for r in result if r.baseline) == sorted(base[0])
    assert sorted(r.candidate for r in result if r.candidate) == sorted(set(cand_refs))
    for r in result:
        assert (r.status is RowStatus.MATCHED) == (r.baseline is not None and r.candidate is not None)


def test_resume_functions_whose_function_is_neither_observed_nor_in_a_snapshot() -> None:
    # A pytest slice: `step` was compiled by an earlier test of the process, so this trace has only its resume
    # functions, and no source snapshot. They are counted in one row of `step` in that file (no first line known),
    # which pairs by name with a run that has `step` itself.
    none = SnapshotSet({}, {})
    orphans = [resume("/cand", "model.py", "step", 12), resume("/cand", "model.py", "step", 14)]
    (only,) = correspond_functions(orphans, none, orphans, none)
    assert (only.baseline_name, only.baseline_id) == ("step", "/cand/model.py::step")
    assert only.baseline_location == ("/cand/model.py", None)
    assert [p.baseline.name for p in only.pieces if p.baseline] == [r.name for r in orphans]
    base = [FunctionRef("/base/model.py", 8, "step"), resume("/base", "model.py", "step", 12)]
    (row,) = correspond_functions(base, none, orphans[:1], none)
    assert (row.baseline_name, row.candidate_name, row.status, row.method) == (
        "step", "step", RowStatus.MATCHED, MatchMethod.NAME
    )  # fmt: skip


DECODER = """class Decoder:
    def forward(self, tok):
        h = tok * 2
        self.pos += 1
        return h + self.pos
"""
DECODER_POS = """class Decoder:
    def forward(self, tok, pos):
        h = tok * 2
        return h + pos
"""


def test_a_method_changed_in_a_renamed_file_pairs_by_its_qualified_name() -> None:
    # decoder.py renamed decoding.py and forward given an argument: neither the AST nor a line diff pairs it.
    result = correspond_functions(
        *observe("/base", {"decoder.py": DECODER}, "Decoder.forward"),
        *observe("/cand", {"decoding.py": DECODER_POS}, "Decoder.forward"),
    )
    assert [(m.baseline_id, m.candidate_id, m.status, m.method) for m in result] == [
        ("decoder.py::Decoder.forward", "decoding.py::Decoder.forward", RowStatus.MATCHED, MatchMethod.QUALIFIED_NAME)
    ]
    assert result[0].reason == "the only Decoder.forward on each side; its file decoder.py is decoding.py now"


def test_a_qualified_name_in_two_files_of_one_side_pairs_by_nothing() -> None:
    # Two Decoder.forward on the candidate side (the renamed file and a copy elsewhere): the name cannot say which.
    cand_files = {"decoding.py": DECODER_POS, "legacy/decoding_old.py": DECODER_POS.replace("pos\n", "pos * 2\n")}
    assert rows(
        observe("/base", {"decoder.py": DECODER}, "Decoder.forward"),
        observe("/cand", cand_files, "Decoder.forward"),
    ) == [
        ("decoder.py::Decoder.forward", None, RowStatus.BASELINE_ONLY, MatchMethod.NONE),
        (None, "decoding.py::Decoder.forward", RowStatus.CANDIDATE_ONLY, MatchMethod.NONE),
        (None, "legacy/decoding_old.py::Decoder.forward", RowStatus.CANDIDATE_ONLY, MatchMethod.NONE),
    ]
    # Two on the baseline side, one on the candidate's: the same.
    base_files = {"decoder.py": DECODER, "old/decoder.py": DECODER.replace("tok * 2", "tok * 3")}
    assert {
        r[2]
        for r in rows(
            observe("/base", base_files, "Decoder.forward"),
            observe("/cand", {"decoding.py": DECODER_POS}, "Decoder.forward"),
        )
    } == {RowStatus.BASELINE_ONLY, RowStatus.CANDIDATE_ONLY}


def test_a_file_both_sides_hold_is_left_to_the_line_diff() -> None:
    # The class moved out of model.py, which stays (with another function): not a renamed file, so the name alone
    # does not pair it.
    base = {"model.py": DECODER + "\n\ndef helper(x):\n    return x.relu()\n"}
    cand = {"model.py": "def helper(x):\n    return x.relu()\n", "decoding.py": DECODER_POS}
    assert rows(
        observe("/base", base, "Decoder.forward", "helper"), observe("/cand", cand, "Decoder.forward", "helper")
    ) == [
        ("model.py::Decoder.forward", None, RowStatus.BASELINE_ONLY, MatchMethod.NONE),
        ("model.py::helper", "model.py::helper", RowStatus.MATCHED, MatchMethod.STRUCTURE),
        (None, "decoding.py::Decoder.forward", RowStatus.CANDIDATE_ONLY, MatchMethod.NONE),
    ]

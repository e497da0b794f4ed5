"""Source-function identities: qualified names, structure hashes, and finding an observed function."""

from __future__ import annotations

import types

from dynamo_diff_match import MAX_SOURCE_BYTES, FunctionRef, SnapshotSet, index_functions, locate

SOURCE = '''import torch


def deco(fn):
    return fn


class Net(torch.nn.Module):
    """A model."""

    @deco
    @torch.compile
    def forward(self, x):
        def helper(y):
            return (lambda z: z + 1)(y)

        return helper(x)

    class Inner:
        def go(self, x=lambda: 0):
            return x


async def fetch(n):
    return n
'''


def names(text: str) -> dict[str, tuple[int, int, int]]:
    return {f.qualified_name: (f.first_line, f.def_line, f.last_line) for f in index_functions("m.py", text)}


def test_qualified_names_follow_python_qualname() -> None:
    assert names(SOURCE) == {
        "deco": (4, 4, 5),
        "Net": (8, 8, 21),
        "Net.forward": (11, 13, 17),  # decorators included in the first line
        "Net.forward.<locals>.helper": (14, 14, 15),
        "Net.forward.<locals>.helper.<locals>.<lambda>": (15, 15, 15),
        "Net.Inner": (19, 19, 21),
        "Net.Inner.go": (20, 20, 21),
        # A default value runs in the enclosing (class) scope, as in CPython: Net.Inner.<lambda>.
        "Net.Inner.<lambda>": (20, 20, 20),
        "fetch": (24, 24, 25),
    }


def test_ids_are_path_and_qualified_name_with_a_line_only_when_needed() -> None:
    text = "def f():\n    return 1\n\n\ndef f():\n    return 2\n\n\ndef g():\n    pass\n"
    assert [f.id for f in index_functions("pkg/m.py", text)] == ["pkg/m.py::f@1", "pkg/m.py::f@5", "pkg/m.py::g"]


def test_structure_hash_ignores_positions_comments_and_the_name() -> None:
    a = "def f(x):\n    return x + 1\n"
    moved = "# header\n\n\nclass C:\n    pass\n\n\ndef f(x):  # trailing\n\n    return x + 1\n"
    renamed = "def g(x):\n    return x + 1\n"
    edited = "def f(x):\n    return x + 2\n"
    with_doc = 'def f(x):\n    """Doc."""\n    return x + 1\n'

    def digest(text: str, name: str) -> str:
        return next(f.structure_hash for f in index_functions("m.py", text) if f.name == name)

    assert digest(a, "f") == digest(moved, "f") == digest(renamed, "g")
    assert digest(a, "f") != digest(edited, "f")
    assert digest(a, "f") != digest(with_doc, "f")  # the docstring counts


def test_unparseable_or_oversized_snapshots_define_nothing() -> None:
    assert index_functions("m.py", "def broken(:\n") == []
    assert index_functions("m.py", "#" * (MAX_SOURCE_BYTES + 1)) == []


def test_locate_by_decorator_line_def_line_and_resume_line() -> None:
    snaps = SnapshotSet({"pkg/net.py": SOURCE}, {"/run/a/pkg/net.py": "pkg/net.py"})
    forward_311 = locate(FunctionRef("/run/a/pkg/net.py", 11, "forward"), snaps)
    forward_310 = locate(FunctionRef("/run/a/pkg/net.py", 13, "forward"), snaps)
    assert forward_311 is not None and forward_311 == forward_310
    assert forward_311.qualified_name == "Net.forward"
    # A resume function starts inside its parent; the innermost definition of the parent's name wins.
    resume = locate(FunctionRef("/run/a/pkg/net.py", 15, "torch_dynamo_resume_in_helper_at_15"), snaps)
    assert resume is not None and resume.qualified_name == "Net.forward.<locals>.helper"
    nested = "torch_dynamo_resume_in_torch_dynamo_resume_in_forward_at_16_at_17"
    assert FunctionRef("x", 17, nested).resume_parent == "forward"
    resume2 = locate(FunctionRef("/run/a/pkg/net.py", 17, nested), snaps)
    assert resume2 is not None and resume2.qualified_name == "Net.forward"


def test_locate_finds_nothing_without_a_matching_definition() -> None:
    snaps = SnapshotSet({"net.py": SOURCE}, {"/a/net.py": "net.py"})
    assert locate(FunctionRef("/a/net.py", 12, "forward"), snaps) is None  # not a first line
    assert locate(FunctionRef("/a/net.py", 11, "backward"), snaps) is None  # wrong name: stale snapshot
    assert locate(FunctionRef("/elsewhere/net.py", 11, "forward"), snaps) is None  # no snapshot of that file
    assert "no source snapshot" in snaps.why_missing(FunctionRef("/elsewhere/net.py", 11, "forward"))


def test_names_and_first_lines_agree_with_cpython_code_objects() -> None:
    # compile() builds code objects without running anything; their co_qualname is the reference (3.11+).
    def nested(code: types.CodeType) -> list[types.CodeType]:
        inner = [c for c in code.co_consts if isinstance(c, types.CodeType)]
        return inner + [d for c in inner for d in nested(c)]

    expected = {(c.co_qualname, c.co_firstlineno) for c in nested(compile(SOURCE, "m.py", "exec"))}
    assert {(f.qualified_name, f.first_line) for f in index_functions("m.py", SOURCE)} == expected


def test_functions_with_one_structure_hash_have_one_shape() -> None:
    """The matcher hashes only functions whose shape the other side also has: equal hashes imply equal shapes."""
    from dynamo_diff_match.correspond import _shape

    variants = [
        "def f(x, *a, k=1, **kw):\n    y = (x + 1)\n    return y\n",
        "def g(x, *a, k=1, **kw):  # renamed\n\n    y = x + 1\n    return (\n        y\n    )\n",
        "async def f(x, *a, k=1, **kw):\n    y = x + 1\n    return y\n",
        "def f(x, *a, k=1, **kw):\n    y = x + 1\n    y = y + 1\n    return y\n",
        "@dec\ndef f(x, *a, k=1, **kw):\n    y = x + 1\n    return y\n",
        "def f(x, /, *a, k=1, **kw):\n    y = x + 1\n    return y\n",
        "h = lambda x: x + 1\n",
        "h = lambda x: (x\n  + 1)\n",
        "h = lambda x: x.y\n",
    ]
    found = [f for text in variants for f in index_functions("m.py", text) if f.kind != "class"]
    for a in found:
        for b in found:
            if a.structure_hash == b.structure_hash:
                assert _shape(a) == _shape(b)
    assert found[0].structure_hash == found[1].structure_hash
    assert found[6].structure_hash == found[7].structure_hash


def _whole(text: str) -> list[tuple[object, ...]]:
    """What indexing gives when the file is parsed in one piece."""
    from dynamo_diff_match.identities import _found_whole

    found = sorted(_found_whole(text), key=lambda f: (f[3], f[4]))
    return [(q, n, k, a, d, z, key) for q, n, k, a, d, z, _, key in found]


def _pieced(text: str, keep: list[object]) -> list[tuple[object, ...]]:
    from dynamo_diff_match.identities import index_with_pieces

    return [
        (f.qualified_name, f.name, f.kind, f.first_line, f.def_line, f.last_line, f.source_key)
        for f in index_with_pieces("m.py", text, keep)  # type: ignore[arg-type]
    ]


PIECED = [
    SOURCE,
    SOURCE.replace("return n", "return n + 1"),
    'x = """\n\ndef fake():\n    pass\n"""\n\n\ndef real():\n    return x\n',  # a cut line inside a string
    "def a():\n    return [\n\n@b\ndef c(): pass\n",  # does not parse: defines nothing
    "def a():\n    return 1\n\n\ndef b(:\n    pass\n",  # the second piece does not parse
    "@d\n\n@e\ndef f():\n    pass\n",  # an empty line between decorators
    "def f():\n    pass\n\nclass C(lambda: 0):\n    g = lambda self: 1\n\n\nasync def h():\n    pass",
    "x = 1 \\\n\ndef f():\n    pass\n",
    "def f():\n    pass\r\n\r\ndef g():\n    pass\n",  # other line breaks: parsed whole
    "",
]


def test_indexing_by_pieces_finds_what_parsing_the_whole_file_finds() -> None:
    keep: list[object] = []
    for text in PIECED + PIECED[::-1]:  # the second time round, pieces are reused
        assert _pieced(text, keep) == _whole(text), text


def test_a_function_both_snapshots_hold_unchanged_is_parsed_once() -> None:
    base = SnapshotSet({"m.py": SOURCE}, {})
    cand = SnapshotSet({"m.py": "import os\n\n\n" + SOURCE.replace("return n", "return n + 1")}, {})
    b, c = base.named("m.py", "forward")[0], cand.named("m.py", "forward")[0]
    assert (c.first_line, c.last_line) == (b.first_line + 3, b.last_line + 3)
    assert c.node is b.node  # the same parse
    assert base.named("m.py", "fetch")[0].node is not cand.named("m.py", "fetch")[0].node  # edited

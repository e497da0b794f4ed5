"""What a failing guard reads (a global, an attribute, a key) and the lines of a source snapshot that assign it;
the snapshot is written here, so the expected lines are read off it."""

from __future__ import annotations

from dynamo_diff_compare.call_sites import Guarded, assigned_text, assignment_sites, guarded_name
from dynamo_diff_match import SnapshotSet

_MODEL = """\
MODE = "sin"
cfg = {"mode": "a"}


class Head:
    def __init__(self):
        self.top_k = 3
        self.head = object()


def switch(model):
    global MODE
    MODE = "cos"
    MODE += "!"
    model.top_k = 5
    setattr(model, "top_k", 7)
    cfg["mode"] = "b"


def shadow():
    MODE = "local"  # a local of its own: not the global
    return MODE
"""


def _lines(text: str, needle: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1) if needle in line]


def test_the_name_a_guard_reads() -> None:
    assert guarded_name("G['MODE'] == 'sin'  # if MODE == \"sin\":  # m.py:3 in f") == Guarded("global", "MODE")
    assert guarded_name("L['self'].top_k == 3") == Guarded("attribute", "top_k")
    assert guarded_name("L['cfg']['mode'] == 'a'") == Guarded("key", "mode")
    assert guarded_name("___check_obj_id(L['self'].head, 140417121913248)") == Guarded("attribute", "head")
    assert guarded_name("___check_obj_id(L['self']._modules['head'], 1)") == Guarded("attribute", "head")
    assert guarded_name("G['cfg'].mode == 'a'") == Guarded("attribute", "mode")
    # An argument itself, a call, an index, a tensor, torch's own names: nothing to look up.
    for text in (
        "L['n'] == 2",
        "L['x'].size()[0] == 4",
        "L['xs'][0] == 1",
        "tensor 'x' dtype mismatch",
        "G['__import_torch'].float32",
        "___check_obj_id(act.__code__, 1)",
        "n == 2",
    ):
        assert guarded_name(text) is None, text
    assert Guarded("key", "mode").label == "['mode']"


def test_where_the_snapshot_assigns_it() -> None:
    sources = SnapshotSet({"model.py": _MODEL, "other.py": "x.top_k += 1\n"}, {"/abs/model.py": "model.py"})
    mode = assignment_sites(sources, Guarded("global", "MODE"), "/abs/model.py")
    assert [(f.file, f.line) for f in mode] == [
        ("model.py", n)
        for n in sorted(_lines(_MODEL, "MODE = ") + _lines(_MODEL, "MODE +="))
        if n not in _lines(_MODEL, '"local"')
    ]
    assert mode[0].code == 'MODE = "sin"'
    top_k = assignment_sites(sources, Guarded("attribute", "top_k"), "/abs/model.py")
    expected = [("model.py", n) for n in _lines(_MODEL, "top_k")] + [("other.py", 1)]
    assert [(f.file, f.line) for f in top_k] == expected
    # The guarded function's file first, whatever the order of the names.
    first = assignment_sites(sources, Guarded("attribute", "top_k"), "other.py")
    assert first[0].file == "other.py"
    key = assignment_sites(sources, Guarded("key", "mode"), None)
    assert [(f.line, f.code) for f in key] == [(_lines(_MODEL, 'cfg["mode"] = ')[0], 'cfg["mode"] = "b"')]
    text = assigned_text("top_k", top_k[:2], len(top_k))
    assert text.startswith("top_k set at: model.py:") and text.endswith(f"(2 of {len(top_k)} sites)")
    assert assignment_sites(None, Guarded("global", "MODE")) == []

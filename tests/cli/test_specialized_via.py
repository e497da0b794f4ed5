"""What pinned a symbol when the user's line is a plain library call: pool_kernel.py passes its int kernel size to
`F.max_pool1d` (the workload's own record: sizes 2, 2, 4, 8, 4). torch's symbolic_shape_specialization records keep
the whole Python stack: the library frame under the line, `torch/nn/functional.py`'s call of `torch.max_pool1d`, and
the shape environment's `guard_int` it called, read here from the raw records (file names through the trace's
intern table). The `specialized:` line names both; a symbol the user's own code pins (pinned_index.py's indexed
write) has no `via`."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run, unwrapped

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"


def _specializations(name: str) -> list[dict]:  # type: ignore[type-arg]
    (raw,) = (CAPTURES / name / "raw").glob("*.log")
    strings: dict[int, str] = {}
    out = []
    for line in raw.read_text(encoding="utf-8").splitlines():
        if line.startswith("\t") or "{" not in line:
            continue
        record = json.loads(line[line.index("{") :])
        if "str" in record:
            strings[record["str"][1]] = record["str"][0]
        elif "symbolic_shape_specialization" in record:
            body = record["symbolic_shape_specialization"]
            body["frames"] = [(strings[f["filename"]], f["line"], f["name"], f["loc"]) for f in body["stack"]]
            out.append(body)
    return out


def test_a_library_call_that_asked_for_an_int_is_named(run: Run) -> None:
    oracle = json.loads((CAPTURES / "pool_kernel/oracle.json").read_text(encoding="utf-8"))
    assert oracle["kernel_sizes"] == [2, 2, 4, 8, 4] and oracle["backend_invocations"] == 3
    specs = _specializations("pool_kernel")
    assert [s["value"] for s in specs] == ["4", "8"]
    expected = []
    for spec in specs:
        frames = spec["frames"]
        (pool,) = [i for i, f in enumerate(frames) if f[0].endswith("torch/nn/functional.py")]
        asked = next(f[2] for f in frames[pool + 1 :] if f[0].endswith("torch/fx/experimental/sym_node.py"))
        assert asked == "guard_int"
        expected.append(f"(via guard_int from functional.py:{frames[pool][1]} `{frames[pool][3].strip()}`)")
    code, out, err = run("analyze", str(CAPTURES / "pool_kernel"), "--by-function")
    assert code == 0, err
    said = re.findall(
        r"specialized: s\d+ \(L\['k'\]\) fixed to (\d+) at pool_kernel\.py:13: .*? (\(via .*?`\))",
        " ".join(unwrapped(out)),
    )
    assert [(v, via) for v, via in said] == list(zip(["4", "8"], expected, strict=True))


def test_a_symbol_the_users_own_line_pins_has_no_via(run: Run) -> None:
    code, out, err = run("analyze", str(CAPTURES / "pinned_index"), "--by-function")
    assert code == 0, err
    lines = [s for s in unwrapped(out) if "specialized: " in s]
    assert len(lines) == 3 and not any("(via " in s for s in lines)

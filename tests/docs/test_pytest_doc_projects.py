"""docs/PYTEST.md's three projects rewritten with the plugin are the text of the example project's test file,
which the tox envs live and live214 run on real torch (tests/live/test_example_project_live.py): the doc shows
what CI runs, and every test of that file is shown."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples/pytest-compile-budgets"
TESTS = EXAMPLE / "tests/test_three_projects.py"


def rewrites() -> list[str]:
    text = (REPO / "docs/PYTEST.md").read_text(encoding="utf-8")
    section = re.search(r"^## Three projects, rewritten\n(.*?)^## ", text, re.S | re.M)
    assert section is not None, "docs/PYTEST.md has no 'Three projects, rewritten' section"
    return re.findall(r"```python\n(.*?)```", section.group(1), re.S)


def test_each_rewrite_in_the_doc_is_the_example_files_text() -> None:
    snippets = rewrites()
    assert len(snippets) == 3
    source = TESTS.read_text(encoding="utf-8")
    for snippet in snippets:
        assert snippet in source, f"docs/PYTEST.md shows a rewrite that is not in {TESTS.relative_to(REPO)}:\n{snippet}"


def test_every_test_of_the_example_file_is_in_the_doc() -> None:
    shown = "".join(rewrites())
    tests = [n.name for n in ast.parse(TESTS.read_text(encoding="utf-8")).body if isinstance(n, ast.FunctionDef)]
    assert len(tests) == 3
    for name in tests:
        assert f"def {name}(" in shown, name


def test_the_stand_ins_the_doc_names_are_the_example_packages() -> None:
    stand_ins = ast.parse((EXAMPLE / "src/toymodels/stand_ins.py").read_text(encoding="utf-8"))
    classes = {n.name for n in stand_ins.body if isinstance(n, ast.ClassDef)}
    used = set(re.findall(r"\b(Tiny\w+)\(\)", "".join(rewrites())))
    assert used and used <= classes

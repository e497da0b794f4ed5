"""Values in sentences (comparability differences, declared vs observed): an unset option reads 'not set' in
text and markdown as in the HTML report, never Python's None or JSON's null."""

from __future__ import annotations

from dynamo_diff_compare.render import difference_text
from dynamo_diff_compare.values import value_text
from dynamo_diff_schema.comparison import Difference


def test_an_unset_compile_argument_reads_not_set() -> None:
    """What `torch.compile(f)` beside `torch.compile(f, dynamic=True)` records: dynamic [None] -> [True]."""
    text = difference_text(Difference(key="compile.dynamic", source="observer", baseline=[None], candidate=[True]))
    assert text.startswith("compile.dynamic (observer): [not set] -> [true];")
    assert "None" not in text and "True" not in text


def test_strings_keep_their_quotes_in_sentences_and_numbers_read_as_numbers() -> None:
    assert value_text("python a.py", quote=True) == "'python a.py'"
    assert value_text("python a.py") == "python a.py"
    assert value_text({"mode": None, "ratio": float("nan"), "n": 3}) == "{mode: not set, ratio: not a number, n: 3}"
    assert value_text("x" * 100, 10) == "x" * 9 + "…"

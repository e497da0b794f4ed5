"""function_span finds a function's lines in a snapshot without importing it."""

from __future__ import annotations

from dynamo_diff_match import function_span

SOURCE = """import torch

@torch.compile
def f(x, n):
    y = x.sin()
    print("hi")
    return y.cos() + n

class M(torch.nn.Module):
    def forward(self, x):
        return x * 2
"""


def test_function_with_decorator() -> None:
    # co_firstlineno of a decorated function is the decorator's line in CPython 3.11+.
    assert function_span(SOURCE, 3) == (3, 7)
    assert function_span(SOURCE, 4) == (3, 7)


def test_method_and_resume_line_inside_a_function() -> None:
    assert function_span(SOURCE, 10) == (10, 11)
    assert function_span(SOURCE, 6) == (3, 7)  # torch_dynamo_resume_in_f_at_6 starts inside f


def test_unparseable_or_unknown_line() -> None:
    assert function_span("def broken(:\n", 1) is None
    assert function_span(SOURCE, 1) is None
    assert function_span("import os\n" * 10, 5) is None

"""Where a function's source starts and ends in a snapshot, found with `ast` (never imported or executed)."""

from __future__ import annotations

import ast

# Parsing is bounded: a file larger than this is not parsed (callers fall back to showing lines).
MAX_SOURCE_BYTES = 8 * 1024 * 1024


def function_span(source: str, first_line: int) -> tuple[int, int] | None:
    """(first, last) 1-based lines of the function or class whose definition starts at `first_line`
    (decorators included); else of the innermost function containing that line (Dynamo's resume functions
    start inside the function they resume); None when there is neither or the snapshot cannot be parsed."""
    if len(source) > MAX_SOURCE_BYTES:
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    containing: tuple[int, int] | None = None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            lines = [node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]
            end = node.end_lineno or node.lineno
            if first_line in lines:
                return min(lines), end
            inside = min(lines) <= first_line <= end and not isinstance(node, ast.ClassDef)
            if inside and (containing is None or end - min(lines) < containing[1] - containing[0]):
                containing = (min(lines), end)
    return containing

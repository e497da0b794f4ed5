"""get_source and the source lines of compare_runs, through the SDK's client on the call_site pair: the code as it
ran, the diff of a renamed function and of the loop that calls it (a mark_dynamic added there), a file paged by
offset. Line numbers come from the workloads' own files, never from our analysis."""

from __future__ import annotations

from pathlib import Path

from dynamo_diff_schema import SourceDiff, SourceResult

from .conftest import FIXTURES, Session, error_code, size_of, text_of

WORKLOADS = FIXTURES / "workloads"
V1, V2 = "captures/call_site_v1", "captures/call_site_v2"
MARK = "torch._dynamo.mark_dynamic(x, 0)"


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def line_of(path: Path, text: str) -> int:
    (number,) = [n for n, line in enumerate(lines(path), 1) if text in line]
    return number


def numbered(text: str) -> dict[int, str]:
    """The 'N | line' lines of a text result."""
    out = {}
    for line in text.splitlines():
        number, sep, rest = line.partition(" | ")
        if sep and number.strip().isdigit():
            out[int(number)] = rest
    return out


def test_a_function_with_its_context_lines_as_they_ran(session: Session) -> None:
    result = session.call("get_source", capture=V2, function="prepare_inputs", context=1, full=True)
    assert not result.is_error
    layers = WORKLOADS / "call_site_v2/layers.py"
    first = line_of(layers, "def prepare_inputs")
    shown = numbered(text_of(result))
    assert shown == {n: lines(layers)[n - 1] for n in range(first - 1, len(lines(layers)) + 1)}
    (loc,) = SourceResult.model_validate(result.structured_content).locations
    assert loc.text_first_line == first - 1 and loc.text.splitlines() == list(shown.values())
    assert (loc.first_line, loc.snapshot) == (first, "layers.py")


def test_a_whole_file_pages_by_offset_and_the_pages_hold_the_file(session: Session) -> None:
    # The file as the run captured it (the bundle's snapshot: the workload helper may have changed since).
    (captured,) = (FIXTURES / V2 / "sources" / "_external").glob("*/_oracle.py")
    oracle = lines(captured)
    seen: dict[int, str] = {}
    offset: int | None = 0
    calls = 0
    while offset is not None:
        result = session.call("get_source", capture=V2, file="_oracle.py", offset=offset)
        assert not result.is_error and size_of(result) < 12_000
        page = numbered(text_of(result))
        assert not set(page) & set(seen)
        seen |= page
        offset = SourceResult.model_validate(result.structured_content).locations and _next(text_of(result))
        calls += 1
    assert calls > 1 and seen == dict(enumerate(oracle, 1))


def _next(text: str) -> int | None:
    last = text.splitlines()[-1]
    return int(last.rsplit("offset=", 1)[1].rstrip(")")) if "offset=" in last else None


def test_the_diff_of_a_renamed_function_and_of_the_loop_that_calls_it(session: Session) -> None:
    result = session.call("get_source", capture=V1, against=V2, function="preprocess")
    assert not result.is_error
    text = text_of(result)
    assert "-def preprocess(x):\n+def prepare_inputs(x):" in text
    assert f"+            {MARK}" in text
    assert "main.<locals>.body (main.py:" in text and "a function that called it (the call site) [evidence:" in text
    diff = SourceDiff.model_validate(result.structured_content)
    assert [f.role for f in diff.functions] == ["function", "caller"]
    # The text alone answers: every diff line of the structured result is in it.
    assert all(line in text for f in diff.functions for line in f.lines)
    same = session.call("get_source", capture=V1, against=V2, function="prepare_inputs")
    assert text_of(same).split("\n", 1)[1] == text.split("\n", 1)[1]  # either run's name


def test_compare_runs_text_names_both_sides_and_the_lines_of_the_call_site(session: Session) -> None:
    result = session.call("compare_runs", baseline=V1, candidate=V2)
    text = text_of(result)
    preprocess = line_of(WORKLOADS / "call_site_v1/main.py", "def preprocess")
    prepare = line_of(WORKLOADS / "call_site_v2/layers.py", "def prepare_inputs")
    assert f"[0] preprocess (main.py:{preprocess}) -> prepare_inputs (layers.py:{prepare}) matched (structure" in text
    # A change with its evidence ids on its line.
    assert "shape guards failing: 1 -> 0 [evidence: baseline u1-" in text
    mark = line_of(WORKLOADS / "call_site_v2/main.py", MARK)
    assert f"+ {mark}: {MARK}" in text
    assert "source of the caller main.body changed" in text


def test_get_source_errors_carry_codes(session: Session) -> None:
    assert error_code(session.call("get_source", capture=V2)) == "invalid_argument"
    assert error_code(session.call("get_source", capture=V2, function="f", file="main.py")) == "invalid_argument"
    assert error_code(session.call("get_source", capture=V2, function="nope")) == "unknown_function"
    assert error_code(session.call("get_source", capture=V2, file="nope.py")) == "missing_snapshot"
    assert error_code(session.call("get_source", capture=V2, file="main.py", offset=10_000)) == "invalid_argument"


def test_a_function_not_compiled_is_shown_from_the_captured_file(session: Session) -> None:
    main = WORKLOADS / "call_site_v2/main.py"
    first = line_of(main, "def main():")
    result = session.call("get_source", capture=V2, function="main", context=0, full=True)
    assert not result.is_error, text_of(result)
    text = text_of(result)
    assert "not compiled in this run" in text
    shown = numbered(text)
    assert min(shown) == first and shown[first] == "def main():"
    assert all(shown[n] == lines(main)[n - 1] for n in shown)
    (loc,) = SourceResult.model_validate(result.structured_content).locations
    assert (loc.compiled, loc.name, loc.first_line) == (False, "main", first)


def test_file_line_shows_the_lines_around_it_and_the_function_holding_it(session: Session) -> None:
    main = WORKLOADS / "call_site_v2/main.py"
    mark = line_of(main, MARK)
    result = session.call("get_source", capture=V2, function=f"main.py:{mark}")
    assert not result.is_error, text_of(result)
    text = text_of(result)
    assert f"line {mark}, in main.<locals>.body" in text
    shown = numbered(text)
    assert set(shown) == set(range(mark - 10, min(mark + 10, len(lines(main))) + 1))
    assert shown[mark] == lines(main)[mark - 1]


def test_a_miss_names_the_nearest_functions(session: Session) -> None:
    result = session.call("get_source", capture=V2, function="prepare_input")
    assert error_code(result) == "unknown_function"
    assert "nearest: prepare_inputs" in text_of(result)
    assert "main" in text_of(session.call("get_source", capture=V2, function="mian"))

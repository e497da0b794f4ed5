"""The pytest plugin (entry point `pytest11`): the `dynamo_budget` and `dynamo_snapshot` markers,
`--dynamo-diff-store`, `--dynamo-diff-reset`, `--dynamo-diff-update`, `--dynamo-diff-report`.

A test is selected when it has a marker, or for every test with `--dynamo-diff-store`. A selected test's call
(for a unittest.TestCase, its setUp and tearDown too) is recorded as one trace slice (`_recorder`), kept under
pytest's temporary directory, and read by the service as a capture: in memory (the capture an import would store,
with the same id and evidence ids), or imported into the store with `--dynamo-diff-store DIR`. With a budget it is
counted (`_budget`; a budget of whole counts reads only the capture's counts, `read_counts`); with a snapshot,
compared with the committed one or written (`_snapshot`). A test that fails
its budget or snapshot has its slice imported (into DIR, else a store under pytest's temporary directory), so that
the failure names a capture and evidence ids the store holds; a passing test names its trace slice. Each checked
test leaves a row for the run's markdown summary (`--dynamo-diff-report`) on its report. Loading the
plugin imports neither torch nor the analyser; a test that is not selected is not touched.

The plugin's own trouble (torch not installed, a trace that cannot be written or read) fails only a
test with a budget or a snapshot, with a message and no traceback; for any other test it is a warning."""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from dynamo_diff_pytest._budget import Budget

MARKER = "dynamo_budget"
SNAPSHOT = "dynamo_snapshot"
_STATE = pytest.StashKey["_Session"]()
_PROPERTY = "dynamo_diff"  # on a test's report (so that xdist brings it to the controller): its capture
_WARNING = "dynamo_diff_warning"
_ROW = "dynamo_diff_row"  # a row of the summary (a dict of SummaryRow's fields)
_NOTE = "dynamo_diff_note"  # a line for the terminal summary (a snapshot improved, written)
_WRITTEN = "dynamo_diff_written"  # --dynamo-diff-update: 'new', 'refreshed' or 'unchanged'
_CONFIG: list[pytest.Config] = []  # the configs in this process (pytest_runtest_logreport is given no config)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("dynamo-diff", "Dynamo Diff: compile behaviour of torch.compile under test")
    group.addoption(
        "--dynamo-diff-store",
        metavar="DIR",
        default=None,
        help="record every test's compile behaviour and import each test that compiled as a capture labelled by "
        "its test id into the Dynamo Diff store at DIR (for dynamo-diff compare, the HTML report, the editor)",
    )
    group.addoption(
        "--dynamo-diff-reset",
        action="store_true",
        default=False,
        help="call torch._dynamo.reset() before each test (when torch is loaded), so that no test reuses what an "
        "earlier one compiled; off by default",
    )
    group.addoption(
        "--dynamo-diff-update",
        action="store_true",
        default=False,
        help="write or refresh the compile snapshot of each dynamo_snapshot test (under __dynamo_snapshots__/ "
        "beside its file) instead of comparing with it",
    )
    group.addoption(
        "--dynamo-diff-report",
        metavar="PATH",
        default=None,
        help="write a markdown summary of every checked test (budgets, snapshot verdicts, evidence) to PATH, and "
        "append it to $GITHUB_STEP_SUMMARY when that is set",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(recompiles=0, graph_breaks=0, failures=0, compilations=None, only=None): fail the test when "
        "its torch.compile trace spends more (None: not checked; only='pkg': count graph breaks and recompiles "
        "whose user frame is inside pkg)",
    )
    config.addinivalue_line(
        "markers",
        f"{SNAPSHOT}: compare the test's torch.compile behaviour with its committed snapshot "
        "(__dynamo_snapshots__/<file stem>/<test name>.json beside the test file); --dynamo-diff-update writes it",
    )
    store = config.getoption("--dynamo-diff-store")
    config.stash[_STATE] = _Session(config, Path(store).expanduser().resolve() if store else None)
    _CONFIG.append(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    if config in _CONFIG:
        _CONFIG.remove(config)


class _Session:
    def __init__(self, config: pytest.Config, store: Path | None) -> None:
        self.config = config
        self.store = store  # the user's store, or None: a temporary one, made on first use
        self._temp: Path | None = None
        self.rows: list[dict[str, Any]] = []  # the summary's rows, from every test's report (xdist: the workers')
        self.report: Path | None = None  # where the summary was written
        self.report_problems: list[str] = []
        self._service: Any = None
        self._torch_installed: bool | None = None

    def work_dir(self) -> Path:
        """Where slices (and the temporary store) are kept: pytest's temporary directory of this run (per
        xdist worker), kept after the run as pytest keeps it."""
        if self._temp is None:
            factory = getattr(self.config, "_tmp_path_factory", None)
            base = factory.getbasetemp() if factory is not None else Path.cwd() / ".dynamo-diff-pytest"
            self._temp = Path(base) / "dynamo-diff"
        return self._temp

    def store_path(self) -> Path:
        return self.store if self.store is not None else self.work_dir() / "store"

    def service(self) -> Any:
        """The service over the run's store, made by the first test that compiled (it imports the analyser); a guest
        in the test process, whose garbage collector it pauses while it reads and otherwise leaves as it is."""
        if self._service is None:
            from dynamo_diff_service import Service

            self._service = Service.at(self.store_path(), guest=True)
        return self._service

    def torch_installed(self) -> bool:
        """Whether torch can be imported here (looked up once: a test that compiled nothing asks)."""
        if self._torch_installed is None:
            import importlib.util

            self._torch_installed = importlib.util.find_spec("torch") is not None
        return "torch" in sys.modules or self._torch_installed


def _selected(item: pytest.Item, session: _Session) -> bool:
    return (
        session.store is not None
        or item.get_closest_marker(MARKER) is not None
        or item.get_closest_marker(SNAPSHOT) is not None
    )


def _slice_name(nodeid: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", nodeid).strip("_")[-80:]
    return f"{safe}-{hashlib.sha256(nodeid.encode()).hexdigest()[:8]}.log"


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.config.getoption("--dynamo-diff-reset") and "torch._dynamo" in sys.modules:
        sys.modules["torch._dynamo"].reset()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    session = item.config.stash.get(_STATE, None)
    if session is None or not _selected(item, session):
        return (yield)
    marker = item.get_closest_marker(MARKER)
    budget: Budget | None = None
    if marker is not None:
        from dynamo_diff_pytest._budget import Budget, BudgetError

        try:
            budget = Budget.of(marker.args, dict(marker.kwargs))
        except BudgetError as err:
            yield
            pytest.fail(str(err), pytrace=False)

    from dynamo_diff_pytest._recorder import Slice

    trace = Slice(session.work_dir() / "traces" / _slice_name(item.nodeid))
    trace.start()
    try:
        outcome = yield
    finally:
        trace.stop()
    snapshot = item.get_closest_marker(SNAPSHOT) is not None
    _evaluate(item, session, trace, budget, snapshot)
    return outcome


def _problem(item: pytest.Item, session: _Session, checked: bool, message: str) -> None:
    """The plugin's own trouble: fails a test with a budget or a snapshot (no traceback), else a warning."""
    text = f"dynamo-diff: {message}"
    if checked:
        pytest.fail(text, pytrace=False)
    item.user_properties.append((_WARNING, f"{item.nodeid}: {message}"))


def _evaluate(item: pytest.Item, session: _Session, trace: Any, budget: Budget | None, snapshot: bool) -> None:
    checked = budget is not None or snapshot
    needs = " and ".join(n for n, on in ((MARKER, budget is not None), (SNAPSHOT, snapshot)) if on)
    if trace.error is not None:
        _problem(item, session, checked, f"{trace.error}; the test's compile behaviour was not checked")
        return
    if not trace.compiled and checked and not session.torch_installed():
        _problem(
            item,
            session,
            checked,
            f"torch is not installed in this Python ({sys.executable}); a {needs} needs the test to run torch.compile",
        )
        return
    failed: list[str] = []
    rows: list[dict[str, Any]] = []
    if not trace.compiled:
        if budget is not None:
            from dynamo_diff_pytest._budget import Spent, over

            failing = over(budget, Spent())
            rows.append(_row(item, "budget", not failing, _spent_findings(budget, Spent(), failing), ""))
            if failing:
                failed.append(f"dynamo_budget: {', '.join(failing)} (the test compiled nothing)")
        if snapshot:
            failures, note = _snapshot(item, None, rows)
            failed += failures
            if note is not None:
                _note(item, note, None)
        _keep_rows(item, rows, "")
        if failed:
            pytest.fail("\n\n".join(failed), pytrace=False)
        return
    from dynamo_diff_schema import DynamoDiffError, short_id

    service = session.service()
    label = item.nodeid
    store = session.store_path()
    capture_id: str | None = None  # once the trace is imported into the store
    capture: Any = None  # the test's capture, once read whole
    counts: Any = None
    # With --dynamo-diff-store every trace is imported (and its capture loaded); else it is read in memory, as the
    # capture an import would store (the same id and evidence ids), and imported only when the test fails a check.
    # A budget of whole counts needs only the capture's counts: read without assembling the capture.
    try:
        if session.store is not None:
            capture_id = service.import_path(str(trace.path), label=label, force_label=True).capture_id
            capture = service.load(capture_id)
        elif snapshot or budget is None or budget.only:
            capture = service.read_path(str(trace.path), label=label)
        else:
            counts = service.read_counts(str(trace.path))
    except DynamoDiffError as err:
        _problem(item, session, checked, f"the test's trace {trace.path} could not be read ({err.code}: {err.message})")
        return
    if budget is not None:
        from dynamo_diff_pytest._budget import counted, explain, over, spent

        used = spent(capture, budget) if capture is not None else counted(counts)
        failing = over(budget, used)
        if failing and capture is None:
            # The words of the failure name the compilations behind the counts, in the capture the failure names:
            # imported now (as every failing test's trace is), else read in memory.
            try:
                capture_id = service.import_path(str(trace.path), label=label, force_label=True).capture_id
                capture = service.load(capture_id)
            except DynamoDiffError:
                capture_id = None  # said with the trace's place below, when the import is tried again
                try:
                    capture = service.read_path(str(trace.path), label=label)
                except DynamoDiffError as err:
                    message = f"the test's trace {trace.path} could not be read ({err.code}: {err.message})"
                    _problem(item, session, checked, message)
                    return
            used = spent(capture, budget)
            failing = over(budget, used)
        rows.append(_row(item, "budget", not failing, _spent_findings(budget, used, failing), None))
        if failing:
            report = service.report(capture)
            root = Path(str(item.config.rootpath))
            only = f" (only {', '.join(budget.only)})" if budget.only else ""
            lines = [f"dynamo_budget exceeded{only}: {', '.join(failing)}"]
            lines += explain(budget, used, report, root=root)
            failed.append("\n".join(lines))
    note = None
    if snapshot:
        try:
            run = service.snapshot_of(capture, test=item.nodeid)
        except DynamoDiffError as err:
            _problem(item, session, True, f"the test's compile snapshot could not be made ({err.code}: {err.message})")
            return
        failures, note = _snapshot(item, run, rows, trace=str(trace.path))
        failed += failures
    where = [f"trace: {trace.path}"]
    if failed and capture_id is None:
        try:
            capture_id = service.import_path(str(trace.path), label=label, force_label=True).capture_id
        except DynamoDiffError as err:
            where.append(f"  (it could not be imported into the store {store}: {err.code}: {err.message})")
    if capture_id is not None:
        short = short_id(capture_id)
        item.user_properties.append((_PROPERTY, {"capture": capture_id, "store": str(store)}))
        where = [
            f"capture {short} (label {label!r}) in the store {store}",
            *where,
            f"  dynamo-diff --store {store} analyze {short}",
            f"  dynamo-diff --store {store} evidence {short} EVIDENCE_ID",
        ]
    else:
        item.user_properties.append((_PROPERTY, {"trace": str(trace.path)}))
    _keep_rows(item, rows, f"capture {short_id(capture_id)}" if capture_id else f"trace {trace.path}")
    if note is not None:
        _note(item, note, capture_id is not None, trace=str(trace.path))
    if failed:
        pytest.fail("\n\n".join([*failed, "\n".join(where)]), pytrace=False)


def _spent_findings(budget: Budget, used: Any, failing: list[str]) -> list[str]:
    if failing:
        return [f"over budget: {', '.join(failing)}"]
    shown = [
        f"{name} {used.count(name)} (budget {limit})"
        for name in ("recompiles", "graph_breaks", "failures", "compilations")
        if (limit := getattr(budget, name)) is not None
    ]
    return [", ".join(shown)] if shown else []


def _row(item: pytest.Item, check: str, passed: bool, findings: list[str], evidence: str | None) -> dict[str, Any]:
    """A row of the summary; `evidence` None: the test's own capture or trace, said once it is known whether the
    trace was imported (`_keep_rows`)."""
    return {"name": item.nodeid, "passed": passed, "check": check, "findings": findings, "evidence": evidence}


def _keep_rows(item: pytest.Item, rows: list[dict[str, Any]], evidence: str) -> None:
    for row in rows:
        if row["evidence"] is None:
            row["evidence"] = evidence
        item.user_properties.append((_ROW, row))


def _note(item: pytest.Item, note: tuple[Any, str], kept: bool | None, *, trace: str | None = None) -> None:
    """The terminal summary's line for a snapshot that passed changed (an improvement, an upgrade). `kept`: whether
    the test's capture is in the store (None: the test compiled nothing). A capture that was not imported is not
    named (its evidence ids are read once the trace is imported)."""
    from dynamo_diff_compare import snapshot_verdict_text

    verdict, shown = note
    if kept is False:
        verdict = verdict.model_copy(update={"capture": None})
    text = snapshot_verdict_text(verdict, trace=trace)
    if kept is False and any(c.evidence_ids for c in verdict.changes):
        text += (
            "\n  (its evidence ids are read once that trace is imported: dynamo-diff import it, or run with "
            "--dynamo-diff-store DIR)"
        )
    note_text = f"{item.nodeid}: {text}\n  snapshot: {shown} (run --dynamo-diff-update to record it)"
    item.user_properties.append((_NOTE, note_text))


def _snapshot(
    item: pytest.Item, run: Any, rows: list[dict[str, Any]], *, trace: str | None = None
) -> tuple[list[str], tuple[Any, str] | None]:
    """Compare the run's snapshot (`run`: None when the test compiled nothing) with the committed one, or write
    it with --dynamo-diff-update; adds its row to `rows`. (The failure messages, and (verdict, snapshot path) for a
    note when it passed changed.) A failure names the capture, which is imported then."""
    from dynamo_diff_schema import CompileSnapshot

    from dynamo_diff_pytest import _snapshot as snap

    own: str | None = None  # the row's evidence: the test's capture or trace
    if run is None:
        torch = sys.modules.get("torch")
        version = getattr(torch, "__version__", None) if torch is not None else None
        run = CompileSnapshot(torch=str(version) if version else None, test=item.nodeid, functions=[])
        own = ""
    path = snap.snapshot_path(Path(str(item.path)), item.nodeid)
    shown = _relative(path, Path(str(item.config.rootpath)))
    if item.config.getoption("--dynamo-diff-update"):
        try:
            written = snap.write(path, run)
        except OSError as err:
            return [f"dynamo_snapshot: the snapshot {shown} could not be written ({err.strerror or err})"], None
        item.user_properties.append((_WRITTEN, written.what))
        rows.append(_row(item, "snapshot", True, [f"snapshot {written.what} ({shown})"], own))
        return [], None
    if not path.is_file():
        rows.append(_row(item, "snapshot", False, [f"no snapshot at {shown}"], own))
        return [
            f"dynamo_snapshot: no compile snapshot at {shown}; run pytest with --dynamo-diff-update to write it "
            "(then review and commit it)"
        ], None
    try:
        committed = snap.read(path)
    except snap.SnapshotFileError as err:
        rows.append(_row(item, "snapshot", False, [str(err)], ""))
        return [f"dynamo_snapshot: {err}; run pytest with --dynamo-diff-update to write it again"], None
    from dynamo_diff_compare import snapshot_row, snapshot_verdict_text

    verdict = snap.verdict(committed, run)
    row = snapshot_row(verdict, name=item.nodeid, evidence="-")
    rows.append(_row(item, "snapshot", row.passed, row.findings, own))
    if not verdict.passed:
        return [f"{snapshot_verdict_text(verdict, trace=trace)}\n  snapshot: {shown}"], None
    return [], (verdict, shown) if verdict.outcome != "unchanged" else None


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except (ValueError, OSError):
        return str(path)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    session = config.stash.get(_STATE, None)
    if session is None:
        return
    properties = [
        (name, value)
        for reports in terminalreporter.stats.values()
        for report in reports
        if getattr(report, "when", "call") == "call"  # a call's properties are on its teardown's report too
        for name, value in getattr(report, "user_properties", [])
    ]
    if session.store is not None:
        captures = {value["capture"] for name, value in properties if name == _PROPERTY and isinstance(value, dict)}
        terminalreporter.write_line(
            f"dynamo-diff: {len(captures)} test trace(s) imported into {session.store} (labelled by test id)"
        )
    written = [value for name, value in properties if name == _WRITTEN]
    if written:
        counts = ", ".join(f"{written.count(w)} {w}" for w in ("new", "refreshed", "unchanged") if w in written)
        changed = len(written) - written.count("unchanged")
        terminalreporter.write_line(f"dynamo-diff: {changed} compile snapshot(s) written ({counts})")
    for note in dict.fromkeys(value for name, value in properties if name == _NOTE):
        terminalreporter.write_line(f"dynamo-diff: {note}", green=True)
    for warning in dict.fromkeys(value for name, value in properties if name == _WARNING):
        terminalreporter.write_line(f"dynamo-diff warning: {warning}", yellow=True)
    if session.report is not None:
        terminalreporter.write_line(f"dynamo-diff: summary of {len(session.rows)} check(s) written to {session.report}")
    for problem in session.report_problems:
        terminalreporter.write_line(f"dynamo-diff warning: {problem}", yellow=True)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Collects the summary's rows (on the xdist controller, from the workers' reports)."""
    if report.when != "call":  # the call's properties are on the teardown's report too
        return
    rows = [value for name, value in getattr(report, "user_properties", []) if name == _ROW]
    if rows and _CONFIG:
        session = _CONFIG[-1].stash.get(_STATE, None)
        if session is not None:
            session.rows.extend(r for r in rows if isinstance(r, dict))


def pytest_sessionfinish(session: pytest.Session) -> None:
    state = session.config.stash.get(_STATE, None)
    option = session.config.getoption("--dynamo-diff-report")
    if state is None or not option or hasattr(session.config, "workerinput"):
        return
    from dynamo_diff_compare import SummaryRow, summary_markdown

    rows = [
        SummaryRow(str(r["name"]), bool(r["passed"]), str(r["check"]), list(r["findings"]), str(r["evidence"]))
        for r in state.rows
    ]
    text = summary_markdown(rows, title="dynamo-diff: compile behaviour under test")
    path = Path(option).expanduser()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        state.report = path
    except OSError as err:
        state.report_problems.append(f"the summary could not be written to {path} ({err.strerror or err})")
    github = os.environ.get("GITHUB_STEP_SUMMARY")
    if github:
        try:
            with Path(github).open("a", encoding="utf-8") as out:
                out.write(text)
        except OSError as err:
            state.report_problems.append(
                f"the summary could not be appended to $GITHUB_STEP_SUMMARY ({err.strerror or err})"
            )

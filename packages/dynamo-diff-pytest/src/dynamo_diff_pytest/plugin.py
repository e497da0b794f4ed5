"""The pytest plugin (entry point `pytest11`): the `dynamo_budget` marker, `--dynamo-diff-store`, `--dynamo-diff-reset`.

A test is selected when it has the marker, or for every test with `--dynamo-diff-store`. A selected test's call
(for a unittest.TestCase, its setUp and tearDown too) is recorded as one trace slice (`_recorder`), imported by the
service into the store (`--dynamo-diff-store DIR`, else one under pytest's temporary directory) and, with a
budget, counted (`_budget`). Loading the plugin imports neither torch nor the analyser; a test that is not
selected is not touched.

The plugin's own trouble (torch not installed, a trace that cannot be written, an import that fails) fails only a
test with a budget, with a message and no traceback; for any other test it is a warning."""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from dynamo_diff_pytest._budget import Budget

MARKER = "dynamo_budget"
_STATE = pytest.StashKey["_Session"]()
_PROPERTY = "dynamo_diff"  # on a test's report (so that xdist brings it to the controller): its capture
_WARNING = "dynamo_diff_warning"


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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(recompiles=0, graph_breaks=0, failures=0, compilations=None, only=None): fail the test when "
        "its torch.compile trace spends more (None: not checked; only='pkg': count graph breaks and recompiles "
        "whose user frame is inside pkg)",
    )
    store = config.getoption("--dynamo-diff-store")
    config.stash[_STATE] = _Session(config, Path(store).expanduser().resolve() if store else None)


class _Session:
    def __init__(self, config: pytest.Config, store: Path | None) -> None:
        self.config = config
        self.store = store  # the user's store, or None: a temporary one, made on first use
        self._temp: Path | None = None

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


def _selected(item: pytest.Item, session: _Session) -> bool:
    return session.store is not None or item.get_closest_marker(MARKER) is not None


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
    _evaluate(item, session, trace, budget)
    return outcome


def _problem(item: pytest.Item, session: _Session, budget: Budget | None, message: str) -> None:
    """The plugin's own trouble: fails a test with a budget (no traceback), else a warning."""
    text = f"dynamo-diff: {message}"
    if budget is not None:
        pytest.fail(text, pytrace=False)
    item.user_properties.append((_WARNING, f"{item.nodeid}: {message}"))


def _torch_installed() -> bool:
    import importlib.util

    return "torch" in sys.modules or importlib.util.find_spec("torch") is not None


def _evaluate(item: pytest.Item, session: _Session, trace: Any, budget: Budget | None) -> None:
    if trace.error is not None:
        _problem(item, session, budget, f"{trace.error}; the test's compile behaviour was not checked")
        return
    if not trace.compiled:
        if budget is not None and not _torch_installed():
            _problem(
                item,
                session,
                budget,
                f"torch is not installed in this Python ({sys.executable}); a dynamo_budget needs the test to run "
                "torch.compile",
            )
            return
        if budget is not None:
            from dynamo_diff_pytest._budget import Spent, over

            failing = over(budget, Spent())
            if failing:
                pytest.fail(f"dynamo_budget: {', '.join(failing)} (the test compiled nothing)", pytrace=False)
        return
    from dynamo_diff_schema import DynamoDiffError, short_id
    from dynamo_diff_service import Service

    service = Service.at(session.store_path())
    label = item.nodeid
    try:
        imported = service.import_path(str(trace.path), label=label, force_label=True)
        capture = service.load(imported.capture_id)
    except DynamoDiffError as err:
        _problem(item, session, budget, f"the test's trace {trace.path} could not be read ({err.code}: {err.message})")
        return
    short = short_id(imported.capture_id)
    item.user_properties.append((_PROPERTY, {"capture": imported.capture_id, "store": str(session.store_path())}))
    if budget is None:
        return
    from dynamo_diff_pytest._budget import explain, over, spent

    used = spent(capture, budget)
    failing = over(budget, used)
    if not failing:
        return
    report = service.report(capture)
    hints = _hints(service, imported.capture_id, [c for rank in capture.ranks for c in rank.compilations])
    root = Path(str(item.config.rootpath))
    only = f" (only {', '.join(budget.only)})" if budget.only else ""
    lines = [f"dynamo_budget exceeded{only}: {', '.join(failing)}"]
    lines += explain(budget, used, report, hints=hints, root=root)
    lines.append(f"capture {short} (label {label!r}) in the store {session.store_path()}")
    lines.append(f"trace: {trace.path}")
    lines.append(f"  dynamo-diff --store {session.store_path()} analyze {short}")
    lines.append(f"  dynamo-diff --store {session.store_path()} evidence {short} EVIDENCE_ID")
    pytest.fail("\n".join(lines), pytrace=False)


def _hints(service: Any, capture_id: str, compilations: list[Any]) -> dict[str, str]:
    """Evidence id of a graph break -> torch's first 'Hint:' line in its message (read from the evidence)."""
    from dynamo_diff_schema import DynamoDiffError

    out: dict[str, str] = {}
    for comp in compilations:
        for gb in comp.graph_breaks:
            if not gb.evidence_id:
                continue
            try:
                text = service.read_evidence(capture_id, gb.evidence_id, max_chars=20_000).text
            except DynamoDiffError:
                continue
            for line in text.splitlines():
                stripped = line.strip()
                if stripped.startswith("Hint:"):
                    out[gb.evidence_id] = stripped.removeprefix("Hint:").strip()
                    break
    return out


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    session = config.stash.get(_STATE, None)
    if session is None:
        return
    properties = [
        (name, value)
        for reports in terminalreporter.stats.values()
        for report in reports
        for name, value in getattr(report, "user_properties", [])
    ]
    if session.store is not None:
        captures = {value["capture"] for name, value in properties if name == _PROPERTY and isinstance(value, dict)}
        terminalreporter.write_line(
            f"dynamo-diff: {len(captures)} test trace(s) imported into {session.store} (labelled by test id)"
        )
    for warning in dict.fromkeys(value for name, value in properties if name == _WARNING):
        terminalreporter.write_line(f"dynamo-diff warning: {warning}", yellow=True)

"""`dynamo-diff capture` as a user's shell sees it: a command killed by signal N makes capture exit 128 + N (137
for SIGKILL, as a shell reports it; the manifest keeps the command's own -9), and a name longer than the file
system allows (--label, --out, compare/schema --output, export --out) is one `name_too_long` error before
anything is run or written. No torch: the commands are tiny Python programs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import Run

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
ENTRY = Path(sys.executable).parent / "dynamo-diff"
# A name one byte longer than this file system allows for a file or folder name.
TOO_LONG = "x" * (os.pathconf(".", "PC_NAME_MAX") + 1)


def entry() -> str:
    if not ENTRY.exists():
        message = f"the dynamo-diff entry point is not installed beside this python ({ENTRY})"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return str(ENTRY)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_command_killed_by_a_signal_makes_capture_exit_128_plus_n(tmp_path: Path, sig: signal.Signals) -> None:
    out = tmp_path / "bundle"
    command = [sys.executable, "-c", f"import os; print('about to die', flush=True); os.kill(os.getpid(), {int(sig)})"]
    env = {**os.environ, "DYNAMO_DIFF_STORE": str(tmp_path / "store"), "NO_COLOR": "1"}
    proc = subprocess.run(
        [entry(), "capture", "--out", str(out), "--no-convert", "--", *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 128 + sig, proc.stderr  # 137 for SIGKILL, 143 for SIGTERM
    assert "about to die" in proc.stdout
    assert f"run DID NOT FINISH: the command was killed by {sig.name}" in " ".join(proc.stderr.split())
    work = json.loads((out / "manifest.json").read_text())["workload"]
    assert work["exit_code"] == -sig and work["signal"] == sig.name and work["completed"] is False


def test_a_command_that_exits_non_zero_keeps_its_own_status(run: Run, tmp_path: Path) -> None:
    code, _, err = run("capture", "--out", str(tmp_path / "b"), "--", sys.executable, "-c", "raise SystemExit(3)")
    assert code == 3 and "the command exited with code 3" in err


def _ran(tmp_path: Path) -> list[str]:
    """A command that leaves a mark when it runs."""
    return [sys.executable, "-c", f"open({str(tmp_path / 'ran')!r}, 'w').close()"]


def made(folder: Path) -> list[str]:
    """What is in the test's folder besides the store."""
    return sorted(p.name for p in folder.iterdir() if p.name != "store")


def _error(err: str) -> str:
    """The error line, as `error[code]: message` (with --format json it is printed as a JSON object)."""
    (line,) = [line for line in err.splitlines() if line.startswith(("error[", "{"))]
    if line.startswith("{"):
        info = json.loads(line)
        return f"error[{info['code']}]: {info['message']}"
    return line


def test_a_label_too_long_to_name_the_bundle_is_refused_before_the_command_runs(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run("capture", "--label", TOO_LONG, "--", *_ran(tmp_path))
    assert code == 2 and out == ""
    error = _error(err)
    assert error.startswith("error[name_too_long]: --label") and f"{len(TOO_LONG)} bytes long" in error
    assert "--out" in error and "Traceback" not in err
    assert not (tmp_path / "ran").exists() and not (tmp_path / "dynamo-diff-bundles").exists()


def test_a_label_that_fits_names_the_bundle_cut_to_the_file_system(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bundle's default name adds the time before the label: a label of the longest name still works."""
    monkeypatch.chdir(tmp_path)
    label = TOO_LONG[:-1]
    code, _, err = run("capture", "--label", label, "--no-convert", "--", *_ran(tmp_path))
    assert code == 0, err
    (bundle,) = (tmp_path / "dynamo-diff-bundles").iterdir()
    assert len(bundle.name) == len(label) and bundle.name.endswith("-" + label[: len(label) - 16])
    assert json.loads((bundle / "manifest.json").read_text())["label"] == label


@pytest.mark.parametrize("where", ["{long}", "runs/{long}/bundle", "deep"])
def test_an_out_too_long_is_refused_and_nothing_is_made(run: Run, tmp_path: Path, where: str) -> None:
    # deep: every name fits, the whole path does not (PATH_MAX)
    out = tmp_path / ("/".join(["y" * 200] * 25) if where == "deep" else where.format(long=TOO_LONG))
    code, _, err = run("capture", "--out", str(out), "--", *_ran(tmp_path))
    assert code == 2
    expected = "the path is" if where == "deep" else "the name 'xxxx"
    assert _error(err).startswith(f"error[name_too_long]: --out: {expected}")
    assert made(tmp_path) == []  # neither the command's mark nor runs/ nor the bundle


def test_an_output_file_too_long_is_refused(run: Run, tmp_path: Path) -> None:
    pair = [str(CAPTURES / "stable"), str(CAPTURES / "shape")]
    for fmt in ("text", "markdown", "json", "html"):
        code, _, err = run("compare", *pair, "--format", fmt, "-o", str(tmp_path / f"{TOO_LONG}.{fmt}"))
        assert code == 2 and "Traceback" not in err, fmt
        assert "name_too_long" in _error(err) and "--output" in _error(err)
    code, _, err = run("schema", "--kind", "error", "-o", str(tmp_path / TOO_LONG))
    assert code == 2 and "name_too_long" in err
    # Any other write failure is an error with a code too, never a traceback.
    code, _, err = run("compare", *pair, "-o", str(tmp_path / "no-such-folder" / "report.txt"))
    assert code == 2 and _error(err).startswith("error[io_error]: --output: cannot write")
    assert made(tmp_path) == []


def test_an_export_folder_too_long_is_refused(run: Run, tmp_path: Path) -> None:
    code, _, err = run("export", str(CAPTURES / "stable"), "--out", str(tmp_path / "tables" / TOO_LONG))
    assert code == 2 and _error(err).startswith("error[name_too_long]: --out")
    assert made(tmp_path) == []

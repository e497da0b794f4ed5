"""Record a run into a bundle: run the user's command with TORCH_TRACE pointing into the bundle, then write
source snapshots, an optional tlparse report and `manifest.json`.

A bundle is a directory:
    manifest.json     what ran, what was declared, producer versions, sha256 of every trace file
    raw/              the TORCH_TRACE directory exactly as torch (every rank) wrote it: the primary evidence
    sources/          snapshots of the user's source files the trace names
    report/           tlparse's output, when it was converted (secondary; the store reads raw/)

Everything written into files the store hashes (raw/, sources/, manifest.json) is fixed when the capture ends,
so a copied bundle imports to the same capture id anywhere.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.metadata import version as package_version
from pathlib import Path
from types import FrameType
from typing import Any, Literal

from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_schema.manifest import (
    Declarations,
    Manifest,
    Observations,
    Producer,
    Sources,
    ToolVersion,
    TraceFile,
    Workload,
)

from dynamo_diff_store.analysis import signal_name
from dynamo_diff_store.limits import Limits
from dynamo_diff_store.paths import check_name_fits, fit_name, name_limits
from dynamo_diff_store.reading import JSONRejected, JSONTooDeepError, loads_strict, manifest_bytes, rank_from_name
from dynamo_diff_store.recording._observe import ObserverSetup, collect, prepare
from dynamo_diff_store.recording._snapshots import SourcePolicy, scan_traces, sha256_of, snapshot_sources

CachePolicy = Literal["fresh", "warm", "custom"]
# Variables that decide where the trace and the compile cache go: set by capture, never inherited.
_CONTROLLED = ("TORCH_TRACE",)
_INT_KEYS = ("calls", "seed", "warmup_calls")
_BOOL = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
# How long the command gets to finish after an interrupt before it is asked again, then terminated, then killed.
STOP_GRACE_S = (10.0, 10.0, 5.0)
Say = Callable[[str], None]


@dataclass(frozen=True)
class CaptureRequest:
    command: Sequence[str]
    bundle: Path
    label: str | None = None
    declarations: Declarations = field(default_factory=Declarations)
    environment: Sequence[str] = ()  # names of variables whose values are recorded
    cache: CachePolicy = "fresh"
    # TORCHINDUCTOR_CACHE_DIR. Without it: fresh = a new empty directory removed afterwards, warm = whatever
    # the environment has. With it: custom = use it as it is; fresh = it must be empty (and is kept).
    cache_dir: Path | None = None
    convert: bool = True
    tlparse: str | None = None  # path of tlparse; None: found on PATH or beside the command's interpreter
    sources: SourcePolicy = field(default_factory=SourcePolicy)
    cwd: Path | None = None
    root: Path | None = None  # project root for source paths; default: the git work tree of cwd, else cwd
    env: Mapping[str, str] | None = None  # the environment the command starts from (default: ours)
    observe: bool = True  # load the observer into the command's Python processes (observer_site.py)


@dataclass(frozen=True)
class CaptureResult:
    bundle: Path
    manifest: Manifest
    exit_code: int | None
    incomplete_reason: str | None
    interrupted: bool = False  # Ctrl-C or SIGTERM reached capture while the command ran
    # An interrupt that arrived while the bundle was being written: it was finished, but nothing more
    # (such as importing it) should happen.
    interrupted_late: bool = False

    @property
    def completed(self) -> bool:
        return self.manifest.workload.completed is True

    @property
    def has_traces(self) -> bool:
        return bool(self.manifest.raw_traces)


def default_bundle_path(command: Sequence[str], label: str | None, base: Path = Path("dynamo-diff-bundles")) -> Path:
    """`dynamo-diff-bundles/<UTC time>-<label, or the script's or program's name>` (a new name per second), the
    name cut to what the file system allows. A label longer than a file name may be is refused (`name_too_long`):
    it would name the bundle."""
    script = next((Path(a).stem for a in command[1:] if a.endswith(".py")), None)
    name = label or script or (Path(command[0]).name if command else "run")
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "run"
    if label is not None:
        hint = "choose a shorter label, or name the bundle with --out; nothing was run or written"
        check_name_fits(base / name, "--label (it names the bundle folder)", hint)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    name_max, _ = name_limits(base)
    return base / f"{stamp}-{fit_name(name, name_max - len(stamp) - 1)}"


# -- declarations ----------------------------------------------------------------------------------------------


def _typed(key: str, value: Any) -> Any:
    if key in _INT_KEYS:
        try:
            return int(value)
        except (TypeError, ValueError):
            raise DynamoDiffError(
                ErrorCode.INVALID_ARGUMENT, f"declaration {key} must be an integer, not {value!r}"
            ) from None
    if key == "dynamic":
        if isinstance(value, bool):
            return value
        if str(value).lower() in _BOOL:
            return _BOOL[str(value).lower()]
        if str(value).lower() in ("auto", "none"):
            return "auto"  # torch.compile's default (dynamic=None): automatic dynamic shapes
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT, f"declaration dynamic must be true, false or auto, not {value!r}"
        )
    if key == "cache_policy":
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT,
            "cache_policy is not declared: capture sets it from --warm-cache / --cache-dir (default: fresh)",
        )
    return str(value)


def parse_declarations(pairs: Sequence[str], file: Path | None = None, *, limits: Limits | None = None) -> Declarations:
    """Declarations from a JSON object file and KEY=VALUE pairs (pairs win). Known keys are typed (calls, seed,
    warmup_calls: integers; dynamic: true/false/auto; backend, device: text); any other key goes to `extra`."""
    values: dict[str, Any] = {}
    if file is not None:
        try:
            data = loads_strict(file.read_bytes(), limits or Limits())
        except OSError as err:
            raise DynamoDiffError(ErrorCode.UNREADABLE_INPUT, f"cannot read {file}: {err.strerror}") from err
        except JSONTooDeepError as err:
            raise (limits or Limits()).exceeded("max_json_depth", err.depth, file=str(file)) from None
        except JSONRejected as err:
            raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, f"{file} is not valid JSON: {err}") from err
        if not isinstance(data, dict):
            raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, f"{file} must hold one JSON object of declarations")
        extra = data.pop("extra", {})
        if not isinstance(extra, dict):
            raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, f"{file}: 'extra' must be an object")
        values.update({str(k): v for k, v in extra.items()})
        values.update(data)
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, f"--declare takes KEY=VALUE, not {pair!r}")
        values[key] = value
    known = set(Declarations.model_fields) - {"extra"}
    typed = {k: _typed(k, v) for k, v in values.items() if k in known}
    extra_values = {k: v if isinstance(v, str) else json.dumps(v) for k, v in values.items() if k not in known}
    return Declarations(**typed, extra=dict(sorted(extra_values.items())))


# -- environment facts -----------------------------------------------------------------------------------------


def _git(cwd: Path, *args: str) -> str | None:
    try:
        proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def work_tree(cwd: Path) -> tuple[Path | None, str | None, bool | None]:
    """(root, revision, dirty) of the git work tree holding `cwd`; (None, None, None) outside one."""
    top = _git(cwd, "rev-parse", "--show-toplevel")
    if not top:
        return None, None, None
    revision = _git(cwd, "rev-parse", "HEAD")
    status = _git(cwd, "status", "--porcelain", "--untracked-files=no")
    return Path(top), revision or None, None if status is None else bool(status)


def find_tlparse(command: Sequence[str]) -> str | None:
    """tlparse on PATH, else beside the command's program (a venv's python next to its tlparse)."""
    found = shutil.which("tlparse")
    if found:
        return found
    program = shutil.which(command[0]) if command else None
    if program:
        candidate = Path(program).parent / "tlparse"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def _tool_version(tool: str) -> str | None:
    try:
        out = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=60, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r"\d+(?:\.\d+)+\S*", out)
    return match.group(0) if match else (out.strip() or None)


def convert_with_tlparse(tlparse: str, raw_files: Sequence[Path], report: Path, say: Say) -> ToolVersion:
    """Convert each trace file with tlparse into report/ (one file) or report/rank_<N>/ (per rank file)."""
    exit_codes: list[int] = []
    for raw in raw_files:
        rank = rank_from_name(raw.name)
        sub = f"rank_{rank}" if rank is not None else raw.stem
        out = report if len(raw_files) == 1 else report / sub
        try:
            proc = subprocess.run(
                [tlparse, str(raw), "-o", str(out), "--overwrite", "--no-browser"],
                capture_output=True,
                text=True,
                timeout=1800,
                check=False,
            )
            code = proc.returncode
            if code != 0:
                say(f"tlparse exited {code} on {raw.name}: {proc.stderr.strip()[-300:]}")
        except (OSError, subprocess.TimeoutExpired) as err:
            say(f"tlparse failed on {raw.name}: {err}")
            code = -1
        exit_codes.append(code)
    worst = next((c for c in exit_codes if c != 0), 0)
    return ToolVersion(version=_tool_version(tlparse), exit_code=worst)


# -- running ---------------------------------------------------------------------------------------------------


class _TerminatedError(Exception):
    """SIGTERM reached capture while the command ran."""


class _Deferred:
    """SIGINT and SIGTERM only noted while the bundle is written, so an impatient Ctrl-C cannot lose it."""

    def __init__(self) -> None:
        self.hit = False

    @contextlib.contextmanager
    def active(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def handler(signum: int, frame: FrameType | None) -> None:
            self.hit = True

        previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, old in previous.items():
                signal.signal(sig, old)


@contextlib.contextmanager
def _sigterm_raises() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        raise _TerminatedError

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _stop(proc: subprocess.Popen[bytes], say: Say) -> int:
    """Let an interrupted command finish (it usually got the same Ctrl-C), else ask again, terminate, kill."""
    steps: list[Callable[[], None]] = [
        lambda: None,
        lambda: proc.send_signal(signal.SIGINT),
        proc.terminate,
    ]
    for step, grace in zip(steps, STOP_GRACE_S, strict=True):
        step()
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            try:
                return proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                break
            except (KeyboardInterrupt, _TerminatedError):
                say("interrupted again: stopping the command")
                break
    proc.kill()
    return proc.wait()


def _signal_name(code: int) -> str:
    return signal_name(-code)


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _prepare_bundle(bundle: Path) -> None:
    """The new bundle directory with its raw/, before the command runs; when it cannot be made, nothing of it
    is left (the folders made for it are removed)."""
    check_name_fits(bundle / "raw", "--out")
    if bundle.exists() and (not bundle.is_dir() or any(bundle.iterdir())):
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT,
            f"{bundle} already exists and is not empty; capture writes a new bundle (choose another --out)",
            path=str(bundle),
        )
    made = [p for p in (bundle, *bundle.parents) if not p.exists()]
    try:
        bundle.mkdir(parents=True, exist_ok=True)
        (bundle / "raw").mkdir()
    except OSError as err:
        for folder in made:  # innermost first
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise DynamoDiffError(
            ErrorCode.IO_ERROR,
            f"cannot create the bundle {bundle}: {err.strerror or err}; nothing was written",
            path=str(bundle),
        ) from err


def record(request: CaptureRequest, *, say: Say | None = None, limits: Limits | None = None) -> CaptureResult:
    """Run the command and write the bundle. The command's output goes straight to our stdout/stderr.

    A crash, a non-zero exit, Ctrl-C or SIGTERM still leaves a complete bundle whose manifest says the run is
    incomplete and why. Raises DynamoDiffError only when the command cannot be started at all, or (`io_error`)
    when the bundle cannot be written (a full disk, a path that cannot be a directory)."""
    try:
        return _record(request, say=say, limits=limits)
    except OSError as err:
        where = f" ({err.filename})" if err.filename else ""
        raise DynamoDiffError(
            ErrorCode.IO_ERROR,
            f"cannot write the bundle {request.bundle}: {err.strerror or err}{where}; what was written there is "
            "incomplete and should not be imported",
            path=str(request.bundle),
        ) from err


@dataclass(frozen=True)
class _Recording:
    """One `capture` in progress: what was asked, where the bundle goes, where the command runs."""

    request: CaptureRequest
    bundle: Path
    cwd: Path
    limits: Limits
    say: Say


def _record(request: CaptureRequest, *, say: Say | None, limits: Limits | None) -> CaptureResult:
    if not request.command:
        raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, "no command to run: give it after `--`")
    if request.cache == "custom" and request.cache_dir is None:
        raise DynamoDiffError(ErrorCode.INVALID_ARGUMENT, "cache policy 'custom' needs a cache directory")
    rec = _Recording(
        request=request,
        bundle=Path(request.bundle).absolute(),
        cwd=Path(request.cwd or Path.cwd()).absolute(),
        limits=limits or Limits(),
        say=say or (lambda text: print(f"dynamo-diff: {text}", file=sys.stderr, flush=True)),
    )
    _prepare_bundle(rec.bundle)
    env, fresh_cache, recorded_env = _environment(request, rec.bundle / "raw")
    observer: ObserverSetup | None = prepare(env) if request.observe else None
    started_at = _utc_now()
    t0 = time.monotonic()
    try:
        exit_code, interrupted, pid = _run(rec, env)
        observations = collect(observer, pid) if observer is not None else None
    finally:
        if fresh_cache is not None:
            shutil.rmtree(fresh_cache, ignore_errors=True)
        if observer is not None:
            observer.remove()
    wall = round(time.monotonic() - t0, 3)
    if observer is not None and observations is not None and not observations.processes:
        rec.say(
            "the observer saw no Python process (the command is not Python, or runs it with -I/-S): torch.compile "
            "arguments and seeds are not recorded"
        )
    workload = _workload(rec, exit_code, interrupted, started_at, wall, recorded_env)
    deferred = _Deferred()
    with deferred.active():
        result = _finish(rec, workload, observations)
    if deferred.hit:
        rec.say("interrupted while writing the bundle: it was finished, nothing more is done")
        result = dataclasses.replace(result, interrupted_late=True)
    if interrupted is not None:
        result = dataclasses.replace(result, interrupted=True)
    return result


def _environment(request: CaptureRequest, raw: Path) -> tuple[dict[str, str], str | None, dict[str, str]]:
    """The command's environment (TORCH_TRACE set, variables we control removed, the Inductor cache by policy),
    the fresh cache directory to remove afterwards (if any), and the variables recorded in the manifest."""
    base_env = dict(os.environ if request.env is None else request.env)
    env = {k: v for k, v in base_env.items() if k not in _CONTROLLED}
    env["TORCH_TRACE"] = str(raw)
    fresh_cache: str | None = None
    if request.cache_dir is not None:
        # fresh + a directory: the caller wants the filled cache kept (e.g. for a warm run after it).
        if request.cache == "fresh" and request.cache_dir.exists() and any(request.cache_dir.iterdir()):
            raise DynamoDiffError(
                ErrorCode.INVALID_ARGUMENT, f"a fresh cache needs an empty directory; {request.cache_dir} is not"
            )
        request.cache_dir.mkdir(parents=True, exist_ok=True)
        env["TORCHINDUCTOR_CACHE_DIR"] = str(Path(request.cache_dir).absolute())
    elif request.cache == "fresh":
        fresh_cache = tempfile.mkdtemp(prefix="dynamo-diff-inductor-cache-")
        env["TORCHINDUCTOR_CACHE_DIR"] = fresh_cache
    recorded_env = {name: base_env[name] for name in sorted(set(request.environment)) if name in base_env}
    return env, fresh_cache, recorded_env


def _run(rec: _Recording, env: dict[str, str]) -> tuple[int | None, str | None, int]:
    """Run the command to its end: (exit code, why it was interrupted if it was, its pid). Ctrl-C or SIGTERM to
    capture stop the command and still write the bundle."""
    try:
        proc = subprocess.Popen(list(rec.request.command), cwd=rec.cwd, env=env)
    except OSError as err:
        shutil.rmtree(rec.bundle, ignore_errors=True)
        raise DynamoDiffError(
            ErrorCode.INVALID_ARGUMENT, f"cannot run {rec.request.command[0]!r}: {err.strerror or err}"
        ) from err
    interrupted: str | None = None
    with _sigterm_raises():
        try:
            exit_code: int | None = proc.wait()
        except KeyboardInterrupt:
            interrupted = "interrupted (SIGINT, Ctrl-C)"
            rec.say(f"{interrupted}: waiting for the command to stop, then writing the bundle")
            exit_code = _stop(proc, rec.say)
        except _TerminatedError:
            interrupted = "capture was terminated (SIGTERM)"
            rec.say(f"{interrupted}: stopping the command, then writing the bundle")
            proc.terminate()
            exit_code = _stop(proc, rec.say)
    return exit_code, interrupted, proc.pid


def _workload(
    rec: _Recording,
    exit_code: int | None,
    interrupted: str | None,
    started_at: str,
    wall: float,
    recorded_env: dict[str, str],
) -> Workload:
    """What ran and how it ended, as the manifest records it."""
    reason: str | None = None
    if interrupted is not None:
        reason = interrupted
    elif exit_code is not None and exit_code < 0:
        reason = f"the command was killed by {_signal_name(exit_code)}"
    elif exit_code != 0:
        reason = f"the command exited with code {exit_code}"
    return Workload(
        command=list(rec.request.command),
        cwd=str(rec.cwd),
        exit_code=exit_code,
        signal=_signal_name(exit_code) if exit_code is not None and exit_code < 0 else None,
        interrupted=interrupted is not None,
        started_at=started_at,
        wall_time_s=wall,
        completed=interrupted is None and exit_code == 0,
        incomplete_reason=reason,
        environment=recorded_env,
    )


def _no_trace_note(observations: Observations | None) -> str:
    """What capture says when torch wrote no trace file: a run that compiled no frame (it is imported all the same,
    as a capture of 0 compilations)."""
    if observations is None or not observations.processes:
        return (
            "the command wrote no trace file: no frame was compiled (whether torch.compile was called was not observed)"
        )
    calls = sum(c.calls for c in observations.compile_calls)
    if not calls:
        return "the command wrote no trace file: torch.compile was never called and no frame was compiled"
    targets = ", ".join(dict.fromkeys(c.target or "?" for c in observations.compile_calls))
    times = "once" if calls == 1 else f"{calls} times"
    return f"the command wrote no trace file: torch.compile was called {times} ({targets}) but no frame was compiled"


def compile_call_files(observations: Observations | None) -> set[str]:
    """The files of the user code that called torch.compile (the observer's `file:line`): snapshotted like the files
    the trace names, so a run that compiled nothing still has the source that called it."""
    if observations is None:
        return set()
    return {c.caller.rsplit(":", 1)[0] for c in observations.compile_calls if c.caller and ":" in c.caller}


def _observed_torch(observations: Observations | None) -> str | None:
    """torch.__version__ in the command's processes (its own first), when the trace cannot say."""
    if observations is None:
        return None
    return next((p.torch for p in observations.processes if p.torch), None)


def _finish(rec: _Recording, workload: Workload, observations: Observations | None) -> CaptureResult:
    request, bundle, cwd, limits, say = rec.request, rec.bundle, rec.cwd, rec.limits, rec.say
    raw = bundle / "raw"
    raw_files = sorted(p for p in raw.iterdir() if p.is_file() and not p.is_symlink())
    if not raw_files:
        say(_no_trace_note(observations))
    scan = scan_traces(raw_files, limits)

    top, revision, dirty = work_tree(cwd)
    root = Path(request.root).absolute() if request.root is not None else (top or cwd)
    if request.root is not None:
        _, revision, dirty = work_tree(root)
    named = scan.filenames | compile_call_files(observations)
    files, skipped = snapshot_sources(named, root, bundle, request.sources)

    report: ToolVersion | None = None
    if request.convert and raw_files:
        tlparse = request.tlparse or find_tlparse(request.command)
        if tlparse is None:
            say("tlparse not found: no report/ (install it with `pip install tlparse`, or pass --no-convert)")
        else:
            report = convert_with_tlparse(tlparse, raw_files, bundle / "report", say)

    declarations = request.declarations.model_copy(update={"cache_policy": request.cache})
    manifest = Manifest(
        label=request.label,
        producer=Producer(
            python=scan.python_version.split()[0] if scan.python_version else None,
            # A run that wrote no trace: the torch its processes imported, as the observer saw it.
            torch=scan.torch_version or _observed_torch(observations),
            torch_git=scan.torch_git,
            tlparse=report,
        ),
        declarations=declarations,
        workload=workload,
        sources=Sources(root=str(root), revision=revision, dirty=dirty, files=files),
        raw_traces=[TraceFile(path=f"raw/{p.name}", sha256=sha256_of(p)) for p in raw_files],
        observed=observations,
        report=report,
        extra={
            "captured_by": f"dynamo-diff-store {package_version('dynamo-diff-store')}",
            "skipped_sources": skipped,
            "ranks": sorted({r for r in scan.files.values() if r >= 0}),
        },
    )
    (bundle / "manifest.json").write_bytes(manifest_bytes(manifest))
    return CaptureResult(
        bundle=bundle, manifest=manifest, exit_code=workload.exit_code, incomplete_reason=workload.incomplete_reason
    )

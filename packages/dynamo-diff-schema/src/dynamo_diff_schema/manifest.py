"""The manifest of a capture bundle: what the user declared about a run and what `capture` recorded."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from dynamo_diff_schema.base import Model
from dynamo_diff_schema.version import SCHEMA_VERSION


class ToolVersion(Model):
    version: str | None = None
    exit_code: int | None = None


class Producer(Model):
    """Versions of what produced the trace. Torch's are read from the trace itself, never by importing torch."""

    python: str | None = None
    torch: str | None = None
    torch_git: str | None = None
    tlparse: ToolVersion | None = None


class Declarations(Model):
    """What the user says about the workload. Declared, not observed."""

    calls: int | list[dict[str, Any]] | None = Field(
        None,
        description="How many calls the workload makes, or (0.1 bundles) one description per call, e.g. "
        "{'shape': [4], 'dtype': 'float32'}; lists are compared canonically.",
    )
    seed: int | None = None
    backend: str | None = None
    dynamic: bool | Literal["auto"] | None = Field(
        None, description="torch.compile(dynamic=...): true, false, or 'auto' for torch's default (None)."
    )
    device: str | None = None
    warmup_calls: int | None = None
    measurement_calls: int | None = None
    backend_options: dict[str, Any] = Field(default_factory=dict, description="Options declared for the backend.")
    cache_policy: Literal["fresh", "warm", "custom"] | None = None
    extra: dict[str, str] = Field(default_factory=dict, description="Any other KEY=VALUE declared.")


class Workload(Model):
    command: list[str] = Field(default_factory=list)
    cwd: str | None = Field(None, description="The working directory the command ran in.")
    exit_code: int | None = Field(None, description="Negative: killed by that signal number (as Python reports it).")
    signal: str | None = Field(None, description="The signal that ended the command, e.g. 'SIGKILL'.")
    interrupted: bool | None = Field(None, description="Capture was interrupted (Ctrl-C, SIGTERM) while it ran.")
    started_at: str | None = Field(None, description="ISO 8601 UTC.")
    wall_time_s: float | None = None
    completed: bool | None = Field(None, description="Declared completion: exit code 0 and no interruption.")
    incomplete_reason: str | None = None
    environment: dict[str, str] = Field(default_factory=dict, description="Only the variables the user named.")


class SourceFile(Model):
    path: str = Field(description="Path relative to the project root, as the trace's code locations map to it.")
    captured_path: str | None = Field(None, description="The absolute path the trace names.")
    snapshot: str = Field(description="Path of the snapshot inside the bundle, e.g. 'sources/model.py'.")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class Sources(Model):
    root: str | None = None
    revision: str | None = None
    dirty: bool | None = None
    files: list[SourceFile] = Field(default_factory=list)


class TraceFile(Model):
    path: str
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class CompileCall(Model):
    """The arguments of `torch.compile` calls, as the observer saw them (one entry per distinct call site and
    arguments). Values that are not JSON are shown as their `repr`."""

    backend: str | None = Field(None, description="A backend's name, or a callable backend's qualified name.")
    mode: str | None = None
    dynamic: bool | None = Field(None, description="None: torch's default (automatic dynamic shapes).")
    fullgraph: bool = False
    options: dict[str, Any] = Field(default_factory=dict)
    disable: bool = False
    target: str | None = Field(None, description="What was compiled (function or module class), when known.")
    caller: str | None = Field(None, description="'file:line' of the user code that called torch.compile.")
    calls: int = Field(1, ge=1, description="How many times this call was made.")


class SeedCall(Model):
    """A random seed the program set (torch.manual_seed, random.seed, numpy.random.seed)."""

    function: str
    value: int | str | None = None
    calls: int = Field(1, ge=1)


Scalar = bool | int | float | str | None


class NamedValue(Model):
    name: str
    value: Scalar = None


class FrameValues(Model):
    """One user frame of the stack when a compilation started (not torch, the standard library, an installed
    package), with its small scalar locals as the observer read them."""

    file: str
    line: int | None = None
    function: str | None = None
    values: list[NamedValue] = Field(
        default_factory=list,
        description="Its locals of type bool, int, float, str (cut to 40 characters) or None, names not starting "
        "with '_', at most 8, in the frame's order (a function's first bound in co_varnames order; a module's last "
        "bound in the order they were bound); other values are never read.",
    )


class CompileStart(Model):
    """What the observer saw when Dynamo started a compilation (torch's compile start callback)."""

    compile_id: str = Field(description="torch's compile id as its callback gives it, e.g. '0/1' (no '#n').")
    frames: list[FrameValues] = Field(
        default_factory=list, description="The innermost 3 user frames of the stack, innermost first."
    )


class ObservedProcess(Model):
    """One Python process of the run (a multi-process job has several)."""

    pid: int
    parent_pid: int | None = None
    argv: list[str] = Field(default_factory=list)
    cwd: str | None = None
    rank: int | None = Field(None, description="The RANK environment variable, when set (torchrun, ...).")
    torch: str | None = Field(None, description="torch.__version__ in that process, when it imported torch.")
    exited: bool = Field(False, description="The process ran its exit handlers (it was not killed).")
    exception: str | None = Field(None, description="An uncaught exception that ended the process.")
    devices: list[str] = Field(default_factory=list, description="Accelerators initialised, e.g. 'cuda:0 NVIDIA A100'.")
    config_read: list[str] = Field(
        default_factory=list,
        description="The compiler configuration modules the observer could read in this process ('dynamo', "
        "'inductor'); empty: none (an earlier observer, or the process never imported them).",
    )
    config_overrides: dict[str, Any] = Field(
        default_factory=dict,
        description="Settings of those modules not at torch's default ('dynamo.<key>' / 'inductor.<key>' -> value), "
        "set in code or by an environment variable, as torch's config module tells; read at exit, or at the last "
        "torch.compile call of a process that did not exit. A key of a module read and not listed was at its default.",
    )
    compile_starts: list[CompileStart] = Field(
        default_factory=list,
        description="The start of each Dynamo compilation, in order (observer 4 and later, torch with "
        "torch._dynamo.callback_handler; at most 2,000 a process).",
    )
    compile_starts_dropped: int = Field(0, ge=0, description="Compilation starts past that bound, not kept.")


class Observations(Model):
    """What `dynamo-diff capture`'s observer saw inside the captured Python processes (never declared)."""

    observer: str = Field(description="Version of the observer that wrote this.")
    processes: list[ObservedProcess] = Field(default_factory=list)
    compile_calls: list[CompileCall] = Field(default_factory=list)
    seeds: list[SeedCall] = Field(default_factory=list)
    truncated: bool = Field(False, description="More was seen than is kept (bounded lists).")


class Manifest(Model):
    schema_version: str = SCHEMA_VERSION
    kind: Literal["dynamo-diff-bundle"] = "dynamo-diff-bundle"
    label: str | None = None
    producer: Producer = Field(default_factory=Producer)
    declarations: Declarations = Field(default_factory=Declarations)
    workload: Workload = Field(default_factory=Workload)
    sources: Sources = Field(default_factory=Sources)
    raw_traces: list[TraceFile] = Field(default_factory=list)
    observed: Observations | None = Field(None, description="What the observer saw; None: not observed.")
    report: ToolVersion | None = Field(None, description="The tlparse conversion, when one was made.")
    extra: dict[str, Any] = Field(default_factory=dict)

"""Capture's side of the observer (observer_site.py): set it up for the command, then read what it saw.

The observer runs inside the captured Python processes as their `sitecustomize`; each process appends JSON
lines to `<pid>.jsonl` in a private directory. `collect` folds them into the manifest's `observed` section:
distinct `torch.compile` calls and seeds with their counts, and one entry per process."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from dynamo_diff_schema.manifest import (
    CompileCall,
    CompileStart,
    FrameValues,
    NamedValue,
    Observations,
    ObservedProcess,
    SeedCall,
)

from dynamo_diff_store.recording import _observer_site as observer_site

# Bounds on what a manifest keeps, whatever the program did.
MAX_PROCESSES = 1024
MAX_CALLS = 200
MAX_LINE_BYTES = 64 * 1024
MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_STARTS = observer_site._MAX_STARTS  # compile starts kept per process
MAX_STARTS_TOTAL = 20_000  # and over all processes
MAX_FRAMES = observer_site._START_FRAMES
MAX_VALUES = observer_site._START_VALUES
MAX_VALUE_TEXT = observer_site._VALUE_TEXT


@dataclass(frozen=True)
class ObserverSetup:
    """The private directories of one capture's observer: `site` holds sitecustomize.py, `out` the reports."""

    root: Path

    @property
    def site(self) -> Path:
        return self.root / "site"

    @property
    def out(self) -> Path:
        return self.root / "out"

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def prepare(env: MutableMapping[str, str]) -> ObserverSetup:
    """Write the observer into a new private directory and point the command's environment at it."""
    setup = ObserverSetup(Path(tempfile.mkdtemp(prefix="dynamo-diff-observer-")))
    setup.site.mkdir()
    setup.out.mkdir()
    source = files("dynamo_diff_store.recording").joinpath("_observer_site.py").read_text(encoding="utf-8")
    (setup.site / "sitecustomize.py").write_text(source, encoding="utf-8")
    existing = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(setup.site) + (os.pathsep + existing if existing else "")
    env[observer_site.ENV_DIR] = str(setup.out)
    return setup


def _events(path: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES)
    except OSError:
        return out
    for line in data.splitlines():
        if len(line) > MAX_LINE_BYTES:
            continue
        try:
            event = json.loads(line)
        except ValueError:
            continue  # a line cut by a kill
        if isinstance(event, dict):
            out.append(event)
    return out


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _compile_call(event: Mapping[str, Any], calls: int) -> CompileCall:
    dynamic = event.get("dynamic")
    options = event.get("options")
    return CompileCall(
        backend=_str(event.get("backend")),
        mode=_str(event.get("mode")),
        dynamic=dynamic if isinstance(dynamic, bool) else None,
        fullgraph=event.get("fullgraph") is True,
        options=options if isinstance(options, dict) else {},
        disable=event.get("disable") is True,
        target=_str(event.get("target")),
        caller=_str(event.get("caller")),
        calls=max(calls, 1),
    )


def _seed(event: Mapping[str, Any], calls: int) -> SeedCall:
    value = event.get("value")
    return SeedCall(
        function=_str(event.get("function")) or "?",
        value=value if isinstance(value, int | str) and not isinstance(value, bool) else None,
        calls=max(calls, 1),
    )


def _scalar(value: Any) -> tuple[bool, Any]:
    if value is None or isinstance(value, bool | int | float):
        return True, value
    if isinstance(value, str):
        return True, value if len(value) <= MAX_VALUE_TEXT else value[: MAX_VALUE_TEXT - 1] + "…"
    return False, None


def _frame(entry: Any) -> FrameValues | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
        return None
    values: list[NamedValue] = []
    raw = entry.get("values")
    pairs = raw.items() if isinstance(raw, dict) else raw if isinstance(raw, list) else ()
    for pair in pairs:
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            continue
        name, value = pair
        keep, value = _scalar(value)
        if keep and isinstance(name, str) and len(values) < MAX_VALUES:
            values.append(NamedValue(name=name[:MAX_VALUE_TEXT], value=value))
    return FrameValues(
        file=entry["file"], line=_int(entry.get("line")), function=_str(entry.get("function")), values=values
    )


def _compile_start(event: Mapping[str, Any]) -> CompileStart | None:
    compile_id = _str(event.get("compile_id"))
    frames = event.get("frames")
    if compile_id is None or not isinstance(frames, list):
        return None
    kept = [f for f in (_frame(entry) for entry in frames[:MAX_FRAMES]) if f is not None]
    return CompileStart(compile_id=compile_id, frames=kept)


def _key(event: Mapping[str, Any]) -> str:
    return json.dumps({k: v for k, v in event.items() if k != "e"}, sort_keys=True, default=repr)


def collect(setup: ObserverSetup, root_pid: int | None) -> Observations:
    """What every process reported. The command's own process (`root_pid`) comes first. Counts come from a
    process's exit report when it ran its exit handlers, else each call seen counts once."""
    processes: list[ObservedProcess] = []
    compile_calls: dict[str, tuple[dict[str, Any], int]] = {}
    seeds: dict[str, tuple[dict[str, Any], int]] = {}
    truncated = False
    starts_left = MAX_STARTS_TOTAL
    reports = sorted(setup.out.glob("*.jsonl")) if setup.out.is_dir() else []
    if len(reports) > MAX_PROCESSES:
        truncated = True
        reports = reports[:MAX_PROCESSES]
    for report in reports:
        events = _events(report)
        start = next((e for e in events if e.get("e") == "start"), None)
        if start is None or _int(start.get("pid")) is None:
            continue
        exit_event = next((e for e in events if e.get("e") == "exit"), None)
        torch_event = next((e for e in events if e.get("e") == "torch"), None)
        exception = next((e for e in events if e.get("e") == "exception"), None)
        config = next((e for e in reversed(events) if e.get("e") == "config"), None) or {}
        read = config.get("read")
        read = read if isinstance(read, list) else []
        overrides = config.get("overrides")
        overrides = overrides if isinstance(overrides, dict) else {}
        totals: dict[tuple[str, str], int] = {}
        if exit_event is not None and isinstance(exit_event.get("counts"), list):
            for entry in exit_event["counts"]:
                if isinstance(entry, list) and len(entry) == 3 and isinstance(entry[2], int):
                    if entry[0] == "truncated":
                        truncated = True
                        continue
                    try:
                        parsed = json.loads(entry[1])
                    except (TypeError, ValueError):
                        continue
                    if isinstance(parsed, dict):
                        totals[(str(entry[0]), _key(parsed))] = entry[2]
        for event in events:
            kind = event.get("e")
            if kind not in ("compile", "seed"):
                continue
            key = _key(event)
            table = compile_calls if kind == "compile" else seeds
            n = totals.get((str(kind), key), 1)
            if key in table:
                table[key] = (table[key][0], table[key][1] + n)
            elif len(table) < MAX_CALLS:
                table[key] = (event, n)
            else:
                truncated = True
        starts: list[CompileStart] = []
        dropped = _int((exit_event or {}).get("compile_starts_dropped")) or 0
        for event in events:
            if event.get("e") != "compile_start":
                continue
            entry = _compile_start(event)
            if entry is None:
                continue
            if len(starts) >= MAX_STARTS or starts_left <= 0:
                dropped += 1
                continue
            starts.append(entry)
            starts_left -= 1
        argv = (exit_event or start).get("argv")
        processes.append(
            ObservedProcess(
                pid=start["pid"],
                parent_pid=_int(start.get("ppid")),
                argv=[str(a) for a in argv] if isinstance(argv, list) else [],
                cwd=_str(start.get("cwd")),
                rank=_int(start.get("rank")),
                torch=_str(torch_event.get("version")) if torch_event else None,
                exited=exit_event is not None,
                exception=_str(exception.get("text")) if exception else None,
                devices=[str(d) for d in (exit_event or {}).get("devices") or [] if isinstance(d, str)],
                config_read=[m for m in read if m in ("dynamo", "inductor")],
                config_overrides={str(k): v for k, v in overrides.items() if isinstance(k, str)},
                compile_starts=starts,
                compile_starts_dropped=dropped,
            )
        )
    processes.sort(key=lambda p: (p.pid != root_pid, p.rank if p.rank is not None else -1, p.pid))
    return Observations(
        observer=observer_site.OBSERVER_VERSION,
        processes=processes,
        compile_calls=[_compile_call(event, n) for event, n in compile_calls.values()],
        seeds=[_seed(event, n) for event, n in seeds.values()],
        truncated=truncated,
    )

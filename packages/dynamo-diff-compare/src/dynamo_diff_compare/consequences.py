"""What comes with a change: differences that follow from another difference, or that change nothing counted.

A torch upgrade changes `torch_git` with it, adds and removes settings, and changes some settings' defaults;
`torch.compile(dynamic=True)` makes torch patch Dynamo settings while it compiles; two scripts have two commands.
None of these is something the user set. Each rule here says when a difference is such a consequence (explained,
listed under the difference it comes with, confounding nothing) and when it cannot tell.

Which value is a version's default is known from:
- a table per torch version (torch_defaults/<version>.json, written by tools/torch_defaults.py from the real wheel:
  what the version's own serialisers record with no TORCH* environment variable); keys whose default depends on the
  machine are listed there and never called a default;
- capture's observer, which records the settings not at their default in the captured process (the manifest's
  `observed.processes[].config_overrides`).
Without either, a differing setting stays a difference, saying that default and user setting could not be told
apart.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from typing import Any

from dynamo_diff_schema.capture import Capture

from dynamo_diff_compare.setting_values import canonical, normalize

# torch/_dynamo/eval_frame.py, make_set_enable_dynamic (torch 2.6 to 2.14): torch.compile(dynamic=True) patches
# assume_static_by_default=False for the length of each compilation; dynamic=False patches
# automatic_dynamic_shapes=False and assume_static_by_default=True; dynamic=None (the default) patches nothing.
# The compilation_metrics written inside that window record the patched values.
DERIVED_FROM_DYNAMIC: dict[bool, dict[str, bool]] = {
    True: {"dynamo.assume_static_by_default": False},
    False: {"dynamo.automatic_dynamic_shapes": False, "dynamo.assume_static_by_default": True},
}
DYNAMIC_KEYS = frozenset(key for derived in DERIVED_FROM_DYNAMIC.values() for key in derived)

# How the `why` of a setting that came with a version begins (verdict_text groups them by it).
ONLY_ONE_VERSION = "a setting only torch"
EACH_VERSION_DEFAULT = "the default of each version"

# torchrun's options that only choose where the ranks meet (the rendezvous), never what they compile.
LAUNCHER_OPTIONS = frozenset(
    {
        "--master_port",
        "--master-port",
        "--master_addr",
        "--master-addr",
        "--rdzv_endpoint",
        "--rdzv-endpoint",
        "--rdzv_id",
        "--rdzv-id",
        "--rdzv_conf",
        "--rdzv-conf",
        "--run_id",
        "--run-id",
    }
)
# Interpreters and launchers whose first script argument is the program.
_INTERPRETER_OPTIONS_WITH_VALUE = frozenset({"-X", "-W"})


def base_version(version: str | None) -> str | None:
    """'2.13.0' for '2.13.0+cpu': defaults tables are per release, whatever the build."""
    return None if not version else version.split("+", 1)[0]


@dataclass(frozen=True)
class DefaultsTable:
    torch: str
    defaults: dict[str, Any]
    machine_dependent: frozenset[str]


@cache
def defaults_table(version: str | None) -> DefaultsTable | None:
    """The shipped defaults of a torch release, or None when we have no table for it."""
    base = base_version(version)
    if not base or "/" in base or "\\" in base:
        return None
    resource = files("dynamo_diff_compare").joinpath("torch_defaults", f"{base}.json")
    try:
        data = json.loads(resource.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return DefaultsTable(
        torch=str(data.get("torch", base)),
        defaults=dict(data.get("defaults") or {}),
        machine_dependent=frozenset(data.get("machine_dependent") or ()),
    )


def known_tables() -> list[str]:
    """The torch releases we ship defaults for."""
    folder = files("dynamo_diff_compare").joinpath("torch_defaults")
    return sorted(p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json"))


@dataclass
class SideDefaults:
    """What one capture tells about which of its settings are defaults."""

    torch: str | None
    table: DefaultsTable | None
    observer_read: set[str] = field(default_factory=set)  # config families the observer read ('dynamo', ...)
    overrides: dict[str, Any] = field(default_factory=dict)  # key -> value the user set (observer)

    def is_default(self, key: str, value: Any) -> bool | None:
        """True: `value` is this torch version's default for `key`; False: the user set it; None: cannot tell."""
        family = key.split(".", 1)[0]
        if family in self.observer_read and key in self.overrides:
            return False
        if self.table is not None:
            if key in self.table.machine_dependent:
                return None
            if key in self.table.defaults:
                return canonical(normalize(self.table.defaults[key])) == canonical(value)
        if family in self.observer_read:
            return True
        return None


def side_defaults(capture: Capture) -> SideDefaults:
    info = capture.capture
    out = SideDefaults(torch=info.producer.torch, table=defaults_table(info.producer.torch))
    observed = info.manifest.observed if info.manifest is not None else None
    if observed is not None:
        for process in observed.processes:
            out.observer_read.update(process.config_read)
            out.overrides.update(process.config_overrides)
    return out


def _text(value: Any) -> str:
    return json.dumps(value, default=str) if not isinstance(value, str) else value


@dataclass(frozen=True)
class Explanation:
    follows_from: str | None
    why: str


def explain_setting(
    key: str,
    baseline: Any,
    candidate: Any,
    sides: tuple[SideDefaults, SideDefaults],
    *,
    dynamic: tuple[list[Any] | None, list[Any] | None],
) -> tuple[Explanation | None, str | None]:
    """(explanation, None) when the setting's difference comes with another difference; (None, why it stays)."""
    base, cand = sides
    # Derived from torch.compile(dynamic=...): each side holds what torch patches for its own argument.
    if key in DYNAMIC_KEYS:
        b_dyn, c_dyn = dynamic
        if b_dyn is not None and c_dyn is not None and len(b_dyn) == 1 and len(c_dyn) == 1 and b_dyn != c_dyn:
            expected = []
            for side, value, dyn in ((base, baseline, b_dyn[0]), (cand, candidate, c_dyn[0])):
                derived = DERIVED_FROM_DYNAMIC.get(dyn) if isinstance(dyn, bool) else None
                if derived is not None and key in derived:
                    expected.append(canonical(derived[key]) == canonical(value))
                else:
                    expected.append(side.is_default(key, value) is True)
            if all(expected):
                b_word, c_word = (_dynamic_word(b_dyn[0]), _dynamic_word(c_dyn[0]))
                return (
                    Explanation(
                        "compile.dynamic",
                        f"torch sets it from torch.compile's dynamic argument while it compiles ({b_word}: "
                        f"{_text(baseline)}; {c_word}: {_text(candidate)})",
                    ),
                    None,
                )
    versions = (base_version(base.torch), base_version(cand.torch))
    if None in versions or versions[0] == versions[1]:
        set_on = [
            name
            for name, side, value in (("baseline", base, baseline), ("candidate", cand, candidate))
            if value != "<absent>" and side.is_default(key, value) is False
        ]
        return None, (f"set by the user in the {' and the '.join(set_on)}" if set_on else None)
    b_ver, c_ver = versions
    absent = "<absent>"
    if absent in (baseline, candidate):
        only, side, value = (c_ver, cand, candidate) if baseline == absent else (b_ver, base, baseline)
        if side.is_default(key, value) is False:
            return None, f"set by the user in torch {only}, which has this setting ({_other(only, versions)} has not)"
        return Explanation("torch_version", f"{ONLY_ONE_VERSION} {only} has"), None
    b_default = base.is_default(key, baseline)
    c_default = cand.is_default(key, candidate)
    if b_default and c_default:
        return (
            Explanation(
                "torch_version",
                f"{EACH_VERSION_DEFAULT} ({b_ver}: {_text(baseline)}; {c_ver}: {_text(candidate)})",
            ),
            None,
        )
    set_on = [name for name, known in (("baseline", b_default), ("candidate", c_default)) if known is False]
    if set_on:
        return None, f"set by the user in the {' and the '.join(set_on)} (not that torch version's default)"
    unknown = [f"torch {v}" for v, known in ((b_ver, b_default), (c_ver, c_default)) if known is None]
    return None, (
        f"could not tell default from user setting for {' and '.join(unknown)} (no defaults table for that "
        f"version, no observer; we ship tables for {', '.join(known_tables())})"
    )


def _other(version: str | None, versions: tuple[str | None, str | None]) -> str:
    return f"torch {versions[1] if version == versions[0] else versions[0]}"


def _dynamic_word(value: Any) -> str:
    return "dynamic=None (the default)" if value is None else f"dynamic={value}"


# -- the command and the program ---------------------------------------------------------------------------------


def program_of(argv: list[str], cwd: str | None) -> str | None:
    """The script (or `-m module`) a command runs, relative to where it ran: the program a comparison compares.
    A launcher (torchrun, python -m torch.distributed.run) runs the first script among its arguments."""
    if not argv:
        return None
    prefix = cwd.rstrip("/") + "/" if cwd else None
    args = argv[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "-m" and i + 1 < len(args):
            module = args[i + 1]
            if module in ("torch.distributed.run", "torch.distributed.launch"):
                i += 2
                continue
            return f"-m {module}"
        if arg == "-c":
            return "-c"
        if arg.endswith(".py"):
            return arg[len(prefix) :] if prefix and arg.startswith(prefix) else arg
        i += 2 if arg in _INTERPRETER_OPTIONS_WITH_VALUE else 1
    name = argv[0].rsplit("/", 1)[-1]
    return None if name.startswith("python") else name


def same_program(a: str, b: str) -> bool:
    """One program whatever the folder it ran from: a bundle names its script relative to where it ran, a bare
    trace by the absolute path the process saw, two checkouts under two roots (`-m module` compared whole)."""
    if a.startswith("-") or b.startswith("-"):
        return a == b
    return a.replace("\\", "/").rsplit("/", 1)[-1] == b.replace("\\", "/").rsplit("/", 1)[-1]


def words_text(baseline: str, candidate: str) -> str:
    """'--master_port 29531 -> 29532' with the option each changed value belongs to."""
    b, c = baseline.split(), candidate.split()
    parts = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=b, b=c, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        before, after = " ".join(b[i1:i2]), " ".join(c[j1:j2])
        if tag == "delete":
            parts.append(f"{before} removed")
        elif tag == "insert":
            parts.append(f"{after} added")
        else:
            option = b[i1 - 1] if i1 > 0 and b[i1 - 1].startswith("-") else None
            parts.append(f"{option + ' ' if option else ''}{before} -> {after}")
    return "; ".join(parts)


def launcher_only(baseline: str, candidate: str) -> bool:
    """Every word that differs is the value of a rendezvous option (`--master_port 29531` / `--master_port=29531`)."""
    b, c = baseline.split(), candidate.split()
    opcodes = [op for op in difflib.SequenceMatcher(a=b, b=c, autojunk=False).get_opcodes() if op[0] != "equal"]
    if not opcodes:
        return False
    for tag, i1, i2, j1, j2 in opcodes:
        if tag != "replace" or i2 - i1 != 1 or j2 - j1 != 1:
            return False
        before, after = b[i1], c[j1]
        if "=" in before and "=" in after:
            option, option_after = before.split("=", 1)[0], after.split("=", 1)[0]
            if option != option_after or option not in LAUNCHER_OPTIONS:
                return False
        elif i1 == 0 or b[i1 - 1] not in LAUNCHER_OPTIONS:
            return False
    return True

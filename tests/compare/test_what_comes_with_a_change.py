"""What comes with a change, on real captures: a torch upgrade (torch 2.13.0 vs 2.14.1 of one transformers model),
torch.compile(dynamic=True) against the default, and two different scripts.

The expected differences are read straight from the raw traces (the first compilation_metrics' dynamo_config and
inductor_config of each log, parsed here with json) and from the workloads' oracles (which settings the workload set
itself): never from our analyser.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from dynamo_diff_cli.hints import CLI_HINTS
from dynamo_diff_compare import compare_captures, comparison_markdown, evaluate, user_sources
from dynamo_diff_compare.consequences import defaults_table, known_tables, launcher_only, program_of, words_text
from dynamo_diff_compare.render import comparability_lines
from dynamo_diff_schema import validate

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures/captures"
_PREFIX = re.compile(r"^[VIWE]\d{4} [\d:.]+ \d+ \S+\] (\{.*)$")


def captured(store, name: str):  # type: ignore[no-untyped-def]
    capture = store.import_path(CAPTURES / name).capture
    return capture, user_sources(*store.source_files(capture.capture.id))


def bare(store, name: str):  # type: ignore[no-untyped-def]
    """The same run's trace log imported on its own: no manifest, no observer."""
    (log,) = sorted((CAPTURES / name / "raw").glob("*.log"))
    return store.import_path(log).capture


def oracle(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads((CAPTURES / name / "oracle.json").read_text())


def trace_config(name: str) -> tuple[str, dict[str, object]]:
    """(torch version, {'dynamo.key': value}) of the first compilation_metrics of the capture's log."""
    (log,) = sorted((CAPTURES / name / "raw").glob("*.log"))
    for line in log.read_text(encoding="utf-8").split("\n"):
        match = _PREFIX.match(line)
        if match and '"compilation_metrics"' in line[:200]:
            metrics = json.loads(match.group(1))["compilation_metrics"]
            config = {}
            for family in ("dynamo", "inductor"):
                for key, value in json.loads(metrics[f"{family}_config"]).items():
                    config[f"{family}.{key}"] = value
            return metrics["pytorch_version"], config
    raise AssertionError(f"{name}: no compilation_metrics")


def differing(a: dict[str, object], b: dict[str, object]) -> set[str]:
    """Keys whose values differ; absolute paths name a place in the environment, not a setting (docs/COMPARING.md)."""

    def value(config: dict[str, object], key: str) -> str:
        v = config.get(key, "<absent>")
        return "<path>" if isinstance(v, str) and v.startswith("/") else json.dumps(v)

    return {k for k in set(a) | set(b) if value(a, k) != value(b, k)}


def test_a_torch_upgrade_is_one_difference_with_what_comes_with_it(store) -> None:  # type: ignore[no-untyped-def]
    base, b_src = captured(store, "llama_213")
    cand, c_src = captured(store, "llama_214")
    (b_version, b_config), (c_version, c_config) = trace_config("llama_213"), trace_config("llama_214")
    assert (b_version, c_version) == (oracle("llama_213")["torch_version"], oracle("llama_214")["torch_version"])
    settings = differing(b_config, c_config)
    assert len(settings) > 20  # the two versions' configurations really differ
    # The workload set no setting, and the observer saw none set: every setting that differs came with the version.
    assert "settings_set" not in oracle("llama_213") and "settings_set" not in oracle("llama_214")

    comparison = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src)
    validate(comparison.model_dump(mode="json"), "comparison")
    comp = comparison.comparability
    assert comp.verdict == "confounded"
    assert [d.key for d in comp.differences] == ["torch_version"]
    explained = {e.key: e for e in comp.explained}
    assert set(explained) == settings | {"torch_git"}
    assert all(e.follows_from == "torch_version" for e in explained.values())
    only_one = {k for k in settings if k not in b_config or k not in c_config}
    assert {k for k, e in explained.items() if (e.why or "").startswith("a setting only torch")} == only_one
    for key in settings - only_one:
        assert explained[key].why == (
            f"the default of each version (2.13.0: {json.dumps(b_config[key])}; 2.14.1: {json.dumps(c_config[key])})"
        )
    # One headline that reads as the upgrade it is, not one line per setting.
    lines = comparability_lines(comp, CLI_HINTS)  # as the CLI words the next step
    assert lines[0] == (
        f"comparability: CONFOUNDED: torch upgrade {b_version} -> {c_version}, and {len(settings) + 1} differences "
        "that come with it"
    )
    assert len(lines) == 4 and lines[1].startswith("  with it: torch_git; ")
    # The defaults torch changed between the two versions are counted and each is listed with its two values
    # (four: all fit); the settings only one version has are counted per version (from the traces' own configs).
    defaults = settings - only_one
    assert f"{len(defaults)} default(s) torch changed between the versions" in lines[1]
    for key in defaults:
        assert f"{key} {json.dumps(b_config[key])} -> {json.dumps(c_config[key])}" in lines[1], key
    only_in = {v: sum(1 for k in only_one if k in config) for v, config in (("2.13.0", b_config), ("2.14.1", c_config))}
    assert f"{len(only_one)} setting(s) only one of the versions has" in lines[1]
    for version, n in only_in.items():
        assert f"{n} only in {version}" in lines[1]
    assert lines[2] == "  effect: changes Dynamo, its guards, its defaults and the backends"
    assert comp.differences[0].effect == "changes Dynamo, its guards, its defaults and the backends"
    assert "--change torch_version" in lines[3]

    # Named as the change under test, the pair is comparable, and the same differences are listed under it.
    named = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src, intended=["torch_version"])
    assert named.comparability.verdict == "comparable"
    assert [d.key for d in named.comparability.intended] == ["torch_version"]
    assert {e.key for e in named.comparability.explained} == settings | {"torch_git"}
    assert not named.comparability.differences
    markdown = comparison_markdown(named)
    assert f"the change under test: torch upgrade {b_version} -> {c_version}, and {len(settings) + 1} differences" in (
        markdown
    )
    # The gate passes a confounding-sensitive check on it, and fails it without the change named.
    assert evaluate(named, max_new_recompiles=0, fail_on_confounded=True).passed
    unnamed = evaluate(
        compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src),
        max_new_recompiles=0,
        fail_on_confounded=True,
    )
    assert not unnamed.passed
    assert any(line.startswith("FAIL comparability: confounded (torch_version, and ") for line in unnamed.lines)


def test_bare_traces_of_an_upgrade_know_the_defaults_from_the_shipped_tables(store) -> None:  # type: ignore[no-untyped-def]
    """No manifest and no observer: which value is a version's default comes from the tables shipped for
    2.13.0 and 2.14.1 alone."""
    settings = differing(trace_config("llama_213")[1], trace_config("llama_214")[1])
    comparison = compare_captures(bare(store, "llama_213"), bare(store, "llama_214"), intended=["torch_version"])
    comp = comparison.comparability
    assert comp.verdict == "comparable", comp
    assert {e.key for e in comp.explained} == settings | {"torch_git"}
    assert defaults_table("2.13.0+cpu") is not None and defaults_table("2.14.1+cu130") is not None
    assert known_tables() == ["2.13.0", "2.14.1"]


def test_a_setting_the_user_made_in_an_upgrade_still_confounds(store) -> None:  # type: ignore[no-untyped-def]
    """llama_214_tuned sets two Dynamo settings itself (its oracle says which): one to a value other than both
    versions' defaults, which stays a difference under --change torch_version; one back to 2.13.0's default, which
    makes the two runs equal in that key."""
    base, b_src = captured(store, "llama_213")
    cand, c_src = captured(store, "llama_214_tuned")
    set_by_workload = oracle("llama_214_tuned")["settings_set"]
    b_config, c_config = trace_config("llama_213")[1], trace_config("llama_214_tuned")[1]
    changed = {k for k in set_by_workload if json.dumps(b_config.get(k)) != json.dumps(c_config.get(k))}
    assert changed == {"dynamo.recompile_limit"}
    for given in (["torch_version"], []):
        comparison = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src, intended=given)
        comp = comparison.comparability
        assert comp.verdict == "confounded"
        keys = [d.key for d in comp.differences]
        assert set(keys) == changed | ({"torch_version"} if not given else set())
        (limit,) = [d for d in comp.differences if d.key == "dynamo.recompile_limit"]
        assert (limit.baseline, limit.candidate) == (b_config["dynamo.recompile_limit"], 16)
        assert limit.why is not None and "set by the user in the candidate" in limit.why
        assert limit.effect == "changes how often a function may recompile before it runs eagerly"
        assert not set(set_by_workload) & {e.key for e in comp.explained}
        lines = comparability_lines(comp, CLI_HINTS)
        if not given:
            # The upgrade still reads as an upgrade, and the setting the user made is named beside it.
            assert lines[0] == (
                f"comparability: CONFOUNDED: torch upgrade {oracle('llama_213')['torch_version']} -> "
                f"{oracle('llama_214_tuned')['torch_version']}, and {len(comp.explained)} differences that come with "
                "it; 1 other difference(s), 1 of them set by the user (dynamo.recompile_limit)"
            )
        effects = [line.strip() for line in lines if line.strip().startswith("effect: ")]
        assert "effect: changes how often a function may recompile before it runs eagerly" in effects


def test_settings_torch_derives_from_dynamic_true_come_with_it(store) -> None:  # type: ignore[no-untyped-def]
    """dynamic_flag_v1/v2 differ in one argument (dynamic=True); the traces differ in what torch patches for it."""
    base, b_src = captured(store, "dynamic_flag_v1")
    cand, c_src = captured(store, "dynamic_flag_v2")
    settings = differing(trace_config("dynamic_flag_v1")[1], trace_config("dynamic_flag_v2")[1])
    assert settings == {"dynamo.assume_static_by_default"}
    comparison = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src)
    comp = comparison.comparability
    assert comp.verdict == "confounded" and [d.key for d in comp.differences] == ["compile.dynamic"]
    (derived,) = comp.explained
    assert (derived.key, derived.follows_from, derived.baseline, derived.candidate) == (
        "dynamo.assume_static_by_default",
        "compile.dynamic",
        True,
        False,
    )
    named = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src, intended=["compile.dynamic"])
    assert named.comparability.verdict == "comparable"
    assert evaluate(named, max_new_recompiles=0, fail_on_confounded=True).passed
    # The counts say what dynamic=True did (the oracles: backend graphs), now on one readable row.
    (row,) = named.functions
    assert row.baseline.counts.observed_compilation_identities == oracle("dynamic_flag_v1")["backend_invocations"]
    assert row.candidate.counts.observed_compilation_identities == oracle("dynamic_flag_v2")["backend_invocations"]


def test_two_scripts_are_two_programs(store) -> None:  # type: ignore[no-untyped-def]
    base, b_src = captured(store, "dynamic_flag_v1")
    cand, c_src = captured(store, "llama_213")
    comp = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src).comparability
    (program,) = [d for d in comp.differences if d.key == "program"]
    assert (program.baseline, program.candidate) == ("model.py", "fixtures/workloads/llama_upgrade.py")
    assert comparability_lines(comp)[0].startswith("comparability: CONFOUNDED: ")
    assert any(
        "different programs: 'model.py' -> 'fixtures/workloads/llama_upgrade.py'" in x
        for x in comparability_lines(comp)
    )


@pytest.mark.parametrize(
    ("argv", "cwd", "program"),
    [
        (["/venv/bin/python", "/work/proj/train.py", "--lr", "1"], "/work/proj", "train.py"),
        (["python3", "-u", "-X", "dev", "sub/train.py"], "/p", "sub/train.py"),
        (["python", "-m", "mypkg.train", "--x"], "/p", "-m mypkg.train"),
        (["torchrun", "--nproc_per_node", "2", "--master_port", "29531", "train.py"], "/p", "train.py"),
        (["python", "-m", "torch.distributed.run", "--nproc-per-node=2", "gen.py"], "/p", "gen.py"),
        (["python", "-c", "import torch"], "/p", "-c"),
        (["python"], "/p", None),
    ],
)
def test_the_program_of_a_command(argv: list[str], cwd: str, program: str | None) -> None:
    assert program_of(argv, cwd) == program


def test_a_rendezvous_port_is_a_word_level_difference_that_confounds_nothing() -> None:
    a = "torchrun --nproc_per_node 2 --master_port 29531 train.py --steps 3"
    b = "torchrun --nproc_per_node 2 --master_port 29532 train.py --steps 3"
    assert launcher_only(a, b)
    assert words_text(a, b) == "--master_port 29531 -> 29532"
    assert launcher_only("torchrun --rdzv-endpoint=h:1 t.py", "torchrun --rdzv-endpoint=h:2 t.py")
    assert not launcher_only(a, b.replace("--steps 3", "--steps 4"))
    assert words_text(a, b.replace("--steps 3", "--steps 4")) == "--master_port 29531 -> 29532; --steps 3 -> 4"
    assert not launcher_only(a, a.replace("--nproc_per_node 2", "--nproc_per_node 4"))


def test_two_launches_on_other_rendezvous_ports_are_comparable(store) -> None:  # type: ignore[no-untyped-def]
    """torchrun_port_a/_b: one 2-rank job launched by torchrun with --master-port 29531 and 29532 (their manifests'
    commands, and each rank's oracle, say so)."""
    ports = {oracle(n)["ranks"]["0"]["master_port"] for n in ("torchrun_port_a", "torchrun_port_b")}
    assert ports == {"29531", "29532"}
    base, b_src = captured(store, "torchrun_port_a")
    cand, c_src = captured(store, "torchrun_port_b")
    comparison = compare_captures(base, cand, baseline_sources=b_src, candidate_sources=c_src)
    comp = comparison.comparability
    assert comp.verdict == "comparable", comp
    (command,) = comp.explained
    assert command.key == "command" and command.follows_from is None
    assert "(--master-port 29531 -> 29532)" in (command.why or "")
    lines = comparability_lines(comp)
    assert any(line.startswith("  not confounding: command (recorded): only a launcher's rendezvous") for line in lines)
    assert {c.key for c in comp.checked} >= {"program", "compile.backend", "dynamo config"}
    assert evaluate(comparison, max_new_recompiles=0, fail_on_confounded=True).passed


def test_a_break_in_a_library_is_one_site_in_two_environments() -> None:
    """A torch upgrade installed in another environment: transformers' graph break at the same line of the same
    file (GPT-2 under torch 2.13.0 and 2.14.1, each in its own venv) is not a break that moved."""
    from dynamo_diff_compare.changes import row_changes
    from dynamo_diff_schema.compilation import Compilation, CompileIdentity, GraphBreak

    def compilation(venv: str) -> Compilation:
        gb = GraphBreak(
            gb_id="gb0010",
            reason="Unsupported",
            user_file=f"/work/{venv}/lib/python3.11/site-packages/transformers/modeling_utils.py",
            user_line=4778,
        )
        return Compilation(
            compile_id="0/0", identity=CompileIdentity(frame_id=0), outcome="completed", graph_breaks=[gb]
        )

    changes = row_changes([compilation(".venv-a")], [compilation(".venv-b")])
    assert not [c for c in changes if c.kind.startswith("graph_break")]
    moved = row_changes(
        [compilation(".venv-a")],
        [
            compilation(".venv-b").model_copy(
                update={"graph_breaks": [compilation(".venv-b").graph_breaks[0].model_copy(update={"user_line": 4790})]}
            )
        ],
    )
    (change,) = [c for c in moved if c.kind == "graph_break_moved"]
    assert change.summary.startswith("graph break moved transformers/modeling_utils.py:4778 -> ")


def test_words_added_or_removed_from_a_command() -> None:
    assert words_text("python app.py use", "python app.py") == "use removed"
    assert words_text("python app.py", "python app.py --fast") == "--fast added"


def test_bare_traces_of_two_scripts_are_two_programs(store) -> None:  # type: ignore[no-untyped-def]
    """With no command recorded, the program is the script the trace's stacks start from (the outermost,
    module-level frame of torch's dynamo_start stacks); a bundle and its own bare log are one program."""
    workload = {n: json.loads((CAPTURES / n / "fixture.json").read_text())["workload"] for n in ("stable", "shape")}
    comp = compare_captures(bare(store, "stable"), bare(store, "shape")).comparability
    (program,) = [d for d in comp.differences if d.key == "program"]
    assert program.source == "observed"
    assert program.baseline.endswith("/" + workload["stable"]) and program.candidate.endswith("/" + workload["shape"])
    base, b_src = captured(store, "stable")
    same = compare_captures(base, bare(store, "stable"), baseline_sources=b_src).comparability
    assert "program" not in {d.key for d in same.differences}
    assert [c.value for c in same.checked if c.key == "program"] == [workload["stable"]]

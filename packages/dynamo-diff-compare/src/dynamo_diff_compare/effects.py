"""What a differing key changes, in one short phrase per key family: the words a reader needs to judge whether a
difference can explain what the rows show ("changes which guards dynamic shapes produce"). `affects` (the areas,
comparability.py) says which counts; the phrase says how.

The first entry whose pattern fits the key wins: an exact key (or a key under it), a prefix ending in '.' or '_',
or a prefix and a word the rest of the key holds (`dynamo.*shape`).
"""

from __future__ import annotations

# (pattern, phrase). Phrases start with a verb and name torch's own mechanism, never a guess about this run.
_EFFECTS: tuple[tuple[str, str], ...] = (
    ("torch_version", "changes Dynamo, its guards, its defaults and the backends"),
    ("torch_git", "another build of torch: its code, not only its version number"),
    ("python", "changes the bytecode Dynamo traces"),
    ("devices", "changes the devices guards check and kernels are made for"),
    ("accelerators", "changes what the backend can compile for"),
    ("command", "changes what the program does (its arguments)"),
    ("program", "another script: other functions are compiled"),
    ("env.", "an environment variable the program or torch reads"),
    ("seeds", "changes the random values the program draws (shapes and values guarded on)"),
    ("seed", "changes the random values the program draws (shapes and values guarded on)"),
    ("cache_state", "changes cache hits and compile time, not what is compiled"),
    ("compile.backend", "changes which backend compiles the graphs, not what Dynamo captures"),
    ("backend", "changes which backend compiles the graphs, not what Dynamo captures"),
    ("compile.mode", "changes how the backend compiles, not what Dynamo captures"),
    ("compile.options", "changes how the backend compiles, not what Dynamo captures"),
    ("backend_options", "changes how the backend compiles, not what Dynamo captures"),
    ("compile.dynamic", "changes whether shapes are traced as dynamic: which guards shapes produce"),
    ("dynamic", "changes whether shapes are traced as dynamic: which guards shapes produce"),
    ("compile.fullgraph", "turns a graph break into a failed compilation"),
    ("calls", "changes how many calls the program makes: chances to recompile"),
    ("warmup_calls", "changes how many calls the program makes: chances to recompile"),
    ("measurement_calls", "changes how many calls the program makes: chances to recompile"),
    ("device", "changes the devices guards check and kernels are made for"),
    ("extra.", "a declared property of the run"),
    ("inductor config", "Inductor ran on one side only: what the backend generates"),
    ("dynamo config", "changes how Dynamo traces and guards"),
    # Dynamo's settings, by what torch uses them for (torch/_dynamo/config.py).
    ("dynamo.recompile_limit", "changes how often a function may recompile before it runs eagerly"),
    ("dynamo.cache_size_limit", "changes how often a function may recompile before it runs eagerly"),
    ("dynamo.accumulated_", "changes how often a function may recompile before it runs eagerly"),
    ("dynamo.fail_on_recompile_limit_hit", "turns a recompile-limit hit into an error"),
    ("dynamo.suppress_errors", "changes whether a failed compile raises or the frame runs eagerly"),
    ("dynamo.capture_scalar_outputs", "changes whether .item() and friends break the graph"),
    ("dynamo.capture_dynamic_output_shape_ops", "changes whether data-dependent shapes (nonzero) break the graph"),
    ("dynamo.automatic_dynamic", "changes which guards dynamic shapes produce and when a new shape recompiles"),
    ("dynamo.assume_static_by_default", "changes which guards dynamic shapes produce and when a new shape recompiles"),
    ("dynamo.mark_static", "changes which guards dynamic shapes produce and when a new shape recompiles"),
    ("dynamo.force_", "changes which guards dynamic shapes produce and when a new shape recompiles"),
    ("dynamo.specialize_", "changes whether Python numbers are guarded by value or traced as dynamic"),
    ("dynamo.allow_unspec", "changes whether Python numbers are guarded by value or traced as dynamic"),
    ("dynamo.*dynamic", "changes which guards dynamic shapes produce and when a new shape recompiles"),
    ("dynamo.*shape", "changes which guards dynamic shapes produce and when a new shape recompiles"),
    ("dynamo.*guard", "changes which guards are installed and how they are checked"),
    ("dynamo.inline_inbuilt_nn_modules", "changes how nn.Module code is traced and guarded"),
    ("dynamo.*graph_break", "changes where and how the graph breaks"),
    ("dynamo.", "changes how Dynamo traces and guards"),
    ("inductor.*cache", "changes whether compiled artifacts come from a cache: hits and compile time"),
    ("inductor.", "changes what Inductor generates, not what Dynamo captures"),
)


def _fits(pattern: str, key: str) -> bool:
    if "*" in pattern:
        prefix, word = pattern.split("*", 1)
        return key.startswith(prefix) and word in key[len(prefix) :]
    if pattern.endswith((".", "_")):
        return key.startswith(pattern)
    return key == pattern or key.startswith(pattern + ".")


def effect(key: str) -> str:
    """The phrase for `key` ('changes which guards dynamic shapes produce ...')."""
    for pattern, phrase in _EFFECTS:
        if _fits(pattern, key):
            return phrase
    return "can change what is compiled"

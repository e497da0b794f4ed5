"""The top-level help, as Typer renders it 80 columns wide, plain and in colour (a terminal's):
`dynamo-diff --help` prints it without importing Typer. Written by tools/write_help.py; a test checks it
against Typer's own."""

# ruff: noqa: E501 (the coloured lines are 80 columns of text and their escape codes)

HELP = """
 Usage: dynamo-diff [OPTIONS] COMMAND [ARGS]...

 Compare two recorded torch.compile runs and see, per source function, what
 changed and why.

╭─ Options ────────────────────────────────────────────────────────────────────╮
│ --store                       PATH  Store directory (default: .dynamo-diff   │
│                                     in the current directory).               │
│                                     [env var: DYNAMO_DIFF_STORE]             │
│ --version                           Print the version and exit.              │
│ --install-completion                Install completion for the current       │
│                                     shell.                                   │
│ --show-completion                   Show completion for the current shell,   │
│                                     to copy it or customize the              │
│                                     installation.                            │
│ --help                -h            Show this message and exit.              │
╰──────────────────────────────────────────────────────────────────────────────╯
╭─ Commands ───────────────────────────────────────────────────────────────────╮
│ capture    Run a command with torch's trace on; import the bundle it writes. │
│ import     Import a recorded run (or a folder of runs) into the store.       │
│ analyze    What one capture says: counts, compilations, breaks, failures.    │
│ list       List the captures in the store (short ids and labels).            │
│ show       Show one stored capture (like analyze, but never imports).        │
│ rm         Remove a capture from the store.                                  │
│ compare    Compare two captures per source function, or the ranks of one.    │
│ check      A CI gate: exit 0 when within bounds, 1 when not, 2 on error.     │
│ demo       Compare the retained edit pair (a worked example).                │
│ evidence   The trace records behind the numbers: an index, or one excerpt.   │
│ export     Write captures as Parquet tables.                                 │
│ source     A compiled function's captured source, a file, or a code change.  │
│ schema     The JSON Schema of a document kind.                               │
│ serve-mcp  Serve the comparison model to coding agents over MCP (stdio).     │
│ verify     Check every stored file and evidence range against its sha256.    │
╰──────────────────────────────────────────────────────────────────────────────╯

 Questions -> commands (REF: a capture's id, prefix, label, or a path;
 -f json on each: a document, its fields: schema --kind KIND):
  record a run: capture [--label L] -- python train.py; or import PATH
    (a trace holds what torch.compile did, not what the program printed)
  why did it recompile, break or fail; did the program go on?
    analyze REF --by-function [--function NAME]   (without: in trace order)
    add --source: the run's own scripts after its report, in the same call
    analyze runs/   (every run of a folder, or A B C: each per function)
    e.g. analyze run1 --function Net.forward -f json
  what changed between two runs, per function; between the ranks of one?
    compare A B [--change KEY] [--source-map FILE] [-f html -o FILE]
    compare REF --ranks [0 1]   (the first against the others)
    e.g. compare base cand --change torch_version
  the trace record behind a number?
    evidence REF [ID...] [--grep PATTERN] [--in-config] [--max-matches N]
    no id: the index (--kind K --function NAME --compile-id 0/1 --offset N;
    one record left: it), with --grep every record's matches; an id: one
    record [--full]; ids: each; ID --diff [REF:]ID2: two records' diff
    e.g. evidence run1 --grep 'size mismatch' --kind recompile_reasons
  a function's code, a file, or its change between two runs?
    source REF FUNCTION [--context N] [--diff B]; source REF --file PATH
    e.g. source base Net.forward --diff cand
  a CI gate (exit 0: within bounds, 1: not, 2: error)?
    check A B --max-new-recompiles 0 [--max-new-graph-breaks N] [--change KEY]


"""

HELP_COLOUR = (
    "\u001b[1m                                                                                \u001b[0m\n"
    "\u001b[1m \u001b[0m\u001b[1;33mUsage: \u001b[0m\u001b[1mdynamo-diff [OPTIONS] COMMAND [ARGS]...\u001b[0m\u001b[1m                                \u001b[0m\u001b[1m \u001b[0m\n"
    "\u001b[1m                                                                                \u001b[0m\n"
    " Compare two recorded torch.compile runs and see, per source function, what\n"
    " changed and why.\n"
    "\n"
    "\u001b[2m╭─\u001b[0m\u001b[2m Options \u001b[0m\u001b[2m───────────────────────────────────────────────────────────────────\u001b[0m\u001b[2m─╮\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m-\u001b[0m\u001b[1;36m-store\u001b[0m                       \u001b[1;33mPATH\u001b[0m  Store directory (default: .dynamo-diff   \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m                                     in the current directory).               \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m                                     \u001b[2;33m[env var: DYNAMO_DIFF_STORE]            \u001b[0m \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m-\u001b[0m\u001b[1;36m-version\u001b[0m                     \u001b[1;33m    \u001b[0m  Print the version and exit.              \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m-\u001b[0m\u001b[1;36m-install\u001b[0m\u001b[1;36m-completion\u001b[0m          \u001b[1;33m    \u001b[0m  Install completion for the current       \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m                                     shell.                                   \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m-\u001b[0m\u001b[1;36m-show\u001b[0m\u001b[1;36m-completion\u001b[0m             \u001b[1;33m    \u001b[0m  Show completion for the current shell,   \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m                                     to copy it or customize the              \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m                                     installation.                            \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m-\u001b[0m\u001b[1;36m-help\u001b[0m                \u001b[1;32m-h\u001b[0m      \u001b[1;33m    \u001b[0m  Show this message and exit.              \u001b[2m│\u001b[0m\n"
    "\u001b[2m╰──────────────────────────────────────────────────────────────────────────────╯\u001b[0m\n"
    "\u001b[2m╭─\u001b[0m\u001b[2m Commands \u001b[0m\u001b[2m──────────────────────────────────────────────────────────────────\u001b[0m\u001b[2m─╮\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mcapture  \u001b[0m\u001b[1;36m \u001b[0m Run a command with torch's trace on; import the bundle it writes. \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mimport   \u001b[0m\u001b[1;36m \u001b[0m Import a recorded run (or a folder of runs) into the store.       \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36manalyze  \u001b[0m\u001b[1;36m \u001b[0m What one capture says: counts, compilations, breaks, failures.    \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mlist     \u001b[0m\u001b[1;36m \u001b[0m List the captures in the store (short ids and labels).            \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mshow     \u001b[0m\u001b[1;36m \u001b[0m Show one stored capture (like analyze, but never imports).        \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mrm       \u001b[0m\u001b[1;36m \u001b[0m Remove a capture from the store.                                  \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mcompare  \u001b[0m\u001b[1;36m \u001b[0m Compare two captures per source function, or the ranks of one.    \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mcheck    \u001b[0m\u001b[1;36m \u001b[0m A CI gate: exit 0 when within bounds, 1 when not, 2 on error.     \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mdemo     \u001b[0m\u001b[1;36m \u001b[0m Compare the retained edit pair (a worked example).                \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mevidence \u001b[0m\u001b[1;36m \u001b[0m The trace records behind the numbers: an index, or one excerpt.   \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mexport   \u001b[0m\u001b[1;36m \u001b[0m Write captures as Parquet tables.                                 \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36msource   \u001b[0m\u001b[1;36m \u001b[0m A compiled function's captured source, a file, or a code change.  \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mschema   \u001b[0m\u001b[1;36m \u001b[0m The JSON Schema of a document kind.                               \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mserve-mcp\u001b[0m\u001b[1;36m \u001b[0m Serve the comparison model to coding agents over MCP (stdio).     \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mverify   \u001b[0m\u001b[1;36m \u001b[0m Check every stored file and evidence range against its sha256.    \u001b[2m│\u001b[0m\n"
    "\u001b[2m╰──────────────────────────────────────────────────────────────────────────────╯\u001b[0m\n"
    "\n"
    " Questions -> commands (REF: a capture's id, prefix, label, or a path;\n"
    " \u001b[1;32m-f\u001b[0m json on each: a document, its fields: schema \u001b[1;36m-\u001b[0m\u001b[1;36m-kind\u001b[0m KIND):\n"
    "  record a run: capture [\u001b[1;36m-\u001b[0m\u001b[1;36m-label\u001b[0m L] -- python train.py; or import PATH\n"
    "    (a trace holds what torch.compile did, not what the program printed)\n"
    "  why did it recompile, break or fail; did the program go on?\n"
    "    analyze REF \u001b[1;36m-\u001b[0m\u001b[1;36m-by\u001b[0m\u001b[1;36m-function\u001b[0m [\u001b[1;36m-\u001b[0m\u001b[1;36m-function\u001b[0m NAME]   (without: in trace order)\n"
    "    add \u001b[1;36m-\u001b[0m\u001b[1;36m-source\u001b[0m: the run's own scripts after its report, in the same call\n"
    "    analyze runs/   (every run of a folder, or A B C: each per function)\n"
    "    e.g. analyze run1 \u001b[1;36m-\u001b[0m\u001b[1;36m-function\u001b[0m Net.forward \u001b[1;32m-f\u001b[0m json\n"
    "  what changed between two runs, per function; between the ranks of one?\n"
    "    compare A B [\u001b[1;36m-\u001b[0m\u001b[1;36m-change\u001b[0m KEY] [\u001b[1;36m-\u001b[0m\u001b[1;36m-source\u001b[0m\u001b[1;36m-map\u001b[0m FILE] [\u001b[1;32m-f\u001b[0m html \u001b[1;32m-o\u001b[0m FILE]\n"
    "    compare REF \u001b[1;36m-\u001b[0m\u001b[1;36m-ranks\u001b[0m [0 1]   (the first against the others)\n"
    "    e.g. compare base cand \u001b[1;36m-\u001b[0m\u001b[1;36m-change\u001b[0m torch_version\n"
    "  the trace record behind a number?\n"
    "    evidence REF [ID...] [\u001b[1;36m-\u001b[0m\u001b[1;36m-grep\u001b[0m PATTERN] [\u001b[1;36m-\u001b[0m\u001b[1;36m-in\u001b[0m\u001b[1;36m-config\u001b[0m] [\u001b[1;36m-\u001b[0m\u001b[1;36m-max\u001b[0m\u001b[1;36m-matches\u001b[0m N]\n"
    "    no id: the index (\u001b[1;36m-\u001b[0m\u001b[1;36m-kind\u001b[0m K \u001b[1;36m-\u001b[0m\u001b[1;36m-function\u001b[0m NAME \u001b[1;36m-\u001b[0m\u001b[1;36m-compile\u001b[0m\u001b[1;36m-id\u001b[0m 0/1 \u001b[1;36m-\u001b[0m\u001b[1;36m-offset\u001b[0m N;\n"
    "    one record left: it), with \u001b[1;36m-\u001b[0m\u001b[1;36m-grep\u001b[0m every record's matches; an id: one\n"
    "    record [\u001b[1;36m-\u001b[0m\u001b[1;36m-full\u001b[0m]; ids: each; ID \u001b[1;36m-\u001b[0m\u001b[1;36m-diff\u001b[0m [REF:]ID2: two records' diff\n"
    "    e.g. evidence run1 \u001b[1;36m-\u001b[0m\u001b[1;36m-grep\u001b[0m 'size mismatch' \u001b[1;36m-\u001b[0m\u001b[1;36m-kind\u001b[0m recompile_reasons\n"
    "  a function's code, a file, or its change between two runs?\n"
    "    source REF FUNCTION [\u001b[1;36m-\u001b[0m\u001b[1;36m-context\u001b[0m N] [\u001b[1;36m-\u001b[0m\u001b[1;36m-diff\u001b[0m B]; source REF \u001b[1;36m-\u001b[0m\u001b[1;36m-file\u001b[0m PATH\n"
    "    e.g. source base Net.forward \u001b[1;36m-\u001b[0m\u001b[1;36m-diff\u001b[0m cand\n"
    "  a CI gate (exit 0: within bounds, 1: not, 2: error)?\n"
    "    check A B \u001b[1;36m-\u001b[0m\u001b[1;36m-max\u001b[0m\u001b[1;36m-new-recompiles\u001b[0m 0 [\u001b[1;36m-\u001b[0m\u001b[1;36m-max\u001b[0m\u001b[1;36m-new-graph-breaks\u001b[0m N] [\u001b[1;36m-\u001b[0m\u001b[1;36m-change\u001b[0m KEY]\n"
    "\n"
    "\n"
)

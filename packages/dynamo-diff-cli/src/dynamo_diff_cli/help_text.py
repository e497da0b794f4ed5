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
│ capture    Run a command with torch's structured trace on, write a bundle    │
│            (trace, sources, manifest) and import it.                         │
│ import     Import a recorded run (or a folder of runs) into the store and    │
│            print its id, per-rank counts and notices.                        │
│ analyze    Show what one capture says: counts per rank, every compilation    │
│            with its evidence, notices.                                       │
│ list       List the captures in the store: each with its short id (what the  │
│            other commands accept) and whole label.                           │
│ show       Show one stored capture (like analyze, but never imports).        │
│ rm         Remove a capture from the store.                                  │
│ compare    Compare two captures per source function, or the ranks of one     │
│            capture.                                                          │
│ check      A CI gate: exit 0 when within bounds, 1 when not, 2 on error.     │
│ demo       Compare the retained edit pair (an edit that removes a recompile  │
│            and adds a compiled helper).                                      │
│ evidence   The records behind the numbers: a paged index, or one             │
│            hash-checked excerpt.                                             │
│ export     Write captures as tables (captures, ranks, functions, frames,     │
│            compilations, phase_times, guards, graph_breaks, evidence;        │
│            comparison with --compare): one Parquet file each, every row with │
│            its capture id.                                                   │
│ source     Print the captured source snapshot of a compiled function or of a │
│            file (never the working-tree file), or with a second capture the  │
│            code change between two runs.                                     │
│ schema     Print the JSON Schema (draft 2020-12) of a document kind (a JSON  │
│            document a command prints names its kind).                        │
│ serve-mcp  Serve the comparison model to coding agents over MCP (stdio);     │
│            reads traces only below --allow-root.                             │
│ verify     Check the whole store: every imported file and evidence range     │
│            against its sha256, and the index.                                │
╰──────────────────────────────────────────────────────────────────────────────╯

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
    "\u001b[2m│\u001b[0m \u001b[1;36mcapture  \u001b[0m\u001b[1;36m \u001b[0m Run a command with torch's structured trace on, write a bundle    \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m          \u001b[0m (trace, sources, manifest) and import it.                         \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mimport   \u001b[0m\u001b[1;36m \u001b[0m Import a recorded run (or a folder of runs) into the store and    \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m          \u001b[0m print its id, per-rank counts and notices.                        \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36manalyze  \u001b[0m\u001b[1;36m \u001b[0m Show what one capture says: counts per rank, every compilation    \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m          \u001b[0m with its evidence, notices.                                       \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mlist     \u001b[0m\u001b[1;36m \u001b[0m List the captures in the store: each with its short id (what the  \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m          \u001b[0m other commands accept) and whole label.                           \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mshow     \u001b[0m\u001b[1;36m \u001b[0m Show one stored capture (like analyze, but never imports).        \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mrm       \u001b[0m\u001b[1;36m \u001b[0m Remove a capture from the store.                                  \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mcompare  \u001b[0m\u001b[1;36m \u001b[0m Compare two captures per source function, or the ranks of one     \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m          \u001b[0m capture.                                                          \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mcheck    \u001b[0m\u001b[1;36m \u001b[0m A CI gate: exit 0 when within bounds, 1 when not, 2 on error.     \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mdemo     \u001b[0m\u001b[1;36m \u001b[0m Compare the retained edit pair (an edit that removes a recompile  \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m          \u001b[0m and adds a compiled helper).                                      \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mevidence \u001b[0m\u001b[1;36m \u001b[0m The records behind the numbers: a paged index, or one             \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m          \u001b[0m hash-checked excerpt.                                             \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mexport   \u001b[0m\u001b[1;36m \u001b[0m Write captures as tables (captures, ranks, functions, frames,     \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m          \u001b[0m compilations, phase_times, guards, graph_breaks, evidence;        \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m          \u001b[0m comparison with \u001b[1;36m-\u001b[0m\u001b[1;36m-compare\u001b[0m): one Parquet file each, every row with \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m          \u001b[0m its capture id.                                                   \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36msource   \u001b[0m\u001b[1;36m \u001b[0m Print the captured source snapshot of a compiled function or of a \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m          \u001b[0m file (never the working-tree file), or with a second capture the  \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m          \u001b[0m code change between two runs.                                     \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mschema   \u001b[0m\u001b[1;36m \u001b[0m Print the JSON Schema (draft 2020-12) of a document kind (a JSON  \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m          \u001b[0m document a command prints names its kind).                        \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mserve-mcp\u001b[0m\u001b[1;36m \u001b[0m Serve the comparison model to coding agents over MCP (stdio);     \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m          \u001b[0m reads traces only below \u001b[1;36m-\u001b[0m\u001b[1;36m-allow\u001b[0m\u001b[1;36m-root\u001b[0m.                             \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36mverify   \u001b[0m\u001b[1;36m \u001b[0m Check the whole store: every imported file and evidence range     \u001b[2m│\u001b[0m\n"
    "\u001b[2m│\u001b[0m \u001b[1;36m          \u001b[0m against its sha256, and the index.                                \u001b[2m│\u001b[0m\n"
    "\u001b[2m╰──────────────────────────────────────────────────────────────────────────────╯\u001b[0m\n"
    "\n"
)

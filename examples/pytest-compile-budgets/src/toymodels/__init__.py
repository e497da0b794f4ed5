"""A tiny package whose tests show the Dynamo Diff pytest plugin: budgets, snapshots, and three projects' own
compile tests rewritten with it (README.md)."""

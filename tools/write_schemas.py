"""Regenerate the JSON Schemas committed inside dynamo-diff-schema from the models.

Run after changing a model: `uv run python tools/write_schemas.py`. A test fails when they drift.
"""

from __future__ import annotations

from pathlib import Path

from dynamo_diff_schema.documents import KINDS, generate_schema, render_schema, schema_filename

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "packages/dynamo-diff-schema/src/dynamo_diff_schema/schemas"


def main() -> None:
    SCHEMA_DIR.mkdir(parents=True, exist_ok=True)
    for kind in KINDS:
        path = SCHEMA_DIR / schema_filename(kind)
        path.write_text(render_schema(generate_schema(kind)), encoding="utf-8")
        print(f"wrote {path.relative_to(SCHEMA_DIR.parents[4])}")


if __name__ == "__main__":
    main()

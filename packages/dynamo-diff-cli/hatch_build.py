"""The demo's two captures ship in the package (dynamo_diff_cli/demo/), copied from the clone's fixtures when a
wheel or an sdist is built from the clone; a wheel built from the sdist finds them already in the package."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

DEMO = ("edit_v1", "edit_v2")


class DemoCaptures(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        fixtures = Path(self.root).resolve().parents[1] / "fixtures" / "captures"
        inside = "src/dynamo_diff_cli/demo" if self.target_name == "sdist" else "dynamo_diff_cli/demo"
        for name in DEMO:
            if (fixtures / name).is_dir():
                build_data["force_include"][str(fixtures / name)] = f"{inside}/{name}"

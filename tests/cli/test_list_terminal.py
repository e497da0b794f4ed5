"""`dynamo-diff list` in a real terminal (a pseudo-terminal sized with TIOCSWINSZ, not only COLUMNS): each
capture's label whole and its id at the length the other commands accept, no line wider than the terminal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from dynamo_diff_schema import SHORT_ID_LENGTH

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from terminal_shots import in_terminal as shown_in_terminal

ROOT = Path(__file__).resolve().parents[2]
EXECUTABLE = str(Path(sys.executable).with_name("dynamo-diff"))
# Two labels that agree on their first 40 characters (a cut label made them look the same).
LABELS = {
    "edit_v1": "shape-specialization-of-the-gate-before-the-edit-removed-it",
    "edit_v2": "shape-specialization-of-the-gate-after-the-edit",
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("list") / "store"
    for name, label in LABELS.items():
        subprocess.run(
            [EXECUTABLE, "--store", str(where), "import", str(ROOT / "fixtures/captures" / name), "--label", label],
            capture_output=True,
            check=True,
        )
    return where


def in_terminal(args: list[str], columns: int, store: Path) -> str:
    """What `dynamo-diff ARGS` prints on a terminal `columns` wide (tools/terminal_shots.py's pseudo-terminal)."""
    code, text = shown_in_terminal(args, columns, store=store)
    assert code == 0, text
    return text


@pytest.mark.parametrize("columns", [80, 100, 200])
def test_list_shows_labels_and_ids_whole(store: Path, columns: int) -> None:
    listed = json.loads(
        subprocess.run(
            [EXECUTABLE, "--store", str(store), "list", "--format", "json"], capture_output=True, check=True
        ).stdout
    )["captures"]
    text = in_terminal(["list"], columns, store)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= columns, text
    assert "…" not in text
    assert {row["label"] for row in listed} == set(LABELS.values())
    for row in listed:
        short = row["id"][:SHORT_ID_LENGTH]
        line = next(line for line in lines if short in line)  # id and label on one line
        assert row["label"] in line and row["id"][: SHORT_ID_LENGTH + 1] not in line
        assert row["torch_version"] in text


def test_the_listed_short_id_is_accepted_by_the_other_commands(store: Path) -> None:
    text = in_terminal(["list"], 80, store)
    short = text.split()[0]
    assert len(short) == SHORT_ID_LENGTH
    shown = subprocess.run(
        [EXECUTABLE, "--store", str(store), "show", short, "--format", "json"], capture_output=True, check=True
    )
    assert json.loads(shown.stdout)["capture"]["id"].startswith(short)

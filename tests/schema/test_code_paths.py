"""Which files are library code: the rule that decides whether a compiled frame is the user's function."""

from __future__ import annotations

import pytest
from dynamo_diff_schema import library_path


@pytest.mark.parametrize(
    ("path", "short"),
    [
        # Paths torch 2.13 recorded in the fixtures' dynamo_start stacks (a venv, and a package outside any venv).
        (".venv-torch/lib/python3.11/site-packages/torch/_dynamo/external_utils.py", "torch/_dynamo/external_utils.py"),
        ("/tmp/dynamo-diff-lib-x/site-packages/wraplib/__init__.py", "wraplib/__init__.py"),
        ("/usr/lib/python3/dist-packages/transformers/utils/deprecation.py", "transformers/utils/deprecation.py"),
        ("/usr/lib/python3.11/contextlib.py", "contextlib.py"),
        ("<frozen runpy>", "<frozen runpy>"),
        # A torch source checkout (a developer build): torch's own subpackages and modules.
        ("/src/pytorch/torch/nn/modules/module.py", "torch/nn/modules/module.py"),
        ("/src/pytorch/torch/_dynamo/eval_frame.py", "torch/_dynamo/eval_frame.py"),
        ("C:\\venv\\Lib\\site-packages\\torch\\_dynamo\\external_utils.py", "torch/_dynamo/external_utils.py"),
    ],
)
def test_library_files_are_named_from_their_package_on(path: str, short: str) -> None:
    assert library_path(path) == short


@pytest.mark.parametrize(
    "path",
    [
        "/work/project/train.py",
        "model.py",
        "/home/u/torch/model.py",  # a project folder called torch, not torch's own tree
        "/home/u/torch_examples/nn/layers.py",
        "/home/u/lib/python_tools/train.py",
        "<string>",
        "",
        None,
    ],
)
def test_the_users_files_are_not_library_code(path: str | None) -> None:
    assert library_path(path) is None

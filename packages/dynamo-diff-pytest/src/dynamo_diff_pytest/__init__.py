"""A pytest plugin that checks the compile behaviour of torch.compile in a project's own tests.

`plugin` is the module pytest loads (entry point `pytest11`); it imports neither torch nor the analyser until a
test asks for them, so that an installed plugin costs nothing where no test uses it."""

from __future__ import annotations

from importlib.metadata import version as _version

__version__ = _version("dynamo-diff-pytest")

"""Which source files are library code (torch, the standard library, installed packages) and which are the user's.

Dynamo sometimes compiles a frame that is not the user's function: torch's own `wrap_inline` wrapper (`inner`
in torch/_dynamo/external_utils.py) around a torch.nn module, or a library's decorator around a model's forward.
Such a row is attributed to the nearest user frame of the stack torch records (docs/SEMANTICS.md). A path is
library code when it lies in an installed-packages folder (`site-packages`, `dist-packages`), in Python's standard
library (`lib/pythonX.Y/`), is a frozen module (`<frozen runpy>`), or lies in a torch source tree (a `torch`
folder followed by one of torch's own subpackages). Everything else, including files with no path, is the user's.
"""

from __future__ import annotations

import re

_INSTALLED = re.compile(r"(?:^|/)(?:site-packages|dist-packages)/(?P<rest>.+)$")
_STDLIB = re.compile(r"(?:^|/)lib/python\d+(?:\.\d+)?/(?P<rest>[^/].*)$")
_TORCH_TREE = re.compile(
    r"(?:^|/)(?P<rest>torch/(?:_[A-Za-z0-9_]+|nn|fx|utils|autograd|optim|distributed|amp|export|compiler|cuda|"
    r"functional\.py|overrides\.py)(?:/.*)?)$"
)


def library_path(path: str | None) -> str | None:
    """The short path of a library file (from its package on: 'torch/_dynamo/external_utils.py'), or None when
    the file is the user's."""
    if not path:
        return None
    norm = path.replace("\\", "/")
    if norm.startswith("<frozen "):
        return norm
    for pattern in (_INSTALLED, _STDLIB, _TORCH_TREE):
        if (match := pattern.search(norm)) is not None:
            return match["rest"]
    return None

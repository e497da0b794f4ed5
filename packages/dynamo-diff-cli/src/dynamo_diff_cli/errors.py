"""Map DynamoDiffError to a one-line message on stderr and a non-zero exit; never a traceback for user input."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, ParamSpec, TypeVar

import typer

if TYPE_CHECKING:
    from dynamo_diff_schema.errors import DynamoDiffError

P = ParamSpec("P")
R = TypeVar("R")

ERROR_EXIT = 2


def report_error(err: DynamoDiffError, *, as_json: bool = False) -> None:
    if as_json:
        sys.stderr.write(json.dumps(err.info().model_dump(mode="json"), sort_keys=True) + "\n")
    else:
        from dynamo_diff_compare import with_hint

        from dynamo_diff_cli.hints import CLI_HINTS

        sys.stderr.write(f"error[{err.code.value}]: {with_hint(err.message, err.hint, CLI_HINTS)}\n")


def handles_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Decorator for commands: a DynamoDiffError becomes `error[code]: message` and exit code 2."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        from dynamo_diff_schema.errors import DynamoDiffError  # here, not at start-up: `--help` stays fast

        try:
            return func(*args, **kwargs)
        except DynamoDiffError as err:
            report_error(err, as_json=kwargs.get("output_format") == "json" or kwargs.get("as_json") is True)
            raise typer.Exit(ERROR_EXIT) from None

    return wrapper

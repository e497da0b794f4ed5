"""Help in the conventional style: a value's placeholder is `PATH`, `TEXT`, `INTEGER` or its metavar (never
`<str>` or `{path}`), an enumerated option shows its choices as `[a|b|c]`, a flag shows none, and a usage line
names an argument `ID`, `[EVIDENCE_ID]` or `CAPTURE...`.

Typer renders each parameter's placeholder from its own type description (`<str>`, `<list[str]>`, `<bool>` for a
flag); the app's group and commands use the classes below, which give each parameter the conventional rendering
when the help is built. Parsing is untouched."""

from __future__ import annotations

import inspect
from typing import Any

from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

# Typer 0.29 carries its own copy of click (typer._click): its contexts and formatters are typed Any here.

# Placeholder of a value by its Python type (click's own words).
TYPE_WORDS = {"str": "TEXT", "int": "INTEGER", "float": "FLOAT", "bool": "BOOLEAN"}


def placeholder(param: TyperOption | TyperArgument) -> str:
    """The conventional placeholder of a parameter that takes a value."""
    if param.metavar is not None:
        return param.metavar
    desc = param.type_descriptor
    if desc.is_choice and desc.choices is not None:
        return "[" + "|".join(str(getattr(c, "value", c)) for c in desc.choices) + "]"
    if desc.is_path:
        return "FILE" if desc.path_type == "file" else "DIRECTORY" if desc.path_type == "directory" else "PATH"
    if desc.is_ranged:
        return "INTEGER" if desc.ranged_type_name == "int" else "FLOAT"
    annotation = desc.annotation
    if desc.is_list:
        annotation = getattr(annotation, "__args__", (str,))[0]
    name = getattr(annotation, "__name__", str(annotation))
    return TYPE_WORDS.get(name, name.upper())


class ConventionalOption(TyperOption):
    def display_type(self, ctx: Any) -> str:
        return placeholder(self)

    def display_type_rich(self, ctx: Any) -> str | None:
        if self.is_flag or self.count:
            return None
        return placeholder(self)


class ConventionalArgument(TyperArgument):
    @property
    def display_name_raw(self) -> str:
        return self.metavar or (self.name or "").upper()

    def _rich_display_name(self) -> str:
        return self._usage_display_name()

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        if self.nargs != 1 and not name.endswith("..."):
            name += "..."
        return name if self.required or name.startswith("[") else f"[{name}]"

    def display_type(self, ctx: Any) -> str:
        return ""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None


def prose(text: str | None) -> str | None:
    """A help text as rich prints it: paragraphs rewrapped to the terminal (a docstring's line breaks are the
    source's, not the reader's) and square brackets printed as written (`dynamo-diff[ray]` is not markup)."""
    if not text:
        return text
    from rich.markup import escape

    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(escape(" ".join(line.strip() for line in p.splitlines())) for p in paragraphs)


def prepare(command: Any, ctx: Any) -> None:
    """Ready a command's help texts (its own, its parameters', its subcommands') for rich, once."""
    if getattr(command, "_prose_ready", False):
        return
    command._prose_ready = True
    command.help = prose(command.help)
    for param in command.get_params(ctx):
        if isinstance(param, TyperOption | TyperArgument):
            param.help = prose(param.help)
    if isinstance(command, TyperGroup):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None:
                sub.help = prose(sub.help)
                sub._prose_ready = True  # type: ignore[attr-defined]


def conventional(params: list[Any]) -> list[Any]:
    for param in params:
        if type(param) is TyperOption:
            param.__class__ = ConventionalOption
        elif type(param) is TyperArgument:
            param.__class__ = ConventionalArgument
    return params


class ConventionalCommand(TyperCommand):
    def get_params(self, ctx: Any) -> list[Any]:
        return conventional(super().get_params(ctx))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        prepare(self, ctx)
        super().format_help(ctx, formatter)


class ConventionalGroup(TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return conventional(super().get_params(ctx))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        prepare(self, ctx)
        super().format_help(ctx, formatter)

"""Compile ids (`frame/frame_compile_id`, with the marks torch and the reader add) in the order torch made them."""

from __future__ import annotations


def compile_order(compile_id: str) -> tuple[int, ...]:
    """A sort key: the numbers of the id, left to right (`0/1` before `0/10`, `1/0` after every `0/N`)."""
    return tuple(int(part) for part in compile_id.replace("!", "").replace("#", "/").split("/") if part.isdigit())

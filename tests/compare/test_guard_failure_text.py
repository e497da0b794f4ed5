"""A failing guard's text in the report: torch's words, less object addresses and a trailing link, and a text too
long for the line ends at a whole sentence (or a whole word), never inside one."""

from __future__ import annotations

from dynamo_diff_compare.changes import guard_failure_text


def test_addresses_and_a_trailing_link_are_left_out() -> None:
    text = (
        "BACKEND_MATCH failure: detected different backend callables. Cached backend: B(compiler='eager') "
        "(id=0x7f07374d2590). New backend: B(compiler='aot_eager') (id=0x7f07373cfed0). More details: "
        "https://example.org/issues/1  # score.py:3 in score"
    )
    assert guard_failure_text(text) == (
        "BACKEND_MATCH failure: detected different backend callables. Cached backend: B(compiler='eager'). "
        "New backend: B(compiler='aot_eager')."
    )


def test_a_long_text_ends_at_its_last_whole_sentence() -> None:
    sentences = [f"Sentence number {i} says something about the guard." for i in range(12)]
    said = guard_failure_text(" ".join(sentences), limit=200)
    assert said.endswith(". …") and len(said) <= 200
    kept = said.removesuffix(" …").split(". ")
    assert all(s.rstrip(".") + "." in sentences for s in kept)


def test_a_long_text_without_sentences_ends_at_a_whole_word() -> None:
    said = guard_failure_text("word " * 100, limit=60)
    assert said == "word " * 11 + "…"

"""A rank's evidence file: each byte range a compilation refers to, with the sha256 of its bytes, one JSON line
each (the rank is spliced in when the capture is assembled)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import IO

from dynamo_diff_store.analysis._classify import EvidenceRef

# A string as json.dumps writes it (json.dumps(text) is this C function behind a few Python calls).
_quote: Callable[[str], str] = json.encoder.encode_basestring_ascii


class EvidenceWriter:
    """Hashes each referenced byte range as the reference is made (the bytes were just read, so they are
    in the page cache) and appends the entry to the rank's evidence file. References come in file order (a
    tlparse export alternates between raw.jsonl and its payload pack), so a few open files suffice."""

    OPEN_FILES = 8

    def __init__(self, root: Path, out: Path) -> None:
        self.root = root
        self.out: IO[str] = out.open("w", encoding="utf-8")
        self.handles: dict[str, IO[bytes]] = {}

    def add(self, ref: EvidenceRef) -> None:
        digest = ref.sha256 or self._digest(ref)
        quote = _quote
        compile_id = "null" if ref.compile_id is None else quote(ref.compile_id)
        # Field order as in the Evidence model; \x1f marks where the rank goes (JSON never holds it raw).
        self.out.write(
            f'{{"id":{quote(ref.id)},"kind":{quote(ref.kind)}\x1f"compile_id":{compile_id},'
            f'"file":{quote(ref.file)},"line":{ref.line},"offset":{ref.offset},"length":{ref.length},'
            f'"sha256":"{digest}"}}\n'
        )

    def _digest(self, ref: EvidenceRef) -> str:
        handle = self.handles.get(ref.file)
        if handle is None:
            if len(self.handles) >= self.OPEN_FILES:
                self.handles.pop(next(iter(self.handles))).close()  # the longest open
            handle = self.handles[ref.file] = (self.root / ref.file).open("rb")
        handle.seek(ref.offset)
        return hashlib.sha256(handle.read(ref.length)).hexdigest()

    def close(self) -> None:
        self.out.close()
        for handle in self.handles.values():
            handle.close()
        self.handles.clear()

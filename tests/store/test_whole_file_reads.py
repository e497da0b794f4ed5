"""Reading a payload file whole (read_regular) and finding the payload names in raw.jsonl while it is copied."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_store.reading import read_regular
from dynamo_diff_store.storage._staging import _PAYLOAD_NAME, _json_string, _payload_names
from hypothesis import example, given
from hypothesis import strategies as st


@pytest.mark.parametrize("size", [0, 1, 99, 100, 101, 5000])
def test_read_regular_reads_at_most_one_byte_past_the_bound(tmp_path: Path, size: int) -> None:
    data = os.urandom(size)
    path = tmp_path / "p.txt"
    path.write_bytes(data)
    assert read_regular(path, "p.txt", 100) == data[:101]
    assert read_regular(path, "p.txt", 1 << 20) == data


def test_read_regular_refuses_what_open_regular_refuses(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(DynamoDiffError) as err:
        read_regular(fifo, "pipe", 10)
    assert err.value.code == ErrorCode.UNSAFE_PATH
    (tmp_path / "real").write_bytes(b"x")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(DynamoDiffError) as err:
        read_regular(tmp_path / "link", "link", 10)
    assert err.value.code == ErrorCode.UNSAFE_PATH
    with pytest.raises(DynamoDiffError) as err:
        read_regular(tmp_path / "missing", "missing", 10)
    assert err.value.code == ErrorCode.UNREADABLE_INPUT


PIECES = [
    b'{"payload_filename": "a/b.txt", "x": 1}\n',
    b'{"payload_filename":"c.json"}\n',
    b'{"payload_filename" : "q\\"uote.txt"}\n',
    b'{"payload_filename": 3}\n',
    b'"payload_filename"',
    b'"payload_filename": "cut',
    b"noise\n",
    b'"',
]


@given(st.lists(st.sampled_from(PIECES), max_size=20), st.integers(0, 400))
def test_payload_names_are_what_the_pattern_finds(pieces: list[bytes], stop: int) -> None:
    text = b"".join(pieces)
    stop = min(stop, len(text))
    assert _payload_names(text, stop) == [m.group(1) for m in _PAYLOAD_NAME.finditer(text, 0, stop)]


def _loads_str(quoted: bytes) -> str | None:
    try:
        value = json.loads(quoted)
    except ValueError:
        return None
    return value if isinstance(value, str) else None


@given(
    st.binary(max_size=12).map(lambda b: b'"' + b + b'"')
    | st.binary(max_size=12)
    | st.text(max_size=8).map(lambda t: json.dumps(t, ensure_ascii=False).encode("utf-8", "surrogatepass"))
)
@example(b'"""')  # a quote inside, no escape: not a JSON string (hypothesis found it)
def test_json_string_is_what_json_loads_reads(quoted: bytes) -> None:
    assert _json_string(quoted) == _loads_str(quoted)

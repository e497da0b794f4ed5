"""A list that keeps only its most recently used items in memory and the rest in a private SQLite file.

The classifier holds one state object per compilation identity until the end of a rank (a later record, such
as a backward compilation's metrics, may still add to any of them). On a trace with tens of thousands of
compilations those states are most of the import's memory; this list bounds that at `keep` items.

Items are written back when they leave memory, so an item must not be changed after another item was
fetched or appended (the classifier changes one identity per record, the one it just fetched).
"""

from __future__ import annotations

import pickle
import sqlite3
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Generic, TypeVar

T = TypeVar("T")


class SpillList(Generic[T]):
    def __init__(self, path: Path | None = None, *, keep: int = 2048) -> None:
        """`path`: the SQLite file for items beyond `keep` (created on first use); None keeps all in memory."""
        self._path = path
        self._keep = max(keep, 2)
        self._hot: OrderedDict[int, T] = OrderedDict()
        self._db: sqlite3.Connection | None = None
        self._length = 0
        self.spilled = 0  # how many times an item was written out (for figures)

    def __len__(self) -> int:
        return self._length

    def append(self, item: T) -> int:
        index = self._length
        self._length += 1
        self._hot[index] = item
        self._evict()
        return index

    def __getitem__(self, index: int) -> T:
        item = self._hot.get(index)
        if item is not None:
            self._hot.move_to_end(index)
            return item
        if not 0 <= index < self._length:
            raise IndexError(index)
        item = self._load(index)
        self._hot[index] = item
        self._evict()
        return item

    def __iter__(self) -> Iterator[T]:
        """Every item in order; spilled items are read back one at a time and not kept."""
        for index in range(self._length):
            item = self._hot.get(index)
            yield item if item is not None else self._load(index)

    def close(self) -> None:
        self._hot.clear()
        if self._db is not None:
            self._db.close()
            self._db = None
            if self._path is not None:
                self._path.unlink(missing_ok=True)

    def _evict(self) -> None:
        if self._path is None:
            return
        while len(self._hot) > self._keep:
            index, item = self._hot.popitem(last=False)
            db = self._connect()
            db.execute(
                "INSERT OR REPLACE INTO items VALUES (?, ?)", (index, pickle.dumps(item, pickle.HIGHEST_PROTOCOL))
            )
            self.spilled += 1

    def _load(self, index: int) -> T:
        row = self._connect().execute("SELECT data FROM items WHERE i = ?", (index,)).fetchone()
        loaded: T = pickle.loads(row[0])  # written by this object, in this process
        return loaded

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            assert self._path is not None
            self._db = sqlite3.connect(self._path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=OFF")
            self._db.execute("PRAGMA synchronous=OFF")
            self._db.execute("CREATE TABLE IF NOT EXISTS items (i INTEGER PRIMARY KEY, data BLOB NOT NULL)")
        return self._db

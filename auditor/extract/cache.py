"""In-process bounded LRU of parsed trees and per-file indexes, keyed by (blob, path, module name, language)."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import tree_sitter as ts

from auditor.extract import parse, program

# Bounds: entries, and bytes of source held. A cached tree and its index cost about 40 bytes of memory
# per source byte (bench/bench_monorepo.py at 16x: +320 MiB peak for a full 8 MB), so keep this small.
MAX_ENTRIES = 2048
MAX_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Key:
    """Everything a parse and a Module depend on: the blob hash fixes the bytes, path and name the ids."""

    blob: str
    path: str
    name: str
    lang: str


@dataclass(frozen=True, slots=True)
class Stats:
    hits: int
    misses: int
    entries: int
    bytes: int


@dataclass(frozen=True, slots=True)
class _Slot:
    data: bytes  # kept to check a hit: a caller's blob hash need not be the git hash of its bytes
    tree: ts.Tree
    module: program.Module | None = None

    @property
    def size(self) -> int:
        return len(self.data)


class _Lru:
    """Least recently used first out, bounded by entries and source bytes."""

    def __init__(self, max_entries: int, max_bytes: int) -> None:
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self.slots: OrderedDict[Key, _Slot] = OrderedDict()
        self.bytes = self.hits = self.misses = 0

    def get(self, key: Key) -> _Slot | None:
        slot = self.slots.get(key)
        if slot is not None:
            self.slots.move_to_end(key)
        return slot

    def put(self, key: Key, slot: _Slot) -> None:
        old = self.slots.pop(key, None)
        self.bytes += slot.size - (old.size if old else 0)
        self.slots[key] = slot
        while self.slots and (len(self.slots) > self.max_entries or self.bytes > self.max_bytes):
            _, dropped = self.slots.popitem(last=False)
            self.bytes -= dropped.size


_lru = _Lru(MAX_ENTRIES, MAX_BYTES)


def tree(blob: str, path: str, name: str, lang: str, data: bytes) -> ts.Tree:
    """parse.parse(data, lang), parsed once per key while the key stays cached."""
    key = Key(blob=blob, path=path, name=name, lang=lang)
    slot = _lru.get(key)
    if slot is not None and (slot.data is data or slot.data == data):
        _lru.hits += 1
        return slot.tree
    _lru.misses += 1
    parsed = parse.parse(data, lang)
    _lru.put(key, _Slot(data=data, tree=parsed))
    return parsed


def module(blob: str, path: str, name: str, lang: str, parsed: ts.Tree) -> program.Module:
    """program.build(path, name, parsed, lang), built once per key; `parsed` must be tree(...) of that key."""
    key = Key(blob=blob, path=path, name=name, lang=lang)
    slot = _lru.get(key)
    if slot is not None and slot.module is not None and slot.tree is parsed:
        return slot.module
    built = program.build(path, name, parsed, lang)
    if slot is not None and slot.tree is parsed:
        _lru.put(key, _Slot(data=slot.data, tree=parsed, module=built))
    return built


def stats() -> Stats:
    """Lookups of tree() since the last configure(), and what the cache holds now."""
    return Stats(hits=_lru.hits, misses=_lru.misses, entries=len(_lru.slots), bytes=_lru.bytes)


def clear() -> None:
    """Drop every entry (the counts of stats() go on)."""
    _lru.slots.clear()
    _lru.bytes = 0


def configure(max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES) -> None:
    """Set the bounds (0 entries disables caching) and empty the cache."""
    global _lru
    _lru = _Lru(max_entries, max_bytes)

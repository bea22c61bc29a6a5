"""Tensor layouts: named blocks, public (rotated per viewer) or private."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GLOBAL", "SEAT", "SIDE", "Block", "Layout"]

SEAT, SIDE, GLOBAL = "seat", "side", "global"


@dataclass(frozen=True)
class Block:
    """A named slice of the tensor.

    ``kind`` says how it repeats: ``global`` (once), ``seat`` (once per seat,
    relative to the viewer: 0 is the viewer, 1 the next player, ...) or ``side``
    (once per side, 0 being the viewer's).  ``width`` is the size of one repeat.
    """

    name: str
    kind: str
    width: int
    offset: int
    size: int
    public: bool
    low: float
    doc: str


class Layout:
    """Blocks in order: the public ones first (they are rotated per viewer), then the private."""

    def __init__(self, seats: int, sides: int) -> None:
        self.seats = seats
        self.sides = sides
        self.blocks: list[Block] = []
        self.by_name: dict[str, Block] = {}
        self.size = 0
        self.public_size = 0

    def add(self, name: str, kind: str, width: int, doc: str, *, public: bool = True,
            low: float = 0.0) -> Block:
        if public and self.size != self.public_size:
            raise ValueError(f"public block {name} after a private one")
        repeat = {GLOBAL: 1, SEAT: self.seats, SIDE: self.sides}[kind]
        block = Block(name, kind, width, self.size, width * repeat, public, low, doc)
        self.blocks.append(block)
        self.by_name[name] = block
        self.size += block.size
        if public:
            self.public_size = self.size
        return block

    def __getitem__(self, name: str) -> Block:
        return self.by_name[name]

    def __contains__(self, name: str) -> bool:
        return name in self.by_name



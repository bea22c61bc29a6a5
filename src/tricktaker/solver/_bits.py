"""Compiled bit helpers shared by the solver's kernels (:mod:`._tricks`, :mod:`._points`).

Cards are bits in a 64-bit mask, 16 per suit, a higher bit the stronger card
of its suit; these are the few operations both searches do on every node.
"""

from __future__ import annotations

from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.extending import intrinsic

SUIT_BITS = 16


@njit(cache=True, inline="always")
def popcount(x: int) -> int:
    """Number of set bits (cards) in a mask."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@njit(cache=True, inline="always")
def index(bit: int) -> int:
    """The position of a single bit."""
    return popcount(bit - 1)


@njit(cache=True, inline="always")
def suit_mask(suit: int) -> int:
    """The bits of one suit."""
    return 0xFFFF << (suit * SUIT_BITS)


@intrinsic
def _leading_zeros(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's count of leading zero bits: one instruction on every processor Numba targets."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@njit(cache=True, inline="always")
def top(m: int) -> int:
    """The highest bit of a mask (cards never use bit 63), 0 for an empty one: the best card of
    a suit.  Both searches ask it at every node, so it is the processor's leading-zero count
    rather than smearing the bits down."""
    lz: int = _leading_zeros(m | 1)  # type: ignore[call-arg]  # (the typing context is Numba's)
    return (1 << (63 - lz)) & m

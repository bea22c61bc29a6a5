"""Compiled bit helpers shared by the solver's kernels (:mod:`._tricks`, :mod:`._points`).

Cards are bits in a 64-bit mask, 16 per suit, a higher bit the stronger card
of its suit; these are the few operations both searches do on every node.
"""

from __future__ import annotations

from numba import njit

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


@njit(cache=True, inline="always")
def top(m: int) -> int:
    """The highest bit of a non-empty mask (cards never use bit 63): the best card of a suit."""
    m |= m >> 1
    m |= m >> 2
    m |= m >> 4
    m |= m >> 8
    m |= m >> 16
    m |= m >> 32
    return m ^ (m >> 1)

"""Compiled bit helpers shared by the solver's kernels (:mod:`._tricks`, :mod:`._points`).

Cards are bits in a 64-bit mask, 16 per suit, a higher bit the stronger card
of its suit; these are the few operations both searches do on every node.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

SUIT_BITS = 16

F = TypeVar("F", bound=Callable[..., Any])


def kernel(inline: bool = False) -> Callable[[F], F]:
    """Compile a search function with Numba, cached on disk and without Numba's runtime.

    Without the runtime a function allocates nothing (its callers own its arrays) and keeps
    no reference counts: with them, every array handed to a helper cost two atomic updates
    per call, a third of the no-trump search's time even with the helpers inlined.
    ``inline`` inlines the function into its callers.
    """
    options: dict[str, Any] = {"cache": True, "_nrt": False}
    if inline:
        options["inline"] = "always"
    return cast(Callable[[F], F], njit(**options))


@intrinsic
def _count_ones(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's population count: one instruction where the processor has one."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


@njit(cache=True, inline="always")
def popcount(x: int) -> int:
    """Number of set bits (cards) in a mask.

    LLVM's own count, not the multiply-and-shift trick: compiled by this Numba (0.68, LLVM 22),
    that trick made ``popcount(x) >= 2`` true for a single card above bit 7, since its 64-bit
    product overflows (tests/test_solver_tuppi.py checks each comparison the searches use).
    """
    n: int = _count_ones(x)  # type: ignore[call-arg]  # (the typing context is Numba's)
    return n


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


@intrinsic
def prefetch_row(typingctx, table, row):  # type: ignore[no-untyped-def]
    """Ask the processor to start loading row ``row`` of a 2-d table into its cache (LLVM's
    prefetch), so other work can go on while a row that is most often in no cache arrives."""
    sig = types.void(table, row)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        stride = cgutils.unpack_tuple(builder, ary.strides, 2)[0]  # type: ignore[no-untyped-call]
        address = builder.add(builder.ptrtoint(ary.data, ir.IntType(64)), builder.mul(args[1], stride))
        ptr = builder.inttoptr(address, ary.data.type)
        i32 = ir.IntType(32)
        prefetch = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32]), "llvm.prefetch.p0")
        # read, keep in every cache level, data
        builder.call(prefetch, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen

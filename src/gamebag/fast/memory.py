"""Software prefetch for kernels that walk a batch of positions one row at a time.

A step batch holds a thousand positions, more than a core's nearer caches keep between two
passes, and each pass reads a few fields spread over a whole row; the first read of each row
then waits for memory. ``prefetch_row`` asks for a row ahead of the one being worked on
(LLVM's ``llvm.prefetch``, a hint that changes no value and never faults).
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from gamebag.fast.rng import inlined_helper

# 4-byte entries per 64-byte cache line (16 = 1 << 4).
_LINE_SHIFT = 4
_ENTRIES_PER_LINE = 1 << _LINE_SHIFT


def _prefetch(typingctx: Any, array: Any, index: Any) -> Any:  # pragma: no cover - compiled
    """``prefetch(array, index)``: hint that ``array[index]`` (1-D) will be read soon."""
    if not isinstance(array, types.Array) or array.ndim != 1 or not isinstance(index, types.Integer):
        return None
    signature = types.void(array, index)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        array_type = sig.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        at = context.cast(builder, args[1], sig.args[1], types.intp)
        pointer = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
            context, builder, array_type, view, [at], wraparound=False
        )
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        function_type = ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32])
        function = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, function_type, "llvm.prefetch.p0"
        )
        # read (0), keep in every cache level (3), data (1)
        builder.call(function, [builder.bitcast(pointer, byte_pointer), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return signature, codegen


prefetch: Any = intrinsic(_prefetch)


@inlined_helper
def prefetch_row(rows: Any, index: int) -> None:  # pragma: no cover - compiled
    """Hint every cache line of ``rows[index]`` (a C-ordered 2-D array of 4-byte entries) when that row exists."""
    if 0 <= index < rows.shape[0]:
        row = rows[index]
        lines = (row.shape[0] + _ENTRIES_PER_LINE - 1) >> _LINE_SHIFT  # a shift: no division in the loop's setup
        for line in range(lines):
            prefetch(row, line << _LINE_SHIFT)

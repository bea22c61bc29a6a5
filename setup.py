"""The native search kernels, compiled by the package's own build when it is installed.

Everything else about the package is in pyproject.toml.  The kernels are plain C with no
dependency but Python's headers, so ``pip install .`` needs only a C compiler.
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

from setuptools import Extension, setup


def _compile_args() -> list[str]:
    if sys.platform == "win32":
        return ["/O2"]
    args = ["-O3", "-std=c11", "-fno-strict-aliasing"]
    if platform.machine().lower() in ("x86_64", "amd64"):
        # Scheduling tuned to the building machine's processor.  Unlike -march it uses no
        # instruction that processor alone has, so the kernels still run on any x86-64; measured
        # 10-16% faster in the point games' searches (docs/solver.md, "Speed").
        args.append("-mtune=native")
        # the popcount instruction (every x86-64 processor since 2008) when the building machine has it
        try:
            with open("/proc/cpuinfo", encoding="utf-8") as info:
                if " popcnt" in info.read():
                    args.append("-mpopcnt")
        except OSError:
            pass
    return args


SOLVER = Path("src/tricktaker/solver")


def _kernel(name: str) -> Extension:
    depends = [str(SOLVER / "_kernel.h")]
    if name.startswith("_points_"):  # (a build for a family of rules includes the kernel's source)
        depends.append(str(SOLVER / "_points_c.c"))
    return Extension(
        f"tricktaker.solver.{name}",
        sources=[str(SOLVER / f"{name}.c")],
        depends=depends,
        extra_compile_args=_compile_args(),
    )


# The point kernel once for every rule set, and again for each family of rules with a file
# _points_<name>.c, which it then reads as constants (_points_c.c, "Builds for the commonest
# rules"; tricktaker.solver._points finds whichever were built); not with MSVC, which lacks the
# constant test those builds need.
POINT_BUILDS = [] if sys.platform == "win32" else sorted(
    path.stem for path in SOLVER.glob("_points_*.c") if path.stem != "_points_c")

setup(
    ext_modules=[_kernel("_tricks_c"), _kernel("_points_c")] + [_kernel(name) for name in POINT_BUILDS],
    # the kernels compiled side by side, one per processor
    options={"build_ext": {"parallel": os.cpu_count() or 1}},
)

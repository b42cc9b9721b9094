"""``python -m torchada_build``: print the CMake folder, run a build script with the cpp_extension hook, or check.

    python -m torchada_build --cmake-dir              # for -DTorchada_DIR=... / CMAKE_PREFIX_PATH
    python -m torchada_build --toolchain              # for -DCMAKE_TOOLCHAIN_FILE=...
    python -m torchada_build --cuda-home              # for CUDA_HOME=... (bin/nvcc is torchada-nvcc)
    python -m torchada_build setup.py build_ext       # an unchanged setup.py, built for MUSA
    python -m torchada_build doctor                   # what this machine has, and what to install
"""

from __future__ import annotations

import argparse
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path

from .commands import get_cmake_dir, get_toolchain_file
from .compilers.toolkit import toolkit_root
from .errors import TorchadaError
from .helpformat import ToolParser
from .platform import detect_backend

__all__ = ["main"]


def _parser() -> ToolParser:
    parser = ToolParser(
        prog="python -m torchada_build",
        purpose="build unchanged CUDA extensions and CMake projects for Moore Threads GPUs (MUSA)",
        docs="README.md and docs/build.md (torchada's source tree)",
        usage="%(prog)s [-h] [--cmake-dir | --toolchain | --cuda-home] [doctor | script [args ...]]",
        epilog="'doctor' says what this machine has for these builds, and what to install.",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--cmake-dir", action="store_true", help="print the folder of TorchadaConfig.cmake")
    where.add_argument("--toolchain", action="store_true", help="print the path of the CMake toolchain file")
    where.add_argument(
        "--cuda-home", action="store_true", help="print the CUDA root to build with (the toolkit mimic, on MUSA)"
    )
    parser.add_argument("script", nargs="?",
                        help="a build script (setup.py) to run with the cpp_extension hook, or 'doctor'")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the script's arguments")
    return parser


def run_script(script: str, args: Sequence[str]) -> None:
    """Run ``script`` as ``python script args`` would, with :func:`~.cpp_extension.install` done first."""
    if not Path(script).is_file():
        from torchada_build.core.diagnostics import NO_BUILD_SCRIPT

        raise TorchadaError(NO_BUILD_SCRIPT.text(script=script))
    from .cpp_extension import install

    install()
    sys.argv = [script, *args]
    sys.path.insert(0, str(Path(script).resolve().parent))
    runpy.run_path(script, run_name="__main__")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    options = parser.parse_args(argv)
    if options.cmake_dir:
        print(get_cmake_dir())
    elif options.toolchain:
        print(get_toolchain_file())
    else:
        try:
            if options.cuda_home:
                print(toolkit_root(detect_backend().backend.value))
            elif options.script == "doctor" and not options.args:
                from .doctor import main as doctor

                return doctor()
            elif options.script:
                run_script(options.script, options.args)
            else:
                parser.print_usage(sys.stderr)
                return 2
        except TorchadaError as error:
            print(f"torchada: error: {error}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

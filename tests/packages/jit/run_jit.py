"""JIT-build samples/vector_add with load() and samples/load_inline with load_inline(), then try them.

Run as ``python -m torchada_build run_jit.py SAMPLES_DIR``; prints one ``RESULT {json}`` line per build with
its build directory and what calling the module on CPU tensors said (or why it could not be imported).
"""

import json
import sys
from pathlib import Path

import torch
from torch.utils import cpp_extension

samples = Path(sys.argv[1])


def report(name, build):
    result = {"name": name, "build_directory": cpp_extension._get_build_directory(name, False)}
    try:
        result["said"] = build()
    except (ImportError, OSError) as error:
        result["import_error"] = str(error)
    print("RESULT", json.dumps(result), flush=True)


def first_line_of_error(call):
    try:
        call()
    except RuntimeError as error:
        return str(error).splitlines()[0]
    return "no error"


def with_load():
    module = cpp_extension.load(
        name="vector_add_jit",
        sources=[str(samples / "vector_add" / "vector_add.cpp"), str(samples / "vector_add" / "vector_add_kernel.cu")],
        extra_cuda_cflags=["-O2"],
    )
    return first_line_of_error(lambda: module.add(torch.ones(2), torch.ones(2)))


def with_load_inline():
    sys.path.insert(0, str(samples / "load_inline"))
    import jit_scale

    module = jit_scale.build()
    return first_line_of_error(lambda: module.scale(torch.ones(2), 2.0))


report("vector_add_jit", with_load)
report("jit_scale", with_load_inline)

"""FlashInfer's JIT build of one of its modules, unchanged: ``python flashinfer_module.py NAME`` runs
``flashinfer.jit.NAME.gen_NAME_module().build()`` (``norm``: RMSNorm & co.; ``sampling``: top-k/top-p
sampling on cub block scans, reductions and adjacent differences, in half, bfloat16 and float).

Run with FlashInfer installed; FlashInfer finds nvcc itself (``CUDA_HOME``, ``CUDA_PATH``, then ``PATH``).
Prints ``BUILT <build directory>`` when ninja finished, else ``BUILD_ERROR <first line>``.
"""

import importlib
import sys

(name,) = sys.argv[1:]
spec = getattr(importlib.import_module(f"flashinfer.jit.{name}"), f"gen_{name}_module")()
try:
    spec.build(verbose=True)
except RuntimeError as error:
    print("BUILD_ERROR", str(error).splitlines()[0], flush=True)
else:
    print("BUILT", spec.build_dir, flush=True)

"""FlashInfer's JIT build of its norm module (``flashinfer.jit.norm.gen_norm_module().build()``), unchanged.

Run with FlashInfer installed; FlashInfer finds nvcc itself (``CUDA_HOME``, ``CUDA_PATH``, then ``PATH``).
Prints ``BUILT <build directory>`` when ninja finished, else ``BUILD_ERROR <first line>``.
"""

from flashinfer.jit.norm import gen_norm_module

spec = gen_norm_module()
try:
    spec.build(verbose=True)
except RuntimeError as error:
    print("BUILD_ERROR", str(error).splitlines()[0], flush=True)
else:
    print("BUILT", spec.build_dir, flush=True)

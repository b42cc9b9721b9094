"""TileLang's JIT, unchanged: a float16 GEMM tile program (``T.gemm`` on shared-memory tiles, so its
generated CUDA includes TileLang's ``tl_templates`` and CUTLASS's CuTe), compiled for sm_80 by
``tilelang.compile`` with the ``cython`` execution backend, which builds the kernel and its host wrapper
with ``nvcc --shared``. TileLang finds nvcc itself (``CUDA_HOME``, ``CUDA_PATH``, then ``PATH``).

Prints ``BUILT <library>`` when nvcc built the kernel's library, then ``LOADED`` or ``LOAD_ERROR <first
line>`` (loading needs the CUDA driver); ``BUILD_ERROR <first line>`` when the build failed.
"""

import glob
import os
import tempfile

import tilelang
import tilelang.language as T

M = N = K = 256


def matmul(block_m=128, block_n=128, block_k=32, dtype="float16", accum_dtype="float"):
    @T.prim_func
    def main(a: T.Tensor((M, K), dtype), b: T.Tensor((K, N), dtype), c: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_n), T.ceildiv(M, block_m), threads=128) as (bx, by):
            a_shared = T.alloc_shared((block_m, block_k), dtype)
            b_shared = T.alloc_shared((block_k, block_n), dtype)
            c_local = T.alloc_fragment((block_m, block_n), accum_dtype)
            T.clear(c_local)
            for k in T.Pipelined(T.ceildiv(K, block_k), num_stages=2):
                T.copy(a[by * block_m, k * block_k], a_shared)
                T.copy(b[k * block_k, bx * block_n], b_shared)
                T.gemm(a_shared, b_shared, c_local)
            T.copy(c_local, c[by * block_m, bx * block_n])

    return main


libraries = os.path.join(tempfile.gettempdir(), "*.so")  # where its cython backend builds them
before = set(glob.glob(libraries))
try:
    kernel = tilelang.compile(matmul(), out_idx=[2], target={"kind": "cuda", "arch": "sm_80"}, execution_backend="cython")
except Exception as error:  # noqa: BLE001 -- the first line is the report
    built = sorted(set(glob.glob(libraries)) - before)
    if built:
        print("BUILT", built[0], flush=True)
        print("LOAD_ERROR", (str(error).splitlines() or [type(error).__name__])[0], flush=True)
    else:
        print("BUILD_ERROR", (str(error).splitlines() or [type(error).__name__])[0], flush=True)
else:
    print("BUILT", kernel.adapter.libpath, flush=True)
    print("LOADED", flush=True)

"""Apache TVM-FFI's ``tvm_ffi.cpp.load_inline`` with a CUDA kernel, as SGLang's JIT kernels use it.

Run as ``python tvm_ffi_add_one.py BUILD_DIR``; prints ``LOADED`` when the module loads, else
``LOAD_ERROR <message>``. TVM-FFI finds nvcc itself (``CUDA_HOME``, ``CUDA_PATH``, then ``PATH``).
"""
import sys

import tvm_ffi.cpp

CUDA = r"""
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/function.h>
#include <cuda_runtime.h>

__global__ void add_one_kernel(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + 1;
}

void add_one_cuda(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  int64_t n = x.size(0);
  cudaStream_t stream = nullptr;
  add_one_kernel<<<(n + 255) / 256, 256, 0, stream>>>(static_cast<const float*>(x.data_ptr()),
                                                      static_cast<float*>(y.data_ptr()), n);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) TVM_FFI_THROW(RuntimeError) << cudaGetErrorString(err);
}
"""
try:
    tvm_ffi.cpp.load_inline(name="add_one_cuda", cuda_sources=CUDA, functions=["add_one_cuda"],
                            build_directory=sys.argv[1])
except (OSError, RuntimeError, AttributeError) as error:  # the stand-in SDK's empty objects do not load
    print("LOAD_ERROR", str(error).splitlines()[0])
else:
    print("LOADED")

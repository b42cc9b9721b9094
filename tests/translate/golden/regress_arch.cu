// Regressions: __CUDA_ARCH__ guards in every spelling are translated by value, not by name.
#include <cuda_runtime.h>

__global__ void arch_guards(int* out) {
  int v = 0;
#if __CUDA_ARCH__ >= 750
  v += 1;
#endif
#if __CUDA_ARCH__>=800
  v += 2;
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  v += 4;
#endif
#if (__CUDA_ARCH__ < 800)
  v += 8;
#endif
#if __CUDA_ARCH__ < 900
  v += 16;
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  v += 32;
#endif
#if 800 <= __CUDA_ARCH__
  v += 64;
#endif
#ifdef __CUDA_ARCH__
  out[threadIdx.x] = v;
#endif
}

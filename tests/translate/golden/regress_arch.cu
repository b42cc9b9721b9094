// Regressions: __CUDA_ARCH__ guards in every spelling are translated by value, not by name.
// CHECK: #include <musa_runtime.h>
#include <cuda_runtime.h>

__global__ void arch_guards(int* out) {
  int v = 0;
// CHECK: #if __MUSA_ARCH__ >= 210
#if __CUDA_ARCH__ >= 750
  v += 1;
#endif
// CHECK: #if __MUSA_ARCH__>=220
#if __CUDA_ARCH__>=800
  v += 2;
#endif
// CHECK: #if defined(__MUSA_ARCH__) && __MUSA_ARCH__ >= 310
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  v += 4;
#endif
// CHECK: #if (__MUSA_ARCH__ < 220)
#if (__CUDA_ARCH__ < 800)
  v += 8;
#endif
// CHECK: #if __MUSA_ARCH__ < 310
#if __CUDA_ARCH__ < 900
  v += 16;
#endif
// CHECK: #if !defined(__MUSA_ARCH__) || __MUSA_ARCH__ >= 310
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  v += 32;
#endif
// CHECK: #if 220 <= __MUSA_ARCH__
#if 800 <= __CUDA_ARCH__
  v += 64;
#endif
// CHECK: #ifdef __MUSA_ARCH__
#ifdef __CUDA_ARCH__
  out[threadIdx.x] = v;
#endif
}

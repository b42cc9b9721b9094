// Compiler and toolkit macros as portable headers test them.
// CHECK: #include <musa_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include <musa_fp16.h>
#include <cuda_fp16.h>

// CHECK: #if defined(__MUSACC__) || defined(__MUSACC__)
#if defined(__CUDACC__) || defined(__NVCC__)
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif

#if defined(__CUDACC_VER_MAJOR__) && (__CUDACC_VER_MAJOR__ > 11 || (__CUDACC_VER_MAJOR__ == 11 && __CUDACC_VER_MINOR__ >= 8))
#define HAS_FP8_TYPES 1
#else
#define HAS_FP8_TYPES 0
#endif

#if defined(CUDA_VERSION) && CUDA_VERSION >= 12080
#define HAS_BLACKWELL 1
#endif

// CHECK: #ifdef __MUSACC_RDC__
#ifdef __CUDACC_RDC__
#define SEPARATE_COMPILATION 1
#endif

// CHECK: #ifdef __MUSACC_EXTENDED_LAMBDA__
#ifdef __CUDACC_EXTENDED_LAMBDA__
#define HAS_DEVICE_LAMBDA 1
#endif

// CHECK: #if defined(__MUSA_NO_HALF_OPERATORS__) || defined(__MUSA_NO_HALF_CONVERSIONS__)
#if defined(__CUDA_NO_HALF_OPERATORS__) || defined(__CUDA_NO_HALF_CONVERSIONS__)
#define HALF_NEEDS_INTRINSICS 1
#endif

// CHECK: #ifdef __MUSA_NO_BFLOAT16_CONVERSIONS__
#ifdef __CUDA_NO_BFLOAT16_CONVERSIONS__
#define BF16_NEEDS_INTRINSICS 1
#endif

HOST_DEVICE inline float twice(float x) { return 2.0f * x; }

__global__ void kernel(float* x) {
// CHECK: #if defined(__MUSA_ARCH__) && __MUSA_ARCH__ >= 220
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  x[threadIdx.x] = twice(x[threadIdx.x]);
#endif
}

int compiled_for() {
// FINDING: 8: warning TA1002 '__CUDA_ARCH_LIST__'
// CHECK: #ifdef __MUSA_ARCH_LIST__
#ifdef __CUDA_ARCH_LIST__
// FINDING: 10: warning TA1002 '__CUDA_ARCH_LIST__'
// CHECK:   return __MUSA_ARCH_LIST__;
  return __CUDA_ARCH_LIST__;
#else
  return HAS_FP8_TYPES;
#endif
}

// Regressions: what line-wise text replacement damages (torchada.md §4.3). Only CUDA API
// tokens may change; user identifiers, build-system macros, strings and comments stay.
#include <cub/cub.cuh> // needs cudaStream_t
#include "decode_jpegs_cuda.h"
// CHECK: #include <musa_runtime.h>
#include <cuda_runtime.h>
#include <cstdio>

using op_fn = int (*)(int);
static void register_op(const char* schema, op_fn fn) { std::printf("%s %p\n", schema, reinterpret_cast<void*>(fn)); }
static int cutlass_scaled_mm(int x) { return x; }
static int nccl_all_reduce(int x) { return x; }

float scale_factors() {
  float inv_half = 0.5f;           // not i__half
  int conv_bfloat16_tiles = 4;     // not co__mt_bfloat16_tiles
  int my_cudaMalloc_calls = 0;     // a user name that contains a CUDA name
  return inv_half * conv_bfloat16_tiles + my_cudaMalloc_calls;
}

#ifdef ENABLE_NCCL
static const bool kNccl = true;
#else
static const bool kNccl = false;
#endif
#if defined(USE_CUDNN) && defined(WITH_CUTLASS)
static const bool kFused = true;
#else
static const bool kFused = false;
#endif

void register_ops() {
  register_op("cutlass_scaled_mm", &cutlass_scaled_mm);
  register_op("nccl_all_reduce(Tensor x) -> Tensor", &nccl_all_reduce);
}

int check(void** p, size_t n) {
// CHECK:   if (musaMalloc(p, n) != musaSuccess) {
  if (cudaMalloc(p, n) != cudaSuccess) {
    std::fprintf(stderr, "cudaMalloc failed; cublas path requires cublas >= 11\n");
    return 1;
  }
  return kNccl || kFused;
}

void streams() {
// CHECK: /* setup */ musaStream_t s0 = nullptr;
/* setup */ cudaStream_t s0 = nullptr;
// CHECK:   musaStreamCreate(&s0); // cudaStreamCreate in a comment stays
  cudaStreamCreate(&s0); // cudaStreamCreate in a comment stays
  decode_on(s0);
// CHECK:   musaStreamDestroy(s0);
  cudaStreamDestroy(s0);
// FINDING: 8: warning TA1002 'CUDART_VERSION'
// CHECK: #ifdef MUSART_VERSION
#ifdef CUDART_VERSION
// FINDING: 31: warning TA1002 'CUDART_VERSION'
// CHECK:   std::printf("runtime %d\n", MUSART_VERSION);
  std::printf("runtime %d\n", CUDART_VERSION);
#endif
}

#pragma once
#include <cstdint>

// Each returns nullptr on success, else a message saying which library call failed.

// c[m,n] = a[m,k] @ b[k,n], row-major float32 matrices on the GPU (cuBLAS).
const char* gemm(int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c);

// n uniform floats in (0, 1] from a seeded generator (cuRAND), then scaled into (low, high].
const char* uniform(float* out, int64_t n, unsigned long long seed, float low, float high);

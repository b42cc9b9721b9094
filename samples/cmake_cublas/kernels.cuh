#pragma once
#include <cuda_runtime.h>

// Fills a[i] = value for i < n on `stream`.
cudaError_t fill(float* a, int n, float value, cudaStream_t stream);

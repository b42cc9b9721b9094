// The kernel's launcher, called by the bindings on the caller's stream.
#pragma once
#include <cstdint>

#include <cuda_runtime.h>

cudaError_t stream_scale_launch(float* data, float factor, int64_t n, cudaStream_t stream);

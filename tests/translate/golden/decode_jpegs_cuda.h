// A project header whose name contains "cuda.h": it must not become decode_jpegs_musa.h.
#pragma once
#include <cuda_runtime.h>

inline void decode_on(cudaStream_t stream) { (void)cudaStreamQuery(stream); }

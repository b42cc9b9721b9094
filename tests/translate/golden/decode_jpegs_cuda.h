// A project header whose name contains "cuda.h": it must not become decode_jpegs_musa.h.
#pragma once
// CHECK: #include <musa_runtime.h>
#include <cuda_runtime.h>

// CHECK: inline void decode_on(musaStream_t stream) { (void)musaStreamQuery(stream); }
inline void decode_on(cudaStream_t stream) { (void)cudaStreamQuery(stream); }

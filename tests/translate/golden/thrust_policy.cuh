// Thrust on a caller's stream through the CUDA system's execution policy, as PyTorch's CUDA kernels do.
// (Loopback maps thrust::musa back once a thrust/system/musa header is included.)
#pragma once

#include <thrust/device_ptr.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
// CHECK: #include <thrust/system/musa/execution_policy.h>
#include <thrust/system/cuda/execution_policy.h>
// CHECK: #include <thrust/system/musa/memory.h>
#include <thrust/system/cuda/memory.h>

// CHECK: inline float sorted_sum(float* data, int n, musaStream_t stream) {
inline float sorted_sum(float* data, int n, cudaStream_t stream) {
  thrust::device_ptr<float> begin = thrust::device_pointer_cast(data);
// CHECK:   thrust::sort(thrust::musa::par.on(stream), begin, begin + n);
  thrust::sort(thrust::cuda::par.on(stream), begin, begin + n);
// CHECK:   return thrust::reduce(thrust::musa::par.on(stream), begin, begin + n, 0.0f);
  return thrust::reduce(thrust::cuda::par.on(stream), begin, begin + n, 0.0f);
}

// CHECK: inline auto policy_on(musaStream_t stream) { return thrust::system::musa::par.on(stream); }
inline auto policy_on(cudaStream_t stream) { return thrust::system::cuda::par.on(stream); }

// CUB and Thrust: a block reduction, a device-wide radix sort with a temporary-storage query, and a Thrust
// reduction over raw device memory (thrust_policy.cuh has the CUDA execution policy on a stream).
#include <cub/cub.cuh>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

#include <cstddef>

template <int kThreads>
__global__ void block_sum(const float* input, float* output) {
  using BlockReduce = cub::BlockReduce<float, kThreads>;
  __shared__ typename BlockReduce::TempStorage storage;
  float value = input[blockIdx.x * kThreads + threadIdx.x];
  float total = BlockReduce(storage).Sum(value);
  if (threadIdx.x == 0) {
    output[blockIdx.x] = total;
  }
}

template __global__ void block_sum<256>(const float*, float*);

// CHECK: musaError_t sort_keys(const unsigned* keys_in, unsigned* keys_out, int n, void* temp, size_t* temp_bytes,
cudaError_t sort_keys(const unsigned* keys_in, unsigned* keys_out, int n, void* temp, size_t* temp_bytes,
// CHECK:                       musaStream_t stream) {
                      cudaStream_t stream) {
  return cub::DeviceRadixSort::SortKeys(temp, *temp_bytes, keys_in, keys_out, n, 0, 32, stream);
}

float sum(const float* data, int n) {
  thrust::device_ptr<const float> begin = thrust::device_pointer_cast(data);
  return thrust::reduce(thrust::device, begin, begin + n, 0.0f);
}

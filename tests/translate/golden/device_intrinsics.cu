// Device functions and intrinsics: a block reduction with warp shuffles, read-only loads, atomics, bit tricks
// and fast math, the building blocks of most custom kernels.
// CHECK: #include <musa_runtime.h>
#include <cuda_runtime.h>

__device__ float warp_sum(float value) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
// FINDING: 31: warning TA1201 '__shfl_down_sync'
    value += __shfl_down_sync(0xffffffff, value, offset);
  }
  return value;
}

__global__ void row_sum(const float* __restrict__ input, float* output, int cols) {
  __shared__ float partial[32];
  float value = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    value += __ldg(&input[blockIdx.x * cols + c]);
  }
  value = warp_sum(value);
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / warpSize;
  if (lane == 0) {
    partial[warp] = value;
  }
  __syncthreads();
  if (warp == 0) {
    value = lane < (blockDim.x + warpSize - 1) / warpSize ? partial[lane] : 0.0f;
    value = warp_sum(value);
    if (lane == 0) {
      atomicAdd(output, value);
    }
  }
}

__global__ void histogram(const unsigned* keys, int n, unsigned* bins, unsigned* max_key, int* overflow) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned key = keys[i];
    atomicInc(&bins[key & 255u], 0xffffffffu);
    atomicMax(max_key, key);
    if (__popc(key) > 16 || __clz(key) == 0) {
      atomicExch(overflow, 1);
    }
  }
  __threadfence();
}

__global__ void gelu_tanh(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    float inner = 0.7978845608f * (v + 0.044715f * v * v * v);
    y[i] = 0.5f * v * (1.0f + tanhf(inner));
    y[i] = fmaxf(y[i], -fabsf(v)) + __expf(-80.0f) * rsqrtf(1.0f + v * v) + erff(0.0f) + __saturatef(0.0f);
  }
}

__global__ void timed(long long* cycles) {
  long long start = clock64();
  __syncwarp();
  cycles[threadIdx.x] = clock64() - start;
}

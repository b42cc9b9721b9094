// cuRAND: the host generator API and the curand_kernel.h device API (Philox and XORWOW
// states, uniform/normal draws), as dropout and sampling kernels use them.
#include <curand.h>
#include <curand_kernel.h>
#include <cuda_runtime.h>

__global__ void dropout(float* x, float p, unsigned long long seed, unsigned long long offset, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t state;
  curand_init(seed, i, offset, &state);
  float4 r = curand_uniform4(&state);
  if (i < n) {
    x[i] = r.x < p ? 0.0f : x[i] / (1.0f - p);
  }
}

__global__ void noise(float* out, unsigned long long seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandState_t state;
  curand_init(seed, i, 0, &state);
  if (i < n) {
    float2 g = curand_normal2(&state);
    out[i] = g.x + curand_normal(&state) + curand_log_normal(&state, 0.0f, 1.0f);
    unsigned int bits = curand(&state);
    out[i] += static_cast<float>(curand_poisson(&state, 4.0) + (bits & 1u));
    out[i] += static_cast<float>(curand_uniform_double(&state));
  }
}

curandStatus_t host_fill(float* device, size_t n, cudaStream_t stream) {
  curandGenerator_t gen;
  curandStatus_t status = curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10);
  if (status != CURAND_STATUS_SUCCESS) {
    return status;
  }
  curandSetStream(gen, stream);
  curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  curandSetGeneratorOffset(gen, 0);
  curandGenerateUniform(gen, device, n);
  curandGenerateNormal(gen, device, n, 0.0f, 1.0f);
  return curandDestroyGenerator(gen);
}

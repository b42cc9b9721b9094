// cuRAND: the host generator API and the curand_kernel.h device API (Philox and XORWOW
// states, uniform/normal draws), as dropout and sampling kernels use them.
// CHECK: #include <murand.h>
#include <curand.h>
// CHECK: #include <murand_kernel.h>
#include <curand_kernel.h>
// CHECK: #include <musa_runtime.h>
#include <cuda_runtime.h>

__global__ void dropout(float* x, float p, unsigned long long seed, unsigned long long offset, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK:   murandStatePhilox4_32_10_t state;
  curandStatePhilox4_32_10_t state;
// CHECK:   murand_init(seed, i, offset, &state);
  curand_init(seed, i, offset, &state);
// CHECK:   float4 r = murand_uniform4(&state);
  float4 r = curand_uniform4(&state);
  if (i < n) {
    x[i] = r.x < p ? 0.0f : x[i] / (1.0f - p);
  }
}

__global__ void noise(float* out, unsigned long long seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK:   murandState_t state;
  curandState_t state;
// CHECK:   murand_init(seed, i, 0, &state);
  curand_init(seed, i, 0, &state);
  if (i < n) {
// CHECK:     float2 g = murand_normal2(&state);
    float2 g = curand_normal2(&state);
// CHECK:     out[i] = g.x + murand_normal(&state) + murand_log_normal(&state, 0.0f, 1.0f);
    out[i] = g.x + curand_normal(&state) + curand_log_normal(&state, 0.0f, 1.0f);
// CHECK:     unsigned int bits = murand(&state);
    unsigned int bits = curand(&state);
// CHECK:     out[i] += static_cast<float>(murand_poisson(&state, 4.0) + (bits & 1u));
    out[i] += static_cast<float>(curand_poisson(&state, 4.0) + (bits & 1u));
// CHECK:     out[i] += static_cast<float>(murand_uniform_double(&state));
    out[i] += static_cast<float>(curand_uniform_double(&state));
  }
}

// CHECK: murandStatus_t host_fill(float* device, size_t n, musaStream_t stream) {
curandStatus_t host_fill(float* device, size_t n, cudaStream_t stream) {
// CHECK:   murandGenerator_t gen;
  curandGenerator_t gen;
// CHECK:   murandStatus_t status = murandCreateGenerator(&gen, MURAND_RNG_PSEUDO_PHILOX4_32_10);
  curandStatus_t status = curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10);
// CHECK:   if (status != MURAND_STATUS_SUCCESS) {
  if (status != CURAND_STATUS_SUCCESS) {
    return status;
  }
// CHECK:   murandSetStream(gen, stream);
  curandSetStream(gen, stream);
// CHECK:   murandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
// CHECK:   murandSetGeneratorOffset(gen, 0);
  curandSetGeneratorOffset(gen, 0);
// CHECK:   murandGenerateUniform(gen, device, n);
  curandGenerateUniform(gen, device, n);
// CHECK:   murandGenerateNormal(gen, device, n, 0.0f, 1.0f);
  curandGenerateNormal(gen, device, n, 0.0f, 1.0f);
// CHECK:   return murandDestroyGenerator(gen);
  return curandDestroyGenerator(gen);
}

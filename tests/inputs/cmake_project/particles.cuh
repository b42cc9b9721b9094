#pragma once
#include <cuda_runtime.h>
__device__ float advance(float position, float velocity);
cudaError_t step_particles(float* positions, const float* velocities, int n);

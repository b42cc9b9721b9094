#include <cstdio>
#include "particles.cuh"

int main() {
  float *positions = nullptr, *velocities = nullptr;
  if (cudaMalloc(&positions, 256) != cudaSuccess || cudaMalloc(&velocities, 256) != cudaSuccess) {
    std::printf("no device\n");
    return 0;
  }
  return step_particles(positions, velocities, 64) == cudaSuccess ? 0 : 1;
}

#include "particles.cuh"
__device__ float advance(float position, float velocity) { return position + 0.5f * velocity; }

// Regressions: inline PTX is reported and left as it is, never disabled (torchada's
// "if(0) asm volatile" silently dropped barriers and left outputs uninitialised).
// CHECK: #include <musa_runtime.h>
#include <cuda_runtime.h>

__device__ unsigned lane_id() {
  unsigned lane;
// FINDING: 3: error TA1101 'asm'
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

// FINDING: 29: error TA1101 'asm'
__device__ void barrier() { asm volatile("bar.sync 0;" ::: "memory"); }

__device__ uint4 load_nc(const uint4* p) {
  uint4 v;
// FINDING: 3: error TA1101 '__asm__'
  __asm__ __volatile__("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];"
                       : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                       : "l"(p));
  return v;
}

__global__ void uses_ptx(uint4* out, const uint4* in) {
  barrier();
  out[lane_id()] = load_nc(in);
}

// cuComplex: complex arithmetic in a kernel and on the host.
#include <cuComplex.h>

__global__ void complex_axpy(int n, cuFloatComplex alpha, const cuFloatComplex* x, cuFloatComplex* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = cuCaddf(cuCmulf(alpha, x[i]), y[i]);
  }
}

__device__ double relative_real_part(cuDoubleComplex a, cuDoubleComplex b) {
  cuDoubleComplex q = cuCdiv(a, b);
  return cuCreal(cuConj(q)) / cuCabs(q);
}

cuComplex unit_phase() { return make_cuComplex(0.0f, 1.0f); }

cuDoubleComplex widen(cuFloatComplex z) { return cuComplexFloatToDouble(z); }

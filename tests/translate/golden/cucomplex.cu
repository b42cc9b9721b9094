// cuComplex: complex arithmetic in a kernel and on the host.
// CHECK: #include <muComplex.h>
#include <cuComplex.h>

// CHECK: __global__ void complex_axpy(int n, muFloatComplex alpha, const muFloatComplex* x, muFloatComplex* y) {
__global__ void complex_axpy(int n, cuFloatComplex alpha, const cuFloatComplex* x, cuFloatComplex* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
// CHECK:     y[i] = muCaddf(muCmulf(alpha, x[i]), y[i]);
    y[i] = cuCaddf(cuCmulf(alpha, x[i]), y[i]);
  }
}

// CHECK: __device__ double relative_real_part(muDoubleComplex a, muDoubleComplex b) {
__device__ double relative_real_part(cuDoubleComplex a, cuDoubleComplex b) {
// CHECK:   muDoubleComplex q = muCdiv(a, b);
  cuDoubleComplex q = cuCdiv(a, b);
// CHECK:   return muCreal(muConj(q)) / muCabs(q);
  return cuCreal(cuConj(q)) / cuCabs(q);
}

// CHECK: muComplex unit_phase() { return make_muComplex(0.0f, 1.0f); }
cuComplex unit_phase() { return make_cuComplex(0.0f, 1.0f); }

// CHECK: muDoubleComplex widen(muFloatComplex z) { return muComplexFloatToDouble(z); }
cuDoubleComplex widen(cuFloatComplex z) { return cuComplexFloatToDouble(z); }

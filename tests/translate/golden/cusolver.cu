// cuSOLVER dense: LU solve, Cholesky and QR, the calls torch.linalg makes.
// CHECK: #include <musa_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include <musolver.h>
#include <cusolverDn.h>

// CHECK: #define SOLVER_CHECK(expr)                       \
// CHECK:   do {                                           \
// CHECK:     musolverStatus_t status_ = (expr);           \
// CHECK:     if (status_ != MUSOLVER_STATUS_SUCCESS) {    \
// CHECK:       return status_;                            \
// CHECK:     }                                            \
// CHECK:   } while (0)
#define SOLVER_CHECK(expr)                       \
  do {                                           \
    cusolverStatus_t status_ = (expr);           \
    if (status_ != CUSOLVER_STATUS_SUCCESS) {    \
      return status_;                            \
    }                                            \
  } while (0)

// Solve A X = B with an LU factorization (A is n x n, column-major); work holds `lwork` floats.
// CHECK: musolverStatus_t lu_solve(musolverDnHandle_t handle, musaStream_t stream, int n, int nrhs, float* a, float* b,
cusolverStatus_t lu_solve(cusolverDnHandle_t handle, cudaStream_t stream, int n, int nrhs, float* a, float* b,
                          int* pivots, int* info, float* work, int* lwork) {
// CHECK:   SOLVER_CHECK(musolverDnSetStream(handle, stream));
  SOLVER_CHECK(cusolverDnSetStream(handle, stream));
// FINDING: 16: warning TA1002 'cusolverDnSgetrf_bufferSize'
// CHECK:   SOLVER_CHECK(musolverDnSgetrf_bufferSize(handle, n, n, a, n, lwork));
  SOLVER_CHECK(cusolverDnSgetrf_bufferSize(handle, n, n, a, n, lwork));
// FINDING: 16: warning TA1002 'cusolverDnSgetrf'
// CHECK:   SOLVER_CHECK(musolverDnSgetrf(handle, n, n, a, n, work, pivots, info));
  SOLVER_CHECK(cusolverDnSgetrf(handle, n, n, a, n, work, pivots, info));
// FINDING: 16: warning TA1002 'cusolverDnSgetrs'
// CHECK:   SOLVER_CHECK(musolverDnSgetrs(handle, MUBLAS_OP_N, n, nrhs, a, n, pivots, b, n, info));
  SOLVER_CHECK(cusolverDnSgetrs(handle, CUBLAS_OP_N, n, nrhs, a, n, pivots, b, n, info));
// CHECK:   return MUSOLVER_STATUS_SUCCESS;
  return CUSOLVER_STATUS_SUCCESS;
}

// CHECK: musolverStatus_t cholesky(musolverDnHandle_t handle, int n, double* a, double* work, int lwork, int* info) {
cusolverStatus_t cholesky(cusolverDnHandle_t handle, int n, double* a, double* work, int lwork, int* info) {
  int needed = 0;
// CHECK:   SOLVER_CHECK(musolverDnDpotrf_bufferSize(handle, MUBLAS_FILL_MODE_LOWER, n, a, n, &needed));
  SOLVER_CHECK(cusolverDnDpotrf_bufferSize(handle, CUBLAS_FILL_MODE_LOWER, n, a, n, &needed));
  if (needed > lwork) {
// CHECK:     return MUSOLVER_STATUS_INVALID_VALUE;
    return CUSOLVER_STATUS_INVALID_VALUE;
  }
// CHECK:   return musolverDnDpotrf(handle, MUBLAS_FILL_MODE_LOWER, n, a, n, work, lwork, info);
  return cusolverDnDpotrf(handle, CUBLAS_FILL_MODE_LOWER, n, a, n, work, lwork, info);
}

// Householder QR of a complex matrix and the explicit Q.
// CHECK: musolverStatus_t complex_qr(musolverDnHandle_t handle, int m, int n, muComplex* a, muComplex* tau, muComplex* work,
cusolverStatus_t complex_qr(cusolverDnHandle_t handle, int m, int n, cuComplex* a, cuComplex* tau, cuComplex* work,
                            int lwork, int* info) {
// FINDING: 16: warning TA1002 'cusolverDnCgeqrf'
// CHECK:   SOLVER_CHECK(musolverDnCgeqrf(handle, m, n, a, m, tau, work, lwork, info));
  SOLVER_CHECK(cusolverDnCgeqrf(handle, m, n, a, m, tau, work, lwork, info));
// FINDING: 10: warning TA1002 'cusolverDnCungqr'
// CHECK:   return musolverDnCungqr(handle, m, n, n, a, m, tau, work, lwork, info);
  return cusolverDnCungqr(handle, m, n, n, a, m, tau, work, lwork, info);
}

// CHECK: musolverDnHandle_t make_solver() {
cusolverDnHandle_t make_solver() {
// CHECK:   musolverDnHandle_t handle = nullptr;
  cusolverDnHandle_t handle = nullptr;
// CHECK:   musolverDnCreate(&handle);
  cusolverDnCreate(&handle);
  return handle;
}

// CHECK: void destroy_solver(musolverDnHandle_t handle) { musolverDnDestroy(handle); }
void destroy_solver(cusolverDnHandle_t handle) { cusolverDnDestroy(handle); }

// cuSOLVER dense: LU solve, Cholesky and QR, the calls torch.linalg makes.
#include <cuda_runtime.h>
#include <cusolverDn.h>

#define SOLVER_CHECK(expr)                       \
  do {                                           \
    cusolverStatus_t status_ = (expr);           \
    if (status_ != CUSOLVER_STATUS_SUCCESS) {    \
      return status_;                            \
    }                                            \
  } while (0)

// Solve A X = B with an LU factorization (A is n x n, column-major); work holds `lwork` floats.
cusolverStatus_t lu_solve(cusolverDnHandle_t handle, cudaStream_t stream, int n, int nrhs, float* a, float* b,
                          int* pivots, int* info, float* work, int* lwork) {
  SOLVER_CHECK(cusolverDnSetStream(handle, stream));
  SOLVER_CHECK(cusolverDnSgetrf_bufferSize(handle, n, n, a, n, lwork));
  SOLVER_CHECK(cusolverDnSgetrf(handle, n, n, a, n, work, pivots, info));
  SOLVER_CHECK(cusolverDnSgetrs(handle, CUBLAS_OP_N, n, nrhs, a, n, pivots, b, n, info));
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cholesky(cusolverDnHandle_t handle, int n, double* a, double* work, int lwork, int* info) {
  int needed = 0;
  SOLVER_CHECK(cusolverDnDpotrf_bufferSize(handle, CUBLAS_FILL_MODE_LOWER, n, a, n, &needed));
  if (needed > lwork) {
    return CUSOLVER_STATUS_INVALID_VALUE;
  }
  return cusolverDnDpotrf(handle, CUBLAS_FILL_MODE_LOWER, n, a, n, work, lwork, info);
}

// Householder QR of a complex matrix and the explicit Q.
cusolverStatus_t complex_qr(cusolverDnHandle_t handle, int m, int n, cuComplex* a, cuComplex* tau, cuComplex* work,
                            int lwork, int* info) {
  SOLVER_CHECK(cusolverDnCgeqrf(handle, m, n, a, m, tau, work, lwork, info));
  return cusolverDnCungqr(handle, m, n, n, a, m, tau, work, lwork, info);
}

cusolverDnHandle_t make_solver() {
  cusolverDnHandle_t handle = nullptr;
  cusolverDnCreate(&handle);
  return handle;
}

void destroy_solver(cusolverDnHandle_t handle) { cusolverDnDestroy(handle); }

// NCCL as a tensor-parallel extension uses it: communicator set-up, all-reduce and
// all-gather in a group, point-to-point, error handling and the version macros.
// CHECK: #include <mccl.h>
#include <nccl.h>
// CHECK: #include <musa_fp16.h>
#include <cuda_fp16.h>
// CHECK: #include <musa_runtime.h>
#include <cuda_runtime.h>
#include <cstdio>

// CHECK: #define NCCL_CHECK(expr)                                                                  \
// CHECK:   do {                                                                                    \
// CHECK:     mcclResult_t r_ = (expr);                                                             \
// CHECK:     if (r_ != mcclSuccess) {                                                              \
// CHECK:       std::fprintf(stderr, "NCCL failure %s at %s:%d\n", mcclGetErrorString(r_), __FILE__, \
// CHECK:                    __LINE__);                                                             \
// CHECK:       return r_;                                                                          \
// CHECK:     }                                                                                     \
// CHECK:   } while (0)
#define NCCL_CHECK(expr)                                                                  \
  do {                                                                                    \
    ncclResult_t r_ = (expr);                                                             \
    if (r_ != ncclSuccess) {                                                              \
      std::fprintf(stderr, "NCCL failure %s at %s:%d\n", ncclGetErrorString(r_), __FILE__, \
                   __LINE__);                                                             \
      return r_;                                                                          \
    }                                                                                     \
  } while (0)

// CHECK: mcclResult_t all_reduce(int rank, int world, mcclUniqueId id, float* buf, __half* half_buf, size_t count,
ncclResult_t all_reduce(int rank, int world, ncclUniqueId id, float* buf, __half* half_buf, size_t count,
// CHECK:                         musaStream_t stream) {
                        cudaStream_t stream) {
// CHECK:   mcclComm_t comm;
  ncclComm_t comm;
// CHECK:   NCCL_CHECK(mcclCommInitRank(&comm, world, id, rank));
  NCCL_CHECK(ncclCommInitRank(&comm, world, id, rank));
  int device = -1, comm_rank = -1, comm_size = 0;
// CHECK:   NCCL_CHECK(mcclCommMuDevice(comm, &device));
  NCCL_CHECK(ncclCommCuDevice(comm, &device));
// CHECK:   NCCL_CHECK(mcclCommUserRank(comm, &comm_rank));
  NCCL_CHECK(ncclCommUserRank(comm, &comm_rank));
// CHECK:   NCCL_CHECK(mcclCommCount(comm, &comm_size));
  NCCL_CHECK(ncclCommCount(comm, &comm_size));

// CHECK:   NCCL_CHECK(mcclGroupStart());
  NCCL_CHECK(ncclGroupStart());
// CHECK:   NCCL_CHECK(mcclAllReduce(buf, buf, count, mcclFloat32, mcclSum, comm, stream));
  NCCL_CHECK(ncclAllReduce(buf, buf, count, ncclFloat32, ncclSum, comm, stream));
// CHECK:   NCCL_CHECK(mcclAllReduce(half_buf, half_buf, count, mcclHalf, mcclAvg, comm, stream));
  NCCL_CHECK(ncclAllReduce(half_buf, half_buf, count, ncclHalf, ncclAvg, comm, stream));
// CHECK:   NCCL_CHECK(mcclGroupEnd());
  NCCL_CHECK(ncclGroupEnd());
// CHECK:   NCCL_CHECK(mcclAllGather(buf, buf, count / world, mcclFloat, comm, stream));
  NCCL_CHECK(ncclAllGather(buf, buf, count / world, ncclFloat, comm, stream));
// CHECK:   NCCL_CHECK(mcclReduceScatter(buf, buf, count / world, mcclBfloat16, mcclMax, comm, stream));
  NCCL_CHECK(ncclReduceScatter(buf, buf, count / world, ncclBfloat16, ncclMax, comm, stream));
// CHECK:   NCCL_CHECK(mcclBroadcast(buf, buf, count, mcclInt8, 0, comm, stream));
  NCCL_CHECK(ncclBroadcast(buf, buf, count, ncclInt8, 0, comm, stream));

  int peer = (rank + 1) % world;
// CHECK:   NCCL_CHECK(mcclGroupStart());
  NCCL_CHECK(ncclGroupStart());
// CHECK:   NCCL_CHECK(mcclSend(buf, count, mcclFloat, peer, comm, stream));
  NCCL_CHECK(ncclSend(buf, count, ncclFloat, peer, comm, stream));
// CHECK:   NCCL_CHECK(mcclRecv(buf, count, mcclFloat, (rank + world - 1) % world, comm, stream));
  NCCL_CHECK(ncclRecv(buf, count, ncclFloat, (rank + world - 1) % world, comm, stream));
// CHECK:   NCCL_CHECK(mcclGroupEnd());
  NCCL_CHECK(ncclGroupEnd());

// CHECK:   mcclResult_t async_error;
  ncclResult_t async_error;
// CHECK:   NCCL_CHECK(mcclCommGetAsyncError(comm, &async_error));
  NCCL_CHECK(ncclCommGetAsyncError(comm, &async_error));
// CHECK:   if (async_error != mcclSuccess && async_error != mcclInProgress) {
  if (async_error != ncclSuccess && async_error != ncclInProgress) {
// CHECK:     NCCL_CHECK(mcclCommAbort(comm));
    NCCL_CHECK(ncclCommAbort(comm));
    return async_error;
  }
  // MCCL has no mcclCommSplit: the translator must report this, not invent a name.
// CHECK:   mcclComm_t half_comm;
  ncclComm_t half_comm;
// FINDING: 14: error TA1001 'ncclCommSplit'
  NCCL_CHECK(ncclCommSplit(comm, rank % 2, rank, &half_comm, nullptr));
// CHECK:   return mcclCommDestroy(comm);
  return ncclCommDestroy(comm);
}

int nccl_version() {
  int version = 0;
// CHECK:   if (mcclGetVersion(&version) != mcclSuccess) {
  if (ncclGetVersion(&version) != ncclSuccess) {
    return -1;
  }
// FINDING: 5: error TA1001 'NCCL_VERSION_CODE'
// CHECK: #if NCCL_VERSION_CODE >= MCCL_VERSION(2, 18, 0)
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 18, 0)
// CHECK:   return version + MCCL_MAJOR * 0;
  return version + NCCL_MAJOR * 0;
#else
  return version;
#endif
}

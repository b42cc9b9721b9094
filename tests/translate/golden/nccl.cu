// NCCL as a tensor-parallel extension uses it: communicator set-up, all-reduce and
// all-gather in a group, point-to-point, error handling and the version macros.
#include <nccl.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cstdio>

#define NCCL_CHECK(expr)                                                                  \
  do {                                                                                    \
    ncclResult_t r_ = (expr);                                                             \
    if (r_ != ncclSuccess) {                                                              \
      std::fprintf(stderr, "NCCL failure %s at %s:%d\n", ncclGetErrorString(r_), __FILE__, \
                   __LINE__);                                                             \
      return r_;                                                                          \
    }                                                                                     \
  } while (0)

ncclResult_t all_reduce(int rank, int world, ncclUniqueId id, float* buf, __half* half_buf, size_t count,
                        cudaStream_t stream) {
  ncclComm_t comm;
  NCCL_CHECK(ncclCommInitRank(&comm, world, id, rank));
  int device = -1, comm_rank = -1, comm_size = 0;
  NCCL_CHECK(ncclCommCuDevice(comm, &device));
  NCCL_CHECK(ncclCommUserRank(comm, &comm_rank));
  NCCL_CHECK(ncclCommCount(comm, &comm_size));

  NCCL_CHECK(ncclGroupStart());
  NCCL_CHECK(ncclAllReduce(buf, buf, count, ncclFloat32, ncclSum, comm, stream));
  NCCL_CHECK(ncclAllReduce(half_buf, half_buf, count, ncclHalf, ncclAvg, comm, stream));
  NCCL_CHECK(ncclGroupEnd());
  NCCL_CHECK(ncclAllGather(buf, buf, count / world, ncclFloat, comm, stream));
  NCCL_CHECK(ncclReduceScatter(buf, buf, count / world, ncclBfloat16, ncclMax, comm, stream));
  NCCL_CHECK(ncclBroadcast(buf, buf, count, ncclInt8, 0, comm, stream));

  int peer = (rank + 1) % world;
  NCCL_CHECK(ncclGroupStart());
  NCCL_CHECK(ncclSend(buf, count, ncclFloat, peer, comm, stream));
  NCCL_CHECK(ncclRecv(buf, count, ncclFloat, (rank + world - 1) % world, comm, stream));
  NCCL_CHECK(ncclGroupEnd());

  ncclResult_t async_error;
  NCCL_CHECK(ncclCommGetAsyncError(comm, &async_error));
  if (async_error != ncclSuccess && async_error != ncclInProgress) {
    NCCL_CHECK(ncclCommAbort(comm));
    return async_error;
  }
  // MCCL has no mcclCommSplit: the translator must report this, not invent a name.
  ncclComm_t half_comm;
  NCCL_CHECK(ncclCommSplit(comm, rank % 2, rank, &half_comm, nullptr));
  return ncclCommDestroy(comm);
}

int nccl_version() {
  int version = 0;
  if (ncclGetVersion(&version) != ncclSuccess) {
    return -1;
  }
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 18, 0)
  return version + NCCL_MAJOR * 0;
#else
  return version;
#endif
}

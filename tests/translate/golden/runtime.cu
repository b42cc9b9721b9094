// The CUDA runtime API as a typical extension uses it: memory, streams, events,
// device queries, kernel launches, occupancy, CUDA graphs and error checking.
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <cstdio>
#include <vector>

#define CUDA_CHECK(expr)                                                        \
  do {                                                                          \
    cudaError_t status_ = (expr);                                               \
    if (status_ != cudaSuccess) {                                               \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n",                          \
                   cudaGetErrorString(status_), __FILE__, __LINE__);            \
      return status_;                                                           \
    }                                                                           \
  } while (0)

__global__ void scale(float* out, const float* in, float alpha, int n) {
  extern __shared__ float tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    tile[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = alpha * tile[threadIdx.x];
  }
}

cudaError_t run(int n) {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  int sm_count = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));

  float* host = nullptr;
  CUDA_CHECK(cudaMallocHost(&host, n * sizeof(float)));
  float *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&out), n * sizeof(float)));
  CUDA_CHECK(cudaMemset(out, 0, n * sizeof(float)));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreateWithFlags(&stop, cudaEventDefault));

  CUDA_CHECK(cudaMemcpyAsync(in, host, n * sizeof(float), cudaMemcpyHostToDevice, stream));
  const int threads = 256;
  const size_t smem = threads * sizeof(float);
  CUDA_CHECK(cudaFuncSetAttribute(scale, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  int blocks_per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, scale, threads, smem));

  CUDA_CHECK(cudaProfilerStart());
  CUDA_CHECK(cudaEventRecord(start, stream));
  dim3 grid((n + threads - 1) / threads);
  scale<<<grid, threads, smem, stream>>>(out, in, 2.0f, n);
  CUDA_CHECK(cudaGetLastError());

  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeCooperative;
  attribute[0].val.cooperative = 0;
  config.attrs = attribute;
  config.numAttrs = 1;
  CUDA_CHECK(cudaLaunchKernelEx(&config, scale, out, in, 0.5f, n));

  CUDA_CHECK(cudaEventRecord(stop, stream));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaProfilerStop());

  cudaGraph_t graph;
  cudaGraphExec_t graph_exec;
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  scale<<<grid, threads, smem, stream>>>(out, out, 1.0f, n);
  CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaStreamCaptureStatus capture_status;
  CUDA_CHECK(cudaStreamIsCapturing(stream, &capture_status));
  CUDA_CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));
  CUDA_CHECK(cudaGraphLaunch(graph_exec, stream));

  CUDA_CHECK(cudaMemcpy(host, out, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaDeviceSynchronize());

  cudaPointerAttributes attributes;
  CUDA_CHECK(cudaPointerGetAttributes(&attributes, out));
  if (attributes.type != cudaMemoryTypeDevice) {
    return cudaErrorInvalidValue;
  }

  CUDA_CHECK(cudaGraphExecDestroy(graph_exec));
  CUDA_CHECK(cudaGraphDestroy(graph));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  CUDA_CHECK(cudaFreeHost(host));
  std::printf("%s: %d SMs, %d blocks/SM, %.3f ms\n", prop.name, sm_count, blocks_per_sm, ms);
  return cudaSuccess;
}

// The stream-ordered allocator and capture introspection: MUSA has neither.
cudaError_t pooled(cudaStream_t stream, size_t bytes) {
  void* scratch = nullptr;
  CUDA_CHECK(cudaMallocAsync(&scratch, bytes, stream));
  cudaStreamCaptureStatus status;
  CUDA_CHECK(cudaStreamGetCaptureInfo(stream, &status));
  return cudaFreeAsync(scratch, stream);
}

int main() {
#ifdef CUDART_VERSION
  std::printf("built with the CUDA runtime\n");
#endif
  std::vector<float> check(16, 1.0f);
  return run(static_cast<int>(check.size())) == cudaSuccess ? 0 : 1;
}

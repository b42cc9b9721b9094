// The CUDA runtime API as a typical extension uses it: memory, streams, events,
// device queries, kernel launches, occupancy, CUDA graphs and error checking.
// CHECK: #include <musa_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include <musa_profiler_api.h>
#include <cuda_profiler_api.h>
#include <cstdio>
#include <vector>

// CHECK: #define CUDA_CHECK(expr)                                                        \
// CHECK:   do {                                                                          \
// CHECK:     musaError_t status_ = (expr);                                               \
// CHECK:     if (status_ != musaSuccess) {                                               \
// CHECK:       std::fprintf(stderr, "CUDA error %s at %s:%d\n",                          \
// CHECK:                    musaGetErrorString(status_), __FILE__, __LINE__);            \
// CHECK:       return status_;                                                           \
// CHECK:     }                                                                           \
// CHECK:   } while (0)
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

// CHECK: musaError_t run(int n) {
cudaError_t run(int n) {
  int device = 0;
// CHECK:   CUDA_CHECK(musaGetDevice(&device));
  CUDA_CHECK(cudaGetDevice(&device));
// CHECK:   musaDeviceProp prop;
  cudaDeviceProp prop;
// CHECK:   CUDA_CHECK(musaGetDeviceProperties(&prop, device));
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  int sm_count = 0;
// CHECK:   CUDA_CHECK(musaDeviceGetAttribute(&sm_count, musaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));

  float* host = nullptr;
// CHECK:   CUDA_CHECK(musaMallocHost(&host, n * sizeof(float)));
  CUDA_CHECK(cudaMallocHost(&host, n * sizeof(float)));
  float *in = nullptr, *out = nullptr;
// CHECK:   CUDA_CHECK(musaMalloc(&in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&in, n * sizeof(float)));
// CHECK:   CUDA_CHECK(musaMalloc(reinterpret_cast<void**>(&out), n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&out), n * sizeof(float)));
// CHECK:   CUDA_CHECK(musaMemset(out, 0, n * sizeof(float)));
  CUDA_CHECK(cudaMemset(out, 0, n * sizeof(float)));

// CHECK:   musaStream_t stream;
  cudaStream_t stream;
// CHECK:   CUDA_CHECK(musaStreamCreateWithFlags(&stream, musaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
// CHECK:   musaEvent_t start, stop;
  cudaEvent_t start, stop;
// CHECK:   CUDA_CHECK(musaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&start));
// CHECK:   CUDA_CHECK(musaEventCreateWithFlags(&stop, musaEventDefault));
  CUDA_CHECK(cudaEventCreateWithFlags(&stop, cudaEventDefault));

// CHECK:   CUDA_CHECK(musaMemcpyAsync(in, host, n * sizeof(float), musaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaMemcpyAsync(in, host, n * sizeof(float), cudaMemcpyHostToDevice, stream));
  const int threads = 256;
  const size_t smem = threads * sizeof(float);
// CHECK:   CUDA_CHECK(musaFuncSetAttribute(scale, musaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  CUDA_CHECK(cudaFuncSetAttribute(scale, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  int blocks_per_sm = 0;
// CHECK:   CUDA_CHECK(musaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, scale, threads, smem));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, scale, threads, smem));

// CHECK:   CUDA_CHECK(musaProfilerStart());
  CUDA_CHECK(cudaProfilerStart());
// CHECK:   CUDA_CHECK(musaEventRecord(start, stream));
  CUDA_CHECK(cudaEventRecord(start, stream));
  dim3 grid((n + threads - 1) / threads);
  scale<<<grid, threads, smem, stream>>>(out, in, 2.0f, n);
// CHECK:   CUDA_CHECK(musaGetLastError());
  CUDA_CHECK(cudaGetLastError());

// CHECK:   musaLaunchConfig_t config = {};
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
// CHECK:   musaLaunchAttribute attribute[1];
  cudaLaunchAttribute attribute[1];
// CHECK:   attribute[0].id = musaLaunchAttributeCooperative;
  attribute[0].id = cudaLaunchAttributeCooperative;
  attribute[0].val.cooperative = 0;
  config.attrs = attribute;
  config.numAttrs = 1;
// CHECK:   CUDA_CHECK(musaLaunchKernelEx(&config, scale, out, in, 0.5f, n));
  CUDA_CHECK(cudaLaunchKernelEx(&config, scale, out, in, 0.5f, n));

// CHECK:   CUDA_CHECK(musaEventRecord(stop, stream));
  CUDA_CHECK(cudaEventRecord(stop, stream));
// CHECK:   CUDA_CHECK(musaEventSynchronize(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
// CHECK:   CUDA_CHECK(musaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
// CHECK:   CUDA_CHECK(musaProfilerStop());
  CUDA_CHECK(cudaProfilerStop());

// CHECK:   musaGraph_t graph;
  cudaGraph_t graph;
// CHECK:   musaGraphExec_t graph_exec;
  cudaGraphExec_t graph_exec;
// CHECK:   CUDA_CHECK(musaStreamBeginCapture(stream, musaStreamCaptureModeGlobal));
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  scale<<<grid, threads, smem, stream>>>(out, out, 1.0f, n);
// CHECK:   CUDA_CHECK(musaStreamEndCapture(stream, &graph));
  CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
// CHECK:   musaStreamCaptureStatus capture_status;
  cudaStreamCaptureStatus capture_status;
// CHECK:   CUDA_CHECK(musaStreamIsCapturing(stream, &capture_status));
  CUDA_CHECK(cudaStreamIsCapturing(stream, &capture_status));
// CHECK:   CUDA_CHECK(musaGraphInstantiate(&graph_exec, graph, 0));
  CUDA_CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));
// CHECK:   CUDA_CHECK(musaGraphLaunch(graph_exec, stream));
  CUDA_CHECK(cudaGraphLaunch(graph_exec, stream));

// CHECK:   CUDA_CHECK(musaMemcpy(host, out, n * sizeof(float), musaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(host, out, n * sizeof(float), cudaMemcpyDeviceToHost));
// CHECK:   CUDA_CHECK(musaStreamSynchronize(stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
// CHECK:   CUDA_CHECK(musaDeviceSynchronize());
  CUDA_CHECK(cudaDeviceSynchronize());

// CHECK:   musaPointerAttributes attributes;
  cudaPointerAttributes attributes;
// CHECK:   CUDA_CHECK(musaPointerGetAttributes(&attributes, out));
  CUDA_CHECK(cudaPointerGetAttributes(&attributes, out));
// CHECK:   if (attributes.type != musaMemoryTypeDevice) {
  if (attributes.type != cudaMemoryTypeDevice) {
// CHECK:     return musaErrorInvalidValue;
    return cudaErrorInvalidValue;
  }

// CHECK:   CUDA_CHECK(musaGraphExecDestroy(graph_exec));
  CUDA_CHECK(cudaGraphExecDestroy(graph_exec));
// CHECK:   CUDA_CHECK(musaGraphDestroy(graph));
  CUDA_CHECK(cudaGraphDestroy(graph));
// CHECK:   CUDA_CHECK(musaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(start));
// CHECK:   CUDA_CHECK(musaEventDestroy(stop));
  CUDA_CHECK(cudaEventDestroy(stop));
// CHECK:   CUDA_CHECK(musaStreamDestroy(stream));
  CUDA_CHECK(cudaStreamDestroy(stream));
// CHECK:   CUDA_CHECK(musaFree(in));
  CUDA_CHECK(cudaFree(in));
// CHECK:   CUDA_CHECK(musaFree(out));
  CUDA_CHECK(cudaFree(out));
// CHECK:   CUDA_CHECK(musaFreeHost(host));
  CUDA_CHECK(cudaFreeHost(host));
  std::printf("%s: %d SMs, %d blocks/SM, %.3f ms\n", prop.name, sm_count, blocks_per_sm, ms);
// CHECK:   return musaSuccess;
  return cudaSuccess;
}

// The stream-ordered allocator and capture introspection: MUSA has neither.
// CHECK: musaError_t pooled(musaStream_t stream, size_t bytes) {
cudaError_t pooled(cudaStream_t stream, size_t bytes) {
  void* scratch = nullptr;
// FINDING: 14: error TA1001 'cudaMallocAsync'
  CUDA_CHECK(cudaMallocAsync(&scratch, bytes, stream));
// CHECK:   musaStreamCaptureStatus status;
  cudaStreamCaptureStatus status;
// FINDING: 14: error TA1001 'cudaStreamGetCaptureInfo'
  CUDA_CHECK(cudaStreamGetCaptureInfo(stream, &status));
// FINDING: 10: error TA1001 'cudaFreeAsync'
  return cudaFreeAsync(scratch, stream);
}

int main() {
// FINDING: 8: warning TA1002 'CUDART_VERSION'
// CHECK: #ifdef MUSART_VERSION
#ifdef CUDART_VERSION
  std::printf("built with the CUDA runtime\n");
#endif
  std::vector<float> check(16, 1.0f);
// CHECK:   return run(static_cast<int>(check.size())) == musaSuccess ? 0 : 1;
  return run(static_cast<int>(check.size())) == cudaSuccess ? 0 : 1;
}

// Regressions: programmatic dependent launch, which MUSA lacks, is reported in every
// spelling (torchada's no-op rule matched only the exact "...()" form).
// CHECK: #include <musa_runtime.h>
#include <cuda_runtime.h>

__global__ void consumer(float* x) {
// CHECK: #if defined(__MUSA_ARCH__) && __MUSA_ARCH__ >= 310
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// FINDING: 3: error TA1001 'cudaGridDependencySynchronize'
  cudaGridDependencySynchronize ();
#endif
  x[threadIdx.x] += 1.0f;
// CHECK: #if defined(__MUSA_ARCH__) && __MUSA_ARCH__ >= 310
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// FINDING: 3: error TA1001 'cudaTriggerProgrammaticLaunchCompletion'
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

// CHECK: musaError_t launch(float* x, musaStream_t stream) {
cudaError_t launch(float* x, cudaStream_t stream) {
// CHECK:   musaLaunchConfig_t config = {};
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(32);
  config.stream = stream;
// CHECK:   musaLaunchAttribute attribute[1];
  cudaLaunchAttribute attribute[1];
// FINDING: 21: warning TA1002 'cudaLaunchAttributeProgrammaticStreamSerialization'
// CHECK:   attribute[0].id = musaLaunchAttributeIgnore;
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
// CHECK:   return musaLaunchKernelEx(&config, consumer, x);
  return cudaLaunchKernelEx(&config, consumer, x);
}

// cuFFT: a batched 1-D real-to-complex plan on a stream, with an explicit work area, as torch.fft plans it.
// CHECK: #include <musa_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include <mufft.h>
#include <cufft.h>
// CHECK: #include <mufftXt.h>
#include <cufftXt.h>

#include <cstddef>

// CHECK: mufftResult rfft_batched(musaStream_t stream, int n, int batch, mufftReal* input, mufftComplex* output,
cufftResult rfft_batched(cudaStream_t stream, int n, int batch, cufftReal* input, cufftComplex* output,
                         void* work_area) {
// CHECK:   mufftHandle plan;
  cufftHandle plan;
// CHECK:   mufftResult result = mufftCreate(&plan);
  cufftResult result = cufftCreate(&plan);
// CHECK:   if (result != MUFFT_SUCCESS) {
  if (result != CUFFT_SUCCESS) {
    return result;
  }
// CHECK:   mufftSetAutoAllocation(plan, 0);
  cufftSetAutoAllocation(plan, 0);
  size_t work_size = 0;
  int lengths[1] = {n};
// CHECK:   result = mufftMakePlanMany(plan, 1, lengths, nullptr, 1, n, nullptr, 1, n / 2 + 1, MUFFT_R2C, batch, &work_size);
  result = cufftMakePlanMany(plan, 1, lengths, nullptr, 1, n, nullptr, 1, n / 2 + 1, CUFFT_R2C, batch, &work_size);
// CHECK:   if (result == MUFFT_SUCCESS) {
  if (result == CUFFT_SUCCESS) {
// CHECK:     mufftSetWorkArea(plan, work_area);
    cufftSetWorkArea(plan, work_area);
// CHECK:     mufftSetStream(plan, stream);
    cufftSetStream(plan, stream);
// CHECK:     result = mufftExecR2C(plan, input, output);
    result = cufftExecR2C(plan, input, output);
  }
// CHECK:   mufftDestroy(plan);
  cufftDestroy(plan);
  return result;
}

// CHECK: mufftResult inverse_z2z(mufftDoubleComplex* data, int nx, int ny) {
cufftResult inverse_z2z(cufftDoubleComplex* data, int nx, int ny) {
// CHECK:   mufftHandle plan;
  cufftHandle plan;
// CHECK:   mufftResult result = mufftPlan2d(&plan, nx, ny, MUFFT_Z2Z);
  cufftResult result = cufftPlan2d(&plan, nx, ny, CUFFT_Z2Z);
// CHECK:   if (result == MUFFT_SUCCESS) {
  if (result == CUFFT_SUCCESS) {
// CHECK:     result = mufftExecZ2Z(plan, data, data, MUFFT_INVERSE);
    result = cufftExecZ2Z(plan, data, data, CUFFT_INVERSE);
// CHECK:     mufftDestroy(plan);
    cufftDestroy(plan);
  }
  return result;
}

int fft_version() {
  int version = 0;
// CHECK:   mufftGetVersion(&version);
  cufftGetVersion(&version);
  return version;
}

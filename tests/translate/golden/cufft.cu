// cuFFT: a batched 1-D real-to-complex plan on a stream, with an explicit work area, as torch.fft plans it.
#include <cuda_runtime.h>
#include <cufft.h>
#include <cufftXt.h>

#include <cstddef>

cufftResult rfft_batched(cudaStream_t stream, int n, int batch, cufftReal* input, cufftComplex* output,
                         void* work_area) {
  cufftHandle plan;
  cufftResult result = cufftCreate(&plan);
  if (result != CUFFT_SUCCESS) {
    return result;
  }
  cufftSetAutoAllocation(plan, 0);
  size_t work_size = 0;
  int lengths[1] = {n};
  result = cufftMakePlanMany(plan, 1, lengths, nullptr, 1, n, nullptr, 1, n / 2 + 1, CUFFT_R2C, batch, &work_size);
  if (result == CUFFT_SUCCESS) {
    cufftSetWorkArea(plan, work_area);
    cufftSetStream(plan, stream);
    result = cufftExecR2C(plan, input, output);
  }
  cufftDestroy(plan);
  return result;
}

cufftResult inverse_z2z(cufftDoubleComplex* data, int nx, int ny) {
  cufftHandle plan;
  cufftResult result = cufftPlan2d(&plan, nx, ny, CUFFT_Z2Z);
  if (result == CUFFT_SUCCESS) {
    result = cufftExecZ2Z(plan, data, data, CUFFT_INVERSE);
    cufftDestroy(plan);
  }
  return result;
}

int fft_version() {
  int version = 0;
  cufftGetVersion(&version);
  return version;
}

// The PyTorch C++ CUDA surface a custom-op extension uses: ATen/c10 CUDA headers, the
// current stream, device guards, error-check macros, the caching allocator, Philox RNG
// state, events, blas handles and dispatcher registration.
#include <ATen/ATen.h>
// CHECK: #include <torch_musa/csrc/aten/musa/MUSAContext.h>
#include <ATen/cuda/CUDAContext.h>
// CHECK: #include <torch_musa/csrc/core/MUSAEvent.h>
#include <ATen/cuda/CUDAEvent.h>
// CHECK: #include <torch_musa/csrc/aten/musa/MUSAGeneratorImpl.h>
#include <ATen/cuda/CUDAGeneratorImpl.h>
// CHECK: #include <torch_musa/csrc/aten/musa/Exceptions.h>
#include <ATen/cuda/Exceptions.h>
// CHECK: #include <torch_musa/csrc/aten/musa/UnpackRaw.muh>
#include <ATen/cuda/detail/UnpackRaw.cuh>
// CHECK: #include <torch_musa/csrc/core/MUSACachingAllocator.h>
#include <c10/cuda/CUDACachingAllocator.h>
// CHECK: #include <torch_musa/csrc/core/MUSAException.h>
#include <c10/cuda/CUDAException.h>
// CHECK: #include <torch_musa/csrc/core/MUSAGuard.h>
#include <c10/cuda/CUDAGuard.h>
// CHECK: #include <torch_musa/csrc/core/MUSAStream.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/library.h>

// CHECK: #include <murand_kernel.h>
#include <curand_kernel.h>
#include <tuple>

// CHECK: __global__ void add_noise(float* x, at::PhiloxMusaState philox, int64_t n) {
__global__ void add_noise(float* x, at::PhiloxCudaState philox, int64_t n) {
// CHECK:   auto seeds = at::musa::philox::unpack(philox);
  auto seeds = at::cuda::philox::unpack(philox);
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
// CHECK:   murandStatePhilox4_32_10_t state;
  curandStatePhilox4_32_10_t state;
// CHECK:   murand_init(std::get<0>(seeds), i, std::get<1>(seeds), &state);
  curand_init(std::get<0>(seeds), i, std::get<1>(seeds), &state);
  if (i < n) {
// CHECK:     x[i] += murand_uniform(&state);
    x[i] += curand_uniform(&state);
  }
}

at::Tensor noisy_copy(const at::Tensor& input, c10::optional<at::Generator> generator) {
// CHECK:   TORCH_CHECK(input.is_privateuseone(), "input must be a CUDA tensor");
  TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
// CHECK:   TORCH_CHECK(input.device().type() == c10::DeviceType::PrivateUse1, "input must live on a CUDA device");
  TORCH_CHECK(input.device().type() == c10::DeviceType::CUDA, "input must live on a CUDA device");
// CHECK:   const at::musa::OptionalMUSAGuard device_guard(device_of(input));
  const at::cuda::OptionalCUDAGuard device_guard(device_of(input));
  at::Tensor out = input.contiguous().clone();
  const int64_t n = out.numel();

// CHECK:   auto gen = at::get_generator_or_default<at::MUSAGeneratorImpl>(generator, at::musa::detail::getDefaultMUSAGenerator());
  auto gen = at::get_generator_or_default<at::CUDAGeneratorImpl>(generator, at::cuda::detail::getDefaultCUDAGenerator());
// CHECK:   at::PhiloxMusaState philox;
  at::PhiloxCudaState philox;
  {
    std::lock_guard<std::mutex> lock(gen->mutex_);
// CHECK:     philox = gen->philox_musa_state(4);
    philox = gen->philox_cuda_state(4);
  }

// CHECK:   musaStream_t stream = at::musa::getCurrentMUSAStream();
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 256;
  const int blocks = static_cast<int>((n + threads - 1) / threads);
  add_noise<<<blocks, threads, 0, stream>>>(out.data_ptr<float>(), philox, n);
// CHECK:   C10_MUSA_KERNEL_LAUNCH_CHECK();
  C10_CUDA_KERNEL_LAUNCH_CHECK();

// CHECK:   at::musa::MUSAEvent done;
  at::cuda::CUDAEvent done;
// CHECK:   done.record(at::musa::getCurrentMUSAStream());
  done.record(at::cuda::getCurrentCUDAStream());
// CHECK:   c10::musa::MUSAStream side = c10::musa::getStreamFromPool();
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
  {
// CHECK:     c10::musa::MUSAStreamGuard stream_guard(side);
    c10::cuda::CUDAStreamGuard stream_guard(side);
    done.block(side);
// CHECK:     void* scratch = c10::musa::MUSACachingAllocator::raw_alloc_with_stream(64, side.stream());
    void* scratch = c10::cuda::CUDACachingAllocator::raw_alloc_with_stream(64, side.stream());
// CHECK:     C10_MUSA_CHECK(musaMemsetAsync(scratch, 0, 64, side.stream()));
    C10_CUDA_CHECK(cudaMemsetAsync(scratch, 0, 64, side.stream()));
// CHECK:     c10::musa::MUSACachingAllocator::raw_delete(scratch);
    c10::cuda::CUDACachingAllocator::raw_delete(scratch);
  }
// CHECK:   AT_MUSA_CHECK(musaStreamSynchronize(c10::musa::getDefaultMUSAStream()));
  AT_CUDA_CHECK(cudaStreamSynchronize(c10::cuda::getDefaultCUDAStream()));

// CHECK:   mublasHandle_t handle = at::musa::getCurrentMUSABlasHandle();
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
// CHECK:   TORCH_MUSABLAS_CHECK(mublasSetStream(handle, stream));
  TORCH_CUDABLAS_CHECK(cublasSetStream(handle, stream));
// CHECK:   const int sm_count = at::musa::getCurrentDeviceProperties()->multiProcessorCount;
  const int sm_count = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
  TORCH_CHECK(sm_count > 0, "no streaming multiprocessors");
// CHECK:   return out.to(at::TensorOptions().device(at::kPrivateUse1));
  return out.to(at::TensorOptions().device(at::kCUDA));
}

TORCH_LIBRARY(golden_ops, m) {
  m.def("noisy_copy(Tensor input, Generator? generator=None) -> Tensor");
}

// CHECK: TORCH_LIBRARY_IMPL(golden_ops, PrivateUse1, m) {
TORCH_LIBRARY_IMPL(golden_ops, CUDA, m) {
  m.impl("noisy_copy", &noisy_copy);
}

// CHECK: TORCH_LIBRARY_IMPL(golden_ops, AutogradPrivateUse1, m) {
TORCH_LIBRARY_IMPL(golden_ops, AutogradCUDA, m) {
  m.impl("noisy_copy", torch::CppFunction::makeFallthrough());
}

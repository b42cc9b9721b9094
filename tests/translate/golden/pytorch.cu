// The PyTorch C++ CUDA surface a custom-op extension uses: ATen/c10 CUDA headers, the
// current stream, device guards, error-check macros, the caching allocator, Philox RNG
// state, events, blas handles and dispatcher registration.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGeneratorImpl.h>
#include <ATen/cuda/Exceptions.h>
#include <ATen/cuda/detail/UnpackRaw.cuh>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/library.h>

#include <curand_kernel.h>
#include <tuple>

__global__ void add_noise(float* x, at::PhiloxCudaState philox, int64_t n) {
  auto seeds = at::cuda::philox::unpack(philox);
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  curandStatePhilox4_32_10_t state;
  curand_init(std::get<0>(seeds), i, std::get<1>(seeds), &state);
  if (i < n) {
    x[i] += curand_uniform(&state);
  }
}

at::Tensor noisy_copy(const at::Tensor& input, c10::optional<at::Generator> generator) {
  TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
  TORCH_CHECK(input.device().type() == c10::DeviceType::CUDA, "input must live on a CUDA device");
  const at::cuda::OptionalCUDAGuard device_guard(device_of(input));
  at::Tensor out = input.contiguous().clone();
  const int64_t n = out.numel();

  auto gen = at::get_generator_or_default<at::CUDAGeneratorImpl>(generator, at::cuda::detail::getDefaultCUDAGenerator());
  at::PhiloxCudaState philox;
  {
    std::lock_guard<std::mutex> lock(gen->mutex_);
    philox = gen->philox_cuda_state(4);
  }

  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 256;
  const int blocks = static_cast<int>((n + threads - 1) / threads);
  add_noise<<<blocks, threads, 0, stream>>>(out.data_ptr<float>(), philox, n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();

  at::cuda::CUDAEvent done;
  done.record(at::cuda::getCurrentCUDAStream());
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard stream_guard(side);
    done.block(side);
    void* scratch = c10::cuda::CUDACachingAllocator::raw_alloc_with_stream(64, side.stream());
    C10_CUDA_CHECK(cudaMemsetAsync(scratch, 0, 64, side.stream()));
    c10::cuda::CUDACachingAllocator::raw_delete(scratch);
  }
  AT_CUDA_CHECK(cudaStreamSynchronize(c10::cuda::getDefaultCUDAStream()));

  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  TORCH_CUDABLAS_CHECK(cublasSetStream(handle, stream));
  const int sm_count = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
  TORCH_CHECK(sm_count > 0, "no streaming multiprocessors");
  return out.to(at::TensorOptions().device(at::kCUDA));
}

TORCH_LIBRARY(golden_ops, m) {
  m.def("noisy_copy(Tensor input, Generator? generator=None) -> Tensor");
}

TORCH_LIBRARY_IMPL(golden_ops, CUDA, m) {
  m.impl("noisy_copy", &noisy_copy);
}

TORCH_LIBRARY_IMPL(golden_ops, AutogradCUDA, m) {
  m.impl("noisy_copy", torch::CppFunction::makeFallthrough());
}

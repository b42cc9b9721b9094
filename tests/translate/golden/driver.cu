// Driver API: initialisation, modules and launches, virtual memory management, tensor maps.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstddef>
#include <cstdio>

#define DRV_CHECK(expr)                                        \
  do {                                                         \
    CUresult status_ = (expr);                                 \
    if (status_ != CUDA_SUCCESS) {                             \
      const char* message_ = nullptr;                          \
      cuGetErrorString(status_, &message_);                    \
      std::fprintf(stderr, "%s failed: %s\n", #expr, message_); \
    }                                                          \
  } while (0)

int launch_fill(const char* cubin_path, CUdeviceptr out, int n) {
  DRV_CHECK(cuInit(0));
  int version = 0;
  DRV_CHECK(cuDriverGetVersion(&version));
  CUdevice device;
  DRV_CHECK(cuDeviceGet(&device, 0));
  int major = 0;
  DRV_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  CUcontext context;
  DRV_CHECK(cuDevicePrimaryCtxRetain(&context, device));
  DRV_CHECK(cuCtxSetCurrent(context));

  CUmodule module;
  DRV_CHECK(cuModuleLoad(&module, cubin_path));
  CUfunction fill;
  DRV_CHECK(cuModuleGetFunction(&fill, module, "fill"));
  CUstream stream;
  DRV_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  void* args[] = {&out, &n};
  DRV_CHECK(cuLaunchKernel(fill, (n + 255) / 256, 1, 1, 256, 1, 1, 0, stream, args, nullptr));
  DRV_CHECK(cuStreamSynchronize(stream));
  DRV_CHECK(cuStreamDestroy(stream));
  DRV_CHECK(cuModuleUnload(module));
  DRV_CHECK(cuDevicePrimaryCtxRelease(device));
  return major;
}

// Reserve a virtual range and back it with physical memory, as ggml and PyTorch's expandable segments do.
CUdeviceptr map_device_memory(int ordinal, size_t size) {
  CUdevice device;
  DRV_CHECK(cuDeviceGet(&device, ordinal));
  int vmm = 0;
  DRV_CHECK(cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, device));
  if (!vmm) {
    return 0;
  }
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = ordinal;
  size_t granularity = 0;
  DRV_CHECK(cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  size = (size + granularity - 1) / granularity * granularity;

  CUdeviceptr base = 0;
  DRV_CHECK(cuMemAddressReserve(&base, size, 0, 0, 0));
  CUmemGenericAllocationHandle handle;
  DRV_CHECK(cuMemCreate(&handle, size, &prop, 0));
  DRV_CHECK(cuMemMap(base, size, 0, handle, 0));
  CUmemAccessDesc access = {};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  DRV_CHECK(cuMemSetAccess(base, size, &access, 1));
  DRV_CHECK(cuMemRelease(handle));
  return base;
}

void unmap_device_memory(CUdeviceptr base, size_t size) {
  DRV_CHECK(cuMemUnmap(base, size));
  DRV_CHECK(cuMemAddressFree(base, size));
}

// A 2-D tensor map over a row-major fp16 matrix, as Triton and torch.compile emit for TMA loads.
CUtensorMap make_tile_map(void* base, cuuint64_t rows, cuuint64_t cols) {
  CUtensorMap map;
  cuuint64_t dims[2] = {cols, rows};
  cuuint64_t strides[1] = {cols * 2};
  cuuint32_t box[2] = {64, 64};
  cuuint32_t element_strides[2] = {1, 1};
  DRV_CHECK(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, base, dims, strides, box,
                                   element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                   CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return map;
}

#if CUDA_VERSION >= 12000
int driver_is_recent() { return 1; }
#endif

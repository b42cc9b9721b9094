// Driver API: initialisation, modules and launches, virtual memory management, tensor maps.
// CHECK: #include <musa.h>
#include <cuda.h>
// CHECK: #include <musaTypedefs.h>
#include <cudaTypedefs.h>

#include <cstddef>
#include <cstdio>

// CHECK: #define DRV_CHECK(expr)                                        \
// CHECK:   do {                                                         \
// CHECK:     MUresult status_ = (expr);                                 \
// CHECK:     if (status_ != MUSA_SUCCESS) {                             \
// CHECK:       const char* message_ = nullptr;                          \
// CHECK:       muGetErrorString(status_, &message_);                    \
// CHECK:       std::fprintf(stderr, "%s failed: %s\n", #expr, message_); \
// CHECK:     }                                                          \
// CHECK:   } while (0)
#define DRV_CHECK(expr)                                        \
  do {                                                         \
    CUresult status_ = (expr);                                 \
    if (status_ != CUDA_SUCCESS) {                             \
      const char* message_ = nullptr;                          \
      cuGetErrorString(status_, &message_);                    \
      std::fprintf(stderr, "%s failed: %s\n", #expr, message_); \
    }                                                          \
  } while (0)

// CHECK: int launch_fill(const char* cubin_path, MUdeviceptr out, int n) {
int launch_fill(const char* cubin_path, CUdeviceptr out, int n) {
// CHECK:   DRV_CHECK(muInit(0));
  DRV_CHECK(cuInit(0));
  int version = 0;
// CHECK:   DRV_CHECK(muDriverGetVersion(&version));
  DRV_CHECK(cuDriverGetVersion(&version));
// CHECK:   MUdevice device;
  CUdevice device;
// CHECK:   DRV_CHECK(muDeviceGet(&device, 0));
  DRV_CHECK(cuDeviceGet(&device, 0));
  int major = 0;
// CHECK:   DRV_CHECK(muDeviceGetAttribute(&major, MU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  DRV_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
// CHECK:   MUcontext context;
  CUcontext context;
// CHECK:   DRV_CHECK(muDevicePrimaryCtxRetain(&context, device));
  DRV_CHECK(cuDevicePrimaryCtxRetain(&context, device));
// CHECK:   DRV_CHECK(muCtxSetCurrent(context));
  DRV_CHECK(cuCtxSetCurrent(context));

// CHECK:   MUmodule module;
  CUmodule module;
// CHECK:   DRV_CHECK(muModuleLoad(&module, cubin_path));
  DRV_CHECK(cuModuleLoad(&module, cubin_path));
// CHECK:   MUfunction fill;
  CUfunction fill;
// CHECK:   DRV_CHECK(muModuleGetFunction(&fill, module, "fill"));
  DRV_CHECK(cuModuleGetFunction(&fill, module, "fill"));
// CHECK:   MUstream stream;
  CUstream stream;
// CHECK:   DRV_CHECK(muStreamCreate(&stream, MU_STREAM_NON_BLOCKING));
  DRV_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  void* args[] = {&out, &n};
// CHECK:   DRV_CHECK(muLaunchKernel(fill, (n + 255) / 256, 1, 1, 256, 1, 1, 0, stream, args, nullptr));
  DRV_CHECK(cuLaunchKernel(fill, (n + 255) / 256, 1, 1, 256, 1, 1, 0, stream, args, nullptr));
// CHECK:   DRV_CHECK(muStreamSynchronize(stream));
  DRV_CHECK(cuStreamSynchronize(stream));
// CHECK:   DRV_CHECK(muStreamDestroy(stream));
  DRV_CHECK(cuStreamDestroy(stream));
// CHECK:   DRV_CHECK(muModuleUnload(module));
  DRV_CHECK(cuModuleUnload(module));
// CHECK:   DRV_CHECK(muDevicePrimaryCtxRelease(device));
  DRV_CHECK(cuDevicePrimaryCtxRelease(device));
  return major;
}

// Reserve a virtual range and back it with physical memory, as ggml and PyTorch's expandable segments do.
// CHECK: MUdeviceptr map_device_memory(int ordinal, size_t size) {
CUdeviceptr map_device_memory(int ordinal, size_t size) {
// CHECK:   MUdevice device;
  CUdevice device;
// CHECK:   DRV_CHECK(muDeviceGet(&device, ordinal));
  DRV_CHECK(cuDeviceGet(&device, ordinal));
  int vmm = 0;
// CHECK:   DRV_CHECK(muDeviceGetAttribute(&vmm, MU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED, device));
  DRV_CHECK(cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, device));
  if (!vmm) {
    return 0;
  }
// CHECK:   MUmemAllocationProp prop = {};
  CUmemAllocationProp prop = {};
// CHECK:   prop.type = MU_MEM_ALLOCATION_TYPE_PINNED;
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
// CHECK:   prop.location.type = MU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = ordinal;
  size_t granularity = 0;
// CHECK:   DRV_CHECK(muMemGetAllocationGranularity(&granularity, &prop, MU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  DRV_CHECK(cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  size = (size + granularity - 1) / granularity * granularity;

// CHECK:   MUdeviceptr base = 0;
  CUdeviceptr base = 0;
// CHECK:   DRV_CHECK(muMemAddressReserve(&base, size, 0, 0, 0));
  DRV_CHECK(cuMemAddressReserve(&base, size, 0, 0, 0));
// CHECK:   MUmemGenericAllocationHandle handle;
  CUmemGenericAllocationHandle handle;
// CHECK:   DRV_CHECK(muMemCreate(&handle, size, &prop, 0));
  DRV_CHECK(cuMemCreate(&handle, size, &prop, 0));
// CHECK:   DRV_CHECK(muMemMap(base, size, 0, handle, 0));
  DRV_CHECK(cuMemMap(base, size, 0, handle, 0));
// CHECK:   MUmemAccessDesc access = {};
  CUmemAccessDesc access = {};
  access.location = prop.location;
// CHECK:   access.flags = MU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
// CHECK:   DRV_CHECK(muMemSetAccess(base, size, &access, 1));
  DRV_CHECK(cuMemSetAccess(base, size, &access, 1));
// CHECK:   DRV_CHECK(muMemRelease(handle));
  DRV_CHECK(cuMemRelease(handle));
  return base;
}

// CHECK: void unmap_device_memory(MUdeviceptr base, size_t size) {
void unmap_device_memory(CUdeviceptr base, size_t size) {
// CHECK:   DRV_CHECK(muMemUnmap(base, size));
  DRV_CHECK(cuMemUnmap(base, size));
// CHECK:   DRV_CHECK(muMemAddressFree(base, size));
  DRV_CHECK(cuMemAddressFree(base, size));
}

// A 2-D tensor map over a row-major fp16 matrix, as Triton and torch.compile emit for TMA loads.
// CHECK: MUtensorMap make_tile_map(void* base, muuint64_t rows, muuint64_t cols) {
CUtensorMap make_tile_map(void* base, cuuint64_t rows, cuuint64_t cols) {
// CHECK:   MUtensorMap map;
  CUtensorMap map;
// CHECK:   muuint64_t dims[2] = {cols, rows};
  cuuint64_t dims[2] = {cols, rows};
// CHECK:   muuint64_t strides[1] = {cols * 2};
  cuuint64_t strides[1] = {cols * 2};
// CHECK:   muuint32_t box[2] = {64, 64};
  cuuint32_t box[2] = {64, 64};
// CHECK:   muuint32_t element_strides[2] = {1, 1};
  cuuint32_t element_strides[2] = {1, 1};
// CHECK:   DRV_CHECK(muTensorMapEncodeTiled(&map, MU_TENSOR_MAP_DATA_TYPE_UINT16, 2, base, dims, strides, box,
  DRV_CHECK(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, base, dims, strides, box,
// CHECK:                                    element_strides, MU_TENSOR_MAP_INTERLEAVE_NONE, MU_TENSOR_MAP_SWIZZLE_128B,
                                   element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
// CHECK:                                    MU_TENSOR_MAP_L2_PROMOTION_L2_128B, MU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
                                   CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return map;
}

#if CUDA_VERSION >= 12000
int driver_is_recent() { return 1; }
#endif

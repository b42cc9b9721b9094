// The test device: a CPU-backed PrivateUse1 backend (see ../README.md). Not a product.
//
// Shared declarations of the three translation units (autocast is registered from Python):
//   runtime.cpp  devices, allocator, streams/events, host allocator, generators, hooks
//   kernels.cpp  the minimal kernels, the checked CPU fallback, graph capture/replay
//   module.cpp   the pybind11 module the Python package calls
#pragma once

// ---- torch versions ----------------------------------------------------------------------------
// The device builds against torch 2.7.1 (what torch_musa v2.7.1 is built on) as well as the
// project's torch (2.13). The accelerator-generic interfaces it implements on a newer torch came
// after 2.7; without them the device allocator and the pinned-memory allocator are plain
// c10::Allocators (the latter reached through the PrivateUse1 hooks alone), stream capture is
// known only to the device's own functions, and graphs are only the device's own class
// (torch.accelerator.Graph does not exist). The release named for each interface is when its
// pull request landed, as far as we know; the tests build only 2.7.1 (none of them) and 2.13 (all).
#include <torch/version.h>
#define STANDIN_TORCH_AT_LEAST(major, minor) \
  (TORCH_VERSION_MAJOR > (major) || (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))
// at::HostAllocator and REGISTER_HOST_ALLOCATOR (at::getHostAllocator, torch.accelerator's host calls)
#define STANDIN_HOST_ALLOCATOR STANDIN_TORCH_AT_LEAST(2, 8)
// c10::DeviceAllocator (torch.accelerator's memory calls) and c10::MempoolId_t
#define STANDIN_DEVICE_ALLOCATOR STANDIN_TORCH_AT_LEAST(2, 9)
// c10::impl::DeviceGuardImplInterface::isStreamCapturing
#define STANDIN_STREAM_CAPTURE_QUERY STANDIN_TORCH_AT_LEAST(2, 10)
// at::GraphImplInterface and its registry (torch.accelerator.Graph)
#define STANDIN_GRAPH_IMPL STANDIN_TORCH_AT_LEAST(2, 11)

// `override` on the functions of an interface where this torch has it, nothing where it has not.
#if STANDIN_DEVICE_ALLOCATOR
#define STANDIN_ALLOCATOR_OVERRIDE override
#else
#define STANDIN_ALLOCATOR_OVERRIDE
#endif
#if STANDIN_STREAM_CAPTURE_QUERY
#define STANDIN_CAPTURE_OVERRIDE override
#else
#define STANDIN_CAPTURE_OVERRIDE
#endif
#if STANDIN_HOST_ALLOCATOR
#include <ATen/core/CachingHostAllocator.h>
#endif
#if STANDIN_GRAPH_IMPL
#include <ATen/core/GraphImplInterface.h>
#define STANDIN_GRAPH_OVERRIDE override
#else
#define STANDIN_GRAPH_OVERRIDE
#endif

#include <ATen/core/Generator.h>
#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/CachingDeviceAllocator.h>
#include <c10/core/Device.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace standin {

using c10::DeviceIndex;

// The base classes and the pool id type of the torch-version section above.
#if STANDIN_DEVICE_ALLOCATOR
using DeviceAllocatorBase = c10::DeviceAllocator;
using MempoolId = c10::MempoolId_t;
#else
using DeviceAllocatorBase = c10::Allocator;
using MempoolId = std::pair<unsigned long long, unsigned long long>;  // as c10::cuda's MempoolId_t
#endif
#if STANDIN_HOST_ALLOCATOR
using HostAllocatorBase = at::HostAllocator;
#else
using HostAllocatorBase = c10::Allocator;
#endif

// ---- devices -------------------------------------------------------------------------------
// The number of devices is fixed at the first query ("the runtime starts"): it reads the
// physical count (TORCHADA_TEST_DEVICE_COUNT, default 2) and the visible-devices variable whose
// name Python configures (MUSA_VISIBLE_DEVICES for the musa profile).
void configure(const std::string& visible_devices_env);
bool runtime_started();
DeviceIndex device_count();
DeviceIndex current_device();
void set_device(DeviceIndex index);
DeviceIndex exchange_device(DeviceIndex index);
void check_index(DeviceIndex index);

// ---- memory --------------------------------------------------------------------------------
c10::Allocator* device_allocator();
void empty_cache();
void reset_peak_stats(DeviceIndex index);
void reset_accumulated_stats(DeviceIndex index);
std::map<std::string, int64_t> memory_stats(DeviceIndex index);
std::pair<size_t, size_t> memory_info(DeviceIndex index);
void set_memory_fraction(double fraction, DeviceIndex index);
bool host_register(void* ptr, size_t size);
bool host_unregister(void* ptr);

// ---- streams and events ----------------------------------------------------------------------
int64_t current_stream_id(DeviceIndex index);

// ---- generators ----------------------------------------------------------------------------
struct DeviceGenerator : public at::CPUGeneratorImpl {
  explicit DeviceGenerator(DeviceIndex index);
  static c10::DeviceType device_type();
 private:
  DeviceGenerator* clone_impl() const override;
};
const at::Generator& default_generator(DeviceIndex index);
// Copy a generator's whole state (engine and cached normal samples) into another.
inline void copy_generator_state(at::CPUGeneratorImpl* from, at::CPUGeneratorImpl* to) {
  to->set_engine(from->engine());
  to->set_next_float_normal_sample(from->next_float_normal_sample());
  to->set_next_double_normal_sample(from->next_double_normal_sample());
}

// ---- graphs --------------------------------------------------------------------------------
// A captured graph is the list of backend calls made while capturing; replay runs them again
// on the same tensors (so in-place updates and the captured outputs' memory behave as on a GPU).
struct Recorded {
  std::string label;
  std::vector<std::string> operand_names;
  std::function<void()> replay;
};
#if STANDIN_GRAPH_IMPL
class RecordedGraph final : public at::GraphImplInterface {
 public:
  explicit RecordedGraph(at::GraphImplArgs args = {});
  void capture_begin(MempoolId pool = {0, 0},
                     at::GraphCaptureMode mode = at::GraphCaptureMode::Default) override;
#else
class RecordedGraph final {
 public:
  RecordedGraph();
  void capture_begin(MempoolId pool = {0, 0});
#endif
  ~RecordedGraph() STANDIN_GRAPH_OVERRIDE;
  void capture_end() STANDIN_GRAPH_OVERRIDE;
  void instantiate() STANDIN_GRAPH_OVERRIDE {}
  void replay() STANDIN_GRAPH_OVERRIDE;
  void reset() STANDIN_GRAPH_OVERRIDE;
  MempoolId pool() const STANDIN_GRAPH_OVERRIDE { return pool_; }
  void enable_debug_mode() STANDIN_GRAPH_OVERRIDE { debug_ = true; }
  void debug_dump(const std::string& path) STANDIN_GRAPH_OVERRIDE;
  size_t size() const { return calls_.size(); }
  void add(Recorded call) { calls_.push_back(std::move(call)); }
 private:
  std::vector<Recorded> calls_;
  MempoolId pool_{0, 0};
  bool debug_ = false;
  bool captured_ = false;
};
RecordedGraph* capturing_graph();  // nullptr when no capture is in progress
MempoolId graph_pool_handle();
void register_graph_impl(const std::string& backend_upper_name);

}  // namespace standin

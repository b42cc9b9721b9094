// The test device: a CPU-backed PrivateUse1 backend (see ../README.md). Not a product.
//
// Shared declarations of the three translation units (autocast is registered from Python):
//   runtime.cpp  devices, allocator, streams/events, host allocator, generators, hooks
//   kernels.cpp  the minimal kernels, the checked CPU fallback, graph capture/replay
//   module.cpp   the pybind11 module the Python package calls
#pragma once

#include <ATen/core/GraphImplInterface.h>
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
c10::DeviceAllocator* device_allocator();
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
class RecordedGraph final : public at::GraphImplInterface {
 public:
  explicit RecordedGraph(at::GraphImplArgs args = {});
  ~RecordedGraph() override;
  void capture_begin(c10::MempoolId_t pool = {0, 0},
                     at::GraphCaptureMode mode = at::GraphCaptureMode::Default) override;
  void capture_end() override;
  void instantiate() override {}
  void replay() override;
  void reset() override;
  c10::MempoolId_t pool() const override { return pool_; }
  void enable_debug_mode() override { debug_ = true; }
  void debug_dump(const std::string& path) override;
  size_t size() const { return calls_.size(); }
  void add(Recorded call) { calls_.push_back(std::move(call)); }
 private:
  std::vector<Recorded> calls_;
  c10::MempoolId_t pool_{0, 0};
  bool debug_ = false;
  bool captured_ = false;
};
RecordedGraph* capturing_graph();  // nullptr when no capture is in progress
c10::MempoolId_t graph_pool_handle();
void register_graph_impl(const std::string& backend_upper_name);

}  // namespace standin

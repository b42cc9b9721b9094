// The test device's runtime: devices, the device and host allocators, streams and events, the
// per-device generators and the PrivateUse1 hooks. Memory is ordinary host memory; execution is
// synchronous, so stream and event operations only keep the bookkeeping a program can observe.
#include "standin.h"

#include <ATen/detail/PrivateUse1HooksInterface.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <c10/core/DeviceGuard.h>
#include <c10/util/ApproximateClock.h>
#include <c10/util/Exception.h>
#include <torch/csrc/profiler/stubs/base.h>

#include <algorithm>
#include <array>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <unordered_map>

namespace standin {

using c10::CachingDeviceAllocator::DeviceStats;
using c10::CachingAllocator::StatArray;

namespace {

constexpr int kMaxDevices = 16;
constexpr size_t kSmallSize = 1 << 20;      // the CUDA caching allocator's small-pool limit
constexpr size_t kMinBlockSize = 512;       // and its rounding

std::string g_visible_env = "MUSA_VISIBLE_DEVICES";
std::once_flag g_start_once;
std::atomic<bool> g_started{false};
DeviceIndex g_count = 0;
thread_local DeviceIndex t_current_device = 0;
thread_local std::array<int64_t, kMaxDevices> t_current_stream{};

int64_t env_int(const char* name, int64_t fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::strtoll(value, nullptr, 10) : fallback;
}

// CUDA's rule for *_VISIBLE_DEVICES: a comma list of physical indices, read up to the first
// invalid or repeated entry; unset or "all" means every device.
DeviceIndex visible_count(int64_t physical) {
  const char* value = std::getenv(g_visible_env.c_str());
  if (value == nullptr || std::string(value) == "all") {
    return static_cast<DeviceIndex>(physical);
  }
  std::stringstream list(value);
  std::string item;
  std::vector<int64_t> seen;
  while (std::getline(list, item, ',')) {
    char* end = nullptr;
    int64_t index = std::strtoll(item.c_str(), &end, 10);
    bool valid = !item.empty() && *end == '\0' && index >= 0 && index < physical &&
        std::find(seen.begin(), seen.end(), index) == seen.end();
    if (!valid) break;
    seen.push_back(index);
  }
  return static_cast<DeviceIndex>(seen.size());
}

void start() {
  std::call_once(g_start_once, [] {
    int64_t physical = std::min<int64_t>(env_int("TORCHADA_TEST_DEVICE_COUNT", 2), kMaxDevices);
    g_count = visible_count(std::max<int64_t>(physical, 0));
    g_started = true;
  });
}

std::string backend_name() {
  std::string name = c10::get_privateuse1_backend(/*lower_case=*/false);
  return name;
}

}  // namespace

void configure(const std::string& visible_devices_env) {
  TORCH_CHECK(!g_started, "the test device's runtime has already started");
  g_visible_env = visible_devices_env;
}

bool runtime_started() { return g_started; }

DeviceIndex device_count() {
  start();
  return g_count;
}

void check_index(DeviceIndex index) {
  TORCH_CHECK(index >= 0 && index < device_count(), "Invalid device ordinal ", int(index), ": ",
              backend_name(), " has ", int(device_count()), " device(s)");
}

DeviceIndex current_device() {
  start();
  return t_current_device;
}

void set_device(DeviceIndex index) {
  check_index(index);
  t_current_device = index;
}

DeviceIndex exchange_device(DeviceIndex index) {
  DeviceIndex previous = current_device();
  if (index >= 0) set_device(index);
  return previous;
}

int64_t current_stream_id(DeviceIndex index) { return t_current_stream.at(index); }

// ---- the device allocator: a caching allocator over malloc, with CUDA's statistics ----------

namespace {

struct Block {
  DeviceIndex device;
  size_t size;       // rounded
  size_t requested;
};

class DeviceMemory final : public DeviceAllocatorBase {
 public:
  c10::DataPtr allocate(size_t nbytes) override {
    DeviceIndex device = current_device();
    void* ptr = nbytes == 0 ? nullptr : reserve(device, nbytes);
    return {ptr, ptr, &release_block, c10::Device(c10::DeviceType::PrivateUse1, device)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &release_block; }
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    std::memcpy(dest, src, count);
  }
  bool initialized() STANDIN_ALLOCATOR_OVERRIDE { return true; }
  void emptyCache(MempoolId /*pool*/ = {0, 0}) STANDIN_ALLOCATOR_OVERRIDE {
    std::lock_guard<std::mutex> lock(mutex_);
    for (DeviceIndex device = 0; device < kMaxDevices; ++device) free_cached(device);
  }
  void recordStream(const c10::DataPtr& /*ptr*/, c10::Stream /*stream*/) STANDIN_ALLOCATOR_OVERRIDE {}
  DeviceStats getDeviceStats(DeviceIndex device) STANDIN_ALLOCATOR_OVERRIDE {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_.at(device);
  }
  void resetAccumulatedStats(DeviceIndex device) STANDIN_ALLOCATOR_OVERRIDE {
    std::lock_guard<std::mutex> lock(mutex_);
    DeviceStats& s = stats_.at(device);
    for (StatArray* array : arrays(s)) {
      for (auto& stat : *array) stat.reset_accumulated();
    }
    s.num_alloc_retries = s.num_ooms = s.num_device_alloc = s.num_device_free = 0;
  }
  void resetPeakStats(DeviceIndex device) STANDIN_ALLOCATOR_OVERRIDE {
    std::lock_guard<std::mutex> lock(mutex_);
    for (StatArray* array : arrays(stats_.at(device))) {
      for (auto& stat : *array) stat.reset_peak();
    }
  }
  std::pair<size_t, size_t> getMemoryInfo(DeviceIndex device) STANDIN_ALLOCATOR_OVERRIDE {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t total = capacity();
    size_t reserved = stats_.at(device).reserved_bytes[0].current;
    return {total > reserved ? total - reserved : 0, total};
  }

  void set_fraction(double fraction, DeviceIndex device) {
    TORCH_CHECK(fraction >= 0 && fraction <= 1, "invalid fraction: ", fraction,
                ". Please set within [0, 1].");
    std::lock_guard<std::mutex> lock(mutex_);
    limit_.at(device) = static_cast<size_t>(fraction * static_cast<double>(capacity()));
  }
  bool owns(void* ptr, DeviceIndex* device) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(ptr);
    if (it == live_.end()) return false;
    *device = it->second.device;
    return true;
  }

 private:
  static void release_block(void* ptr);

  static size_t capacity() {
    static size_t bytes = static_cast<size_t>(env_int("TORCHADA_TEST_DEVICE_MEMORY", 8LL << 30));
    return bytes;
  }
  static std::vector<StatArray*> arrays(DeviceStats& s) {
    return {&s.allocation, &s.segment, &s.active, &s.inactive_split, &s.allocated_bytes,
            &s.reserved_bytes, &s.active_bytes, &s.inactive_split_bytes, &s.requested_bytes};
  }
  static void add(StatArray& array, size_t pool, int64_t amount) {
    for (size_t index : {size_t{0}, pool}) {
      if (amount >= 0) array[index].increase(amount); else array[index].decrease(-amount);
    }
  }

  void* reserve(DeviceIndex device, size_t requested) {
    size_t size = (requested + kMinBlockSize - 1) / kMinBlockSize * kMinBlockSize;
    size_t pool = size <= kSmallSize ? 1 : 2;
    std::lock_guard<std::mutex> lock(mutex_);
    DeviceStats& s = stats_.at(device);
    void* ptr = nullptr;
    auto& cached = cache_.at(device);
    auto hit = cached.find(size);
    if (hit != cached.end()) {
      ptr = hit->second;
      cached.erase(hit);
    } else {
      size_t limit = limit_.at(device) ? limit_.at(device) : capacity();
      if (s.reserved_bytes[0].current + size > limit) {
        free_cached(device);
        ++s.num_alloc_retries;
      }
      if (s.reserved_bytes[0].current + size > limit) {
        ++s.num_ooms;
        TORCH_CHECK_WITH(OutOfMemoryError, false, backend_name(),
                         " out of memory. Tried to allocate ", size >> 20, " MiB. Device ",
                         int(device), " has a total capacity of ", capacity() >> 20, " MiB of which ",
                         (limit - s.reserved_bytes[0].current) >> 20, " MiB is free.");
      }
      ptr = std::aligned_alloc(64, size);
      TORCH_CHECK(ptr != nullptr, "host allocation of ", size, " bytes failed");
      add(s.reserved_bytes, pool, size);
      add(s.segment, pool, 1);
      ++s.num_device_alloc;
    }
    live_[ptr] = Block{device, size, requested};
    add(s.allocated_bytes, pool, size);
    add(s.active_bytes, pool, size);
    add(s.requested_bytes, pool, requested);
    add(s.allocation, pool, 1);
    add(s.active, pool, 1);
    return ptr;
  }

  void release(void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(ptr);
    TORCH_INTERNAL_ASSERT(it != live_.end(), "freeing memory the test device does not own");
    Block block = it->second;
    live_.erase(it);
    size_t pool = block.size <= kSmallSize ? 1 : 2;
    DeviceStats& s = stats_.at(block.device);
    add(s.allocated_bytes, pool, -static_cast<int64_t>(block.size));
    add(s.active_bytes, pool, -static_cast<int64_t>(block.size));
    add(s.requested_bytes, pool, -static_cast<int64_t>(block.requested));
    add(s.allocation, pool, -1);
    add(s.active, pool, -1);
    cache_.at(block.device).emplace(block.size, ptr);
  }

  void free_cached(DeviceIndex device) {  // called with mutex_ held
    DeviceStats& s = stats_.at(device);
    for (auto& [size, ptr] : cache_.at(device)) {
      size_t pool = size <= kSmallSize ? 1 : 2;
      std::free(ptr);
      add(s.reserved_bytes, pool, -static_cast<int64_t>(size));
      add(s.segment, pool, -1);
      ++s.num_device_free;
    }
    cache_.at(device).clear();
  }

  std::mutex mutex_;
  std::unordered_map<void*, Block> live_;
  std::array<std::multimap<size_t, void*>, kMaxDevices> cache_;
  std::array<DeviceStats, kMaxDevices> stats_;
  std::array<size_t, kMaxDevices> limit_{};
};

DeviceMemory g_device_memory;

void DeviceMemory::release_block(void* ptr) {
  if (ptr != nullptr) g_device_memory.release(ptr);
}

REGISTER_ALLOCATOR(c10::DeviceType::PrivateUse1, &g_device_memory)

// ---- pinned host memory ----------------------------------------------------------------------

class HostMemory final : public HostAllocatorBase {
 public:
  at::DataPtr allocate(size_t nbytes) override {
    void* ptr = nbytes == 0 ? nullptr : std::aligned_alloc(64, (nbytes + 63) / 64 * 64);
    if (ptr != nullptr) add_range(ptr, nbytes);
    return {ptr, ptr, &release_host, c10::Device(c10::DeviceType::CPU)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &release_host; }
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    std::memcpy(dest, src, count);
  }
#if STANDIN_HOST_ALLOCATOR
  bool record_event(void*, void*, c10::Stream) override { return true; }
  void empty_cache() override {}
  at::HostStats get_stats() override { return {}; }
  void reset_accumulated_stats() override {}
  void reset_peak_stats() override {}
#endif

  void add_range(void* ptr, size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    ranges_[reinterpret_cast<uintptr_t>(ptr)] = size;
  }
  bool remove_range(void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    return ranges_.erase(reinterpret_cast<uintptr_t>(ptr)) > 0;
  }
  bool contains(const void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto address = reinterpret_cast<uintptr_t>(ptr);
    auto it = ranges_.upper_bound(address);
    if (it == ranges_.begin()) return false;
    --it;
    return address < it->first + std::max<size_t>(it->second, 1);
  }

 private:
  static void release_host(void* ptr);
  std::mutex mutex_;
  std::map<uintptr_t, size_t> ranges_;
};

HostMemory g_host_memory;

void HostMemory::release_host(void* ptr) {
  if (ptr != nullptr && g_host_memory.remove_range(ptr)) std::free(ptr);
}

#if STANDIN_HOST_ALLOCATOR
REGISTER_HOST_ALLOCATOR(at::kPrivateUse1, &g_host_memory)
#endif

// ---- streams and events --------------------------------------------------------------------

struct Event {
  bool timing = false;
  bool recorded = false;
  double time_ms = 0;
};

std::atomic<int64_t> g_next_stream{1};

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

struct Guard final : public c10::impl::DeviceGuardImplInterface {
  c10::DeviceType type() const override { return c10::DeviceType::PrivateUse1; }
  c10::Device exchangeDevice(c10::Device d) const override {
    return {type(), exchange_device(d.index())};
  }
  c10::Device getDevice() const override { return {type(), current_device()}; }
  void setDevice(c10::Device d) const override { set_device(d.index()); }
  void uncheckedSetDevice(c10::Device d) const noexcept override {
    if (d.index() >= 0 && d.index() < kMaxDevices) t_current_device = d.index();
  }
  c10::Stream getStream(c10::Device d) const override {
    DeviceIndex index = d.index() < 0 ? current_device() : d.index();
    return c10::Stream(c10::Stream::UNSAFE, {type(), index}, t_current_stream.at(index));
  }
  c10::Stream getDefaultStream(c10::Device d) const override {
    return c10::Stream(c10::Stream::UNSAFE, d, 0);
  }
  c10::Stream getNewStream(c10::Device d, int /*priority*/) const override {
    return c10::Stream(c10::Stream::UNSAFE, d, g_next_stream++);
  }
  c10::Stream getStreamFromGlobalPool(c10::Device d, bool /*high*/) const override {
    return getNewStream(d, 0);
  }
  c10::Stream exchangeStream(c10::Stream s) const override {
    DeviceIndex index = s.device_index();
    c10::Stream previous(c10::Stream::UNSAFE, s.device(), t_current_stream.at(index));
    t_current_stream.at(index) = s.id();
    return previous;
  }
  DeviceIndex deviceCount() const noexcept override { return device_count(); }
  void destroyEvent(void* event, const DeviceIndex) const noexcept override {
    delete static_cast<Event*>(event);
  }
  void record(void** event, const c10::Stream& /*stream*/, const DeviceIndex /*device*/,
              const c10::EventFlag flag) const override {
    if (*event == nullptr) {
      auto* created = new Event();
      created->timing = flag == c10::EventFlag::BACKEND_DEFAULT;
      *event = created;
    }
    auto* e = static_cast<Event*>(*event);
    e->recorded = true;
    e->time_ms = now_ms();
  }
  void block(void*, const c10::Stream&) const override {}
  bool queryEvent(void*) const override { return true; }
  bool queryStream(const c10::Stream&) const override { return true; }
  void synchronizeStream(const c10::Stream&) const override {}
  void synchronizeEvent(void*) const override {}
  void synchronizeDevice(const DeviceIndex) const override {}
  bool isStreamCapturing(const c10::Stream&) const STANDIN_CAPTURE_OVERRIDE {
    return capturing_graph() != nullptr;
  }
  void recordDataPtrOnStream(const c10::DataPtr&, const c10::Stream&) const override {}
  double elapsedTime(void* start, void* end, const DeviceIndex) const override {
    TORCH_CHECK(start && end, "Both events must be recorded before calculating elapsed time.");
    auto* first = static_cast<Event*>(start);
    auto* second = static_cast<Event*>(end);
    TORCH_CHECK(first->timing && second->timing,
                "Both events must be created with argument 'enable_timing=True'.");
    return second->time_ms - first->time_ms;
  }
};

C10_REGISTER_GUARD_IMPL(PrivateUse1, Guard);

// ---- profiler ------------------------------------------------------------------------------
// The profiler's PrivateUse1 methods, which torch_musa registers too (csrc/profiler/stubs.cpp):
// without them torch 2.7's profiler fails every operator recorded with a PrivateUse1 activity
// ("PrivateUse1 used in profiler but not enabled"). An event is the time it was recorded.

using torch::profiler::impl::ProfilerVoidEventStub;

struct ProfilerMethods final : public torch::profiler::impl::ProfilerStubs {
  void record(DeviceIndex* device, ProfilerVoidEventStub* event, int64_t* cpu_ns) const override {
    if (device != nullptr) *device = current_device();
    *event = std::make_shared<double>(now_ms());
    if (cpu_ns != nullptr) *cpu_ns = c10::getTime();
  }
  float elapsed(const ProfilerVoidEventStub* start, const ProfilerVoidEventStub* end) const override {
    double ms = *static_cast<const double*>(end->get()) - *static_cast<const double*>(start->get());
    return static_cast<float>(ms * 1000.0);  // microseconds, as CUDA's methods return
  }
  void mark(const char* /*name*/) const override {}
  void rangePush(const char* /*name*/) const override {}
  void rangePop() const override {}
  void onEachDevice(std::function<void(int)> op) const override {
    c10::OptionalDeviceGuard guard;
    for (DeviceIndex index = 0; index < device_count(); ++index) {
      guard.reset_device(c10::Device(c10::DeviceType::PrivateUse1, index));
      op(index);
    }
  }
  void synchronize() const override {}
  bool enabled() const override { return true; }
};

const bool g_profiler_registered = [] {
  static ProfilerMethods methods;
  torch::profiler::impl::registerPrivateUse1Methods(&methods);
  return true;
}();

// ---- hooks ---------------------------------------------------------------------------------

struct Hooks final : public at::PrivateUse1HooksInterface {
  bool isBuilt() const override { return true; }
  bool isAvailable() const override { return device_count() > 0; }
  bool hasPrimaryContext(DeviceIndex) const override { return runtime_started(); }
  DeviceIndex deviceCount() const override { return device_count(); }
  void setCurrentDevice(DeviceIndex d) const override { set_device(d); }
  DeviceIndex getCurrentDevice() const override { return current_device(); }
  DeviceIndex exchangeDevice(DeviceIndex d) const override { return exchange_device(d); }
  DeviceIndex maybeExchangeDevice(DeviceIndex d) const override { return exchange_device(d); }
  const at::Generator& getDefaultGenerator(DeviceIndex d) const override {
    return default_generator(d);
  }
  at::Generator getNewGenerator(DeviceIndex d) const override {
    return at::make_generator<DeviceGenerator>(d < 0 ? current_device() : d);
  }
  at::Device getDeviceFromPtr(void* data) const override {
    DeviceIndex device = 0;
    TORCH_CHECK(g_device_memory.owns(data, &device), "pointer is not device memory");
    return {c10::DeviceType::PrivateUse1, device};
  }
  bool isPinnedPtr(const void* data) const override { return g_host_memory.contains(data); }
  at::Allocator* getPinnedMemoryAllocator() const override { return &g_host_memory; }
  void resizePrivateUse1Bytes(const c10::Storage& storage, size_t nbytes) const override {
    c10::StorageImpl* impl = storage.unsafeGetStorageImpl();
    c10::DeviceGuard guard(storage.device());
    c10::DataPtr data = g_device_memory.allocate(nbytes);
    size_t keep = std::min(nbytes, impl->nbytes());
    if (keep > 0) std::memcpy(data.get(), impl->data(), keep);
    impl->set_data_ptr_noswap(std::move(data));
    impl->set_nbytes(nbytes);
  }
};

const bool g_hooks_registered = [] {
  at::RegisterPrivateUse1HooksInterface(new Hooks());
  return true;
}();

}  // namespace

c10::Allocator* device_allocator() { return &g_device_memory; }
void empty_cache() { g_device_memory.emptyCache(); }
void reset_peak_stats(DeviceIndex index) { g_device_memory.resetPeakStats(index); }
void reset_accumulated_stats(DeviceIndex index) { g_device_memory.resetAccumulatedStats(index); }

std::map<std::string, int64_t> memory_stats(DeviceIndex index) {
  check_index(index);
  DeviceStats s = g_device_memory.getDeviceStats(index);
  std::map<std::string, int64_t> out;
  const std::pair<const char*, StatArray*> arrays[] = {
      {"allocation", &s.allocation}, {"segment", &s.segment}, {"active", &s.active},
      {"inactive_split", &s.inactive_split}, {"allocated_bytes", &s.allocated_bytes},
      {"reserved_bytes", &s.reserved_bytes}, {"active_bytes", &s.active_bytes},
      {"inactive_split_bytes", &s.inactive_split_bytes}, {"requested_bytes", &s.requested_bytes}};
  const char* pools[] = {"all", "small_pool", "large_pool"};
  for (const auto& [name, array] : arrays) {
    for (size_t pool = 0; pool < 3; ++pool) {
      std::string prefix = std::string(name) + "." + pools[pool] + ".";
      const auto& stat = (*array)[pool];
      out[prefix + "current"] = stat.current;
      out[prefix + "peak"] = stat.peak;
      out[prefix + "allocated"] = stat.allocated;
      out[prefix + "freed"] = stat.freed;
    }
  }
  out["num_alloc_retries"] = s.num_alloc_retries;
  out["num_ooms"] = s.num_ooms;
  out["num_device_alloc"] = s.num_device_alloc;
  out["num_device_free"] = s.num_device_free;
  out["num_sync_all_streams"] = s.num_sync_all_streams;
  out["max_split_size"] = -1;
  return out;
}

std::pair<size_t, size_t> memory_info(DeviceIndex index) {
  check_index(index);
  return g_device_memory.getMemoryInfo(index);
}

void set_memory_fraction(double fraction, DeviceIndex index) {
  check_index(index);
  g_device_memory.set_fraction(fraction, index);
}

bool host_register(void* ptr, size_t size) {
  if (ptr == nullptr || g_host_memory.contains(ptr)) return false;
  g_host_memory.add_range(ptr, size);
  return true;
}

bool host_unregister(void* ptr) { return g_host_memory.remove_range(ptr); }

// ---- generators ----------------------------------------------------------------------------

DeviceGenerator::DeviceGenerator(DeviceIndex index) : at::CPUGeneratorImpl(c10::default_rng_seed_val) {
  device_ = c10::Device(c10::DeviceType::PrivateUse1, index);
  key_set_ = c10::DispatchKeySet(c10::DispatchKey::PrivateUse1);
}

c10::DeviceType DeviceGenerator::device_type() { return c10::DeviceType::PrivateUse1; }

DeviceGenerator* DeviceGenerator::clone_impl() const {
  auto* copy = new DeviceGenerator(device_.index());
  copy_generator_state(const_cast<DeviceGenerator*>(this), copy);
  return copy;
}

const at::Generator& default_generator(DeviceIndex index) {
  static std::vector<at::Generator> generators = [] {
    std::vector<at::Generator> all;
    for (DeviceIndex i = 0; i < device_count(); ++i) {
      all.push_back(at::make_generator<DeviceGenerator>(i));
    }
    return all;
  }();
  DeviceIndex resolved = index < 0 ? current_device() : index;
  check_index(resolved);
  return generators[resolved];
}

}  // namespace standin

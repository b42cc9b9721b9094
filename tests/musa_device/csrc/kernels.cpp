// The test device's operators: the dozen kernels a PrivateUse1 backend must provide (as in
// PyTorch's OpenReg), a boxed fallback that runs every other operator with the CPU kernels, and
// graph capture/replay on top of that fallback.
//
// The fallback checks devices first, as a GPU does: every device tensor argument must be on the
// same device, and a CPU tensor is accepted only as a 0-dim scalar (or as an index of the
// indexing operators). Random operators get the device's generator, not the CPU one.
#include "standin.h"

#include <ATen/EmptyTensor.h>
#include <ATen/core/VariableHooksInterface.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/native/CPUFallback.h>
#include <ATen/ops/_local_scalar_dense.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/resize_native.h>
#include <ATen/ops/set_native.h>
#include <ATen/ops/view_native.h>
#include <c10/core/DeviceGuard.h>
#include <torch/library.h>

#include <atomic>
#include <fstream>
#include <unordered_set>

namespace standin {

namespace {

std::string backend_upper() { return c10::get_privateuse1_backend(/*lower_case=*/false); }

void check_not_capturing(const char* what) {
  TORCH_CHECK(capturing_graph() == nullptr, backend_upper(), " error: ", what,
              " is not permitted when stream is capturing");
}

// A CPU tensor that aliases a device tensor's memory (device memory is host memory here).
at::Tensor host_alias(const at::Tensor& t) {
  return at::from_blob(t.data_ptr(), t.sizes(), t.strides(), t.options().device(at::kCPU));
}

at::Tensor empty_memory_format(c10::IntArrayRef size, std::optional<c10::ScalarType> dtype,
                               std::optional<c10::Layout> layout,
                               std::optional<c10::Device> device, std::optional<bool> pin_memory,
                               std::optional<c10::MemoryFormat> memory_format) {
  const auto target = c10::device_or_default(device);
  TORCH_CHECK(c10::layout_or_default(layout) == c10::Layout::Strided,
              "only strided tensors are supported on ", backend_upper());
  TORCH_CHECK(!c10::pinned_memory_or_default(pin_memory), "Only dense CPU tensors can be pinned");
  const c10::DeviceGuard guard(target);
  return at::detail::empty_generic(size, device_allocator(),
                                   c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                   c10::dtype_or_default(dtype), memory_format);
}

at::Tensor empty_strided(c10::IntArrayRef size, c10::IntArrayRef stride,
                         std::optional<c10::ScalarType> dtype, std::optional<c10::Layout> layout,
                         std::optional<c10::Device> device, std::optional<bool> pin_memory) {
  const auto target = c10::device_or_default(device);
  TORCH_CHECK(c10::layout_or_default(layout) == c10::Layout::Strided,
              "only strided tensors are supported on ", backend_upper());
  TORCH_CHECK(!c10::pinned_memory_or_default(pin_memory), "Only dense CPU tensors can be pinned");
  const c10::DeviceGuard guard(target);
  return at::detail::empty_strided_generic(size, stride, device_allocator(),
                                           c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                           c10::dtype_or_default(dtype));
}

at::Tensor as_strided(const at::Tensor& self, c10::IntArrayRef size, c10::IntArrayRef stride,
                      std::optional<int64_t> storage_offset) {
  return at::native::as_strided_tensorimpl(self, size, stride, storage_offset);
}

const at::Tensor& resize_(const at::Tensor& self, c10::IntArrayRef size,
                          std::optional<at::MemoryFormat> memory_format) {
  const c10::DeviceGuard guard(self.device());
  return at::native::resize_(self, size, memory_format);
}

void copy_now(const at::Tensor& self, const at::Tensor& dst) {
  at::Tensor target = dst.is_cpu() ? dst : host_alias(dst);
  target.copy_(self.is_cpu() ? self : host_alias(self));
}

at::Tensor copy_from(const at::Tensor& self, const at::Tensor& dst, bool /*non_blocking*/) {
  copy_now(self, dst);
  if (RecordedGraph* graph = capturing_graph()) {
    graph->add({"aten::_copy_from", {}, [self, dst] { copy_now(self, dst); }});
  }
  return dst;
}

at::Tensor copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
  resize_(dst, self.sizes(), std::nullopt);
  return copy_from(self, dst, false);
}

at::Scalar local_scalar_dense(const at::Tensor& self) {
  check_not_capturing("reading a tensor's value on the host");
  return at::_local_scalar_dense(host_alias(self));
}

at::Tensor& set_tensor(at::Tensor& self, const at::Tensor& source) {
  return at::native::set_tensor_(self, source);
}

at::Tensor& set_storage(at::Tensor& self, at::Storage source) {
  return at::native::set_(self, source);
}

at::Tensor& set_storage_offset(at::Tensor& self, at::Storage source, int64_t offset,
                               c10::IntArrayRef size, c10::IntArrayRef stride) {
  return at::native::set_storage_cpu_(self, source, offset, size, stride);
}

at::Tensor view(const at::Tensor& self, c10::IntArrayRef size) {
  return at::native::view(self, size);
}

at::Tensor reshape_alias(const at::Tensor& self, c10::IntArrayRef size, c10::IntArrayRef stride) {
  return at::native::_reshape_alias(self, size, stride);
}

// ---- the checked fallback --------------------------------------------------------------------

const std::unordered_set<std::string>& cpu_index_ops() {
  static const std::unordered_set<std::string> ops = {
      "aten::index", "aten::index_put", "aten::index_put_", "aten::_index_put_impl_",
      "aten::_unsafe_index", "aten::_unsafe_index_put"};
  return ops;
}

template <typename F>
void for_each_tensor(const c10::IValue& value, F&& f) {
  if (value.isTensor()) {
    f(value.toTensor());
  } else if (value.isTensorList()) {
    for (const at::Tensor& t : value.toTensorList().vec()) f(t);
  } else if (value.isList()) {
    for (const c10::IValue& item : value.toListRef()) {
      if (item.isTensor()) f(item.toTensor());
    }
  }
}

// The device all device-tensor arguments share; raises as a GPU does when they disagree.
std::optional<c10::Device> common_device(const c10::OperatorHandle& op,
                                         c10::ArrayRef<c10::IValue> args) {
  const auto& schema = op.schema();
  bool index_op = cpu_index_ops().count(schema.name()) > 0;
  std::optional<c10::Device> device;
  std::optional<c10::Device> stray;
  for (size_t i = 0; i < args.size(); ++i) {
    bool index_arg = index_op && schema.arguments()[i].name() == "indices";
    for_each_tensor(args[i], [&](const at::Tensor& t) {
      if (!t.defined()) return;
      if (t.device().is_privateuseone()) {
        if (!device) {
          device = t.device();
        } else if (*device != t.device() && !stray) {
          stray = t.device();
        }
      } else if (!(t.is_cpu() && (t.dim() == 0 || index_arg)) && !stray) {
        stray = t.device();
      }
    });
    if (args[i].isDevice() && args[i].toDevice().is_privateuseone() && !device) {
      device = args[i].toDevice();
    }
  }
  if (device && stray) {
    TORCH_CHECK(false, "Expected all tensors to be on the same device, but found at least two "
                "devices, ", *device, " and ", *stray, "! (when running ", schema.operator_name(),
                ")");
  }
  return device;
}

bool is_generator_arg(const c10::Argument& argument) {
  c10::TypePtr type = argument.real_type();
  if (auto optional = type->cast<c10::OptionalType>()) type = optional->getElementType();
  return type->kind() == c10::TypeKind::GeneratorType;
}

// While a CPU kernel runs, the device generator it should draw from is lent to it as a CPU
// generator holding the same state; the state is written back afterwards.
class LentGenerators {
 public:
  LentGenerators(const c10::OperatorHandle& op, torch::jit::Stack* stack,
                 std::optional<c10::Device> device) {
    const auto& arguments = op.schema().arguments();
    size_t first = stack->size() - arguments.size();
    for (size_t i = 0; i < arguments.size(); ++i) {
      if (!is_generator_arg(arguments[i])) continue;
      c10::IValue& slot = (*stack)[first + i];
      at::Generator owner = slot.isNone()
          ? default_generator(device ? device->index() : current_device())
          : slot.toGenerator();
      if (!owner.device().is_privateuseone()) continue;
      locks_.emplace_back(owner.mutex());
      at::Generator lent = at::make_generator<at::CPUGeneratorImpl>();
      copy_generator_state(at::check_generator<DeviceGenerator>(owner),
                           at::check_generator<at::CPUGeneratorImpl>(lent));
      slot = c10::IValue(lent);
      pairs_.emplace_back(owner, lent);
    }
  }
  ~LentGenerators() {
    for (auto& [owner, lent] : pairs_) {
      copy_generator_state(at::check_generator<at::CPUGeneratorImpl>(lent),
                           at::check_generator<DeviceGenerator>(owner));
    }
  }

 private:
  std::vector<std::unique_lock<std::mutex>> locks_;
  std::vector<std::pair<at::Generator, at::Generator>> pairs_;
};

void run_on_cpu(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  auto args = torch::jit::last(*stack, op.schema().arguments().size());
  std::optional<c10::Device> device = common_device(op, args);
  LentGenerators generators(op, stack, device);
  at::native::cpu_fallback(op, stack);
}

bool returns_alias(const c10::OperatorHandle& op, size_t index) {
  return op.schema().returns()[index].alias_info() != nullptr;
}

void fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  RecordedGraph* graph = capturing_graph();
  if (graph == nullptr) {
    run_on_cpu(op, stack);
    return;
  }
  size_t num_args = op.schema().arguments().size();
  std::vector<c10::IValue> inputs(stack->end() - num_args, stack->end());
  run_on_cpu(op, stack);
  size_t num_returns = op.schema().returns().size();
  std::vector<c10::IValue> outputs(stack->end() - num_returns, stack->end());
  std::vector<std::string> operands;
  for (const auto& argument : op.schema().arguments()) operands.push_back(argument.name());
  // Replay runs the operator again on the captured inputs and writes fresh results into the
  // captured outputs' memory, where the rest of the graph (and the caller) reads them.
  graph->add({c10::toString(op.schema().operator_name()), operands, [op, inputs, outputs] {
                torch::jit::Stack again(inputs.begin(), inputs.end());
                run_on_cpu(op, &again);
                for (size_t i = 0; i < outputs.size(); ++i) {
                  if (returns_alias(op, i) || !outputs[i].isTensor()) continue;
                  outputs[i].toTensor().copy_(again[i].toTensor());
                }
              }});
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", empty_memory_format);
  m.impl("empty_strided", empty_strided);
  m.impl("as_strided", as_strided);
  m.impl("resize_", resize_);
  m.impl("_reshape_alias", reshape_alias);
  m.impl("_copy_from", copy_from);
  m.impl("_copy_from_and_resize", copy_from_and_resize);
  m.impl("_local_scalar_dense", local_scalar_dense);
  m.impl("set_.source_Tensor", set_tensor);
  m.impl("set_.source_Storage", set_storage);
  m.impl("set_.source_Storage_storage_offset", set_storage_offset);
  m.impl("view", view);
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&fallback>());
}

// Structured operators reach a backend without kernels through their composite functional
// wrapper, which calls the out= variant. The CPU mse_loss.out warns when handed the 0-dim output
// that wrapper allocates (it resizes it internally), so the functional operator goes to the CPU
// kernel directly, as a GPU backend's own functional kernel would.
TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("mse_loss", torch::CppFunction::makeFromBoxedFunction<&fallback>());
}

// Autocast passes every operator through, except those standin/autocast.py registers.
TORCH_LIBRARY_IMPL(_, AutocastPrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFallthrough());
}

// An operator with a kernel for the backend and none for autograd (a custom operator) reaches
// torch's basic autograd fallback, which PyTorch registers for AutogradPrivateUse1 only after
// 2.7; before, the backend registers it, as torch_musa does (VariableFallbackKernel_musa.cpp).
// So the device registers it where torch has none.
namespace {

void autograd_fallback(const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                       torch::jit::Stack* stack) {
  if (!at::impl::HasVariableHooks()) {  // a build without autograd
    op.redispatchBoxed(keys & c10::after_autograd_keyset, stack);
    return;
  }
  at::impl::GetVariableHooks()->basic_autograd_not_implemented_fallback(op, keys, stack);
}

const bool g_autograd_fallback = [] {
  constexpr auto key = c10::DispatchKey::AutogradPrivateUse1;
  if (!c10::Dispatcher::singleton().hasBackendFallbackForDispatchKey(key)) {
    static torch::Library library(torch::Library::IMPL, "_", key, __FILE__, __LINE__);
    library.fallback(torch::CppFunction::makeFromBoxedFunction<&autograd_fallback>());
  }
  return true;
}();

}  // namespace

// ---- graphs --------------------------------------------------------------------------------

namespace {
std::atomic<RecordedGraph*> g_capturing{nullptr};
std::atomic<MempoolId::first_type> g_next_pool{1};
}  // namespace

RecordedGraph* capturing_graph() { return g_capturing.load(); }

MempoolId graph_pool_handle() { return {0, g_next_pool++}; }

RecordedGraph::~RecordedGraph() {
  RecordedGraph* self = this;
  g_capturing.compare_exchange_strong(self, nullptr);
}

#if STANDIN_GRAPH_IMPL
RecordedGraph::RecordedGraph(at::GraphImplArgs /*args*/) {}
void RecordedGraph::capture_begin(MempoolId pool, at::GraphCaptureMode /*mode*/) {
#else
RecordedGraph::RecordedGraph() = default;
void RecordedGraph::capture_begin(MempoolId pool) {
#endif
  TORCH_CHECK(!captured_, "This ", backend_upper(), "Graph instance already owns a captured "
              "graph. To capture a new graph, create a new instance.");
  DeviceIndex device = current_device();
  TORCH_CHECK(current_stream_id(device) != 0, backend_upper(), " graphs must be captured on a "
              "non-default stream. (However, after capture, it's ok to replay them on the "
              "default stream.)");
  RecordedGraph* expected = nullptr;
  TORCH_CHECK(g_capturing.compare_exchange_strong(expected, this),
              "another graph capture is already in progress");
  pool_ = (pool.first == 0 && pool.second == 0) ? MempoolId{g_next_pool++, 0} : pool;
  calls_.clear();
}

void RecordedGraph::capture_end() {
  RecordedGraph* expected = this;
  TORCH_CHECK(g_capturing.compare_exchange_strong(expected, nullptr),
              "capture_end() called without a matching capture_begin()");
  captured_ = true;
}

void RecordedGraph::replay() {
  TORCH_CHECK(captured_, "Called ", backend_upper(), "Graph::replay without a preceding "
              "successful capture.");
  for (const Recorded& call : calls_) call.replay();
}

void RecordedGraph::reset() {
  RecordedGraph* self = this;
  g_capturing.compare_exchange_strong(self, nullptr);
  calls_.clear();
  captured_ = false;
}

void RecordedGraph::debug_dump(const std::string& path) {
  if (!debug_) {
    TORCH_WARN(backend_upper(), " Graphs debug not enabled, set with [graph].enable_debug_mode()");
    return;
  }
  TORCH_CHECK(captured_, "debug_dump() needs a captured graph");
  std::string temporary = path + ".partial";
  {
    std::ofstream out(temporary);
    out << "digraph " << backend_upper() << "Graph {\n  rankdir=TB;\n";
    for (size_t i = 0; i < calls_.size(); ++i) {
      out << "  node_" << i << " [shape=record,label=\"{" << calls_[i].label;
      if (!calls_[i].operand_names.empty()) {
        out << "|";
        for (size_t j = 0; j < calls_[i].operand_names.size(); ++j) {
          out << (j ? ", " : "") << calls_[i].operand_names[j];
        }
      }
      out << "}\"];\n";
      if (i > 0) out << "  node_" << i - 1 << " -> node_" << i << ";\n";
    }
    out << "}\n";
    TORCH_CHECK(out.good(), "cannot write '", path, "'");
  }
  TORCH_CHECK(std::rename(temporary.c_str(), path.c_str()) == 0, "cannot write '", path, "'");
}

void register_graph_impl(const std::string& backend_upper_name) {
#if STANDIN_GRAPH_IMPL
  at::GraphImplRegistry()->Register(backend_upper_name, [](at::GraphImplArgs args) {
    return std::unique_ptr<at::GraphImplInterface>(new RecordedGraph(args));
  });
#endif
}

}  // namespace standin

// The Python module of the test device (the counterpart of torch_musa's _MUSAC). The Python
// package calls only these functions, never torch.accelerator: under torchada's redirects
// torch.accelerator may itself forward to this package.
#include "standin.h"

#include <ATen/Context.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/csrc/Generator.h>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using standin::DeviceIndex;
using standin::RecordedGraph;

namespace {

const c10::impl::DeviceGuardImplInterface* guard() {
  return c10::impl::getDeviceGuardImpl(c10::DeviceType::PrivateUse1);
}

DeviceIndex checked(int64_t index) {
  auto device = static_cast<DeviceIndex>(index);
  standin::check_index(device);
  return device;
}

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const c10::Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what_without_backtrace());
    }
  });

  m.def("configure", &standin::configure, py::arg("visible_devices_env"));
  m.def("runtime_started", &standin::runtime_started);
  m.def("lazy_init", [] { at::globalContext().lazyInitDevice(c10::DeviceType::PrivateUse1); });
  m.def("device_count", [] { return int(standin::device_count()); });
  m.def("current_device", [] { return int(standin::current_device()); });
  m.def("set_device", [](int64_t index) { standin::set_device(checked(index)); });
  m.def("exchange_device", [](int64_t index) {
    return int(index < 0 ? standin::current_device() : standin::exchange_device(checked(index)));
  });
  m.def("synchronize", [](int64_t index) {
    checked(index);
    TORCH_CHECK(standin::capturing_graph() == nullptr, c10::get_privateuse1_backend(false),
                " error: synchronizing is not permitted when stream is capturing");
  });

  m.def("memory_stats", [](int64_t index) { return standin::memory_stats(checked(index)); });
  m.def("memory_info", [](int64_t index) { return standin::memory_info(checked(index)); });
  m.def("set_memory_fraction", [](double fraction, int64_t index) {
    standin::set_memory_fraction(fraction, checked(index));
  });
  m.def("empty_cache", [] { standin::empty_cache(); });
  m.def("reset_peak_stats", [](int64_t index) {
    standin::reset_peak_stats(checked(index));
  });
  m.def("reset_accumulated_stats", [](int64_t index) {
    standin::reset_accumulated_stats(checked(index));
  });
  m.def("host_register", [](uintptr_t ptr, size_t size) {
    return standin::host_register(reinterpret_cast<void*>(ptr), size);
  });
  m.def("host_unregister", [](uintptr_t ptr) {
    return standin::host_unregister(reinterpret_cast<void*>(ptr));
  });

  m.def("current_stream", [](int64_t index) {
    return standin::current_stream_id(checked(index));
  });
  m.def("set_stream", [](int64_t index, int64_t stream_id) {
    c10::Device device(c10::DeviceType::PrivateUse1, checked(index));
    guard()->exchangeStream(c10::Stream(c10::Stream::UNSAFE, device, stream_id));
  });

  m.def("default_generator", [](int64_t index) {
    return py::reinterpret_steal<py::object>(
        THPGenerator_initDefaultGenerator(standin::default_generator(checked(index))));
  });

  m.def("is_capturing", [] { return standin::capturing_graph() != nullptr; });
  m.def("graph_pool_handle", &standin::graph_pool_handle);
  m.def("register_graph_impl", &standin::register_graph_impl, py::arg("backend_upper_name"));
  py::class_<RecordedGraph>(m, "Graph")
      .def(py::init<>())
      .def("capture_begin",
           [](RecordedGraph& g, std::pair<uint64_t, uint64_t> pool) { g.capture_begin(pool); },
           py::arg("pool") = std::pair<uint64_t, uint64_t>{0, 0})
      .def("capture_end", &RecordedGraph::capture_end)
      .def("replay", &RecordedGraph::replay)
      .def("reset", &RecordedGraph::reset)
      .def("pool", &RecordedGraph::pool)
      .def("enable_debug_mode", &RecordedGraph::enable_debug_mode)
      .def("debug_dump", &RecordedGraph::debug_dump, py::arg("path"))
      .def_property_readonly("num_calls", &RecordedGraph::size);
}

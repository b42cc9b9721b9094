#pragma once
// torchada stable-ABI compat, force-included (-include) into libtorch_stable sources.
//
// TORCHADA_STABLE_BOX(func): a boxed kernel for STABLE_TORCH_LIBRARY_IMPL's m.impl(), built from
// the function's C++ signature with the stable StableIValue conversions (from/to). One stack slot
// per argument; the result (if any) goes to slot 0, a std::tuple's elements to slots 0..n-1.
// On torch < 2.11, which has no boxer of its own, TORCH_BOX is this boxer.
#if defined(__has_include) && __has_include(<torch/headeronly/version.h>)
#include <torch/headeronly/version.h>
#else
#include <torch/version.h>  // torch < 2.10: on torch's csrc/api/include path
#endif
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/stableivalue_conversions.h>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace torchada_stable {

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 10)
using torch::stable::detail::from;  // torch 2.10 moved the conversions out of the global namespace
using torch::stable::detail::to;
#else
using ::from;
using ::to;
#endif

template <class T>
using bare_t = std::remove_cv_t<std::remove_reference_t<T>>;

template <class F>
struct signature;
template <class R, class... A>
struct signature<R (*)(A...)> {
  using result = R;
  using arguments = std::tuple<bare_t<A>...>;
};

template <class T>
struct is_tuple : std::false_type {};
template <class... T>
struct is_tuple<std::tuple<T...>> : std::true_type {};

template <class Tuple, std::size_t... I>
void store(StableIValue* stack, Tuple&& values, std::index_sequence<I...>) {
  ((stack[I] = from(std::get<I>(std::forward<Tuple>(values)))), ...);
}

template <auto Func, class Arguments, std::size_t... I>
void call(StableIValue* stack, std::index_sequence<I...>) {
  Arguments arguments{to<std::tuple_element_t<I, Arguments>>(stack[I])...};
  using R = typename signature<decltype(Func)>::result;
  if constexpr (std::is_void_v<R>) {
    std::apply(Func, arguments);
  } else if constexpr (is_tuple<bare_t<R>>::value) {
    store(stack, std::apply(Func, arguments),
          std::make_index_sequence<std::tuple_size_v<bare_t<R>>>());
  } else {
    stack[0] = from(std::apply(Func, arguments));
  }
}

template <auto Func>
void boxed(StableIValue* stack, uint64_t /*num_args*/, uint64_t /*num_outputs*/) {
  using Arguments = typename signature<decltype(Func)>::arguments;
  call<Func, Arguments>(stack, std::make_index_sequence<std::tuple_size_v<Arguments>>());
}

}  // namespace torchada_stable

#define TORCHADA_STABLE_BOX(func) (&::torchada_stable::boxed<func>)

#if TORCH_VERSION_MAJOR < 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR < 11)
#ifndef TORCH_BOX
#define TORCH_BOX(func) TORCHADA_STABLE_BOX(func)
#endif
#endif

#pragma once
// torchada stable-ABI compat: torch/headeronly/core/Dispatch.h. torch's own header where it has
// one; otherwise THO_DISPATCH_SWITCH / THO_DISPATCH_CASE written over c10's ScalarType.
#if !defined(TORCHADA_STABLE_BACKPORT) && defined(__has_include_next)
#if __has_include_next(<torch/headeronly/core/Dispatch.h>)
#include_next <torch/headeronly/core/Dispatch.h>
#define TORCHADA_NATIVE_THO_DISPATCH 1
#endif
#endif

#if !defined(TORCHADA_NATIVE_THO_DISPATCH) && !defined(THO_DISPATCH_SWITCH)
#include <c10/core/ScalarType.h>
#include <c10/util/Exception.h>

#define THO_DISPATCH_CASE(enum_type, ...)                                          \
  case enum_type: {                                                                \
    using scalar_t [[maybe_unused]] = c10::impl::ScalarTypeToCPPTypeT<enum_type>; \
    return __VA_ARGS__();                                                          \
  }

#define THO_DISPATCH_SWITCH(TYPE, NAME, ...)                                   \
  [&] {                                                                        \
    const auto torchada_type = static_cast<c10::ScalarType>(TYPE);            \
    switch (torchada_type) {                                                   \
      __VA_ARGS__                                                              \
      default:                                                                 \
        TORCH_CHECK(false, '"', NAME, "\" not implemented for '",            \
                    c10::toString(torchada_type), "'");                        \
    }                                                                          \
  }()
#endif

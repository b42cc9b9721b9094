#pragma once
// torchada stable-ABI compat: torch/csrc/stable/macros.h. torch's own header where it has one;
// before torch 2.10 the stable library macros live in library.h.
#if defined(__has_include_next)
#if __has_include_next(<torch/csrc/stable/macros.h>)
#include_next <torch/csrc/stable/macros.h>
#define TORCHADA_NATIVE_STABLE_MACROS 1
#endif
#endif

#ifndef TORCHADA_NATIVE_STABLE_MACROS
#include <torch/csrc/stable/library.h>
#endif

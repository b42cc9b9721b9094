#pragma once
#include <cstdint>

// out = a + b for n floats already on the GPU, on the default stream.
// Returns nullptr on success, else the runtime's error message.
const char* vector_add_launch(const float* a, const float* b, float* out, int64_t n);

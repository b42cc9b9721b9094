#pragma once
#ifdef __cplusplus
extern "C" {
#endif

/* y = a * x + y for n floats in host memory, computed on the GPU.
   Returns NULL on success, else the runtime's error message. */
const char* saxpy_on_gpu(int n, float a, const float* x, float* y);

#ifdef __cplusplus
}
#endif

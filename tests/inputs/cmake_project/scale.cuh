#pragma once
#include <cuda_runtime.h>
cudaError_t scale_on_device(float* data, int n);

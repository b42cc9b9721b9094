// Reduced-precision number types: cuda_fp16.h, cuda_bf16.h and cuda_fp8.h types and intrinsics
// as activation, normalisation and quantisation kernels use them.
// CHECK: #include <musa_bf16.h>
#include <cuda_bf16.h>
// CHECK: #include <musa_fp16.h>
#include <cuda_fp16.h>
// CHECK: #include <musa_fp8.h>
#include <cuda_fp8.h>

__global__ void gelu_half2(half2* out, const half2* in, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) {
    const half2 x = in[i];
    const half2 c = __float2half2_rn(0.7978845608f);
    const half2 inner = __hmul2(c, __hfma2(__hmul2(x, x), __float2half2_rn(0.044715f), __float2half2_rn(1.0f)));
    float2 f = __half22float2(__hmul2(x, inner));
    out[i] = __floats2half2_rn(tanhf(f.x), tanhf(f.y));
  }
}

// CHECK: __global__ void rms_norm_bf16(__mt_bfloat16* out, const mt_bfloat16* in, const __mt_bfloat16* weight, int n) {
__global__ void rms_norm_bf16(__nv_bfloat16* out, const nv_bfloat16* in, const __nv_bfloat16* weight, int n) {
  float sum = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    float v = __bfloat162float(in[i]);
    sum += v * v;
  }
  const float inv_rms = rsqrtf(sum / n + 1e-6f);
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    out[i] = __float2bfloat16(__bfloat162float(in[i]) * inv_rms) * weight[i];
  }
// CHECK:   __mt_bfloat162 pair = __floats2bfloat162_rn(sum, inv_rms);
  __nv_bfloat162 pair = __floats2bfloat162_rn(sum, inv_rms);
  out[0] = __hadd(__low2bfloat16(pair), __high2bfloat16(pair));
}

__global__ void half_math(__half* x, float* acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half h = __hadd(x[i], __float2half_rn(1.0f));
    h = __hmax(h, __ushort_as_half(0));
    if (__hisnan(h) || __hisinf(h)) {
      h = __float2half(0.0f);
    }
    x[i] = hsqrt(__habs(h));
    atomicAdd(acc, __half2float(x[i]));
  }
}

// CHECK: __global__ void quantize_fp8(__mt_fp8x2_storage_t* out, const float2* in, float scale, int n2) {
__global__ void quantize_fp8(__nv_fp8x2_storage_t* out, const float2* in, float scale, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) {
    float2 v = make_float2(in[i].x * scale, in[i].y * scale);
// CHECK:     out[i] = __musa_cvt_float2_to_fp8x2(v, __MT_SATFINITE, __MT_E4M3);
    out[i] = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E4M3);
  }
}

// CHECK: __global__ void dequantize_fp8(float* out, const __mt_fp8_e4m3* in, const __mt_fp8x2_e5m2* pairs, int n) {
__global__ void dequantize_fp8(float* out, const __nv_fp8_e4m3* in, const __nv_fp8x2_e5m2* pairs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = static_cast<float>(in[i]) + static_cast<float2>(pairs[i]).x;
  }
}

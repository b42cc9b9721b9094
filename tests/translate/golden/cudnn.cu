// cuDNN: a forward convolution with algorithm search, as PyTorch's legacy conv path and many extensions call it.
// FINDING: 10: warning TA1002 'cudnn.h'
// CHECK: #include <mudnn.h>
#include <cudnn.h>

#include <cstddef>

// CHECK: #define DNN_CHECK(expr)                       \
// CHECK:   do {                                        \
// CHECK:     mudnnStatus_t status_ = (expr);           \
// CHECK:     if (status_ != MUDNN_STATUS_SUCCESS) {    \
// CHECK:       return mudnnGetErrorString(status_);    \
// CHECK:     }                                         \
// CHECK:   } while (0)
#define DNN_CHECK(expr)                       \
  do {                                        \
    cudnnStatus_t status_ = (expr);           \
    if (status_ != CUDNN_STATUS_SUCCESS) {    \
      return cudnnGetErrorString(status_);    \
    }                                         \
  } while (0)

// CHECK: const char* conv_forward(mudnnHandle_t handle, const float* x, const float* w, float* y, void* workspace,
const char* conv_forward(cudnnHandle_t handle, const float* x, const float* w, float* y, void* workspace,
                         size_t workspace_size) {
// FINDING: 3: warning TA1002 'cudnnTensorDescriptor_t'
// CHECK:   mudnnTensorDescriptor_t x_desc, y_desc;
  cudnnTensorDescriptor_t x_desc, y_desc;
// FINDING: 3: warning TA1002 'cudnnFilterDescriptor_t'
// CHECK:   mudnnFilterDescriptor_t w_desc;
  cudnnFilterDescriptor_t w_desc;
// FINDING: 3: warning TA1002 'cudnnConvolutionDescriptor_t'
// CHECK:   mudnnConvolutionDescriptor_t conv_desc;
  cudnnConvolutionDescriptor_t conv_desc;
// FINDING: 13: warning TA1002 'cudnnCreateTensorDescriptor'
// CHECK:   DNN_CHECK(mudnnCreateTensorDescriptor(&x_desc));
  DNN_CHECK(cudnnCreateTensorDescriptor(&x_desc));
// FINDING: 13: warning TA1002 'cudnnCreateTensorDescriptor'
// CHECK:   DNN_CHECK(mudnnCreateTensorDescriptor(&y_desc));
  DNN_CHECK(cudnnCreateTensorDescriptor(&y_desc));
// FINDING: 13: warning TA1002 'cudnnCreateFilterDescriptor'
// CHECK:   DNN_CHECK(mudnnCreateFilterDescriptor(&w_desc));
  DNN_CHECK(cudnnCreateFilterDescriptor(&w_desc));
// FINDING: 13: warning TA1002 'cudnnCreateConvolutionDescriptor'
// CHECK:   DNN_CHECK(mudnnCreateConvolutionDescriptor(&conv_desc));
  DNN_CHECK(cudnnCreateConvolutionDescriptor(&conv_desc));
// FINDING: 13: warning TA1002 'cudnnSetTensor4dDescriptor'
// FINDING: 48: warning TA1002 'CUDNN_TENSOR_NCHW'
// FINDING: 67: warning TA1002 'CUDNN_DATA_FLOAT'
// CHECK:   DNN_CHECK(mudnnSetTensor4dDescriptor(x_desc, MUDNN_TENSOR_NCHW, MUDNN_DATA_FLOAT, 8, 64, 56, 56));
  DNN_CHECK(cudnnSetTensor4dDescriptor(x_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 8, 64, 56, 56));
// FINDING: 13: warning TA1002 'cudnnSetFilter4dDescriptor'
// FINDING: 48: warning TA1002 'CUDNN_DATA_FLOAT'
// FINDING: 66: warning TA1002 'CUDNN_TENSOR_NCHW'
// CHECK:   DNN_CHECK(mudnnSetFilter4dDescriptor(w_desc, MUDNN_DATA_FLOAT, MUDNN_TENSOR_NCHW, 64, 64, 3, 3));
  DNN_CHECK(cudnnSetFilter4dDescriptor(w_desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 64, 64, 3, 3));
// FINDING: 13: warning TA1002 'cudnnSetConvolution2dDescriptor'
// FINDING: 74: warning TA1002 'CUDNN_CROSS_CORRELATION'
// FINDING: 99: warning TA1002 'CUDNN_DATA_FLOAT'
// CHECK:   DNN_CHECK(mudnnSetConvolution2dDescriptor(conv_desc, 1, 1, 1, 1, 1, 1, MUDNN_CROSS_CORRELATION, MUDNN_DATA_FLOAT));
  DNN_CHECK(cudnnSetConvolution2dDescriptor(conv_desc, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
// FINDING: 13: warning TA1002 'cudnnSetConvolutionMathType'
// FINDING: 52: warning TA1002 'CUDNN_TENSOR_OP_MATH'
// CHECK:   DNN_CHECK(mudnnSetConvolutionMathType(conv_desc, MUDNN_TENSOR_OP_MATH));
  DNN_CHECK(cudnnSetConvolutionMathType(conv_desc, CUDNN_TENSOR_OP_MATH));
// FINDING: 13: warning TA1002 'cudnnSetTensor4dDescriptor'
// FINDING: 48: warning TA1002 'CUDNN_TENSOR_NCHW'
// FINDING: 67: warning TA1002 'CUDNN_DATA_FLOAT'
// CHECK:   DNN_CHECK(mudnnSetTensor4dDescriptor(y_desc, MUDNN_TENSOR_NCHW, MUDNN_DATA_FLOAT, 8, 64, 56, 56));
  DNN_CHECK(cudnnSetTensor4dDescriptor(y_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 8, 64, 56, 56));

// FINDING: 3: warning TA1002 'cudnnConvolutionFwdAlgoPerf_t'
// CHECK:   mudnnConvolutionFwdAlgoPerf_t perf;
  cudnnConvolutionFwdAlgoPerf_t perf;
  int returned = 0;
// FINDING: 13: warning TA1002 'cudnnGetConvolutionForwardAlgorithm_v7'
// CHECK:   DNN_CHECK(mudnnGetConvolutionForwardAlgorithm_v7(handle, x_desc, w_desc, conv_desc, y_desc, 1, &returned, &perf));
  DNN_CHECK(cudnnGetConvolutionForwardAlgorithm_v7(handle, x_desc, w_desc, conv_desc, y_desc, 1, &returned, &perf));
  const float alpha = 1.0f, beta = 0.0f;
// FINDING: 13: warning TA1002 'cudnnConvolutionForward'
// CHECK:   DNN_CHECK(mudnnConvolutionForward(handle, &alpha, x_desc, x, w_desc, w, conv_desc, perf.algo, workspace,
  DNN_CHECK(cudnnConvolutionForward(handle, &alpha, x_desc, x, w_desc, w, conv_desc, perf.algo, workspace,
                                    workspace_size, &beta, y_desc, y));

// FINDING: 3: warning TA1002 'cudnnDestroyConvolutionDescriptor'
// CHECK:   mudnnDestroyConvolutionDescriptor(conv_desc);
  cudnnDestroyConvolutionDescriptor(conv_desc);
// FINDING: 3: warning TA1002 'cudnnDestroyFilterDescriptor'
// CHECK:   mudnnDestroyFilterDescriptor(w_desc);
  cudnnDestroyFilterDescriptor(w_desc);
// FINDING: 3: warning TA1002 'cudnnDestroyTensorDescriptor'
// CHECK:   mudnnDestroyTensorDescriptor(y_desc);
  cudnnDestroyTensorDescriptor(y_desc);
// FINDING: 3: warning TA1002 'cudnnDestroyTensorDescriptor'
// CHECK:   mudnnDestroyTensorDescriptor(x_desc);
  cudnnDestroyTensorDescriptor(x_desc);
  return nullptr;
}

// CHECK: mudnnHandle_t make_dnn() {
cudnnHandle_t make_dnn() {
// CHECK:   mudnnHandle_t handle = nullptr;
  cudnnHandle_t handle = nullptr;
// CHECK:   mudnnCreate(&handle);
  cudnnCreate(&handle);
  return handle;
}

// CHECK: size_t dnn_version() { return mudnnGetVersion(); }
size_t dnn_version() { return cudnnGetVersion(); }

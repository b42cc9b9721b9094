// cuDNN: a forward convolution with algorithm search, as PyTorch's legacy conv path and many extensions call it.
#include <cudnn.h>

#include <cstddef>

#define DNN_CHECK(expr)                       \
  do {                                        \
    cudnnStatus_t status_ = (expr);           \
    if (status_ != CUDNN_STATUS_SUCCESS) {    \
      return cudnnGetErrorString(status_);    \
    }                                         \
  } while (0)

const char* conv_forward(cudnnHandle_t handle, const float* x, const float* w, float* y, void* workspace,
                         size_t workspace_size) {
  cudnnTensorDescriptor_t x_desc, y_desc;
  cudnnFilterDescriptor_t w_desc;
  cudnnConvolutionDescriptor_t conv_desc;
  DNN_CHECK(cudnnCreateTensorDescriptor(&x_desc));
  DNN_CHECK(cudnnCreateTensorDescriptor(&y_desc));
  DNN_CHECK(cudnnCreateFilterDescriptor(&w_desc));
  DNN_CHECK(cudnnCreateConvolutionDescriptor(&conv_desc));
  DNN_CHECK(cudnnSetTensor4dDescriptor(x_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 8, 64, 56, 56));
  DNN_CHECK(cudnnSetFilter4dDescriptor(w_desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 64, 64, 3, 3));
  DNN_CHECK(cudnnSetConvolution2dDescriptor(conv_desc, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  DNN_CHECK(cudnnSetConvolutionMathType(conv_desc, CUDNN_TENSOR_OP_MATH));
  DNN_CHECK(cudnnSetTensor4dDescriptor(y_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 8, 64, 56, 56));

  cudnnConvolutionFwdAlgoPerf_t perf;
  int returned = 0;
  DNN_CHECK(cudnnGetConvolutionForwardAlgorithm_v7(handle, x_desc, w_desc, conv_desc, y_desc, 1, &returned, &perf));
  const float alpha = 1.0f, beta = 0.0f;
  DNN_CHECK(cudnnConvolutionForward(handle, &alpha, x_desc, x, w_desc, w, conv_desc, perf.algo, workspace,
                                    workspace_size, &beta, y_desc, y));

  cudnnDestroyConvolutionDescriptor(conv_desc);
  cudnnDestroyFilterDescriptor(w_desc);
  cudnnDestroyTensorDescriptor(y_desc);
  cudnnDestroyTensorDescriptor(x_desc);
  return nullptr;
}

cudnnHandle_t make_dnn() {
  cudnnHandle_t handle = nullptr;
  cudnnCreate(&handle);
  return handle;
}

size_t dnn_version() { return cudnnGetVersion(); }

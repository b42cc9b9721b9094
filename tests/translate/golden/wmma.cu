// Warp matrix multiply-accumulate (WMMA): one 16x16x16 fp16 tile per warp with an fp32 accumulator.
// CHECK: #include <musa_fp16.h>
#include <cuda_fp16.h>
#include <mma.h>

// CHECK: using namespace mtmusa;
using namespace nvcuda;

__global__ void wmma_tile(const half* a, const half* b, float* c, int lda, int ldb, int ldc) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(a_frag, a, lda);
  wmma::load_matrix_sync(b_frag, b, ldb);
  wmma::mma_sync(acc, a_frag, b_frag, acc);
  wmma::store_matrix_sync(c, acc, ldc, wmma::mem_row_major);
}

__global__ void wmma_qualified(const half* a, const half* b, float* c) {
// CHECK:   mtmusa::wmma::fragment<mtmusa::wmma::matrix_a, 16, 16, 16, half, mtmusa::wmma::row_major> a_frag;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major> a_frag;
// CHECK:   mtmusa::wmma::fragment<mtmusa::wmma::matrix_b, 16, 16, 16, half, mtmusa::wmma::row_major> b_frag;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, half, nvcuda::wmma::row_major> b_frag;
// CHECK:   mtmusa::wmma::fragment<mtmusa::wmma::accumulator, 16, 16, 16, float> acc;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
// CHECK:   mtmusa::wmma::fill_fragment(acc, 0.0f);
  nvcuda::wmma::fill_fragment(acc, 0.0f);
// CHECK:   mtmusa::wmma::load_matrix_sync(a_frag, a, 16);
  nvcuda::wmma::load_matrix_sync(a_frag, a, 16);
// CHECK:   mtmusa::wmma::load_matrix_sync(b_frag, b, 16);
  nvcuda::wmma::load_matrix_sync(b_frag, b, 16);
// CHECK:   mtmusa::wmma::mma_sync(acc, a_frag, b_frag, acc);
  nvcuda::wmma::mma_sync(acc, a_frag, b_frag, acc);
// CHECK:   mtmusa::wmma::store_matrix_sync(c, acc, 16, mtmusa::wmma::mem_col_major);
  nvcuda::wmma::store_matrix_sync(c, acc, 16, nvcuda::wmma::mem_col_major);
}

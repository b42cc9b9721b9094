// CUTLASS 3 / CuTe: a GEMM assembled from collective builders, plus a CuTe copy helper, in the style of the
// CUTLASS kernels in vLLM and FlashAttention. Translation only: CUTLASS is not installed here.
#include "cutlass/cutlass.h"
#include "cutlass/numeric_types.h"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cute/tensor.hpp"

using namespace cute;

using ElementA = cutlass::half_t;
using ElementB = cutlass::half_t;
using ElementD = cutlass::bfloat16_t;
using LayoutA = cutlass::layout::RowMajor;
using LayoutB = cutlass::layout::ColumnMajor;
using TileShape = Shape<_128, _128, _64>;
using ClusterShape = Shape<_1, _1, _1>;

using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, float, float, ElementD, LayoutA, 8, ElementD, LayoutA, 8,
    cutlass::epilogue::collective::EpilogueScheduleAuto>::CollectiveOp;

using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, ElementA, LayoutA, 8, ElementB, LayoutB, 8, float,
    TileShape, ClusterShape, cutlass::gemm::collective::StageCountAuto,
    cutlass::gemm::collective::KernelScheduleAuto>::CollectiveOp;

using GemmKernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, CollectiveMainloop,
                                                         CollectiveEpilogue>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>;

CUTLASS_HOST_DEVICE int tiles_along(int extent) { return cute::ceil_div(extent, 128); }

template <class Engine, class Layout>
CUTE_DEVICE void scale_fragment(cute::Tensor<Engine, Layout>& fragment, float factor) {
  CUTLASS_PRAGMA_UNROLL
  for (int i = 0; i < cute::size(fragment); ++i) {
    fragment(i) = fragment(i) * factor;
  }
}

cutlass::Status run_gemm(Gemm& gemm, typename Gemm::Arguments const& arguments, void* workspace) {
  cutlass::Status status = gemm.can_implement(arguments);
  if (status != cutlass::Status::kSuccess) {
    return status;
  }
  status = gemm.initialize(arguments, workspace);
  return status == cutlass::Status::kSuccess ? gemm.run() : status;
}

// CUTLASS 3 / CuTe: a GEMM assembled from collective builders, plus a CuTe copy helper, in the style of the
// CUTLASS kernels in vLLM and FlashAttention. Translation only: CUTLASS is not installed here.
// CHECK: #include "mutlass/mutlass.h"
#include "cutlass/cutlass.h"
// CHECK: #include "mutlass/numeric_types.h"
#include "cutlass/numeric_types.h"
// CHECK: #include "mutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
// CHECK: #include "mutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
// CHECK: #include "mutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
// CHECK: #include "mutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
// CHECK: #include "mute/tensor.hpp"
#include "cute/tensor.hpp"

// CHECK: using namespace mute;
using namespace cute;

// CHECK: using ElementA = mutlass::half_t;
using ElementA = cutlass::half_t;
// CHECK: using ElementB = mutlass::half_t;
using ElementB = cutlass::half_t;
// CHECK: using ElementD = mutlass::bfloat16_t;
using ElementD = cutlass::bfloat16_t;
// CHECK: using LayoutA = mutlass::layout::RowMajor;
using LayoutA = cutlass::layout::RowMajor;
// CHECK: using LayoutB = mutlass::layout::ColumnMajor;
using LayoutB = cutlass::layout::ColumnMajor;
using TileShape = Shape<_128, _128, _64>;
using ClusterShape = Shape<_1, _1, _1>;

// CHECK: using CollectiveEpilogue = typename mutlass::epilogue::collective::CollectiveBuilder<
using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
// FINDING: 5: warning TA1002 'cutlass::arch::Sm90'
// CHECK:     mutlass::arch::Mp31, mutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
// CHECK:     mutlass::epilogue::collective::EpilogueTileAuto, float, float, ElementD, LayoutA, 8, ElementD, LayoutA, 8,
    cutlass::epilogue::collective::EpilogueTileAuto, float, float, ElementD, LayoutA, 8, ElementD, LayoutA, 8,
// CHECK:     mutlass::epilogue::collective::EpilogueScheduleAuto>::CollectiveOp;
    cutlass::epilogue::collective::EpilogueScheduleAuto>::CollectiveOp;

// CHECK: using CollectiveMainloop = typename mutlass::gemm::collective::CollectiveBuilder<
using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
// FINDING: 5: warning TA1002 'cutlass::arch::Sm90'
// CHECK:     mutlass::arch::Mp31, mutlass::arch::OpClassTensorOp, ElementA, LayoutA, 8, ElementB, LayoutB, 8, float,
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, ElementA, LayoutA, 8, ElementB, LayoutB, 8, float,
// CHECK:     TileShape, ClusterShape, mutlass::gemm::collective::StageCountAuto,
    TileShape, ClusterShape, cutlass::gemm::collective::StageCountAuto,
// CHECK:     mutlass::gemm::collective::KernelScheduleAuto>::CollectiveOp;
    cutlass::gemm::collective::KernelScheduleAuto>::CollectiveOp;

// CHECK: using GemmKernel = mutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, CollectiveMainloop,
using GemmKernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, CollectiveMainloop,
                                                         CollectiveEpilogue>;
// CHECK: using Gemm = mutlass::gemm::device::GemmUniversalAdapter<GemmKernel>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>;

// CHECK: MUTLASS_HOST_DEVICE int tiles_along(int extent) { return mute::ceil_div(extent, 128); }
CUTLASS_HOST_DEVICE int tiles_along(int extent) { return cute::ceil_div(extent, 128); }

template <class Engine, class Layout>
// CHECK: MUTE_DEVICE void scale_fragment(mute::Tensor<Engine, Layout>& fragment, float factor) {
CUTE_DEVICE void scale_fragment(cute::Tensor<Engine, Layout>& fragment, float factor) {
// CHECK:   MUTLASS_PRAGMA_UNROLL
  CUTLASS_PRAGMA_UNROLL
// CHECK:   for (int i = 0; i < mute::size(fragment); ++i) {
  for (int i = 0; i < cute::size(fragment); ++i) {
    fragment(i) = fragment(i) * factor;
  }
}

// CHECK: mutlass::Status run_gemm(Gemm& gemm, typename Gemm::Arguments const& arguments, void* workspace) {
cutlass::Status run_gemm(Gemm& gemm, typename Gemm::Arguments const& arguments, void* workspace) {
// CHECK:   mutlass::Status status = gemm.can_implement(arguments);
  cutlass::Status status = gemm.can_implement(arguments);
// CHECK:   if (status != mutlass::Status::kSuccess) {
  if (status != cutlass::Status::kSuccess) {
    return status;
  }
  status = gemm.initialize(arguments, workspace);
// CHECK:   return status == mutlass::Status::kSuccess ? gemm.run() : status;
  return status == cutlass::Status::kSuccess ? gemm.run() : status;
}

// Cooperative groups: thread-block tiles and a warp-level reduction, plus a grid-wide sync.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void tile_sum(const int* input, int* output, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int i = block.group_index().x * block.size() + block.thread_rank();
  int value = i < n ? input[i] : 0;
  value = cg::reduce(tile, value, cg::plus<int>());
  if (tile.thread_rank() == 0) {
    atomicAdd(output, value);
  }
  block.sync();
}

__global__ void two_phase(int* data, int n) {
// FINDING: 3: warning TA1002 'cooperative_groups::grid_group'
// FINDING: 41: warning TA1002 'cooperative_groups::this_grid'
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) {
    data[i] *= 2;
  }
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) {
    data[i] += 1;
  }
}

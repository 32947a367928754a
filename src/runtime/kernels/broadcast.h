// NumPy-style broadcasting for binary elementwise kernels (up to 6 dims, TFLM's limit): shapes are
// right-aligned, and a dim of 1 repeats. Visiting order is the output's row-major order, so results
// equal TFLM's reference BroadcastXxx6DSlow element by element. O(output elements).
#pragma once

#include <cstdint>

#include "runtime/tensor_view.h"

namespace arenaplan::rt {

inline constexpr int32_t kMaxBroadcastRank = 6;

struct Broadcast {
  int32_t dims[kMaxBroadcastRank];      // output dims, left-padded with 1
  int32_t stride_a[kMaxBroadcastRank];  // element stride of a per output dim (0 where broadcast)
  int32_t stride_b[kMaxBroadcastRank];
};

// False when a rank exceeds 6, or the shapes are not broadcast-compatible with `out`.
bool MakeBroadcast(const TensorView& a, const TensorView& b, const TensorView& out, Broadcast* bc);

// Calls f(out_index, a_index, b_index) for every output element in row-major order.
template <typename F>
void ForEachBroadcast(const Broadcast& bc, F&& f) {
  int32_t idx[kMaxBroadcastRank] = {0, 0, 0, 0, 0, 0};
  int64_t total = 1;
  for (int32_t d = 0; d < kMaxBroadcastRank; ++d) total *= bc.dims[d];
  int32_t ia = 0, ib = 0;
  for (int64_t o = 0; o < total; ++o) {
    f(static_cast<int32_t>(o), ia, ib);
    for (int32_t d = kMaxBroadcastRank - 1; d >= 0; --d) {
      ++idx[d];
      ia += bc.stride_a[d];
      ib += bc.stride_b[d];
      if (idx[d] < bc.dims[d]) break;
      ia -= bc.stride_a[d] * bc.dims[d];
      ib -= bc.stride_b[d] * bc.dims[d];
      idx[d] = 0;
    }
  }
}

}  // namespace arenaplan::rt

#include "runtime/kernels/broadcast.h"

namespace arenaplan::rt {

namespace {
// Dims of t left-padded with 1 to kMaxBroadcastRank.
bool Padded(const TensorView& t, int32_t* dims) {
  if (t.rank < 0 || t.rank > kMaxBroadcastRank) return false;
  const int32_t pad = kMaxBroadcastRank - t.rank;
  for (int32_t d = 0; d < kMaxBroadcastRank; ++d) dims[d] = d < pad ? 1 : t.dims[d - pad];
  return true;
}
void Strides(const int32_t* dims, const int32_t* out, int32_t* strides) {
  int32_t s = 1;
  for (int32_t d = kMaxBroadcastRank - 1; d >= 0; --d) {
    strides[d] = (dims[d] == 1 && out[d] != 1) ? 0 : s;
    s *= dims[d];
  }
}
}  // namespace

bool MakeBroadcast(const TensorView& a, const TensorView& b, const TensorView& out, Broadcast* bc) {
  int32_t da[kMaxBroadcastRank], db[kMaxBroadcastRank];
  if (!Padded(a, da) || !Padded(b, db) || !Padded(out, bc->dims)) return false;
  for (int32_t d = 0; d < kMaxBroadcastRank; ++d) {
    const int32_t o = bc->dims[d];
    if ((da[d] != o && da[d] != 1) || (db[d] != o && db[d] != 1)) return false;
  }
  Strides(da, bc->dims, bc->stride_a);
  Strides(db, bc->dims, bc->stride_b);
  return true;
}

}  // namespace arenaplan::rt

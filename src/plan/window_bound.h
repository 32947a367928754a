// Lower bounds from closed time windows (internal to the optimal planner): a relaxation stronger
// than the live bytes where a small part of the problem cannot be packed although its live bytes
// fit.
//
// A window of sections [a, e) is closed when every buffer alive in it is either alive throughout
// it (a wall) or alive only inside it. In any plan of height H the walls keep their addresses for
// the whole window; squeezing those addresses out (an order-preserving map of the rest of [0, H)
// onto [0, H - walls)) keeps the inside buffers contiguous and apart, so it turns the plan into a
// plan of the inside buffers in H - walls. Hence H is refuted when the exact search proves that
// the inside buffers do not fit in H - walls. Only windows that are tight at H (their live bytes
// reach H somewhere) and hold at most `max_inside` buffers are tried, smallest first.
// Requires online buffers whose alignments divide every size (squeezing walls out then keeps
// offsets aligned). Cost: O(n log n + the buffers' spans in sections + the windows scanned) to
// list the windows, then O(n) and one exact search per window, all under `limits`.
#pragma once

#include <vector>

#include "plan/search_model.h"

namespace arenaplan::plan::optimal_internal {

struct WindowRefutation {
  bool refuted = false;
  Step first = 0, last = 0;  // the window's steps (inclusive)
  size_t inside = 0;         // buffers inside it
  int64_t nodes = 0;         // search nodes spent, over all windows tried
};

WindowRefutation RefuteByWindows(const std::vector<Buffer>& buffers, Bytes height, const Limits& limits,
                                 size_t max_inside = 64);

}  // namespace arenaplan::plan::optimal_internal

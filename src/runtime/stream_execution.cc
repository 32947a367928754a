// The row loop of a stream segment (stream.h): demand-driven, one output row of one op per step,
// windows shifted by memmove. No heap; O(kMaxStreamOps) stack.
#include <cstring>

#include "runtime/interpreter.h"
#include "runtime/stream.h"

namespace arenaplan::rt {

StatusCode Interpreter::RunStream(uint32_t first, uint32_t n) {
  StreamOpRows rows[kMaxStreamOps];
  uint8_t* window[kMaxStreamOps];  // window[j]: the rows in front of op j (j = 0: the whole X)
  int32_t held[kMaxStreamOps], produced[kMaxStreamOps];
  if (n < 2 || n > kMaxStreamOps) return OpError(StatusCode::kKernelError, "stream of %u ops", n);
  for (uint32_t j = 0; j < n; ++j) {
    RT_RETURN_IF_ERROR(StreamRowsOf(model_, first + j, &rows[j], &error_));  // checked at AllocateTensors
    window[j] = static_cast<uint8_t*>(View(0, rows[j].input).data);
    held[j] = produced[j] = 0;
    if (window[j] == nullptr) {
      SetCurrent(0, first + j);
      return OpError(StatusCode::kKernelError, "stream: input has no data");
    }
  }
  const StreamOpRows& last = rows[n - 1];
  auto* y = static_cast<uint8_t*>(View(0, last.output).data);
  if (y == nullptr) return OpError(StatusCode::kKernelError, "stream: output has no data");
  while (produced[n - 1] < last.out_h) {
    // The latest op whose next output row has all its input rows (op 0 always has: X is whole).
    uint32_t j = n - 1;
    while (j > 0 && produced[j - 1] < StreamRowsEnd(rows[j], produced[j])) --j;
    const StreamOpRows& r = rows[j];
    const int32_t oy = produced[j];
    const int32_t begin = StreamRowsBegin(r, oy), end = StreamRowsEnd(r, oy);
    const int32_t count = end > begin ? end - begin : 0;
    // Window j holds rows [produced[j - 1] - held[j], produced[j - 1]) and begin is among them.
    const int32_t oldest = j == 0 ? 0 : produced[j - 1] - held[j];
    uint8_t* in = window[j] + static_cast<uint64_t>(begin > oldest ? begin - oldest : 0) * r.in_row_bytes;
    uint8_t* out = nullptr;
    if (j + 1 == n) {
      out = y + static_cast<uint64_t>(oy) * r.out_row_bytes;
    } else {
      const int32_t capacity = StreamWindowRows(rows[j + 1]);
      if (held[j + 1] == capacity) {  // full: drop the oldest row, which no later row reads
        std::memmove(window[j + 1], window[j + 1] + r.out_row_bytes,
                     static_cast<size_t>(capacity - 1) * r.out_row_bytes);
        --held[j + 1];
      }
      out = window[j + 1] + static_cast<uint64_t>(held[j + 1]) * r.out_row_bytes;
    }
    stream_.in = View(0, r.input);
    stream_.out = View(0, r.output);
    for (int d = 0; d < 4; ++d) {
      stream_.in_dims[d] = stream_.in.dims[d];
      stream_.out_dims[d] = stream_.out.dims[d];
    }
    stream_.in_dims[1] = count;
    stream_.out_dims[1] = 1;
    stream_.in.dims = stream_.in_dims;
    stream_.out.dims = stream_.out_dims;
    stream_.in.data = in;
    stream_.out.data = out;
    stream_.in.bytes = static_cast<uint32_t>(count) * r.in_row_bytes;
    stream_.out.bytes = r.out_row_bytes;
    stream_.pad_top = begin - (oy * r.stride - r.pad_top);  // rows above the image, 0 past the top border
    stream_.active = true;
    const StatusCode st = RunKernelHook(0, first + j, KernelOf(model_, tables_, 0, first + j)->eval, "eval");
    stream_.active = false;
    if (st != StatusCode::kOk) return st;
    if (j + 1 < n) ++held[j + 1];
    ++produced[j];
  }
  return StatusCode::kOk;
}

}  // namespace arenaplan::rt

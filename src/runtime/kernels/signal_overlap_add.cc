// SignalOverlapAdd (TFLM Signal library; int16 / float32 [.., frames, frame_size] ->
// [.., frames x frame_step]), as TFLM (overlap_add.cc, signal/src/overlap_add.cc): each row keeps
// frame_size samples; per frame the input is added in (int16 saturating), the first frame_step
// samples are output and the buffer shifts by frame_step, zero-filled. State survives Invoke;
// Reset (and Prepare) zero it. O(rows x frames x frame_size) per Invoke.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"
#include "runtime/kernels/signal_util.h"

namespace arenaplan::rt {

namespace {

struct OverlapAddData {
  int32_t frame_size, frame_step, frames, rows;
  uint32_t elem_size;
  uint8_t* state;  // rows x frame_size samples
};

void ResetState(OverlapAddData& d) {
  std::memset(d.state, 0, static_cast<size_t>(d.rows) * d.frame_size * d.elem_size);
}

StatusCode Prepare(KernelContext& ctx) {
  RT_RETURN_IF_ERROR(RequireCounts(ctx, 1, 1));
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  int32_t type = 0;
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "T", &type));
  const auto t = static_cast<TensorType>(type);
  if (t != TensorType::INT16 && t != TensorType::FLOAT32) {
    return ctx.Fail(StatusCode::kUnsupported, "type T = %d not supported (int16, float32)", type);
  }
  RT_RETURN_IF_ERROR(RequireType(ctx, in, t, "input"));
  RT_RETURN_IF_ERROR(RequireType(ctx, out, t, "output"));
  if (in.rank < 2 || in.rank != out.rank + 1)
    return ctx.Fail(StatusCode::kInvalidModel, "input rank must be output rank + 1");
  OverlapAddData* d = nullptr;
  RT_RETURN_IF_ERROR(AllocateOpData(ctx, &d));
  RT_RETURN_IF_ERROR(SignalOptionInt(ctx, "frame_step", &d->frame_step));
  d->frame_size = in.dims[in.rank - 1];
  d->frames = in.dims[in.rank - 2];
  d->elem_size = TypeSize(t);
  if (d->frame_step <= 0 || d->frame_step > d->frame_size || d->frames <= 0) {
    return ctx.Fail(StatusCode::kInvalidModel, "frame_step %d must be in [1, frame size %d]", d->frame_step,
                    d->frame_size);
  }
  d->rows = static_cast<int32_t>(ElementCount(in) / (static_cast<int64_t>(d->frame_size) * d->frames));
  if (ElementCount(out) != static_cast<int64_t>(d->rows) * d->frames * d->frame_step) {
    return ctx.Fail(StatusCode::kInvalidModel, "output must hold %d x %d samples per row", d->frames, d->frame_step);
  }
  void* mem = nullptr;
  const uint64_t bytes = static_cast<uint64_t>(d->rows) * d->frame_size * d->elem_size;
  if (bytes > 0x7FFFFFF0u) return ctx.Fail(StatusCode::kInvalidModel, "state of %d rows is too large", d->rows);
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(static_cast<uint32_t>(bytes), &mem));
  d->state = static_cast<uint8_t*>(mem);
  ResetState(*d);
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

template <typename T>
void Accumulate(const T* in, T* buffer, int32_t n) {
  for (int32_t i = 0; i < n; ++i) {
    if constexpr (std::is_same<T, int16_t>::value) {
      const int32_t v = in[i] + buffer[i];
      buffer[i] = static_cast<int16_t>(v < INT16_MIN ? INT16_MIN : (v > INT16_MAX ? INT16_MAX : v));
    } else {
      buffer[i] += in[i];
    }
  }
}

template <typename T>
void Run(const OverlapAddData& d, const T* x, T* y) {
  for (int32_t r = 0; r < d.rows; ++r) {
    T* buffer = reinterpret_cast<T*>(d.state) + static_cast<size_t>(r) * d.frame_size;
    for (int32_t f = 0; f < d.frames; ++f) {
      const int64_t frame = static_cast<int64_t>(r) * d.frames + f;
      Accumulate(x + frame * d.frame_size, buffer, d.frame_size);
      std::memcpy(y + frame * d.frame_step, buffer, sizeof(T) * d.frame_step);
      std::memmove(buffer, buffer + d.frame_step, sizeof(T) * (d.frame_size - d.frame_step));
      std::memset(buffer + (d.frame_size - d.frame_step), 0, sizeof(T) * d.frame_step);
    }
  }
}

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireIo(ctx, &in, &out));
  const auto& d = *static_cast<const OverlapAddData*>(ctx.op_data());
  if (in.type == TensorType::INT16) {
    Run(d, in.As<int16_t>(), out.As<int16_t>());
  } else {
    Run(d, in.As<float>(), out.As<float>());
  }
  return StatusCode::kOk;
}

StatusCode Reset(KernelContext& ctx) {
  ResetState(*static_cast<OverlapAddData*>(ctx.op_data()));
  return StatusCode::kOk;
}

}  // namespace

RT_REGISTER_NAMED_KERNEL(SIGNAL_OVERLAP_ADD, "SignalOverlapAdd", &Prepare, &Eval, &Reset)

}  // namespace arenaplan::rt

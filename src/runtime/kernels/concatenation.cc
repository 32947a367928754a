// CONCATENATION along one axis for float32, int8, int16, int32, int64 and bool, as TFLM's micro
// kernel: data is copied bytewise and NOT requantized, even when int8 scales differ (TFLM's
// reference ignores the stored scales), and the fused activation must be NONE. At most 10 inputs
// (TFLM's kMaxInputNum). O(output elements): for each outer index, one memcpy per input.
#include <cstring>

#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

constexpr uint32_t kMaxInputs = 10;

struct ConcatData {
  int64_t outer;                   // product of output dims before the axis
  int64_t copy_bytes[kMaxInputs];  // per input: dim[axis] x inner x element size
};

StatusCode Prepare(KernelContext& ctx) {
  const uint32_t n = ctx.num_inputs();
  if (n < 1 || n > kMaxInputs || ctx.num_outputs() != 1) {
    return ctx.Fail(StatusCode::kUnsupported, "expected 1..10 inputs and 1 output, got %u and %u", n,
                    ctx.num_outputs());
  }
  TensorView out;
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const TensorType t = out.type;
  if (t != TensorType::FLOAT32 && t != TensorType::INT8 && t != TensorType::INT16 && t != TensorType::INT32 &&
      t != TensorType::INT64 && t != TensorType::BOOL) {
    return ctx.Fail(StatusCode::kUnsupported, "type %s not supported", TypeName(t));
  }
  const auto* opts = Options<tfl::ConcatenationOptions>(ctx);
  if (opts != nullptr && opts->fused_activation_function() != tfl::ActivationFunctionType::NONE) {
    return ctx.Fail(StatusCode::kUnsupported, "fused activation %d not supported",
                    static_cast<int>(opts->fused_activation_function()));
  }
  int32_t axis = opts != nullptr ? opts->axis() : 0;
  if (axis < 0) axis += out.rank;
  if (out.rank < 1 || axis < 0 || axis >= out.rank) {
    return ctx.Fail(StatusCode::kInvalidModel, "axis %d out of range for rank %d", opts != nullptr ? opts->axis() : 0,
                    out.rank);
  }
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(ConcatData), &mem));
  auto* d = static_cast<ConcatData*>(mem);
  d->outer = 1;
  for (int32_t a = 0; a < axis; ++a) d->outer *= out.dims[a];
  int64_t inner = TypeSize(t);
  for (int32_t a = axis + 1; a < out.rank; ++a) inner *= out.dims[a];
  int64_t axis_sum = 0;
  for (uint32_t k = 0; k < n; ++k) {
    TensorView in;
    RT_RETURN_IF_ERROR(RequireInput(ctx, k, &in));
    if (in.type != t) {
      return ctx.Fail(StatusCode::kInvalidModel, "input %u has type %s, output %s", k, TypeName(in.type), TypeName(t));
    }
    if (in.rank != out.rank) {
      return ctx.Fail(StatusCode::kInvalidModel, "input %u has rank %d, output %d", k, in.rank, out.rank);
    }
    for (int32_t a = 0; a < out.rank; ++a) {
      if (a != axis && in.dims[a] != out.dims[a]) {
        return ctx.Fail(StatusCode::kInvalidModel, "input %u dim %d is %d, output %d", k, a, in.dims[a], out.dims[a]);
      }
    }
    axis_sum += in.dims[axis];
    d->copy_bytes[k] = in.dims[axis] * inner;
  }
  if (axis_sum != out.dims[axis]) {
    return ctx.Fail(StatusCode::kInvalidModel, "inputs sum to %d along axis %d, output has %d",
                    static_cast<int>(axis_sum), axis, out.dims[axis]);
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

StatusCode Eval(KernelContext& ctx) {
  TensorView out;
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  const auto* d = static_cast<const ConcatData*>(ctx.op_data());
  const uint32_t n = ctx.num_inputs();
  const uint8_t* src[kMaxInputs];
  for (uint32_t k = 0; k < n; ++k) {
    TensorView in;
    RT_RETURN_IF_ERROR(RequireInput(ctx, k, &in));
    src[k] = static_cast<const uint8_t*>(in.data);
  }
  uint8_t* dst = static_cast<uint8_t*>(out.data);
  for (int64_t o = 0; o < d->outer; ++o) {
    for (uint32_t k = 0; k < n; ++k) {
      const int64_t b = d->copy_bytes[k];
      if (b == 0) continue;
      std::memcpy(dst, src[k] + o * b, static_cast<size_t>(b));
      dst += b;
    }
  }
  return StatusCode::kOk;
}

const KernelRegistration kConcatenation{"CONCATENATION", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_CONCATENATION() { return &kConcatenation; }

}  // namespace arenaplan::rt

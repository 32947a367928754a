// PAD and PADV2 (float32, int8, int16, int32; up to 5 dims), bit-exact with TFLM's reference Pad.
// Paddings must be constant (as on TFLM). The pad value is PADV2's scalar constant_values if
// given; otherwise 0, except int8 which pads with the output zero point (TFLM pads int16 with 0,
// not with the zero point). Eval walks the output row by row (rows of the last dim): rows in a
// padded region are filled, other rows are fill + memcpy + fill. O(output elements).
#include <cstring>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/registrations.h"

namespace arenaplan::rt {

namespace {

constexpr int32_t kDims = 5;

struct PadData {
  int32_t left[kDims];
  int32_t right[kDims];
  int32_t out_dims[kDims];
  uint32_t elem_size;
  bool has_constant;         // PADV2 with a constant_values input (read in eval: it may be an activation)
  uint8_t default_value[4];  // little-endian pad value when there is no constant_values input
};

int64_t PaddingAt(const TensorView& p, int32_t i) {
  return p.type == TensorType::INT64 ? p.As<int64_t>()[i] : p.As<int32_t>()[i];
}

StatusCode Prepare(KernelContext& ctx) {
  if ((ctx.num_inputs() != 2 && ctx.num_inputs() != 3) || ctx.num_outputs() != 1) {
    return ctx.Fail(StatusCode::kInvalidModel, "expected 2 or 3 inputs and 1 output, got %u and %u", ctx.num_inputs(),
                    ctx.num_outputs());
  }
  TensorView in, paddings, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 1, &paddings));
  RT_RETURN_IF_ERROR(RequireSameTypeIo(ctx, &in, &out));  // the type is checked in Eval, as TFLM does
  if (in.rank > kDims || in.rank != out.rank) {
    return ctx.Fail(StatusCode::kUnsupported, "input rank %d / output rank %d not supported (equal, <= 5)", in.rank,
                    out.rank);
  }
  if (paddings.type != TensorType::INT32 && paddings.type != TensorType::INT64) {
    return ctx.Fail(StatusCode::kUnsupported, "paddings type %s not supported", TypeName(paddings.type));
  }
  if (paddings.data == nullptr)
    return ctx.Fail(StatusCode::kUnsupported, "non-constant paddings tensor is not supported");
  if (ElementCount(paddings) != 2 * static_cast<int64_t>(out.rank)) {
    return ctx.Fail(StatusCode::kInvalidModel, "paddings has %d elements, expected 2 x rank %d",
                    static_cast<int>(ElementCount(paddings)), out.rank);
  }
  void* mem = nullptr;
  RT_RETURN_IF_ERROR(ctx.AllocatePersistent(sizeof(PadData), &mem));
  auto* d = static_cast<PadData*>(mem);
  d->elem_size = TypeSize(in.type);
  const int32_t lead = kDims - in.rank;
  for (int32_t a = 0; a < kDims; ++a) {
    if (a < lead) {
      d->left[a] = d->right[a] = 0;
      d->out_dims[a] = 1;
      continue;
    }
    const int32_t axis = a - lead;
    const int64_t l = PaddingAt(paddings, 2 * axis), r = PaddingAt(paddings, 2 * axis + 1);
    if (l < 0 || r < 0) return ctx.Fail(StatusCode::kUnsupported, "negative padding on axis %d", axis);
    if (in.dims[axis] + l + r != out.dims[axis]) {
      return ctx.Fail(StatusCode::kInvalidModel, "output dim %d is %d, input %d + paddings %d + %d", axis,
                      out.dims[axis], in.dims[axis], static_cast<int>(l), static_cast<int>(r));
    }
    d->left[a] = static_cast<int32_t>(l);
    d->right[a] = static_cast<int32_t>(r);
    d->out_dims[a] = out.dims[axis];
  }
  d->has_constant = false;
  std::memset(d->default_value, 0, sizeof(d->default_value));
  TensorView cv;
  if (ctx.num_inputs() == 3 && ctx.GetInput(2, &cv)) {
    if (cv.type != in.type) {
      return ctx.Fail(StatusCode::kInvalidModel, "constant_values type %s differs from input type %s",
                      TypeName(cv.type), TypeName(in.type));
    }
    if (ElementCount(cv) != 1) return ctx.Fail(StatusCode::kInvalidModel, "constant_values must be a scalar");
    if (in.type == TensorType::INT8 && (cv.zero_point != out.zero_point || cv.scale != out.scale)) {
      return ctx.Fail(StatusCode::kInvalidModel, "constant_values quantization differs from the output's");
    }
    d->has_constant = true;
  } else if (in.type == TensorType::INT8) {
    if (out.zero_point < -128 || out.zero_point > 127) {
      return ctx.Fail(StatusCode::kInvalidModel, "output zero point %d outside int8", out.zero_point);
    }
    d->default_value[0] = static_cast<uint8_t>(static_cast<int8_t>(out.zero_point));
  }
  ctx.set_op_data(d);
  return StatusCode::kOk;
}

// Writes `count` copies of the `es`-byte value at `value` to dst; returns the end.
uint8_t* Fill(uint8_t* dst, const uint8_t* value, uint32_t es, int64_t count) {
  if (count <= 0) return dst;
  if (es == 1) {
    std::memset(dst, value[0], static_cast<size_t>(count));
    return dst + count;
  }
  for (int64_t i = 0; i < count; ++i, dst += es) std::memcpy(dst, value, es);
  return dst;
}

bool Outside(int32_t i, const PadData* d, int32_t a) { return i < d->left[a] || i >= d->out_dims[a] - d->right[a]; }

StatusCode Eval(KernelContext& ctx) {
  TensorView in, out;
  RT_RETURN_IF_ERROR(RequireInput(ctx, 0, &in));
  RT_RETURN_IF_ERROR(RequireOutput(ctx, 0, &out));
  if (in.type != TensorType::FLOAT32 && in.type != TensorType::INT8 && in.type != TensorType::INT16 &&
      in.type != TensorType::INT32) {
    return ctx.Fail(StatusCode::kUnsupported, "Type %s not currently supported by Pad.", TypeName(in.type));
  }
  const auto* d = static_cast<const PadData*>(ctx.op_data());
  const uint8_t* value = d->default_value;
  TensorView cv;
  if (d->has_constant && ctx.GetInput(2, &cv) && cv.data != nullptr) value = static_cast<const uint8_t*>(cv.data);
  const uint32_t es = d->elem_size;
  const uint8_t* src = static_cast<const uint8_t*>(in.data);
  uint8_t* dst = static_cast<uint8_t*>(out.data);
  const int32_t row = d->out_dims[4];
  const int64_t in_row = static_cast<int64_t>(row) - d->left[4] - d->right[4];
  for (int32_t i0 = 0; i0 < d->out_dims[0]; ++i0) {
    for (int32_t i1 = 0; i1 < d->out_dims[1]; ++i1) {
      for (int32_t i2 = 0; i2 < d->out_dims[2]; ++i2) {
        for (int32_t i3 = 0; i3 < d->out_dims[3]; ++i3) {
          if (Outside(i0, d, 0) || Outside(i1, d, 1) || Outside(i2, d, 2) || Outside(i3, d, 3)) {
            dst = Fill(dst, value, es, row);
            continue;
          }
          dst = Fill(dst, value, es, d->left[4]);
          if (in_row > 0) {
            std::memcpy(dst, src, static_cast<size_t>(in_row) * es);
            dst += in_row * es;
            src += in_row * es;
          }
          dst = Fill(dst, value, es, d->right[4]);
        }
      }
    }
  }
  return StatusCode::kOk;
}

const KernelRegistration kPad{"PAD", &Prepare, &Eval};
const KernelRegistration kPadV2{"PADV2", &Prepare, &Eval};

}  // namespace

const KernelRegistration* Register_PAD() { return &kPad; }
const KernelRegistration* Register_PADV2() { return &kPadV2; }

}  // namespace arenaplan::rt

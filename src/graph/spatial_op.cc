#include "graph/spatial_op.h"

#include <algorithm>
#include <set>

namespace arenaplan::graph {

namespace {

using B = BuiltinOperator;

const std::vector<int32_t>& Shape(const tflo::SubGraphT& sg, int32_t t) {
  return sg.tensors[static_cast<size_t>(t)]->shape;
}

uint64_t Elements(const std::vector<int32_t>& s) {
  uint64_t n = 1;
  for (int32_t d : s) n *= static_cast<uint64_t>(std::max(d, 0));
  return n;
}

bool IsPointwise(B c) {
  static const std::set<B> kOps = {
      B::RELU,       B::RELU6,    B::RELU_N1_TO_1, B::RELU_0_TO_1, B::LEAKY_RELU, B::QUANTIZE,
      B::DEQUANTIZE, B::LOGISTIC, B::TANH,         B::HARD_SWISH,  B::ABS,        B::NEG,
      B::ADD,        B::SUB,      B::MUL,          B::MAXIMUM,     B::MINIMUM,    B::SQUARED_DIFFERENCE,
      B::PRELU,      B::ELU};
  return kOps.count(c) > 0;
}

Status Fail(const std::string& why) { return Unsupported(why); }

// The window of one spatial dimension of a conv / pool.
Window MakeWindow(int32_t kernel, int32_t stride, int32_t dilation, bool same, int32_t in) {
  Window w{kernel, stride, dilation, 0};
  w.pad_before = PadBefore(same, in, w);
  return w;
}

Result<SpatialOp> Window2D(const Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& op, B code) {
  SpatialOp s;
  s.kind = SpatialKind::kWindow;
  s.region_inputs = {0};
  const auto& in = Shape(sg, op.inputs[0]);
  const auto& out = Shape(sg, op.outputs[0]);
  if (in.size() != 4 || out.size() != 4) return Fail("not a rank-4 NHWC tensor");
  int32_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  bool same = true;
  if (code == B::CONV_2D || code == B::DEPTHWISE_CONV_2D) {
    if (op.inputs.size() < 2 || op.inputs[1] < 0) return Fail("no filter");
    const auto& f = Shape(sg, op.inputs[1]);
    if (f.size() != 4 || !IsConstant(g, sg, op.inputs[1])) return Fail("filter not constant rank 4");
    kh = f[1];
    kw = f[2];
    if (const auto* o = op.builtin_options.AsConv2DOptions()) {
      sh = o->stride_h, sw = o->stride_w, dh = o->dilation_h_factor, dw = o->dilation_w_factor;
      same = o->padding == tflo::Padding::SAME;
    } else if (const auto* o2 = op.builtin_options.AsDepthwiseConv2DOptions()) {
      sh = o2->stride_h, sw = o2->stride_w, dh = o2->dilation_h_factor, dw = o2->dilation_w_factor;
      same = o2->padding == tflo::Padding::SAME;
    }
    for (size_t i = 2; i < op.inputs.size(); ++i) {
      if (op.inputs[i] >= 0 && !IsConstant(g, sg, op.inputs[i])) return Fail("bias not constant");
    }
  } else {
    const auto* o = op.builtin_options.AsPool2DOptions();
    if (o == nullptr) return Fail("pool without options");
    kh = o->filter_height, kw = o->filter_width, sh = o->stride_h, sw = o->stride_w;
    same = o->padding == tflo::Padding::SAME;
  }
  constexpr int32_t kMax = 1 << 16;  // keeps every span computation far from int32 overflow
  if (sh < 1 || sw < 1 || dh < 1 || dw < 1 || kh < 1 || kw < 1 || sh > kMax || sw > kMax || dh > kMax || dw > kMax ||
      kh > kMax || kw > kMax) {
    return Fail("bad window");
  }
  s.same = same;
  s.h = MakeWindow(kh, sh, dh, same, in[1]);
  s.w = MakeWindow(kw, sw, dw, same, in[2]);
  if (OutputSize(same, in[1], s.h) != out[1] || OutputSize(same, in[2], s.w) != out[2]) {
    return Fail("output shape is not what the window gives");
  }
  const bool pads = s.h.pad_before > 0 || s.w.pad_before > 0 || PadAfter(in[1], out[1], s.h) > 0 ||
                    PadAfter(in[2], out[2], s.w) > 0;
  if (pads && code != B::CONV_2D && code != B::DEPTHWISE_CONV_2D) return Fail("a pool that reads padding");
  s.macs = OpMacs(g, sg, op);
  return s;
}

Result<SpatialOp> PadOp(const Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& op, Axes axes) {
  if (op.inputs.size() < 2 || !IsConstant(g, sg, op.inputs[1])) return Fail("paddings not constant");
  const auto& pt = *sg.tensors[static_cast<size_t>(op.inputs[1])];
  const auto& data = g.buffers[pt.buffer]->data;
  const auto& in = Shape(sg, op.inputs[0]);
  if (pt.type != tflo::TensorType::INT32 || data.size() != in.size() * 2 * sizeof(int32_t)) {
    return Fail("paddings not int32 [rank, 2]");
  }
  const auto* p = reinterpret_cast<const int32_t*>(data.data());
  SpatialOp s;
  s.kind = SpatialKind::kPad;
  s.region_inputs = {0};
  s.in_axes = axes;
  for (int32_t d = 0; d < static_cast<int32_t>(in.size()); ++d) {
    if (d != axes.h && d != axes.w && (p[2 * d] != 0 || p[2 * d + 1] != 0)) return Fail("pads a non-spatial axis");
  }
  s.h.pad_before = p[2 * axes.h];
  s.w.pad_before = p[2 * axes.w];
  for (int32_t d = 0; d < 2 * static_cast<int32_t>(in.size()); ++d) {
    if (p[d] < 0 || p[d] > (1 << 16)) return Fail("paddings negative or huge");
  }
  if (op.inputs.size() > 2 && op.inputs[2] >= 0 && !IsConstant(g, sg, op.inputs[2]))
    return Fail("pad value not constant");
  return s;
}

Result<SpatialOp> TransposeOp(const Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& op, Axes axes) {
  if (op.inputs.size() != 2 || !IsConstant(g, sg, op.inputs[1])) return Fail("permutation not constant");
  const auto& pt = *sg.tensors[static_cast<size_t>(op.inputs[1])];
  const auto& data = g.buffers[pt.buffer]->data;
  const size_t rank = Shape(sg, op.outputs[0]).size();
  if (pt.type != tflo::TensorType::INT32 || data.size() != rank * sizeof(int32_t)) return Fail("permutation not int32");
  const auto* perm = reinterpret_cast<const int32_t*>(data.data());
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < rank; ++i) {
    if (perm[i] < 0 || static_cast<size_t>(perm[i]) >= rank || seen[static_cast<size_t>(perm[i])])
      return Fail("not a permutation");
    seen[static_cast<size_t>(perm[i])] = true;
  }
  if (static_cast<size_t>(axes.h) >= rank || static_cast<size_t>(axes.w) >= rank)
    return Fail("layout outside the rank");
  SpatialOp s;
  s.kind = SpatialKind::kTranspose;
  s.region_inputs = {0};
  s.in_axes = {perm[axes.h], perm[axes.w]};
  return s;
}

// A constant passes through a patch unchanged when it broadcasts along both spatial axes (its
// dims, aligned to the output's from the back, are 1 there).
bool BroadcastsOverSpace(const std::vector<int32_t>& c, const std::vector<int32_t>& out, Axes axes) {
  if (c.size() > out.size()) return false;
  const size_t shift = out.size() - c.size();
  for (int32_t a : {axes.h, axes.w}) {
    if (static_cast<size_t>(a) >= shift && c[static_cast<size_t>(a) - shift] != 1) return false;
  }
  return true;
}

Result<SpatialOp> PointwiseOp(const Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& op, Axes axes) {
  SpatialOp s;
  s.kind = SpatialKind::kPointwise;
  s.in_axes = axes;
  const auto& out = Shape(sg, op.outputs[0]);
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const int32_t t = op.inputs[i];
    if (t < 0) continue;
    const bool constant = IsConstant(g, sg, t);
    if (!constant && Shape(sg, t) == out) {
      s.region_inputs.push_back(static_cast<int32_t>(i));
    } else if (!constant || !BroadcastsOverSpace(Shape(sg, t), out, axes)) {
      return Fail("an input that is neither the output's shape nor a constant broadcast over space");
    }
  }
  if (s.region_inputs.empty()) return Fail("no activation input");
  return s;
}

}  // namespace

Result<SpatialOp> ClassifySpatial(const Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& op, Axes out_axes) {
  const B code = OpCode(g, op);
  if (op.outputs.size() != 1 || op.inputs.empty() || op.inputs[0] < 0) return Fail("not one input and one output");
  const auto& out = Shape(sg, op.outputs[0]);
  if (out.size() < 3 || out[0] != 1) return Fail("batch is not 1");
  for (int32_t d : out) {
    if (d < 1 || d > (1 << 16)) return Fail("a dimension outside [1, 65536]");
  }
  if (static_cast<size_t>(out_axes.h) >= out.size() || static_cast<size_t>(out_axes.w) >= out.size()) {
    return Fail("layout outside the rank");
  }
  if (!op.intermediates.empty()) return Fail("has intermediates");
  if (code == B::CONV_2D || code == B::DEPTHWISE_CONV_2D || code == B::MAX_POOL_2D || code == B::AVERAGE_POOL_2D) {
    if (!(out_axes == Axes{1, 2})) return Fail("window op on a non-NHWC layout");
    return Window2D(g, sg, op, code);
  }
  if (code == B::PAD || code == B::PADV2) return PadOp(g, sg, op, out_axes);
  if (code == B::TRANSPOSE) return TransposeOp(g, sg, op, out_axes);
  if (IsPointwise(code)) return PointwiseOp(g, sg, op, out_axes);
  return Fail("not an op patches run through");
}

uint64_t OpMacs(const Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& op) {
  const B code = OpCode(g, op);
  if (op.inputs.size() < 2 || op.outputs.empty() || op.inputs[0] < 0 || op.inputs[1] < 0) return 0;
  const auto& out = Shape(sg, op.outputs[0]);
  const auto& f = Shape(sg, op.inputs[1]);
  switch (code) {
    case B::CONV_2D:  // filter [out_c, kh, kw, in_c / groups]
      return f.size() == 4 ? Elements(out) * static_cast<uint64_t>(f[1]) * f[2] * f[3] : 0;
    case B::DEPTHWISE_CONV_2D:  // filter [1, kh, kw, out_c]
      return f.size() == 4 ? Elements(out) * static_cast<uint64_t>(f[1]) * f[2] : 0;
    case B::FULLY_CONNECTED:  // filter [out, in]
      return f.size() == 2 ? Elements(out) * static_cast<uint64_t>(f[1]) : 0;
    case B::TRANSPOSE_CONV: {  // inputs: output shape, filter [out_c, kh, kw, in_c], input
      if (op.inputs.size() < 3 || op.inputs[2] < 0 || f.size() != 4) return 0;
      return Elements(Shape(sg, op.inputs[2])) * static_cast<uint64_t>(f[0]) * f[1] * f[2];
    }
    case B::BATCH_MATMUL: {
      const auto& a = Shape(sg, op.inputs[0]);
      const auto* o = op.builtin_options.AsBatchMatMulOptions();
      if (a.size() < 2) return 0;
      const int32_t k = o != nullptr && o->adj_x ? a[a.size() - 2] : a.back();
      return Elements(out) * static_cast<uint64_t>(std::max(k, 0));
    }
    default: return 0;
  }
}

}  // namespace arenaplan::graph

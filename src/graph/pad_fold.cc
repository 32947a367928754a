#include "graph/pad_fold.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "graph/geometry.h"
#include "graph/schedule.h"

namespace arenaplan::graph {

namespace {

using B = BuiltinOperator;

bool SameQuantization(const tflo::TensorT& a, const tflo::TensorT& b) {
  if (!a.quantization || !b.quantization) return !a.quantization == !b.quantization;
  return a.quantization->scale == b.quantization->scale && a.quantization->zero_point == b.quantization->zero_point;
}

// Readers of tensor t in subgraph sg (op indices), and whether it is a subgraph output.
std::vector<size_t> Readers(const tflo::SubGraphT& sg, int32_t t, bool* is_output) {
  std::vector<size_t> r;
  for (size_t i = 0; i < sg.operators.size(); ++i) {
    for (int32_t x : sg.operators[i]->inputs) {
      if (x == t) {
        r.push_back(i);
        break;
      }
    }
  }
  *is_output = std::find(sg.outputs.begin(), sg.outputs.end(), t) != sg.outputs.end();
  return r;
}

// PADV2's value is the zero point (int8) or 0 (float); PAD always pads with those.
bool PadsWithZeroPoint(const model::Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& pad) {
  const auto& out = *sg.tensors[static_cast<size_t>(pad.outputs[0])];
  if (out.type == tflo::TensorType::INT16 && out.quantization && !out.quantization->zero_point.empty() &&
      out.quantization->zero_point[0] != 0) {
    return false;  // TFLM pads int16 with 0, and folding would read the zero point
  }
  if (pad.inputs.size() < 3 || pad.inputs[2] < 0) return true;
  if (!IsConstant(g, sg, pad.inputs[2])) return false;
  const auto& v = *sg.tensors[static_cast<size_t>(pad.inputs[2])];
  const auto& data = g.buffers[v.buffer]->data;
  if (out.type == tflo::TensorType::INT8 && data.size() == 1) {
    const int64_t zp = out.quantization && !out.quantization->zero_point.empty() ? out.quantization->zero_point[0] : 0;
    return static_cast<int8_t>(data[0]) == zp;
  }
  if (out.type == tflo::TensorType::FLOAT32 && data.size() == 4) {
    float f;
    std::memcpy(&f, data.data(), 4);
    return f == 0.0f && !std::signbit(f);
  }
  return false;
}

// Why pad op `p` cannot fold into conv op `c` ("" when it can).
std::string WhyNot(const model::Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& pad,
                   const tflo::OperatorT& conv, const SpatialOp& padded, const SpatialOp& window) {
  const auto& in = *sg.tensors[static_cast<size_t>(pad.inputs[0])];
  const auto& out = *sg.tensors[static_cast<size_t>(pad.outputs[0])];
  if (conv.inputs.empty() || conv.inputs[0] != pad.outputs[0]) return "the PAD output is not the convolution's input";
  if (window.same) return "the convolution already pads";
  if (!SameQuantization(in, out)) return "the PAD changes quantization";
  if (!PadsWithZeroPoint(g, sg, pad)) return "the pad value is not the zero point";
  if (in.shape.size() != 4) return "not NHWC";
  const auto& conv_out = sg.tensors[static_cast<size_t>(conv.outputs[0])]->shape;
  Window h = window.h, w = window.w;
  h.pad_before = PadBefore(true, in.shape[1], h);
  w.pad_before = PadBefore(true, in.shape[2], w);
  if (h.pad_before != padded.h.pad_before || w.pad_before != padded.w.pad_before ||
      OutputSize(true, in.shape[1], h) != conv_out[1] || OutputSize(true, in.shape[2], w) != conv_out[2]) {
    return "pads (" + std::to_string(padded.h.pad_before) + ", " + std::to_string(padded.w.pad_before) +
           ") in front where SAME would pad (" + std::to_string(h.pad_before) + ", " + std::to_string(w.pad_before) +
           ")";
  }
  return "";
}

// The loop both passes share: every PAD / PADV2 whose output is read only by a CONV_2D or
// DEPTHWISE_CONV_2D (and is no subgraph output) is offered to `fold(s, sg, pad, conv, padded,
// window, where, conv_at)`, which returns why it cannot fold, or "" after rewriting the conv;
// the conv then reads the PAD's input and the PAD is removed. `where` names the PAD and
// `conv_at` the conv by their indices in the input model. Counts and reasons go to r.
template <typename Fold>
void FoldEach(model::Graph& g, PassReport& r, Fold fold) {
  for (size_t s = 0; s < g.subgraphs.size(); ++s) {
    auto& sg = *g.subgraphs[s];
    size_t removed = 0;  // messages name ops by their index in the input model
    for (size_t i = 0; i < sg.operators.size(); ++i) {
      const auto& pad = *sg.operators[i];
      const B code = OpCode(g, pad);
      if (code != B::PAD && code != B::PADV2) continue;
      const std::string where = "op " + std::to_string(i + removed) + " (" + OpName(g, pad) + ")";
      auto padded = ClassifySpatial(g, sg, pad, Axes{1, 2});
      bool is_output = false;
      const auto readers = Readers(sg, pad.outputs.empty() ? -1 : pad.outputs[0], &is_output);
      if (!padded.ok() || readers.size() != 1 || is_output) {
        r.skipped.push_back(where + ": " + (padded.ok() ? "its output has other readers" : padded.status().message()));
        continue;
      }
      auto& conv = *sg.operators[readers[0]];
      const B cc = OpCode(g, conv);
      auto window = ClassifySpatial(g, sg, conv, Axes{1, 2});
      const std::string why = cc != B::CONV_2D && cc != B::DEPTHWISE_CONV_2D
                                  ? "read by " + OpName(g, conv)
                                  : !window.ok() ? window.status().message()
                                                 : fold(s, sg, pad, conv, *padded, *window, where, readers[0] + removed);
      if (!why.empty()) {
        r.skipped.push_back(where + ": " + why);
        continue;
      }
      conv.inputs[0] = pad.inputs[0];
      sg.operators.erase(sg.operators.begin() + static_cast<long>(i));
      --i;
      ++removed;
      ++r.applied;
    }
  }
}

}  // namespace

PassReport FoldPads(model::Graph& g) {
  PassReport r;
  FoldEach(g, r,
           [&](size_t, tflo::SubGraphT& sg, const tflo::OperatorT& pad, tflo::OperatorT& conv, const SpatialOp& padded,
               const SpatialOp& window, const std::string& where, size_t conv_at) {
             std::string why = WhyNot(g, sg, pad, conv, padded, window);
             if (!why.empty()) return why;
             if (auto* o = conv.builtin_options.AsConv2DOptions()) o->padding = tflo::Padding::SAME;
             if (auto* o = conv.builtin_options.AsDepthwiseConv2DOptions()) o->padding = tflo::Padding::SAME;
             r.done.push_back(where + " folded into op " + std::to_string(conv_at) + " (" + OpName(g, conv) +
                              ", SAME)");
             return std::string();
           });
  if (r.applied > 0) {
    RemoveMetadata(g, "OfflineMemoryAllocation");
    PruneUnused(g);
  }
  return r;
}

namespace {

// Why `pad` cannot fold into `conv` with explicit amounts ("" when it can; *p gets them).
std::string WhyNotExplicit(const model::Graph& g, const tflo::SubGraphT& sg, const tflo::OperatorT& pad,
                           const tflo::OperatorT& conv, const SpatialOp& padded, const SpatialOp& window,
                           ExplicitPad* p) {
  const auto& in = *sg.tensors[static_cast<size_t>(pad.inputs[0])];
  const auto& out = *sg.tensors[static_cast<size_t>(pad.outputs[0])];
  if (conv.inputs.empty() || conv.inputs[0] != pad.outputs[0]) return "the PAD output is not the convolution's input";
  if (window.same) return "the convolution already pads";
  if (!SameQuantization(in, out)) return "the PAD changes quantization";
  if (!PadsWithZeroPoint(g, sg, pad)) return "the pad value is not the zero point";
  if (in.shape.size() != 4 || out.shape.size() != 4) return "not NHWC";
  if (in.type != tflo::TensorType::INT8 && in.type != tflo::TensorType::FLOAT32 && in.type != tflo::TensorType::INT16)
    return "not int8, int16 or float32";
  const auto& conv_out = sg.tensors[static_cast<size_t>(conv.outputs[0])]->shape;
  if (conv_out.size() != 4) return "the convolution's output is not NHWC";
  Window h = window.h, w = window.w;
  h.pad_before = padded.h.pad_before;
  w.pad_before = padded.w.pad_before;
  *p = ExplicitPad{};
  p->top = h.pad_before;
  p->left = w.pad_before;
  p->bottom = std::min(out.shape[1] - in.shape[1] - h.pad_before, PadAfter(in.shape[1], conv_out[1], h));
  p->right = std::min(out.shape[2] - in.shape[2] - w.pad_before, PadAfter(in.shape[2], conv_out[2], w));
  if (p->bottom < 0 || p->right < 0) return "the PAD's output shape does not match its paddings";
  if (p->top >= h.effective() || p->bottom >= h.effective() || p->left >= w.effective() || p->right >= w.effective())
    return "pads a whole window or more";
  p->value = in.type == tflo::TensorType::INT8 && in.quantization && !in.quantization->zero_point.empty()
                 ? static_cast<int32_t>(in.quantization->zero_point[0])
                 : 0;
  return "";
}

}  // namespace

PassReport FoldPadsExplicit(model::Graph& g) {
  PassReport r;
  if (HasSchedule(g)) {
    r.skipped.push_back("explicit padding: the model already has an arenaplan schedule");
    return r;
  }
  std::vector<ScheduledPad> pads;
  FoldEach(g, r,
           [&](size_t s, tflo::SubGraphT& sg, const tflo::OperatorT& pad, tflo::OperatorT& conv, const SpatialOp& padded,
               const SpatialOp& window, const std::string&, size_t) {
             ExplicitPad p;
             std::string why = WhyNotExplicit(g, sg, pad, conv, padded, window, &p);
             if (why.empty()) pads.push_back({static_cast<int32_t>(s), &conv, p});
             return why;
           });
  if (r.applied > 0) {
    r.done.push_back("explicit padding: " + std::to_string(r.applied) +
                     " PADs folded into the convolutions that read them (arenaplan_schedule; arenaplan's runtime only)");
    WriteSchedule(g, pads);
    RemoveMetadata(g, "OfflineMemoryAllocation");
    PruneUnused(g);
  }
  return r;
}

}  // namespace arenaplan::graph

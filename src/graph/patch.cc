#include "graph/patch.h"

#include <algorithm>
#include <map>

namespace arenaplan::graph {

namespace {

using B = BuiltinOperator;

struct Region {
  Span h, w;
  bool operator==(const Region& o) const { return h == o.h && w == o.w; }
};

const std::vector<int32_t>& Shape(const tflo::SubGraphT& sg, int32_t t) {
  return sg.tensors[static_cast<size_t>(t)]->shape;
}
int32_t Extent(const tflo::SubGraphT& sg, int32_t t, int32_t axis) { return Shape(sg, t)[static_cast<size_t>(axis)]; }
std::string Str(int64_t v) { return std::to_string(v); }

// Assigns spatial axes backwards from S and classifies each prefix op.
Status ClassifyBackwards(const model::Graph& g, const tflo::SubGraphT& sg, Prefix& p) {
  std::vector<bool> known(sg.tensors.size(), false);
  known[static_cast<size_t>(p.tensor)] = true;
  p.axes[static_cast<size_t>(p.tensor)] = Axes{1, 2};
  p.in_prefix[static_cast<size_t>(p.tensor)] = true;
  for (int32_t i = p.split - 1; i >= p.begin; --i) {
    const auto& op = *sg.operators[static_cast<size_t>(i)];
    const std::string where = "op " + Str(i) + " (" + OpName(g, op) + ")";
    if (op.outputs.size() != 1 || op.outputs[0] < 0 || !known[static_cast<size_t>(op.outputs[0])]) {
      return Unsupported(where + ": its output does not lead to the split tensor");
    }
    auto s = ClassifySpatial(g, sg, op, p.axes[static_cast<size_t>(op.outputs[0])]);
    if (!s.ok()) return Unsupported(where + ": " + s.status().message());
    for (int32_t r : s->region_inputs) {
      const auto t = static_cast<size_t>(op.inputs[static_cast<size_t>(r)]);
      if (known[t] && !(p.axes[t] == s->in_axes)) return Unsupported(where + ": an input read in two layouts");
      known[t] = true;
      p.axes[t] = s->in_axes;
      p.in_prefix[t] = true;
      const auto& shape = Shape(sg, static_cast<int32_t>(t));
      if (shape.size() < 3 || static_cast<size_t>(std::max(s->in_axes.h, s->in_axes.w)) >= shape.size()) {
        return Unsupported(where + ": input rank below 3");
      }
      for (int32_t d : shape) {
        if (d < 1 || d > (1 << 16)) return Unsupported(where + ": an input dimension outside [1, 65536]");
      }
    }
    p.macs += s->macs;
    p.ops[static_cast<size_t>(i - p.begin)] = *s;
  }
  return Status::Ok();
}

}  // namespace

Result<Prefix> AnalyzePrefix(const model::Graph& g, int32_t split) { return AnalyzeSegment(g, 0, split); }

Result<Prefix> AnalyzeSegment(const model::Graph& g, int32_t begin, int32_t split) {
  if (g.subgraphs.empty()) return InvalidArgument("no subgraph");
  const auto& sg = *g.subgraphs[0];
  if (begin < 0 || split <= begin || static_cast<size_t>(split) >= sg.operators.size()) {
    return InvalidArgument("segment outside the ops");
  }
  std::vector<int32_t> producer(sg.tensors.size(), -1);
  for (int32_t i = 0; i < split; ++i) {
    for (int32_t o : sg.operators[static_cast<size_t>(i)]->outputs) {
      if (o >= 0) producer[static_cast<size_t>(o)] = i;
    }
  }
  // The cut: prefix outputs that later ops or the subgraph outputs read.
  std::vector<int32_t> cut;
  auto note = [&](int32_t t) {
    if (t >= 0 && producer[static_cast<size_t>(t)] >= begin && std::find(cut.begin(), cut.end(), t) == cut.end())
      cut.push_back(t);
  };
  for (size_t i = static_cast<size_t>(split); i < sg.operators.size(); ++i) {
    for (int32_t t : sg.operators[i]->inputs) note(t);
  }
  for (int32_t t : sg.outputs) note(t);
  if (cut.size() != 1)
    return Unsupported("the prefix hands " + Str(static_cast<int64_t>(cut.size())) +
                       " tensors to the rest (needs one)");
  Prefix p;
  p.begin = begin;
  p.split = split;
  p.tensor = cut[0];
  const auto& s = Shape(sg, p.tensor);
  if (s.size() != 4 || s[0] != 1)
    return Unsupported("split tensor " + sg.tensors[static_cast<size_t>(p.tensor)]->name + " is not [1, H, W, C]");
  p.ops.resize(static_cast<size_t>(split - begin));
  p.axes.resize(sg.tensors.size());
  p.in_prefix.assign(sg.tensors.size(), false);
  ARENAPLAN_RETURN_IF_ERROR(ClassifyBackwards(g, sg, p));
  // Segment inputs that no segment op produces must be computed before it or be model inputs
  // (not, say, variables).
  for (size_t t = 0; t < sg.tensors.size(); ++t) {
    if (!p.in_prefix[t] || producer[t] >= 0) continue;
    if (std::find(sg.inputs.begin(), sg.inputs.end(), static_cast<int32_t>(t)) == sg.inputs.end()) {
      return Unsupported("prefix reads tensor " + sg.tensors[t]->name + ", neither a model input nor computed in it");
    }
  }
  return p;
}

namespace {

// Builds one patch after another into `sg` (the copy being rewritten).
class PatchWriter {
 public:
  PatchWriter(model::Graph& g, const std::vector<std::unique_ptr<tflo::OperatorT>>& prefix_ops, const Prefix& p)
      : g_(g), sg_(*g.subgraphs[0]), ops_(prefix_ops), p_(p) {}

  // Emits the prefix for S region `r`; returns the tensor holding S over r.
  int32_t Emit(Region r, int32_t id) {
    id_ = id;
    Backward(r);
    std::map<int32_t, std::pair<int32_t, Region>> avail;  // original tensor -> (new tensor, region held)
    for (int32_t i = 0; i < p_.split - p_.begin; ++i) EmitOp(i, avail);
    return avail.at(p_.tensor).first;
  }

  int32_t ops_added = 0;
  uint64_t macs = 0;

 private:
  Region Clipped(int32_t t, Region u) const {
    const Axes a = p_.axes[static_cast<size_t>(t)];
    return {Clip(u.h, Extent(sg_, t, a.h)), Clip(u.w, Extent(sg_, t, a.w))};
  }

  void Backward(Region r) {
    need_.clear();
    want_.assign(static_cast<size_t>(p_.split - p_.begin), {});
    need_[p_.tensor] = r;
    for (int32_t i = p_.split - p_.begin - 1; i >= 0; --i) {
      const auto& op = *ops_[static_cast<size_t>(i)];
      const SpatialOp& s = p_.ops[static_cast<size_t>(i)];
      const Region out = need_.at(op.outputs[0]);
      Region u = out;
      if (s.kind == SpatialKind::kWindow) u = {WindowInput(out.h, s.h), WindowInput(out.w, s.w)};
      if (s.kind == SpatialKind::kPad) {
        u = {{out.h.begin - s.h.pad_before, out.h.end - s.h.pad_before},
             {out.w.begin - s.w.pad_before, out.w.end - s.w.pad_before}};
      }
      for (int32_t k : s.region_inputs) {
        const int32_t t = op.inputs[static_cast<size_t>(k)];
        want_[static_cast<size_t>(i)].push_back(u);
        const Region c = Clipped(t, u);
        auto it = need_.find(t);
        need_[t] = it == need_.end() ? c : Region{Hull(it->second.h, c.h), Hull(it->second.w, c.w)};
      }
    }
  }

  // A new tensor like original tensor t, holding region r.
  int32_t NewTensor(int32_t t, Region r, const std::string& what) {
    const Axes a = p_.axes[static_cast<size_t>(t)];
    std::vector<int32_t> shape = Shape(sg_, t);
    shape[static_cast<size_t>(a.h)] = r.h.size();
    shape[static_cast<size_t>(a.w)] = r.w.size();
    const auto like = *sg_.tensors[static_cast<size_t>(t)];
    return AddTensorLike(sg_, like, like.name + "/patch" + Str(id_) + what, shape);
  }

  // Tensor x (holding `have` of original tensor t) cropped to `c`.
  int32_t Crop(int32_t t, int32_t x, Region have, Region c) {
    if (c == have) return x;
    const Axes a = p_.axes[static_cast<size_t>(t)];
    const std::vector<int32_t>& full = sg_.tensors[static_cast<size_t>(x)]->shape;
    std::vector<int32_t> begin(full.size(), 0), end = full, strides(full.size(), 1);
    begin[static_cast<size_t>(a.h)] = c.h.begin - have.h.begin;
    end[static_cast<size_t>(a.h)] = c.h.end - have.h.begin;
    begin[static_cast<size_t>(a.w)] = c.w.begin - have.w.begin;
    end[static_cast<size_t>(a.w)] = c.w.end - have.w.begin;
    const int32_t y = NewTensor(t, c, "/slice");
    const std::vector<int32_t> dims{static_cast<int32_t>(full.size())};
    const std::string n = sg_.tensors[static_cast<size_t>(y)]->name;
    const int32_t bt = AddInt32Constant(g_, sg_, n + "/begin", dims, begin);
    const int32_t et = AddInt32Constant(g_, sg_, n + "/end", dims, end);
    const int32_t st = AddInt32Constant(g_, sg_, n + "/strides", dims, strides);
    auto& op = AddOperator(g_, sg_, B::STRIDED_SLICE, {x, bt, et, st}, {y});
    op.builtin_options.Set(tflo::StridedSliceOptionsT());
    ++ops_added;
    return y;
  }

  // The paddings constant [rank, 2] for reading `u` of original tensor t.
  int32_t Paddings(int32_t t, Region u, const std::string& name, bool* any) {
    const Axes a = p_.axes[static_cast<size_t>(t)];
    const size_t rank = Shape(sg_, t).size();
    std::vector<int32_t> v(rank * 2, 0);
    v[2 * static_cast<size_t>(a.h)] = Before(u.h);
    v[2 * static_cast<size_t>(a.h) + 1] = After(u.h, Extent(sg_, t, a.h));
    v[2 * static_cast<size_t>(a.w)] = Before(u.w);
    v[2 * static_cast<size_t>(a.w) + 1] = After(u.w, Extent(sg_, t, a.w));
    *any = false;
    for (int32_t x : v) *any |= x != 0;
    return *any ? AddInt32Constant(g_, sg_, name + "/paddings", {static_cast<int32_t>(rank), 2}, v) : -1;
  }

  // The region input k of op i, ready for the op: cropped, and (window ops) padded at the border.
  int32_t Input(int32_t i, size_t k, std::map<int32_t, std::pair<int32_t, Region>>& avail) {
    const auto& op = *ops_[static_cast<size_t>(i)];
    const SpatialOp& s = p_.ops[static_cast<size_t>(i)];
    const int32_t t = op.inputs[static_cast<size_t>(s.region_inputs[k])];
    const Region u = want_[static_cast<size_t>(i)][k];
    if (!avail.count(t)) {  // computed before the segment: read in place when the whole of it is needed
      const Axes a = p_.axes[static_cast<size_t>(t)];
      avail[t] = {t, Region{{0, Extent(sg_, t, a.h)}, {0, Extent(sg_, t, a.w)}}};
    }
    const auto [x, have] = avail.at(t);
    int32_t y = Crop(t, x, have, Clipped(t, u));
    if (s.kind != SpatialKind::kWindow) return y;
    bool any = false;
    const int32_t pads = Paddings(t, u, sg_.tensors[static_cast<size_t>(y)]->name, &any);
    if (!any) return y;
    const int32_t z = NewTensor(t, u, "/border");
    auto& pad = AddOperator(g_, sg_, B::PAD, {y, pads}, {z});
    pad.builtin_options.Set(tflo::PadOptionsT());
    ++ops_added;
    return z;
  }

  void EmitOp(int32_t i, std::map<int32_t, std::pair<int32_t, Region>>& avail) {
    const auto& orig = *ops_[static_cast<size_t>(i)];
    const SpatialOp& s = p_.ops[static_cast<size_t>(i)];
    const int32_t out = orig.outputs[0];
    const Region r = need_.at(out);
    auto op = std::make_unique<tflo::OperatorT>(orig);
    for (size_t k = 0; k < s.region_inputs.size(); ++k) {
      op->inputs[static_cast<size_t>(s.region_inputs[k])] = Input(i, k, avail);
    }
    if (s.kind == SpatialKind::kPad) {
      bool any = false;
      const int32_t in = orig.inputs[0];
      const int32_t pads = Paddings(in, want_[static_cast<size_t>(i)][0],
                                    sg_.tensors[static_cast<size_t>(out)]->name + "/patch" + Str(id_), &any);
      if (!any) {  // interior patch: the pad copies its input unchanged
        avail[out] = {op->inputs[0], r};
        return;
      }
      op->inputs[1] = pads;
    }
    if (auto* c = op->builtin_options.AsConv2DOptions()) c->padding = tflo::Padding::VALID;
    if (auto* d = op->builtin_options.AsDepthwiseConv2DOptions()) d->padding = tflo::Padding::VALID;
    if (auto* q = op->builtin_options.AsPool2DOptions()) q->padding = tflo::Padding::VALID;
    const int32_t y = NewTensor(out, r, "");
    op->outputs = {y};
    sg_.operators.push_back(std::move(op));
    macs += OpMacs(g_, sg_, *sg_.operators.back());
    avail[out] = {y, r};
  }

  model::Graph& g_;
  tflo::SubGraphT& sg_;
  const std::vector<std::unique_ptr<tflo::OperatorT>>& ops_;
  const Prefix& p_;
  int32_t id_ = 0;
  std::map<int32_t, Region> need_;         // clipped region each tensor must hold
  std::vector<std::vector<Region>> want_;  // per op, per region input: unclipped region read
};

int32_t Concat(model::Graph& g, tflo::SubGraphT& sg, const std::vector<int32_t>& parts, int32_t axis, int32_t out,
               const std::string& name, int32_t* ops_added) {
  if (parts.size() == 1 && out < 0) return parts[0];
  if (out < 0) {
    std::vector<int32_t> shape = sg.tensors[static_cast<size_t>(parts[0])]->shape;
    shape[static_cast<size_t>(axis)] = 0;
    for (int32_t t : parts)
      shape[static_cast<size_t>(axis)] += sg.tensors[static_cast<size_t>(t)]->shape[static_cast<size_t>(axis)];
    out = AddTensorLike(sg, *sg.tensors[static_cast<size_t>(parts[0])], name, shape);
  }
  auto& op = AddOperator(g, sg, B::CONCATENATION, parts, {out});
  tflo::ConcatenationOptionsT o;
  o.axis = axis;
  op.builtin_options.Set(o);
  ++*ops_added;
  return out;
}

}  // namespace

Result<PatchResult> PatchPrefix(const model::Graph& g, const Prefix& prefix, PatchGrid grid) {
  constexpr int32_t kMaxConcatInputs = 10;  // TFLM's CONCATENATION kMaxInputNum
  const auto& s_shape = g.subgraphs[0]->tensors[static_cast<size_t>(prefix.tensor)]->shape;
  const std::vector<Span> rows = SplitEven(s_shape[1], grid.rows), cols = SplitEven(s_shape[2], grid.cols);
  if (rows.empty() || cols.empty()) return InvalidArgument("grid finer than the split tensor");
  if (grid.rows > kMaxConcatInputs || grid.cols > kMaxConcatInputs) return InvalidArgument("grid above 10 x 10");
  PatchResult res;
  res.graph = std::make_unique<model::Graph>(g);
  tflo::SubGraphT& sg = *res.graph->subgraphs[0];
  std::vector<std::unique_ptr<tflo::OperatorT>> old = std::move(sg.operators);
  sg.operators.clear();
  for (auto it = old.begin(); it != old.begin() + prefix.begin; ++it) sg.operators.push_back(std::move(*it));
  const std::vector<std::unique_ptr<tflo::OperatorT>> prefix_ops(std::make_move_iterator(old.begin() + prefix.begin),
                                                                 std::make_move_iterator(old.begin() + prefix.split));
  PatchWriter w(*res.graph, prefix_ops, prefix);
  const std::string name = sg.tensors[static_cast<size_t>(prefix.tensor)]->name;
  std::vector<int32_t> strips;
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<int32_t> patches;
    for (size_t j = 0; j < cols.size(); ++j)
      patches.push_back(w.Emit({rows[i], cols[j]}, static_cast<int32_t>(i * cols.size() + j)));
    const bool last = rows.size() == 1;
    strips.push_back(Concat(*res.graph, sg, patches, 2, last ? prefix.tensor : -1,
                            name + "/strip" + Str(static_cast<int64_t>(i)), &w.ops_added));
  }
  if (rows.size() > 1) Concat(*res.graph, sg, strips, 1, prefix.tensor, name, &w.ops_added);
  for (auto it = old.begin() + prefix.split; it != old.end(); ++it) sg.operators.push_back(std::move(*it));
  RemoveMetadata(*res.graph, "OfflineMemoryAllocation");
  PruneUnused(*res.graph);
  res.prefix_macs = w.macs;
  res.ops_added = w.ops_added;
  return res;
}

}  // namespace arenaplan::graph

// DemoModel: a residual float32 image model, drawn below (tensor sizes in bytes). The shortcut
// branches keep big activations alive across several ops, so TFLM's greedy-by-size placement
// leaves holes and ends above the live-bytes lower bound.
//
//   input [1,16,16,3] 3072
//     CONV_2D 3x3 RELU ------------------> a [1,16,16,8] 8192
//     DEPTHWISE 3x3 /2 (a) --------------> b [1,8,8,8] 2048
//     CONV_2D 1x1 /2 (a) ----------------> c [1,8,8,8] 2048          (shortcut)
//     ADD (b, c) ------------------------> d [1,8,8,8] 2048
//     CONV_2D 1x1 RELU (d) --------------> e [1,8,8,16] 4096
//     DEPTHWISE 3x3 RELU (e) ------------> f [1,8,8,16] 4096
//     CONV_2D 1x1 (f) -------------------> g [1,8,8,16] 4096
//     ADD (e, g) ------------------------> h [1,8,8,16] 4096          (shortcut)
//     CONV_2D 1x1 (d) -------------------> i [1,8,8,16] 4096          (second shortcut from d)
//     ADD (h, i) ------------------------> j [1,8,8,16] 4096
//     AVERAGE_POOL_2D 8x8 ---------------> k [1,1,1,16] 64
//     RESHAPE ---------------------------> l [1,16] 64
//     FULLY_CONNECTED -------------------> m [1,10] 40
//     SOFTMAX ---------------------------> output [1,10] 40
#include <cstring>

#include "model/writer.h"

namespace arenaplan::model {
namespace {

// Deterministic small weights (LCG), as raw little-endian float32 bytes.
std::vector<uint8_t> Floats(size_t count, uint32_t seed, float scale) {
  std::vector<uint8_t> out(count * 4);
  uint32_t state = seed * 2654435761u + 1;
  for (size_t i = 0; i < count; ++i) {
    state = state * 1664525u + 1013904223u;
    const float v = (static_cast<float>(state >> 8) / 16777216.0f - 0.5f) * 2.0f * scale;
    std::memcpy(out.data() + 4 * i, &v, 4);
  }
  return out;
}

std::vector<uint8_t> Ints(const std::vector<int32_t>& values) {
  std::vector<uint8_t> out(values.size() * 4);
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

struct Builder {
  ModelSpec spec;
  SubgraphSpec& sg() { return spec.subgraphs[0]; }

  int32_t Tensor(const std::string& name, std::vector<int32_t> shape, TensorType type = TensorType::kFloat32,
                 uint32_t buffer = 0) {
    sg().tensors.push_back({name, type, std::move(shape), buffer, false, std::nullopt, {}});
    return static_cast<int32_t>(sg().tensors.size() - 1);
  }
  int32_t Const(const std::string& name, std::vector<int32_t> shape, uint32_t seed, float scale) {
    size_t n = 1;
    for (int32_t d : shape) n *= static_cast<size_t>(d);
    return Tensor(name, std::move(shape), TensorType::kFloat32, AddBuffer(spec, Floats(n, seed, scale)));
  }
  void Op(int32_t code, std::vector<int32_t> in, int32_t out, OpOptions options) {
    sg().operators.push_back({AddOperatorCode(spec, code), std::move(in), {out}, {}, std::move(options), {}});
  }
  // CONV_2D with [out, k, k, in] weights and a bias.
  int32_t Conv(const std::string& name, int32_t x, int32_t in_c, int32_t out_c, int32_t k, int32_t stride, int32_t hw,
               int8_t act, uint32_t seed) {
    const int32_t w = Const(name + "/weights", {out_c, k, k, in_c}, seed, 0.5f);
    const int32_t b = Const(name + "/bias", {out_c}, seed + 1, 0.1f);
    const int32_t y = Tensor(name, {1, hw, hw, out_c});
    OpOptions o;
    o.kind = OptionsKind::kConv2D;
    o.stride_w = o.stride_h = stride;
    o.activation = act;
    Op(3, {x, w, b}, y, o);
    return y;
  }
  // DEPTHWISE_CONV_2D 3x3, multiplier 1.
  int32_t Depthwise(const std::string& name, int32_t x, int32_t c, int32_t stride, int32_t hw, int8_t act,
                    uint32_t seed) {
    const int32_t w = Const(name + "/weights", {1, 3, 3, c}, seed, 0.5f);
    const int32_t b = Const(name + "/bias", {c}, seed + 1, 0.1f);
    const int32_t y = Tensor(name, {1, hw, hw, c});
    OpOptions o;
    o.kind = OptionsKind::kDepthwiseConv2D;
    o.stride_w = o.stride_h = stride;
    o.depth_multiplier = 1;
    o.activation = act;
    Op(4, {x, w, b}, y, o);
    return y;
  }
  int32_t Add(const std::string& name, int32_t x, int32_t y, std::vector<int32_t> shape) {
    const int32_t z = Tensor(name, std::move(shape));
    OpOptions o;
    o.kind = OptionsKind::kAdd;
    Op(0, {x, y}, z, o);
    return z;
  }
};

}  // namespace

std::vector<uint8_t> DemoModel() {
  Builder m;
  m.spec.description = "arenaplan demo: residual float32 CNN";
  m.spec.subgraphs.push_back({});
  m.sg().name = "main";
  constexpr int8_t kRelu = 1;
  const int32_t input = m.Tensor("input", {1, 16, 16, 3});
  const int32_t a = m.Conv("a_conv3x3", input, 3, 8, 3, 1, 16, kRelu, 1);
  const int32_t b = m.Depthwise("b_dw3x3_s2", a, 8, 2, 8, 0, 3);
  const int32_t c = m.Conv("c_shortcut_s2", a, 8, 8, 1, 2, 8, 0, 5);
  const int32_t d = m.Add("d_add", b, c, {1, 8, 8, 8});
  const int32_t e = m.Conv("e_expand", d, 8, 16, 1, 1, 8, kRelu, 7);
  const int32_t f = m.Depthwise("f_dw3x3", e, 16, 1, 8, kRelu, 9);
  const int32_t g = m.Conv("g_project", f, 16, 16, 1, 1, 8, 0, 11);
  const int32_t h = m.Add("h_add", e, g, {1, 8, 8, 16});
  const int32_t i = m.Conv("i_shortcut", d, 8, 16, 1, 1, 8, 0, 13);
  const int32_t j = m.Add("j_add", h, i, {1, 8, 8, 16});
  const int32_t k = m.Tensor("k_pool", {1, 1, 1, 16});
  OpOptions pool;
  pool.kind = OptionsKind::kPool2D;
  pool.padding_same = false;
  pool.stride_w = pool.stride_h = 1;
  pool.filter_w = pool.filter_h = 8;
  m.Op(1, {j}, k, pool);
  const int32_t shape = m.Tensor("l_shape", {2}, TensorType::kInt32, AddBuffer(m.spec, Ints({1, 16})));
  const int32_t l = m.Tensor("l_flat", {1, 16});
  OpOptions reshape;
  reshape.kind = OptionsKind::kReshape;
  reshape.new_shape = {1, 16};
  m.Op(22, {k, shape}, l, reshape);
  const int32_t fw = m.Const("m_fc/weights", {10, 16}, 15, 0.5f);
  const int32_t fb = m.Const("m_fc/bias", {10}, 16, 0.1f);
  const int32_t logits = m.Tensor("m_logits", {1, 10});
  OpOptions fc;
  fc.kind = OptionsKind::kFullyConnected;
  m.Op(9, {l, fw, fb}, logits, fc);
  const int32_t out = m.Tensor("output", {1, 10});
  OpOptions softmax;
  softmax.kind = OptionsKind::kSoftmax;
  softmax.beta = 1.0f;
  m.Op(25, {logits}, out, softmax);
  m.sg().inputs = {input};
  m.sg().outputs = {out};
  return WriteModel(m.spec);
}

}  // namespace arenaplan::model

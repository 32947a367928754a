#include "graph_testutil.h"

#include <cstring>

#include "runtime/interpreter.h"
#include "runtime/kernels/dsp/registrations.h"
#include "runtime/op_resolver.h"
#include "runtime/test_inputs.h"
#include "util/aligned_bytes.h"

namespace arenaplan::testing {

using tflo::TensorType;

Builder::Builder(bool float_model) : g(std::make_unique<model::Graph>()), is_float(float_model) {
  g->version = 3;
  g->buffers.push_back(std::make_unique<tflo::BufferT>());
  g->subgraphs.push_back(std::make_unique<tflo::SubGraphT>());
  sg = g->subgraphs[0].get();
}

int32_t Builder::Activation(const std::string& name, std::vector<int32_t> shape, int32_t tag) {
  tflo::TensorT like;
  like.type = is_float ? TensorType::FLOAT32 : TensorType::INT8;
  if (!is_float) {
    like.quantization = std::make_unique<tflo::QuantizationParametersT>();
    like.quantization->scale = {0.05f * static_cast<float>(1 + tag % 3)};
    like.quantization->zero_point = {tag % 7 - 3};
  }
  return graph::AddTensorLike(*sg, like, name, std::move(shape));
}

namespace {
uint32_t Next(uint32_t& s) { return s = s * 1664525u + 1013904223u; }
}  // namespace

int32_t Builder::Filter(const std::string& name, std::vector<int32_t> shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  auto b = std::make_unique<tflo::BufferT>();
  auto t = std::make_unique<tflo::TensorT>();
  t->name = name;
  t->shape = shape;
  if (is_float) {
    t->type = TensorType::FLOAT32;
    b->data.resize(n * 4);
    for (size_t i = 0; i < n; ++i) {
      const float v = static_cast<float>(static_cast<int32_t>(Next(seed) >> 24) - 128) / 97.0f;
      std::memcpy(&b->data[i * 4], &v, 4);
    }
  } else {
    t->type = TensorType::INT8;
    b->data.resize(n);
    for (size_t i = 0; i < n; ++i) b->data[i] = static_cast<uint8_t>(Next(seed) >> 24);
    t->quantization = std::make_unique<tflo::QuantizationParametersT>();
    t->quantization->scale = {0.01f};
    t->quantization->zero_point = {0};
  }
  g->buffers.push_back(std::move(b));
  t->buffer = static_cast<uint32_t>(g->buffers.size() - 1);
  sg->tensors.push_back(std::move(t));
  return static_cast<int32_t>(sg->tensors.size() - 1);
}

int32_t Builder::Bias(const std::string& name, int32_t channels) {
  std::vector<int32_t> v;
  for (int32_t c = 0; c < channels; ++c) v.push_back(static_cast<int32_t>(Next(seed) >> 22) - 512);
  const int32_t t = graph::AddInt32Constant(*g, *sg, name, {channels}, v);
  if (is_float) {
    auto& tensor = *sg->tensors[static_cast<size_t>(t)];
    tensor.type = TensorType::FLOAT32;
    auto& data = g->buffers[tensor.buffer]->data;
    for (int32_t c = 0; c < channels; ++c) {
      const float f = static_cast<float>(v[static_cast<size_t>(c)]) / 1000.0f;
      std::memcpy(&data[static_cast<size_t>(c) * 4], &f, 4);
    }
  } else {
    sg->tensors[static_cast<size_t>(t)]->quantization = std::make_unique<tflo::QuantizationParametersT>();
    sg->tensors[static_cast<size_t>(t)]->quantization->scale = {0.0005f};
    sg->tensors[static_cast<size_t>(t)]->quantization->zero_point = {0};
  }
  return t;
}

namespace {
int32_t OutSize(int32_t in, int32_t k, int32_t s, int32_t d, bool same) {
  return same ? (in + s - 1) / s : (in - ((k - 1) * d + 1) + s) / s;
}
}  // namespace

int32_t Builder::Conv(int32_t in, int32_t out_c, int32_t k, int32_t stride, bool same, int32_t dilation,
                      tflo::ActivationFunctionType act) {
  const auto s = Shape(in);
  const int32_t n = static_cast<int32_t>(sg->tensors.size());
  const int32_t f = Filter("w" + std::to_string(n), {out_c, k, k, s[3]});
  const int32_t b = Bias("b" + std::to_string(n), out_c);
  const int32_t o = Activation(
      "conv" + std::to_string(n),
      {1, OutSize(s[1], k, stride, dilation, same), OutSize(s[2], k, stride, dilation, same), out_c}, n);
  auto& op = graph::AddOperator(*g, *sg, tflo::BuiltinOperator::CONV_2D, {in, f, b}, {o});
  tflo::Conv2DOptionsT opt;
  opt.padding = same ? tflo::Padding::SAME : tflo::Padding::VALID;
  opt.stride_h = opt.stride_w = stride;
  opt.dilation_h_factor = opt.dilation_w_factor = dilation;
  opt.fused_activation_function = act;
  op.builtin_options.Set(opt);
  return o;
}

int32_t Builder::Depthwise(int32_t in, int32_t k, int32_t stride, bool same, int32_t dilation) {
  const auto s = Shape(in);
  const int32_t n = static_cast<int32_t>(sg->tensors.size());
  const int32_t f = Filter("dw" + std::to_string(n), {1, k, k, s[3]});
  const int32_t b = Bias("db" + std::to_string(n), s[3]);
  const int32_t o = Activation(
      "dwconv" + std::to_string(n),
      {1, OutSize(s[1], k, stride, dilation, same), OutSize(s[2], k, stride, dilation, same), s[3]}, n);
  auto& op = graph::AddOperator(*g, *sg, tflo::BuiltinOperator::DEPTHWISE_CONV_2D, {in, f, b}, {o});
  tflo::DepthwiseConv2DOptionsT opt;
  opt.padding = same ? tflo::Padding::SAME : tflo::Padding::VALID;
  opt.stride_h = opt.stride_w = stride;
  opt.dilation_h_factor = opt.dilation_w_factor = dilation;
  opt.depth_multiplier = 1;
  op.builtin_options.Set(opt);
  return o;
}

int32_t Builder::Add(int32_t a, int32_t b) {
  const int32_t n = static_cast<int32_t>(sg->tensors.size());
  const int32_t o = Activation("add" + std::to_string(n), Shape(a), n);
  auto& op = graph::AddOperator(*g, *sg, tflo::BuiltinOperator::ADD, {a, b}, {o});
  op.builtin_options.Set(tflo::AddOptionsT());
  return o;
}

int32_t Builder::FloatActivation(const std::string& name, std::vector<int32_t> shape) {
  tflo::TensorT like;
  like.type = TensorType::FLOAT32;
  return graph::AddTensorLike(*sg, like, name, std::move(shape));
}

int32_t Builder::Quantize(int32_t in) {
  const int32_t n = static_cast<int32_t>(sg->tensors.size());
  const int32_t o = Activation("quantize" + std::to_string(n), Shape(in), n);
  auto& op = graph::AddOperator(*g, *sg, tflo::BuiltinOperator::QUANTIZE, {in}, {o});
  op.builtin_options.Set(tflo::QuantizeOptionsT());
  return o;
}

int32_t Builder::Pad(int32_t in, int32_t top, int32_t bottom, int32_t left, int32_t right) {
  const auto s = Shape(in);
  const int32_t n = static_cast<int32_t>(sg->tensors.size());
  const int32_t p = graph::AddInt32Constant(*g, *sg, "pads" + std::to_string(n), {4, 2},
                                            {0, 0, top, bottom, left, right, 0, 0});
  tflo::TensorT like = *sg->tensors[static_cast<size_t>(in)];
  const int32_t o = graph::AddTensorLike(*sg, like, "pad" + std::to_string(n),
                                         {1, s[1] + top + bottom, s[2] + left + right, s[3]});
  auto& op = graph::AddOperator(*g, *sg, tflo::BuiltinOperator::PAD, {in, p}, {o});
  op.builtin_options.Set(tflo::PadOptionsT());
  return o;
}

int32_t Builder::MaxPool(int32_t in, int32_t k, int32_t stride) {
  const auto s = Shape(in);
  const int32_t n = static_cast<int32_t>(sg->tensors.size());
  tflo::TensorT like = *sg->tensors[static_cast<size_t>(in)];
  const int32_t o = graph::AddTensorLike(
      *sg, like, "pool" + std::to_string(n),
      {1, OutSize(s[1], k, stride, 1, false), OutSize(s[2], k, stride, 1, false), s[3]});
  auto& op = graph::AddOperator(*g, *sg, tflo::BuiltinOperator::MAX_POOL_2D, {in}, {o});
  tflo::Pool2DOptionsT opt;
  opt.padding = tflo::Padding::VALID;
  opt.stride_h = opt.stride_w = stride;
  opt.filter_height = opt.filter_width = k;
  op.builtin_options.Set(opt);
  return o;
}

std::vector<uint8_t> Builder::Finish(std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
  sg->inputs = std::move(inputs);
  sg->outputs = std::move(outputs);
  auto bytes = model::WriteGraph(*g);
  return bytes.ok() ? *bytes : std::vector<uint8_t>{};
}

std::vector<std::vector<uint8_t>> RunModel(const std::vector<uint8_t>& model, std::string* error, bool dsp) {
  constexpr size_t kArena = 4u << 20;
  const AlignedBytes arena(kArena);
  rt::Interpreter interp(model.data(), model.size(), dsp ? rt::DspOpsResolver() : rt::AllOpsResolver(), arena.data(),
                         kArena);
  std::vector<std::vector<uint8_t>> out;
  if (interp.AllocateTensors() != rt::StatusCode::kOk) {
    *error = interp.error_message();
    return out;
  }
  for (uint32_t k = 0; k < interp.inputs_size(); ++k) rt::FillGeneratedInput(interp.input(k), k, 0);
  if (interp.Invoke() != rt::StatusCode::kOk) {
    *error = interp.error_message();
    return out;
  }
  for (uint32_t k = 0; k < interp.outputs_size(); ++k) {
    const auto* p = static_cast<const uint8_t*>(interp.output(k).data);
    out.emplace_back(p, p + interp.output(k).bytes);
  }
  return out;
}

std::vector<std::string> OpNames(const std::vector<uint8_t>& model) {
  std::vector<std::string> names;
  auto g = model::ReadGraph(model.data(), model.size());
  if (!g.ok()) return names;
  for (const auto& op : (*g)->subgraphs[0]->operators) names.push_back(graph::OpName(**g, *op));
  return names;
}

}  // namespace arenaplan::testing

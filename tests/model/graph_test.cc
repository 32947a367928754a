// The editable graph keeps fields the read view and the spec writer never knew (builtin_options_2,
// signature defs, debug indices, sparsity, per-op option fields), inlines external buffers, and
// rejects malformed bytes with the reader's message.
#include <gtest/gtest.h>

#include <cstring>

#include "model/graph.h"
#include "model/model.h"
#include "model/writer.h"

namespace arenaplan::model {
namespace {

// A one-op model built with the object API itself, carrying rarely used fields.
std::unique_ptr<Graph> RichGraph() {
  auto g = std::make_unique<Graph>();
  g->version = 3;
  g->description = "rich";
  g->buffers.push_back(std::make_unique<tflo::BufferT>());
  auto code = std::make_unique<tflo::OperatorCodeT>();
  code->builtin_code = tflo::BuiltinOperator::STABLEHLO_COMPOSITE;
  code->deprecated_builtin_code = 127;
  g->operator_codes.push_back(std::move(code));
  auto sg = std::make_unique<tflo::SubGraphT>();
  sg->name = "main";
  sg->debug_metadata_index = 7;
  for (int i = 0; i < 2; ++i) {
    auto t = std::make_unique<tflo::TensorT>();
    t->name = "t" + std::to_string(i);
    t->type = tflo::TensorType::INT8;
    t->shape = {1, 4};
    t->has_rank = true;
    t->quantization = std::make_unique<tflo::QuantizationParametersT>();
    t->quantization->scale = {0.5f};
    t->quantization->zero_point = {-3};
    t->quantization->min = {-1.0f};
    sg->tensors.push_back(std::move(t));
  }
  sg->inputs = {0};
  sg->outputs = {1};
  auto op = std::make_unique<tflo::OperatorT>();
  op->inputs = {0};
  op->outputs = {1};
  op->debug_metadata_index = 3;
  tflo::StableHLOCompositeOptionsT composite;
  composite.name = "odml.thing";
  composite.decomposition_subgraph_index = 0;
  composite.version = 2;
  op->builtin_options_2.Set(std::move(composite));
  sg->operators.push_back(std::move(op));
  g->subgraphs.push_back(std::move(sg));
  auto sig = std::make_unique<tflo::SignatureDefT>();
  sig->signature_key = "serving_default";
  auto in = std::make_unique<tflo::TensorMapT>();
  in->name = "x";
  in->tensor_index = 0;
  sig->inputs.push_back(std::move(in));
  g->signature_defs.push_back(std::move(sig));
  return g;
}

TEST(Graph, KeepsFieldsTheReadViewDoesNotKnow) {
  const auto g = RichGraph();
  auto bytes = WriteGraph(*g);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto back = ReadGraph(bytes->data(), bytes->size());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(**back == *g);
  EXPECT_TRUE(SameGraph(**back, *g));
  const auto& op = *(*back)->subgraphs[0]->operators[0];
  ASSERT_NE(op.builtin_options_2.AsStableHLOCompositeOptions(), nullptr);
  EXPECT_EQ(op.builtin_options_2.AsStableHLOCompositeOptions()->name, "odml.thing");
  EXPECT_EQ(op.debug_metadata_index, 3);
  EXPECT_EQ((*back)->signature_defs[0]->inputs[0]->name, "x");
  EXPECT_EQ((*back)->subgraphs[0]->tensors[1]->quantization->min, std::vector<float>{-1.0f});
}

TEST(Graph, EqualityNoticesOneChangedField) {
  const auto a = RichGraph();
  auto b = RichGraph();
  EXPECT_TRUE(*a == *b);
  b->subgraphs[0]->operators[0]->builtin_options_2.AsStableHLOCompositeOptions()->version = 3;
  EXPECT_FALSE(*a == *b);
  EXPECT_FALSE(SameGraph(*a, *b));
  b = RichGraph();
  b->subgraphs[0]->tensors[0]->quantization->zero_point = {-2};
  EXPECT_FALSE(*a == *b);
  EXPECT_FALSE(SameGraph(*a, *b));
}

float FloatFromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint32_t BitsOf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// The fuzzer's false alarm, reduced: a file whose quantization scales hold NaNs (there, an
// aliased vector over other data) round-trips bit for bit, yet the generated == calls the two
// graphs different because NaN != NaN.
TEST(Graph, NanScalesRoundTripBitForBit) {
  auto g = RichGraph();
  const std::vector<float> scale = {FloatFromBits(0x7fc00001u), FloatFromBits(0xffa00000u), -0.0f, 0.25f};
  g->subgraphs[0]->tensors[0]->quantization->scale = scale;
  g->subgraphs[0]->tensors[0]->quantization->zero_point = {0, 0, 0, 0};
  g->subgraphs[0]->tensors[1]->quantization->max = {FloatFromBits(0x7f800001u)};
  auto bytes = WriteGraph(*g);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto first = ReadGraph(bytes->data(), bytes->size());
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  auto written = WriteGraph(**first);
  ASSERT_TRUE(written.ok());
  auto second = ReadGraph(written->data(), written->size());
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_FALSE(**first == **second);  // why the fuzzer aborted: NaN compares unequal
  EXPECT_TRUE(SameGraph(**first, **second));
  const auto& back = (*second)->subgraphs[0]->tensors[0]->quantization->scale;
  ASSERT_EQ(back.size(), scale.size());
  for (size_t i = 0; i < scale.size(); ++i) EXPECT_EQ(BitsOf(back[i]), BitsOf(scale[i])) << i;
  EXPECT_EQ(BitsOf((*second)->subgraphs[0]->tensors[1]->quantization->max[0]), 0x7f800001u);
}

// SameGraph is stricter than == on floats, not weaker: it sees a NaN's payload and a zero's sign.
TEST(Graph, SameGraphComparesFloatBits) {
  auto a = RichGraph();
  auto b = RichGraph();
  EXPECT_TRUE(SameGraph(*a, *b));
  a->subgraphs[0]->tensors[0]->quantization->scale = {FloatFromBits(0x7fc00001u)};
  b->subgraphs[0]->tensors[0]->quantization->scale = {FloatFromBits(0x7fc00002u)};
  EXPECT_FALSE(SameGraph(*a, *b));
  a->subgraphs[0]->tensors[0]->quantization->scale = {0.0f};
  b->subgraphs[0]->tensors[0]->quantization->scale = {-0.0f};
  EXPECT_TRUE(*a == *b);
  EXPECT_FALSE(SameGraph(*a, *b));
}

// Bytes the verifier accepts in which every kind of union carries a tag but no table: a tensor's
// quantization details, its sparse index vectors, an op's builtin options and builtin options 2
// (the fuzzer's second finding: Pack dereferenced the missing table).
std::vector<uint8_t> TagsWithoutTables() {
  using flatbuffers::Offset;
  flatbuffers::FlatBufferBuilder fbb;
  const std::vector<float> scale = {0.5f};
  const std::vector<int64_t> zero = {0};
  auto quant = tflo::CreateQuantizationParametersDirect(fbb, nullptr, nullptr, &scale, &zero,
                                                        tflo::QuantizationDetails::CustomQuantization, 0);
  const std::vector<Offset<tflo::DimensionMetadata>> dims = {
      tflo::CreateDimensionMetadata(fbb, tflo::DimensionType::SPARSE_CSR, 0, tflo::SparseIndexVector::Int32Vector, 0,
                                    tflo::SparseIndexVector::Uint8Vector, 0)};
  const std::vector<int32_t> order = {0};
  auto sparsity = tflo::CreateSparsityParametersDirect(fbb, &order, nullptr, &dims);
  const std::vector<int32_t> shape = {1, 4};
  const std::vector<Offset<tflo::Tensor>> tensors = {
      tflo::CreateTensorDirect(fbb, &shape, tflo::TensorType::INT8, 0, "a", quant, false, sparsity),
      tflo::CreateTensorDirect(fbb, &shape, tflo::TensorType::INT8, 0, "b")};
  const std::vector<int32_t> in = {0, 0}, out = {1};
  const std::vector<Offset<tflo::Operator>> ops = {tflo::CreateOperatorDirect(
      fbb, 0, &in, &out, tflo::BuiltinOptions::AddOptions, 0, nullptr, tflo::CustomOptionsFormat::FLEXBUFFERS, nullptr,
      nullptr, 0, 0, tflo::BuiltinOptions2::StableHLOCompositeOptions, 0)};
  const std::vector<int32_t> sg_in = {0}, sg_out = {1};
  const std::vector<Offset<tflo::SubGraph>> subgraphs = {
      tflo::CreateSubGraphDirect(fbb, &tensors, &sg_in, &sg_out, &ops)};
  const std::vector<Offset<tflo::OperatorCode>> codes = {
      tflo::CreateOperatorCodeDirect(fbb, 0, nullptr, 1, tflo::BuiltinOperator::ADD)};
  const std::vector<Offset<tflo::Buffer>> buffers = {tflo::CreateBufferDirect(fbb)};
  fbb.Finish(tflo::CreateModelDirect(fbb, 3, &codes, &subgraphs, "tags", &buffers), tflo::ModelIdentifier());
  return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

TEST(Graph, UnionTagsWithoutTablesAreReadAsNone) {
  const std::vector<uint8_t> bytes = TagsWithoutTables();
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  ASSERT_TRUE(tflo::VerifyModelBuffer(verifier));  // valid flatbuffer: a tag may come alone
  const auto* fb_op = tflo::GetModel(bytes.data())->subgraphs()->Get(0)->operators()->Get(0);
  EXPECT_EQ(fb_op->builtin_options_as_AddOptions(), nullptr);  // what TFLM's parsers see
  auto g = ReadGraph(bytes.data(), bytes.size());
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  const auto& sg = *(*g)->subgraphs[0];
  EXPECT_EQ(sg.tensors[0]->quantization->details.type, tflo::QuantizationDetails::NONE);
  EXPECT_EQ(sg.tensors[0]->sparsity->dim_metadata[0]->array_segments.type, tflo::SparseIndexVector::NONE);
  EXPECT_EQ(sg.tensors[0]->sparsity->dim_metadata[0]->array_indices.type, tflo::SparseIndexVector::NONE);
  EXPECT_EQ(sg.operators[0]->builtin_options.type, tflo::BuiltinOptions::NONE);
  EXPECT_EQ(sg.operators[0]->builtin_options_2.type, tflo::BuiltinOptions2::NONE);
  EXPECT_EQ(sg.tensors[0]->quantization->scale, std::vector<float>{0.5f});  // the rest is kept
  const Graph copy = **g;  // the union copy dereferenced the missing table too
  auto written = WriteGraph(copy);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  auto again = ReadGraph(written->data(), written->size());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE(SameGraph(**again, **g));
}

TEST(Graph, InlinesExternalBuffers) {
  ModelSpec spec;
  spec.operator_codes = {{0, "", 1}};  // ADD
  const uint32_t weights = AddBuffer(spec, {});
  SubgraphSpec sg;
  sg.tensors = {
      {"a", TensorType::kFloat32, {2}}, {"w", TensorType::kFloat32, {2}, weights}, {"o", TensorType::kFloat32, {2}}};
  sg.inputs = {0};
  sg.outputs = {2};
  sg.operators = {{0, {0, 1}, {2}}};
  spec.subgraphs = {sg};
  // Buffer `weights` points at 8 bytes stored after the flatbuffer, at file offset 4096.
  constexpr uint64_t kOffset = 4096;
  spec.external_buffers = {{weights, kOffset, 8}};
  std::vector<uint8_t> with_external = WriteModel(spec);
  ASSERT_LE(with_external.size(), kOffset);
  with_external.resize(kOffset, 0);
  for (uint8_t v : {1, 2, 3, 4, 5, 6, 7, 8}) with_external.push_back(v);
  auto g = ReadGraph(with_external.data(), with_external.size());
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  const auto& b = *(*g)->buffers[weights];
  EXPECT_EQ(b.data, (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(b.offset, 0u);
  auto written = WriteGraph(**g);
  ASSERT_TRUE(written.ok());
  auto again = ReadGraph(written->data(), written->size());
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(SameGraph(**again, **g));
}

TEST(Graph, MalformedBytesAreReportedNotRead) {
  const std::vector<uint8_t> junk(64, 0x5a);
  auto g = ReadGraph(junk.data(), junk.size());
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(g.status().message().find("not a TFLite flatbuffer"), std::string::npos) << g.status().message();
}

// Where the test stores a vector of one int64 (-3): as a tensor's zero points, or as the
// permutation of a STABLEHLO_TRANSPOSE's options (reached through the builtin_options_2 union).
enum class Int64Vector { kZeroPoint, kTransposePermutation };

// A one-tensor model (with one operator for kTransposePermutation) whose int64 vector is stored
// `k` bytes into a byte vector, so the test, not the builder (which always aligns it), places it.
std::vector<uint8_t> ModelWithInt64VectorAt(Int64Vector which, uint32_t k) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<uint8_t> raw(24, 0);
  for (uint32_t at : {0u, 12u}) {
    raw[at] = 1;                             // length word: one element
    const uint64_t value = uint64_t(0) - 3;  // -3, little-endian
    for (int b = 0; b < 8; ++b) raw[at + 4 + b] = static_cast<uint8_t>(value >> (8 * b));
  }
  const auto holder = fbb.CreateVector(raw);
  // Offsets count back from the buffer's end; the holder's data starts 4 bytes past its own.
  const flatbuffers::Offset<flatbuffers::Vector<int64_t>> vec(holder.o - 4 - k);
  const bool zp = which == Int64Vector::kZeroPoint;
  const auto quant = tflo::CreateQuantizationParameters(fbb, 0, 0, fbb.CreateVector(std::vector<float>{0.5f}),
                                                        zp ? vec : 0);
  const auto tensor = tflo::CreateTensor(fbb, fbb.CreateVector(std::vector<int32_t>{1, 4}), tflo::TensorType::INT8, 0,
                                         fbb.CreateString("t"), quant);
  const auto io = fbb.CreateVector(std::vector<int32_t>{0});
  std::vector<flatbuffers::Offset<tflo::Operator>> ops;
  if (!zp) {
    ops.push_back(tflo::CreateOperator(fbb, 0, io, io, tflo::BuiltinOptions::NONE, 0, 0,
                                       tflo::CustomOptionsFormat::FLEXBUFFERS, 0, 0, 0, 0,
                                       tflo::BuiltinOptions2::StablehloTransposeOptions,
                                       tflo::CreateStablehloTransposeOptions(fbb, vec).Union()));
  }
  const auto sg = tflo::CreateSubGraph(fbb, fbb.CreateVector(std::vector<flatbuffers::Offset<tflo::Tensor>>{tensor}), io,
                                       io, fbb.CreateVector(ops));
  const auto codes = fbb.CreateVector(std::vector<flatbuffers::Offset<tflo::OperatorCode>>{
      tflo::CreateOperatorCode(fbb, 127, 0, 1, tflo::BuiltinOperator::STABLEHLO_TRANSPOSE)});
  const auto buffers = fbb.CreateVector(std::vector<flatbuffers::Offset<tflo::Buffer>>{tflo::CreateBuffer(fbb)});
  fbb.Finish(tflo::CreateModel(fbb, 3, zp ? 0 : codes,
                               fbb.CreateVector(std::vector<flatbuffers::Offset<tflo::SubGraph>>{sg}), 0, buffers),
             tflo::ModelIdentifier());
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

// The int64 vector's offset in the file.
size_t Int64VectorOffset(Int64Vector which, const std::vector<uint8_t>& bytes) {
  const tflo::SubGraph* sg = tflo::GetModel(bytes.data())->subgraphs()->Get(0);
  const flatbuffers::Vector<int64_t>* v =
      which == Int64Vector::kZeroPoint
          ? sg->tensors()->Get(0)->quantization()->zero_point()
          : sg->operators()->Get(0)->builtin_options_2_as_StablehloTransposeOptions()->permutation();
  return static_cast<size_t>(v->Data() - bytes.data());
}

// The model with its int64 vector 8-byte aligned (builder-made) or not (what only a hostile or
// hand-made file holds).
std::vector<uint8_t> ModelWithInt64Vector(Int64Vector which, bool aligned) {
  std::vector<uint8_t> bytes = ModelWithInt64VectorAt(which, 0);
  if ((Int64VectorOffset(which, bytes) % 8 == 0) != aligned) bytes = ModelWithInt64VectorAt(which, 12);
  return bytes;
}

// flatbuffers' Verifier checks a vector's length word for 4-byte alignment only. The read view
// copies such zero points out byte-wise; the graph (flatc's UnPack loads 8-byte values as such)
// refuses the file, naming the vector, wherever it is.
TEST(Graph, MisalignedInt64VectorIsReportedNotLoaded) {
  const struct {
    Int64Vector which;
    const char* path;
  } cases[] = {{Int64Vector::kZeroPoint, "subgraphs[0].tensors[0].quantization.zero_point"},
               {Int64Vector::kTransposePermutation, "subgraphs[0].operators[0].builtin_options_2.permutation"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.path);
    const std::vector<uint8_t> bytes = ModelWithInt64Vector(c.which, false);
    ASSERT_EQ(Int64VectorOffset(c.which, bytes) % 8, 4u);
    auto m = ReadModel(bytes.data(), bytes.size());
    ASSERT_TRUE(m.ok()) << m.status().message();
    if (c.which == Int64Vector::kZeroPoint) {
      ASSERT_TRUE(m->subgraphs[0].tensors[0].quantization.has_value());
      EXPECT_EQ(m->subgraphs[0].tensors[0].quantization->zero_point, std::vector<int64_t>{-3});
    }
    auto g = ReadGraph(bytes.data(), bytes.size());
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.status().code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(g.status().message().find(std::string(c.path) + ": a vector of 8-byte values"), std::string::npos)
        << g.status().message();

    // The same model with the vector aligned is a graph like any other.
    const std::vector<uint8_t> fine = ModelWithInt64Vector(c.which, true);
    ASSERT_EQ(Int64VectorOffset(c.which, fine) % 8, 0u);
    auto aligned = ReadGraph(fine.data(), fine.size());
    ASSERT_TRUE(aligned.ok()) << aligned.status().message();
    const tflo::SubGraphT& sg = *(*aligned)->subgraphs[0];
    EXPECT_EQ(c.which == Int64Vector::kZeroPoint
                  ? sg.tensors[0]->quantization->zero_point
                  : sg.operators[0]->builtin_options_2.AsStablehloTransposeOptions()->permutation,
              std::vector<int64_t>{-3});
  }
}

}  // namespace
}  // namespace arenaplan::model

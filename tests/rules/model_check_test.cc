// rules/model_check.h: each structural check on a crafted model, with its verdict (invalid model
// vs unsupported) and message, and every count limit at its boundary.
#include "rules/model_check.h"

#include <gtest/gtest.h>

#include <string>

#include "rules/limits.h"
#include "rules_testutil.h"

namespace arenaplan::rules {
namespace {

using testing::Build;
using testing::Describe;
using testing::Op;
using testing::Tensors;
using MT = model::TensorType;

// t0 --ADD(t0, t1 const)--> t2
model::ModelSpec Small() {
  model::ModelSpec spec;
  spec.subgraphs.resize(1);
  spec.subgraphs[0].tensors = Tensors(3);
  spec.subgraphs[0].tensors[1].buffer = model::AddBuffer(spec, std::vector<uint8_t>(16, 1));
  spec.subgraphs[0].operators = {Op(spec, 0, {0, 1}, {2})};
  spec.subgraphs[0].inputs = {0};
  spec.subgraphs[0].outputs = {2};
  return spec;
}

struct Verdict {
  StatusCode code;
  std::string message;
};

Verdict Check(const model::ModelSpec& spec) {
  const auto b = Build(spec);
  const tfl::Model* m = nullptr;
  ErrorText e;
  StatusCode code = VerifyModel(b.file, &m, &e);
  if (code == StatusCode::kOk) code = CheckModel(*m, b.file, nullptr, &e);
  return {code, e.text};
}

::testing::AssertionResult Is(const Verdict& v, StatusCode code, const std::string& message) {
  if (v.code == code && v.message == message) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << StatusName(v.code) << ": " << v.message;
}

TEST(ModelCheck, AWellFormedModelPassesAndIsCounted) {
  const auto b = Build(Small());
  const tfl::Model* m = nullptr;
  ErrorText e;
  ASSERT_EQ(VerifyModel(b.file, &m, &e), StatusCode::kOk);
  ModelCounts c;
  ASSERT_EQ(CheckModel(*m, b.file, &c, &e), StatusCode::kOk) << e.text;
  EXPECT_EQ(c.subgraphs, 1u);
  EXPECT_EQ(c.tensors, 3u);
  EXPECT_EQ(c.operators, 1u);
  EXPECT_EQ(c.operator_codes, 1u);
  EXPECT_EQ(c.operator_visits, 1u);
}

TEST(ModelCheck, NotAFlatbuffer) {
  const uint8_t png[] = {0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0};
  const tfl::Model* m = nullptr;
  ErrorText e;
  EXPECT_EQ(VerifyModel(ModelFile{png, sizeof(png)}, &m, &e), StatusCode::kInvalidModel);
  EXPECT_STREQ(e.text,
               "not a TFLite flatbuffer (no \"TFL3\" identifier at byte 4; file starts 89 50 4E 47 0D 0A 1A 0A)");
  EXPECT_EQ(VerifyModel(ModelFile{png, 3}, &m, &e), StatusCode::kInvalidModel);
  EXPECT_STREQ(e.text, "not a TFLite flatbuffer: 3 bytes is too small");
  auto b = Build(Small());
  b.bytes.resize(b.bytes.size() / 2);
  EXPECT_EQ(VerifyModel(ModelFile{b.bytes.data(), b.bytes.size()}, &m, &e), StatusCode::kInvalidModel);
  EXPECT_EQ(m, nullptr);
}

TEST(ModelCheck, TensorChecks) {
  auto spec = Small();
  spec.subgraphs[0].tensors[2].shape = {1, -4};
  EXPECT_TRUE(
      Is(Check(spec), StatusCode::kInvalidModel, "subgraph 0, tensor 2 (t2): negative dimension -4 at index 1"));
  spec = Small();
  spec.subgraphs[0].tensors[2].type = static_cast<MT>(42);
  EXPECT_TRUE(Is(Check(spec), StatusCode::kInvalidModel, "subgraph 0, tensor 2 (t2): unknown tensor type 42"));
  spec = Small();
  spec.subgraphs[0].tensors[2].buffer = 7;
  EXPECT_TRUE(
      Is(Check(spec), StatusCode::kInvalidModel, "subgraph 0, tensor 2 (t2): buffer 7 out of range (2 buffers)"));
  spec = Small();
  spec.buffers[1].resize(8);
  EXPECT_TRUE(
      Is(Check(spec), StatusCode::kInvalidModel, "subgraph 0, tensor 1 (t1): buffer 1 holds 8 bytes, shape needs 16"));
  spec = Small();  // INT4 constants are packed: 4 elements need 2 bytes
  spec.subgraphs[0].tensors[1].type = MT::kInt4;
  spec.buffers[1].resize(2);
  EXPECT_TRUE(Is(Check(spec), StatusCode::kOk, ""));
}

// A zero point must be a value of its tensor's type (kernels compute value - zero point in int32
// and multiply such terms, as TFLM does); every entry is checked, types without a range are not.
TEST(ModelCheck, ZeroPointsLieInTheirTypesRange) {
  struct Case {
    MT type;
    int64_t lo, hi;
    const char* name;
  };
  for (const Case& c : {Case{MT::kInt8, -128, 127, "INT8"}, Case{MT::kUInt8, 0, 255, "UINT8"},
                        Case{MT::kInt16, -32768, 32767, "INT16"}, Case{MT::kInt4, -8, 7, "INT4"}}) {
    SCOPED_TRACE(c.name);
    auto spec = Small();
    spec.subgraphs[0].tensors[2].type = c.type;
    spec.subgraphs[0].tensors[2].quantization = model::Quantization{{0.5f, 0.5f}, {c.lo, c.hi}, 0};
    EXPECT_TRUE(Is(Check(spec), StatusCode::kOk, ""));
    spec.subgraphs[0].tensors[2].quantization->zero_point = {c.lo, c.hi + 1};
    EXPECT_TRUE(Is(Check(spec), StatusCode::kInvalidModel,
                   "subgraph 0, tensor 2 (t2): zero point " + std::to_string(c.hi + 1) + " (entry 1) outside " +
                       c.name + "'s range [" + std::to_string(c.lo) + ", " + std::to_string(c.hi) + "]"));
    spec.subgraphs[0].tensors[2].quantization->zero_point = {c.lo - 1};
    EXPECT_EQ(Check(spec).code, StatusCode::kInvalidModel);
  }
  auto spec = Small();  // float and int32 tensors: not checked
  spec.subgraphs[0].tensors[2].quantization = model::Quantization{{0.5f}, {int64_t{1} << 40}, 0};
  EXPECT_TRUE(Is(Check(spec), StatusCode::kOk, ""));
  spec.subgraphs[0].tensors[2].type = MT::kInt32;
  EXPECT_TRUE(Is(Check(spec), StatusCode::kOk, ""));
}

TEST(ModelCheck, TensorByteLimitIsExactAndUnsupported) {
  auto spec = Small();
  spec.subgraphs[0].tensors[2].type = MT::kInt8;
  spec.subgraphs[0].tensors[2].shape = {static_cast<int32_t>(kMaxBufferBytes)};
  EXPECT_TRUE(Is(Check(spec), StatusCode::kOk, ""));
  spec.subgraphs[0].tensors[2].shape = {static_cast<int32_t>(kMaxBufferBytes + 1)};
  EXPECT_TRUE(Is(Check(spec), StatusCode::kUnsupported,
                 "subgraph 0, tensor 2 (t2): 2147483633 bytes, more than the 2147483632 a buffer may have"));
  spec.subgraphs[0].tensors[2].shape = {65536, 65536, 65536, 65536, 65536};
  EXPECT_TRUE(Is(Check(spec), StatusCode::kUnsupported, "subgraph 0, tensor 2 (t2): byte size overflows 64 bits"));
}

TEST(ModelCheck, IndexChecksNameTheOp) {
  auto spec = Small();
  spec.subgraphs[0].operators[0].inputs = {0, 9};
  EXPECT_TRUE(
      Is(Check(spec), StatusCode::kInvalidModel, "subgraph 0, op 0 (ADD): input tensor 9 out of range (3 tensors)"));
  spec = Small();
  spec.subgraphs[0].operators[0].inputs = {-1, 1};  // an omitted optional input is fine
  EXPECT_TRUE(Is(Check(spec), StatusCode::kOk, ""));
  spec.subgraphs[0].operators[0].outputs = {-1};
  EXPECT_TRUE(
      Is(Check(spec), StatusCode::kInvalidModel, "subgraph 0, op 0 (ADD): output tensor -1 out of range (3 tensors)"));
  spec = Small();
  spec.subgraphs[0].operators[0].opcode_index = 3;
  EXPECT_TRUE(
      Is(Check(spec), StatusCode::kInvalidModel, "subgraph 0, op 0: opcode_index 3 out of range (1 operator codes)"));
  spec = Small();
  spec.subgraphs[0].outputs = {5};
  EXPECT_TRUE(Is(Check(spec), StatusCode::kInvalidModel, "subgraph 0: output tensor 5 out of range (3 tensors)"));
  spec = Small();
  spec.operator_codes[0] = {static_cast<int32_t>(tfl::BuiltinOperator::CUSTOM), "My\x1bOp"};
  spec.subgraphs[0].operators[0].intermediates = {4};
  EXPECT_TRUE(Is(Check(spec), StatusCode::kInvalidModel,
                 "subgraph 0, op 0 (CUSTOM:My\\x1bOp): intermediate tensor 4 out of range (3 tensors)"));
}

TEST(ModelCheck, ControlFlowNeedsItsOptions) {
  auto spec = Small();
  spec.subgraphs[0].operators.push_back(Op(spec, static_cast<int32_t>(tfl::BuiltinOperator::WHILE), {}, {}));
  EXPECT_TRUE(Is(Check(spec), StatusCode::kInvalidModel, "subgraph 0, op 1 (WHILE): missing WhileOptions"));
  spec.subgraphs[0].operators[1] = testing::Call(spec, tfl::BuiltinOperator::WHILE, 0, 3);
  EXPECT_TRUE(Is(Check(spec), StatusCode::kInvalidModel,
                 "subgraph 0, op 1 (WHILE): WhileOptions subgraph 3 out of range (1 subgraphs)"));
}

TEST(ModelCheck, ModelLevelIndices) {
  auto spec = Small();
  spec.metadata = {{"x", 7}};
  EXPECT_TRUE(Is(Check(spec), StatusCode::kInvalidModel, "metadata 0 (x): buffer 7 out of range (2 buffers)"));
  spec = Small();
  spec.subgraphs.clear();
  EXPECT_TRUE(Is(Check(spec), StatusCode::kInvalidModel, "model has no subgraphs"));
}

TEST(ModelCheck, ExternalBufferOutsideTheFileIsInvalid) {
  auto spec = Small();
  spec.external_buffers = {{1, 1 << 20, 16}};
  const Verdict v = Check(spec);
  EXPECT_EQ(v.code, StatusCode::kInvalidModel);
  EXPECT_EQ(v.message.rfind("buffer 1: offset 1048576 + size 16 lies outside the file (", 0), 0u) << v.message;
}

TEST(ModelCheck, CountLimitsAreExact) {
  model::ModelSpec spec;  // kMaxTensors tensors over two subgraphs
  spec.subgraphs.resize(2);
  spec.subgraphs[0].tensors.assign(kMaxTensors / 2, {"t", MT::kInt8, {1}});
  spec.subgraphs[1].tensors.assign(kMaxTensors / 2, {"t", MT::kInt8, {1}});
  EXPECT_TRUE(Is(Check(spec), StatusCode::kOk, ""));
  spec.subgraphs[1].tensors.push_back({"t", MT::kInt8, {1}});
  EXPECT_TRUE(Is(Check(spec), StatusCode::kUnsupported, "model has 32769 tensors over all subgraphs, more than 32768"));

  model::ModelSpec ops;
  ops.subgraphs.resize(1);
  ops.subgraphs[0].operators.assign(kMaxOperators, Op(ops, 0, {}, {}));
  EXPECT_TRUE(Is(Check(ops), StatusCode::kOk, ""));
  ops.subgraphs[0].operators.push_back(ops.subgraphs[0].operators[0]);
  EXPECT_TRUE(
      Is(Check(ops), StatusCode::kUnsupported, "model has 65537 operators over all subgraphs, more than 65536"));

  model::ModelSpec subgraphs;
  subgraphs.subgraphs.resize(kMaxSubgraphs);
  EXPECT_TRUE(Is(Check(subgraphs), StatusCode::kOk, ""));
  subgraphs.subgraphs.resize(kMaxSubgraphs + 1);
  EXPECT_TRUE(Is(Check(subgraphs), StatusCode::kUnsupported, "model has 65536 subgraphs, more than 65535"));
}

}  // namespace
}  // namespace arenaplan::rules

#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "model/offline_plan.h"
#include "model/static_problems.h"
#include "spec_testutil.h"

namespace arenaplan::model {
namespace {

using testutil::IsInvalid;
using testutil::Read;
using testutil::SmallSpec;

TEST(Names, BuiltinOperatorAndTypeNames) {
  EXPECT_EQ(BuiltinOperatorName(0), "ADD");
  EXPECT_EQ(BuiltinOperatorName(3), "CONV_2D");
  EXPECT_EQ(BuiltinOperatorName(118), "IF");
  EXPECT_EQ(BuiltinOperatorName(142), "VAR_HANDLE");
  EXPECT_EQ(BuiltinOperatorName(205), "REDUCE_WINDOW");
  EXPECT_EQ(BuiltinOperatorName(209), "STABLEHLO_CASE");
  EXPECT_EQ(BuiltinOperatorName(210), "UNKNOWN_210");
  EXPECT_EQ(BuiltinOperatorName(-1), "UNKNOWN_-1");
  EXPECT_STREQ(TensorTypeName(TensorType::kInt8), "INT8");
  EXPECT_STREQ(TensorTypeName(TensorType::kBFloat16), "BFLOAT16");
  EXPECT_STREQ(TensorTypeName(static_cast<TensorType>(40)), "UNKNOWN_TYPE");
  EXPECT_EQ(TensorTypeBytes(TensorType::kFloat32), 4u);
  EXPECT_EQ(TensorTypeBytes(TensorType::kResource), 4u);
  EXPECT_EQ(TensorTypeBytes(TensorType::kInt4), 1u);
  EXPECT_EQ(TensorTypeBytes(TensorType::kComplex128), 16u);
  EXPECT_EQ(TensorTypeBytes(TensorType::kBFloat16), 2u);
  EXPECT_EQ(TensorTypeBytes(TensorType::kString), std::nullopt);
}

TEST(Reader, ReadsBackWhatTheWriterWrote) {
  std::vector<uint8_t> bytes;
  auto m = Read(SmallSpec(), bytes);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->version, 3u);
  EXPECT_EQ(m->description, "arenaplan");
  ASSERT_EQ(m->operator_codes.size(), 2u);
  EXPECT_EQ(m->operator_codes[0].name, "FULLY_CONNECTED");
  EXPECT_EQ(m->operator_codes[0].builtin_code, 9);
  EXPECT_EQ(m->operator_codes[1].name, "CUSTOM:MyOp");
  EXPECT_EQ(m->operator_codes[1].custom_code, "MyOp");
  ASSERT_EQ(m->subgraphs.size(), 1u);
  const Subgraph& sg = m->subgraphs[0];
  EXPECT_EQ(sg.name, "main");
  ASSERT_EQ(sg.tensors.size(), 4u);
  EXPECT_EQ(sg.tensors[0].shape, (std::vector<int32_t>{1, 4}));
  EXPECT_EQ(sg.tensors[0].shape_signature, (std::vector<int32_t>{-1, 4}));
  ASSERT_TRUE(sg.tensors[0].quantization.has_value());
  EXPECT_EQ(sg.tensors[0].quantization->scale, std::vector<float>{0.5f});
  EXPECT_EQ(sg.tensors[0].quantization->zero_point, std::vector<int64_t>{-3});
  EXPECT_FALSE(sg.tensors[1].quantization.has_value());
  EXPECT_EQ(sg.tensors[0].bytes, 16u);
  EXPECT_EQ(sg.tensors[1].bytes, 64u);
  EXPECT_TRUE(sg.tensors[1].has_data);
  EXPECT_FALSE(sg.tensors[2].has_data);
  ASSERT_EQ(sg.operators.size(), 2u);
  EXPECT_EQ(sg.operators[0].inputs, (std::vector<int32_t>{0, 1, -1}));
  EXPECT_EQ(sg.operators[0].outputs, std::vector<int32_t>{2});
  EXPECT_EQ(m->code_of(sg.operators[1]).name, "CUSTOM:MyOp");
  ASSERT_EQ(m->buffers.size(), 2u);
  EXPECT_EQ(m->buffers[0].size, 0u);
  ASSERT_EQ(m->buffers[1].size, 64u);
  EXPECT_EQ(m->buffers[1].data[0], 1);
  // Constant data is not copied and sits 16-aligned in the file.
  EXPECT_GE(m->buffers[1].data, bytes.data());
  EXPECT_EQ((m->buffers[1].data - bytes.data()) % 16, 0);
  EXPECT_EQ(m->total_tensors(), 4u);
  EXPECT_FALSE(m->offline_plan.has_value());
}

TEST(Reader, LargeCodesUseTheNewFieldAndDeprecatedSaturates) {
  ModelSpec spec = SmallSpec();
  spec.operator_codes[0].builtin_code = 150;  // GELU: deprecated field holds 127
  std::vector<uint8_t> bytes;
  auto m = Read(spec, bytes);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->operator_codes[0].builtin_code, 150);
  EXPECT_EQ(m->operator_codes[0].name, "GELU");
}

TEST(Reader, NotAFlatbuffer) {
  const uint8_t png[] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 'I', 'H', 'D', 'R',
                         0,    0,   0,   1,   0,    0,    0,    1,    8, 6, 0, 0,    0,   0,   0,   0};
  auto m = ReadModel(png, sizeof(png));
  EXPECT_TRUE(IsInvalid(m.status(), {"not a TFLite flatbuffer", "89 50 4E 47"}));
  EXPECT_TRUE(IsInvalid(ReadModel(png, 3).status(), {"not a TFLite flatbuffer", "3 bytes"}));
  EXPECT_TRUE(IsInvalid(ReadModel(nullptr, 0).status(), {"not a TFLite flatbuffer"}));
}

TEST(Reader, TruncatedFilesAreErrorsNotCrashes) {
  const std::vector<uint8_t> bytes = WriteModel(SmallSpec());
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::vector<uint8_t> part(bytes.begin(), bytes.begin() + n);
    auto m = ReadModel(part.data(), part.size());
    EXPECT_FALSE(m.ok()) << "prefix of " << n << " bytes";
    EXPECT_EQ(m.status().code(), ErrorCode::kInvalidArgument);
  }
}

// Every single-byte change either reads (and then the derived views work) or is a clean error.
TEST(Reader, SingleByteFlipsNeverCrash) {
  const std::vector<uint8_t> bytes = WriteModel(SmallSpec());
  size_t ok = 0, errors = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t mask : {0x01, 0x10, 0x80, 0xFF}) {
      std::vector<uint8_t> copy = bytes;
      copy[i] ^= mask;
      auto m = ReadModel(copy.data(), copy.size());
      if (m.ok()) {
        ++ok;
        (void)ValidateOfflinePlan(*m);
        (void)StaticPlanningProblems(*m);
      } else {
        ++errors;
        // Malformed, or beyond a limit of rules/limits.h (a flipped dimension byte).
        EXPECT_TRUE(m.status().code() == ErrorCode::kInvalidArgument || m.status().code() == ErrorCode::kUnsupported)
            << m.status().ToString();
        EXPECT_FALSE(m.status().message().empty());
      }
    }
  }
  EXPECT_GT(ok, 0u);
  EXPECT_GT(errors, 0u);
}

TEST(Reader, RandomBytesNeverCrash) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<uint8_t> junk(8 + rng() % 512);
    for (auto& b : junk) b = static_cast<uint8_t>(rng());
    if (trial % 2) std::memcpy(junk.data() + 4, "TFL3", 4);
    auto m = ReadModel(junk.data(), junk.size());
    if (!m.ok()) { EXPECT_EQ(m.status().code(), ErrorCode::kInvalidArgument); }
  }
}

TEST(Reader, OutOfRangeOperatorTensor) {
  ModelSpec spec = SmallSpec();
  spec.subgraphs[0].operators[0].inputs[0] = 57;
  std::vector<uint8_t> bytes;
  EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(),
                        {"subgraph 0, op 0 (FULLY_CONNECTED): input tensor 57 out of range (4 tensors)"}));
  spec = SmallSpec();
  spec.subgraphs[0].operators[1].outputs[0] = -1;  // -1 is only allowed for optional inputs
  EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(), {"op 1 (CUSTOM:MyOp): output tensor -1 out of range"}));
  spec = SmallSpec();
  spec.subgraphs[0].operators[0].inputs[2] = -2;
  EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(), {"input tensor -2 out of range"}));
  spec = SmallSpec();
  spec.subgraphs[0].operators[0].intermediates = {4};
  EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(), {"intermediate tensor 4 out of range"}));
}

TEST(Reader, OutOfRangeSubgraphIoBufferOpcode) {
  std::vector<uint8_t> bytes;
  ModelSpec spec = SmallSpec();
  spec.subgraphs[0].inputs = {9};
  EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(), {"subgraph 0: input tensor 9 out of range (4 tensors)"}));
  spec = SmallSpec();
  spec.subgraphs[0].outputs = {-1};
  EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(), {"subgraph 0: output tensor -1 out of range"}));
  spec = SmallSpec();
  spec.subgraphs[0].tensors[2].buffer = 5;
  EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(), {"subgraph 0, tensor 2 (mid): buffer 5 out of range (2 buffers)"}));
  spec = SmallSpec();
  spec.subgraphs[0].operators[1].opcode_index = 2;
  EXPECT_TRUE(
      IsInvalid(Read(spec, bytes).status(), {"subgraph 0, op 1: opcode_index 2 out of range (2 operator codes)"}));
  spec = SmallSpec();
  spec.metadata.push_back({"x", 7});
  EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(), {"metadata 0 (x): buffer 7 out of range"}));
}

TEST(Reader, ControlFlowSubgraphIndicesAreChecked) {
  std::vector<uint8_t> bytes;
  for (int32_t code : {118, 119, 129}) {
    ModelSpec spec = SmallSpec();
    spec.subgraphs.push_back({});  // subgraph 1, empty: what the op may call
    auto& op = spec.subgraphs[0].operators[1];
    op.opcode_index = AddOperatorCode(spec, code);
    // Options missing altogether.
    EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(), {"op 1 (" + BuiltinOperatorName(code) + "): missing"}));
    op.options.kind = code == 118 ? OptionsKind::kIf : code == 119 ? OptionsKind::kWhile : OptionsKind::kCallOnce;
    op.options.subgraph_a = 1;
    op.options.subgraph_b = 1;
    EXPECT_TRUE(Read(spec, bytes).ok());
    op.options.subgraph_a = 0;  // the op's own subgraph: a cycle
    EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(), {"cyclic subgraph calls: subgraph 0 -> 0"}));
    op.options.subgraph_a = 3;
    EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(), {"subgraph 3 out of range (2 subgraphs)"}));
    op.options.subgraph_a = -1;
    EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(), {"subgraph -1 out of range"}));
  }
}

TEST(Reader, NegativeAndOverflowingDims) {
  std::vector<uint8_t> bytes;
  ModelSpec spec = SmallSpec();
  spec.subgraphs[0].tensors[2].shape = {1, -4};
  EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(), {"subgraph 0, tensor 2 (mid): negative dimension -4 at index 1"}));
  spec = SmallSpec();
  // (2^31 - 1)^3 is about 2^93 elements: valid, but beyond what arenaplan plans (rules/limits.h).
  spec.subgraphs[0].tensors[2].shape = {2147483647, 2147483647, 2147483647};
  auto huge = Read(spec, bytes);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), ErrorCode::kUnsupported);
  EXPECT_EQ(huge.status().message(), "subgraph 0, tensor 2 (mid): byte size overflows 64 bits");
  spec = SmallSpec();
  spec.subgraphs[0].tensors[2].shape = {1 << 15, 1 << 15, 4};  // 2^32 float32 elements, 2^34 bytes
  huge = Read(spec, bytes);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), ErrorCode::kUnsupported);
  EXPECT_EQ(huge.status().message(),
            "subgraph 0, tensor 2 (mid): 17179869184 bytes, more than the 2147483632 a buffer may have");
  spec = SmallSpec();
  spec.subgraphs[0].tensors[2].shape = {1, 0, 4};  // zero elements is valid
  auto m = Read(spec, bytes);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->subgraphs[0].tensors[2].bytes, 0u);
}

TEST(Reader, UnknownTensorTypeAndUnsizedTypes) {
  std::vector<uint8_t> bytes;
  ModelSpec spec = SmallSpec();
  spec.subgraphs[0].tensors[3].type = static_cast<TensorType>(42);
  EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(), {"subgraph 0, tensor 3 (out): unknown tensor type 42"}));
  spec = SmallSpec();
  spec.subgraphs[0].tensors[3].type = TensorType::kString;
  auto m = Read(spec, bytes);
  ASSERT_TRUE(m.ok());
  EXPECT_FALSE(m->subgraphs[0].tensors[3].bytes.has_value());
}

TEST(Reader, ExternalBufferOffsets) {
  std::vector<uint8_t> bytes;
  ModelSpec spec = SmallSpec();
  spec.external_buffers.push_back({1, 1u << 20, 64});
  EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(), {"buffer 1: offset 1048576 + size 64 lies outside the file"}));
  spec.external_buffers = {{1, ~uint64_t{0} - 8, 64}};  // offset + size overflows
  EXPECT_TRUE(IsInvalid(Read(spec, bytes).status(), {"buffer 1: offset", "lies outside the file"}));
  // Inside the file: data points at file start + offset.
  spec.external_buffers = {{1, 8, 64}};  // the [4, 4] float weights
  auto m = Read(spec, bytes);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->buffers[1].data, bytes.data() + 8);
  EXPECT_EQ(m->buffers[1].size, 64u);
  spec.external_buffers = {{1, 8, 16}};  // shorter than the shape needs
  EXPECT_TRUE(
      IsInvalid(Read(spec, bytes).status(), {"subgraph 0, tensor 1 (w): buffer 1 holds 16 bytes, shape needs 64"}));
  EXPECT_TRUE(m->subgraphs[0].tensors[1].has_data);
}

TEST(StaticProblems, ListsUnsizedTypesAndDynamicDims) {
  std::vector<uint8_t> bytes;
  ModelSpec spec = SmallSpec();
  EXPECT_TRUE(StaticPlanningProblems(*Read(spec, bytes)).empty());  // dynamic batch only
  spec.subgraphs[0].tensors[2].shape_signature = {1, -1};
  spec.subgraphs[0].tensors[3].type = TensorType::kString;
  const auto problems = StaticPlanningProblems(*Read(spec, bytes));
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(
      problems[0],
      "subgraph 0, tensor 2 (mid): dynamic dimension 1 in shape_signature (only the batch dimension 0 may be dynamic)");
  EXPECT_EQ(problems[1], "subgraph 0, tensor 3 (out): STRING tensors have no static size");
}

}  // namespace
}  // namespace arenaplan::model

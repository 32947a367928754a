// The kernel-table formulas for ops no golden model covers, on one-op models built in memory: each
// expected figure is worked out by hand from TFLM's struct layouts and Prepare code (see the row's
// note in src/tflm/kernel_table.cc). Needs no ../shared.
#include <gtest/gtest.h>

#include <flatbuffers/flexbuffers.h>

#include <algorithm>
#include <string>
#include <vector>

#include "built_model_testutil.h"
#include "model/model.h"
#include "model/writer.h"
#include "rules/int4.h"
#include "tflm/arena_size.h"
#include "tflm/kernels.h"

namespace arenaplan::tflm {
namespace {

using model::TensorType;

struct TensorDef {
  TensorType type;
  std::vector<int32_t> shape;
  bool constant = false;
};

struct OneOp {
  int32_t code = 0;
  std::string custom;
  std::vector<TensorDef> inputs;
  std::vector<TensorDef> outputs;
  model::OpOptions options;
  std::vector<uint8_t> custom_options;
};

using Built = testing::BuiltModel;

// One operator whose inputs come first and outputs after, in one subgraph.
Built Build(const OneOp& def) {
  model::ModelSpec spec;
  const uint32_t code = model::AddOperatorCode(spec, def.code, def.custom);
  model::SubgraphSpec sg;
  model::OperatorSpec op;
  op.opcode_index = code;
  op.options = def.options;
  op.custom_options = def.custom_options;
  auto add = [&](const TensorDef& t, bool input) {
    uint32_t buffer = 0;
    if (t.constant) {
      size_t n = 4;
      for (int32_t d : t.shape) n *= static_cast<size_t>(d);
      buffer = model::AddBuffer(spec, std::vector<uint8_t>(n, 0));
    }
    const int32_t index = static_cast<int32_t>(sg.tensors.size());
    sg.tensors.push_back({"t" + std::to_string(index), t.type, t.shape, buffer, false, std::nullopt, {}});
    (input ? op.inputs : op.outputs).push_back(index);
    if (!t.constant) (input ? sg.inputs : sg.outputs).push_back(index);
  };
  for (const TensorDef& t : def.inputs) add(t, true);
  for (const TensorDef& t : def.outputs) add(t, false);
  sg.operators.push_back(op);
  spec.subgraphs.push_back(sg);
  return testing::BuildModel(spec);
}

OpAllocation Evaluate(const Built& b, const char* target, const char* expect_name) {
  EXPECT_EQ(b.model.code_of(b.model.subgraphs[0].operators[0]).name, expect_name);
  auto a = EvaluateKernel(b.model, 0, 0, **FindTarget(target));
  EXPECT_TRUE(a.ok()) << a.status().ToString();
  return a.ok() ? *a : OpAllocation{};
}

std::vector<uint8_t> FlexMap(const std::vector<std::pair<const char*, int64_t>>& entries) {
  flexbuffers::Builder fbb;
  fbb.Map([&] {
    for (const auto& [key, value] : entries) fbb.Int(key, value);
  });
  fbb.Finish();
  return fbb.GetBuffer();
}

constexpr TensorType F32 = TensorType::kFloat32;
constexpr TensorType I8 = TensorType::kInt8;
constexpr TensorType I16 = TensorType::kInt16;
constexpr TensorType I32 = TensorType::kInt32;

TEST(KernelTable, EveryOpTflmRegistersHasARow) {
  for (const std::string& op : TflmRegisteredOps()) EXPECT_NE(FindKernelEntry(op), nullptr) << op;
}

TEST(KernelTable, AnOpWithoutARowIsReportedByName) {
  Built b = Build({78, "", {{F32, {4}}, {F32, {4}}}, {{F32, {4}}}, {}, {}});  // POW: not in TFLM
  auto a = EvaluateKernel(b.model, 0, 0, **FindTarget("tflm-x86_64"));
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("'POW'"), std::string::npos) << a.status().message();
}

TEST(Kernels, AddNKeepsOnePointerPerInputAndInt8OpData) {
  const OneOp def{106, "", {{I8, {1, 4}}, {I8, {1, 4}}, {I8, {1, 4}}}, {{I8, {1, 4}}}, {}, {}};
  const Built b = Build(def);
  OpAllocation x86 = Evaluate(b, "tflm-x86_64", "ADD_N");
  EXPECT_EQ(x86.prepare_bytes, std::vector<uint64_t>({40}));  // OpData: 10 int32
  EXPECT_EQ(x86.scratch_bytes, std::vector<uint64_t>({24}));  // 3 x int8_t*
  OpAllocation cm = Evaluate(b, "tflm-cortex-m", "ADD_N");
  EXPECT_EQ(cm.scratch_bytes, std::vector<uint64_t>({12}));
  OneOp f = def;
  for (auto& t : f.inputs) t.type = F32;
  f.outputs[0].type = F32;
  EXPECT_TRUE(Evaluate(Build(f), "tflm-x86_64", "ADD_N").prepare_bytes.empty());  // float: no OpData
}

TEST(Kernels, ReduceMaxRequestsRankThenAxes) {
  const Built b = Build({82, "", {{F32, {1, 2, 3, 4, 5}}, {I32, {3}, true}}, {{F32, {1, 5}}}, {}, {}});
  OpAllocation a = Evaluate(b, "tflm-cortex-m", "REDUCE_MAX");
  EXPECT_EQ(a.init_bytes, 44u);
  EXPECT_EQ(a.scratch_bytes, std::vector<uint64_t>({20, 12}));
}

TEST(Kernels, BatchMatMulCopiesTheRightOperandTransposedByDefault) {
  // float [2,3] x [3,4]: no quantization data; adj_y false -> eval tensor, dims (rank 2), 12 floats;
  // then the output dims copy.
  OneOp def{126, "", {{F32, {2, 3}}, {F32, {3, 4}, true}}, {{F32, {2, 4}}}, {}, {}};
  def.options.kind = model::OptionsKind::kBatchMatMul;
  OpAllocation x86 = Evaluate(Build(def), "tflm-x86_64", "BATCH_MATMUL");
  EXPECT_EQ(x86.init_bytes, 32u);
  EXPECT_EQ(x86.prepare_bytes, std::vector<uint64_t>({24, 12, 48, 12}));
  // int8 with adj_x: quantization data, the left copy (eval tensor 12 on 32-bit), and no right copy.
  def.inputs = {{I8, {2, 3}}, {I8, {3, 4}, true}};
  def.outputs = {{I8, {2, 4}}};
  def.options.adj_x = true;
  def.options.adj_y = true;
  OpAllocation cm = Evaluate(Build(def), "tflm-cortex-m", "BATCH_MATMUL");
  EXPECT_EQ(cm.init_bytes, 16u);
  EXPECT_EQ(cm.prepare_bytes, std::vector<uint64_t>({28, 12, 12, 6, 12}));
}

TEST(Kernels, MirrorPadAndEmbeddingLookup) {
  const Built pad = Build({100, "", {{F32, {1, 4, 4, 2}}, {I32, {4, 2}, true}}, {{F32, {1, 6, 6, 2}}}, {}, {}});
  OpAllocation p = Evaluate(pad, "tflm-x86_64", "MIRROR_PAD");
  EXPECT_EQ(p.init_bytes, 20u);
  EXPECT_EQ(p.scratch_bytes, std::vector<uint64_t>({16, 16}));
  const Built lookup = Build({7, "", {{I32, {3}}, {F32, {10, 8}, true}}, {{F32, {3, 8}}}, {}, {}});
  // Output dims copy (rank 2) then OpData {float scale; size_t num_columns}.
  EXPECT_EQ(Evaluate(lookup, "tflm-x86_64", "EMBEDDING_LOOKUP").prepare_bytes, std::vector<uint64_t>({12, 16}));
  EXPECT_EQ(Evaluate(lookup, "tflm-arm32", "EMBEDDING_LOOKUP").prepare_bytes, std::vector<uint64_t>({12, 8}));
}

TEST(Kernels, TransposeConv16x8WidensAnInt16Bias) {
  // inputs: output_shape, filter [8,3,3,4], input, bias int16[8]; output int16 [1,4,4,8].
  const Built b = Build({67,
                         "",
                         {{I32, {4}, true}, {I8, {8, 3, 3, 4}, true}, {I16, {1, 4, 4, 4}}, {I16, {8}, true}},
                         {{I16, {1, 4, 4, 8}}},
                         {},
                         {}});
  OpAllocation a = Evaluate(b, "tflm-cortex-m", "TRANSPOSE_CONV");
  EXPECT_EQ(a.init_bytes, 72u);
  EXPECT_EQ(a.prepare_bytes, std::vector<uint64_t>({32, 32}));
  EXPECT_EQ(a.scratch_bytes, std::vector<uint64_t>({8 * 128, 8 * 8}));
}

TEST(Kernels, DetectionPostProcessSizesItsScratchFromTheCustomOptions) {
  // 100 boxes, 3 classes (+ background), max_detections 10.
  OneOp def{32,
            "TFLite_Detection_PostProcess",
            {{F32, {1, 100, 4}}, {F32, {1, 100, 4}}, {F32, {100, 4}, true}},
            {{F32, {1, 10, 4}}, {F32, {1, 10}}, {F32, {1, 10}}, {F32, {1}}},
            {},
            FlexMap({{"max_detections", 10}, {"num_classes", 3}})};
  OpAllocation a = Evaluate(Build(def), "tflm-cortex-m", "CUSTOM:TFLite_Detection_PostProcess");
  EXPECT_EQ(a.init_bytes, 112u);
  EXPECT_EQ(a.scratch_bytes, std::vector<uint64_t>({100, 1600, 1600, 400, 400, 4000, 4000, 400, 4000, 4000, 4000}));
  def.custom_options.clear();
  auto missing = EvaluateKernel(Build(def).model, 0, 0, **FindTarget("tflm-cortex-m"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("max_detections"), std::string::npos);
}

TEST(Kernels, AbsurdOptionsAreRejectedNotWrappedAround) {
  // 100000 boxes x INT32_MAX detections x 4 bytes overflows no counter but exceeds any arena.
  OneOp def{32,
            "TFLite_Detection_PostProcess",
            {{F32, {1, 100000, 4}}, {F32, {1, 100000, 4}}, {F32, {100000, 4}}},
            {{F32, {1, 10, 4}}, {F32, {1, 10}}, {F32, {1, 10}}, {F32, {1}}},
            {},
            FlexMap({{"max_detections", 2147483647}, {"num_classes", 3}})};
  auto a = EvaluateKernel(Build(def).model, 0, 0, **FindTarget("tflm-x86_64"));
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("kernel buffer of"), std::string::npos) << a.status().message();
  // An option outside int32 (TFLM reads AsInt32) counts as missing.
  def.custom_options = FlexMap({{"max_detections", int64_t{1} << 40}, {"num_classes", 3}});
  auto b = EvaluateKernel(Build(def).model, 0, 0, **FindTarget("tflm-x86_64"));
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("max_detections"), std::string::npos) << b.status().message();
}

TEST(Kernels, SignalDelayAndStackerKeepCircularBuffers) {
  // Delay of 3 frames on int16 [2, 5]: 2 rows; CircularBuffer {3 size_t, 2 int32, pointer} + 4 x (5 + 3).
  const OneOp delay{32, "SignalDelay", {{I16, {2, 5}}}, {{I16, {2, 5}}}, {}, FlexMap({{"delay_length", 3}})};
  EXPECT_EQ(Evaluate(Build(delay), "tflm-x86_64", "CUSTOM:SignalDelay").prepare_bytes,
            std::vector<uint64_t>({16, 16, 40 + 32, 40 + 32}));
  EXPECT_EQ(Evaluate(Build(delay), "tflm-cortex-m", "CUSTOM:SignalDelay").prepare_bytes,
            std::vector<uint64_t>({8, 8, 24 + 32, 24 + 32}));
  const OneOp stacker{32, "SignalStacker", {{I16, {4}}}, {{I16, {12}}, {TensorType::kBool, {}}}, {}, {}};
  OpAllocation s = Evaluate(Build(stacker), "tflm-arm32", "CUSTOM:SignalStacker");
  EXPECT_EQ(s.init_bytes, 36u);
  EXPECT_EQ(s.init_extra_bytes, std::vector<uint64_t>({24 + 48}));
}

// The temporary TfLiteTensors each Prepare fetches (kernel_table.cc PrepareTempSpec): TFLM's
// ConcatenationPrepare reads input 0 and the output, every input, then the output again; LOGICAL_AND
// has no Prepare; TANH has no verified entry, so every input and output counts twice.
TEST(Kernels, PrepareTemporariesFollowTheKernelOrAnUpperGuess) {
  const uint32_t tensor = (*FindTarget("tflm-x86_64"))->persistent_tensor.size;
  OpAllocation concat = Evaluate(Build({2, "", {{F32, {2}}, {F32, {2}}}, {{F32, {4}}}, {}, {}}), "tflm-x86_64",
                                 "CONCATENATION");
  EXPECT_TRUE(concat.temp_verified);
  ASSERT_EQ(concat.prepare_temp.size(), 5u);  // unquantized: one TfLiteTensor each
  for (const TempAllocation& t : concat.prepare_temp) EXPECT_EQ(t.size, tensor);
  OpAllocation logical = Evaluate(
      Build({86, "", {{TensorType::kBool, {2}}, {TensorType::kBool, {2}}}, {{TensorType::kBool, {2}}}, {}, {}}),
      "tflm-x86_64", "LOGICAL_AND");
  EXPECT_TRUE(logical.temp_verified);
  EXPECT_TRUE(logical.prepare_temp.empty());
  OpAllocation tanh = Evaluate(Build({28, "", {{F32, {4}}}, {{F32, {4}}}, {}, {}}), "tflm-x86_64", "TANH");
  EXPECT_FALSE(tanh.temp_verified);
  EXPECT_EQ(tanh.prepare_temp.size(), 4u);
}

TEST(KernelTable, Int4UnpackRowsAreTheOpsTheRuleNames) {
  // The host table (data) and rules::UnpacksInt4Filter (what the runtime's binding allows) agree.
  for (const KernelEntry& e : KernelTable()) {
    int32_t code = -1;
    for (tfl::BuiltinOperator b : tfl::EnumValuesBuiltinOperator()) {
      if (std::string(tfl::EnumNameBuiltinOperator(b)) == e.op) code = static_cast<int32_t>(b);
    }
    EXPECT_EQ(e.scratch == ScratchRule::kInt4FilterUnpack, code >= 0 && rules::UnpacksInt4Filter(code)) << e.op;
  }
}

TEST(Kernels, Int4FiltersTakeOneScratchBytePerElement) {
  // TFLM requests RequestScratchBufferInArena(filter FlatSize) for an INT4 filter; odd counts here
  // (the last byte holds one value), none for an INT8 filter.
  constexpr TensorType I4 = TensorType::kInt4;
  struct C {
    int32_t code;
    const char* name;
    std::vector<int32_t> in, filter, out;
    uint64_t elements;  // product of the filter shape, by hand
  };
  const std::vector<C> cases = {{9, "FULLY_CONNECTED", {2, 7}, {5, 7}, {2, 5}, 35},
                                {3, "CONV_2D", {1, 5, 5, 3}, {3, 3, 3, 3}, {1, 5, 5, 3}, 81},
                                {4, "DEPTHWISE_CONV_2D", {1, 4, 4, 5}, {1, 3, 3, 5}, {1, 4, 4, 5}, 45}};
  for (const C& c : cases) {
    SCOPED_TRACE(c.name);
    model::OpOptions o;
    o.kind = c.code == 9   ? model::OptionsKind::kFullyConnected
             : c.code == 3 ? model::OptionsKind::kConv2D
                           : model::OptionsKind::kDepthwiseConv2D;
    const Built int4 = Build({c.code, "", {{I8, c.in}, {I4, c.filter, true}, {I32, {c.out.back()}, true}},
                              {{I8, c.out}}, o, {}});
    const Built int8 = Build({c.code, "", {{I8, c.in}, {I8, c.filter, true}, {I32, {c.out.back()}, true}},
                              {{I8, c.out}}, o, {}});
    EXPECT_EQ(Evaluate(int4, "tflm-cortex-m", c.name).scratch_bytes, std::vector<uint64_t>{c.elements});
    EXPECT_TRUE(Evaluate(int8, "tflm-cortex-m", c.name).scratch_bytes.empty());
    // One op: input, output and scratch are live together, so the head is their 16-aligned sum.
    uint64_t in = 1, out = 1;
    for (int32_t d : c.in) in *= static_cast<uint64_t>(d);
    for (int32_t d : c.out) out *= static_cast<uint64_t>(d);
    auto a16 = [](uint64_t n) { return (n + 15) / 16 * 16; };
    auto s = ComputeArenaSize(int4.model, **FindTarget("tflm-x86_64"));
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    EXPECT_EQ(s->scratch_requests, 1u);
    EXPECT_EQ(s->head_bytes, a16(in) + a16(out) + a16(c.elements));
  }
}

TEST(Kernels, DepthwiseRefusesInt4WithInt16InputAtInvoke) {
  // depthwise_conv.cc: Prepare requests the scratch and checks no types; Eval's int16 case knows
  // int8 filters only (kTfLiteInt4 is 18).
  model::OpOptions o;
  o.kind = model::OptionsKind::kDepthwiseConv2D;
  const Built b = Build({4, "", {{I16, {1, 2, 2, 1}}, {TensorType::kInt4, {1, 1, 1, 1}, true}}, {{I16, {1, 2, 2, 1}}}, o, {}});
  auto s = ComputeArenaSize(b.model, **FindTarget("tflm-cortex-m"));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_TRUE(s->allocates);
  EXPECT_FALSE(s->supported);
  EXPECT_NE(s->error.find("Filter type INT4 (18) for input type INT16 not supported. | Node DEPTHWISE_CONV_2D (number "
                          "0) failed to invoke"),
            std::string::npos)
      << s->error;
}

TEST(Kernels, CastTakesBoolInputsAndFailsOtherOutputsAtInvoke) {
  // cast.cc Eval: bool is an input type (TFLM PR #2401); copyToTensor writes int8, int16, int32,
  // uint32 and float32 only, and since PR #3248 any other type fails the Invoke.
  constexpr TensorType B = TensorType::kBool;
  const Built bool_in = Build({53, "", {{B, {6}}}, {{I32, {6}}}, {}, {}});
  auto ok = ComputeArenaSize(bool_in.model, **FindTarget("tflm-cortex-m"));
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_TRUE(ok->supported) << ok->error;
  const Built bool_out = Build({53, "", {{F32, {6}}}, {{B, {6}}}, {}, {}});
  auto out = ComputeArenaSize(bool_out.model, **FindTarget("tflm-cortex-m"));
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->allocates);
  EXPECT_FALSE(out->supported);
  EXPECT_NE(out->error.find("Output type BOOL (6) not supported. | Node CAST (number 0) failed to invoke"),
            std::string::npos)
      << out->error;
  const Built u8_in = Build({53, "", {{TensorType::kUInt8, {6}}}, {{B, {6}}}, {}, {}});  // input checked first
  auto u8 = ComputeArenaSize(u8_in.model, **FindTarget("tflm-cortex-m"));
  ASSERT_TRUE(u8.ok());
  EXPECT_NE(u8->error.find("Input type UINT8 (3) not supported. | Node CAST"), std::string::npos) << u8->error;
}

TEST(Kernels, TypeChecksNameTheTypeAndTheStage) {
  // SIN on int8 fails in Prepare with TFLM's TfLiteType number (INT8 = 9).
  const Built sin = Build({66, "", {{I8, {4}}}, {{I8, {4}}}, {}, {}});
  auto s = ComputeArenaSize(sin.model, **FindTarget("tflm-cortex-m"));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_FALSE(s->allocates);
  EXPECT_NE(s->error.find("Input data type INT8 (9) is not supported. | Node SIN (number 0) failed to prepare"),
            std::string::npos)
      << s->error;
  // LOGICAL_NOT on float: FLOAT32 is TfLiteType 1 (0 in the schema).
  const Built logical = Build({87, "", {{F32, {4}}}, {{TensorType::kBool, {4}}}, {}, {}});
  auto l = ComputeArenaSize(logical.model, **FindTarget("tflm-cortex-m"));
  ASSERT_TRUE(l.ok());
  EXPECT_NE(l->error.find("Input data type FLOAT32 (1) is not supported."), std::string::npos) << l->error;
  // ELU on int16 allocates but fails in Invoke.
  const Built elu = Build({111, "", {{I16, {4}}}, {{I16, {4}}}, {}, {}});
  auto e = ComputeArenaSize(elu.model, **FindTarget("tflm-cortex-m"));
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(e->allocates);
  EXPECT_FALSE(e->supported);
  EXPECT_NE(e->error.find("ELU only supports float32 and int8 currently, got INT16. | Node ELU (number 0) failed "
                          "to invoke"),
            std::string::npos)
      << e->error;
}

}  // namespace
}  // namespace arenaplan::tflm

// One limit, one answer: crafted models at every limit of rules/limits.h and one step beyond,
// through inspect, plan, size, export and run. At a limit every command accepts the model; beyond
// it every command refuses it with the same exit code and the same reason.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/cli_testutil.h"
#include "model/writer.h"
#include "rules/limits.h"

namespace arenaplan::testing {
namespace {

using model::ModelSpec;
using model::OperatorSpec;
using model::OptionsKind;
using model::TensorType;
constexpr int32_t kCallOnce = 129;

OperatorSpec CallOnce(ModelSpec& spec, int32_t init) {
  OperatorSpec op{model::AddOperatorCode(spec, kCallOnce), {}, {}};
  op.options.kind = OptionsKind::kCallOnce;
  op.options.subgraph_a = init;
  return op;
}

// `n` zero-size tensors (nothing to plan) in one subgraph.
ModelSpec Tensors(uint32_t n) {
  ModelSpec spec;
  spec.subgraphs.resize(1);
  spec.subgraphs[0].tensors.assign(n, {"t", TensorType::kFloat32, {0}});
  return spec;
}

ModelSpec Subgraphs(uint32_t n) {
  ModelSpec spec;
  spec.subgraphs.resize(n);
  return spec;
}

// `n` CALL_ONCEs of an empty subgraph.
ModelSpec Operators(uint32_t n) {
  ModelSpec spec;
  spec.subgraphs.resize(2);
  spec.subgraphs[0].operators.assign(n, CallOnce(spec, 1));
  return spec;
}

// Subgraph s CALL_ONCEs subgraph s + 1, `levels` deep.
ModelSpec Depth(uint32_t levels) {
  ModelSpec spec;
  spec.subgraphs.resize(levels + 1);
  for (uint32_t s = 0; s < levels; ++s) spec.subgraphs[s].operators = {CallOnce(spec, static_cast<int32_t>(s + 1))};
  return spec;
}

// 1000 (+ extra) CALL_ONCEs of subgraph 1, which has 999 of an empty subgraph 2:
// 1000 + extra + 1000 x 999 operator visits of the lifetime walk.
ModelSpec Visits(uint32_t extra) {
  ModelSpec spec;
  spec.subgraphs.resize(3);
  spec.subgraphs[0].operators.assign(1000 + extra, CallOnce(spec, 1));
  spec.subgraphs[1].operators.assign(999, CallOnce(spec, 2));
  return spec;
}

// A constant [4] float tensor whose data lies behind the flatbuffer at `offset` (large-model
// style); the file is padded so that offset 64 is inside it.
ModelSpec External(uint64_t offset) {
  ModelSpec spec;
  spec.subgraphs.resize(1);
  const uint32_t b = model::AddBuffer(spec, {});
  spec.subgraphs[0].tensors = {{"c", TensorType::kFloat32, {4}, b}};
  spec.external_buffers = {{b, offset, 16}};
  return spec;
}

ModelSpec Bytes(uint64_t bytes) {
  ModelSpec spec;
  spec.subgraphs.resize(1);
  spec.subgraphs[0].tensors = {{"big", TensorType::kInt8, {static_cast<int32_t>(bytes)}}};
  return spec;
}

struct Verdicts {
  std::vector<CliRun> runs;  // inspect, plan, size, export, run
};

Verdicts RunAll(const ModelSpec& spec) {
  const std::string dir = TempDir();
  const std::string path = dir + "/m.tflite";
  WriteBytes(path, model::WriteModel(spec));
  Verdicts v;
  for (std::vector<std::string> args : {std::vector<std::string>{"inspect", path},
                                        {"plan", path},
                                        {"size", path},
                                        {"export", path, "-o", dir + "/out.tflite"},
                                        {"run", path}}) {
    v.runs.push_back(RunCli(args));
  }
  return v;
}

const char* const kCommands[] = {"inspect", "plan", "size", "export", "run"};

void ExpectAccepted(const ModelSpec& spec) {
  const Verdicts v = RunAll(spec);
  for (size_t c = 0; c < v.runs.size(); ++c) EXPECT_EQ(v.runs[c].exit_code, 0) << kCommands[c] << ": " << v.runs[c].err;
}

void ExpectRefused(const ModelSpec& spec, int exit_code, const std::string& reason) {
  const Verdicts v = RunAll(spec);
  for (size_t c = 0; c < v.runs.size(); ++c) {
    EXPECT_EQ(v.runs[c].exit_code, exit_code) << kCommands[c] << ": " << v.runs[c].err;
    EXPECT_NE(v.runs[c].err.find(reason), std::string::npos) << kCommands[c] << ": " << v.runs[c].err;
  }
}

TEST(Limits, TensorCount) {
  ExpectAccepted(Tensors(rules::kMaxTensors));
  ExpectRefused(Tensors(rules::kMaxTensors + 1), 1, "model has 32769 tensors over all subgraphs, more than 32768");
}

TEST(Limits, SubgraphCount) {
  ExpectAccepted(Subgraphs(rules::kMaxSubgraphs));
  ExpectRefused(Subgraphs(rules::kMaxSubgraphs + 1), 1, "model has 65536 subgraphs, more than 65535");
}

TEST(Limits, OperatorCount) {
  ExpectAccepted(Operators(rules::kMaxOperators - 1));  // + 0 in subgraph 1
  ExpectRefused(Operators(rules::kMaxOperators + 1), 1,
                "model has 65537 operators over all subgraphs, more than 65536");
}

TEST(Limits, CallDepth) {
  ExpectAccepted(Depth(rules::kMaxCallDepth));
  ExpectRefused(Depth(rules::kMaxCallDepth + 1), 1, "control flow nested deeper than 16 subgraphs");
}

TEST(Limits, OperatorVisits) {
  ExpectAccepted(Visits(0));  // exactly 1,000,000
  ExpectRefused(Visits(1), 1, "control flow expands to more than 1000000 operator visits");
}

TEST(Limits, CyclicCallsAreBadInputEverywhere) {
  ModelSpec spec = Depth(2);
  spec.subgraphs[2].operators = {CallOnce(spec, 1)};
  ExpectRefused(spec, 2, "cyclic subgraph calls: subgraph 1 -> 2 -> 1");
}

TEST(Limits, BufferDataOutsideTheFile) {
  ExpectAccepted(External(8));  // inside the (larger) file
  ExpectRefused(External(1 << 20), 2, "buffer 1: offset 1048576 + size 16 lies outside the file");
}

TEST(Limits, BytesPerBuffer) {
  // At the limit the host tools accept it and the runtime has no 2 GiB arena (exit 1, arena full);
  // beyond it every command says why.
  ExpectRefused(Bytes(uint64_t{rules::kMaxBufferBytes} + 1), 1,
                "subgraph 0, tensor 0 (big): 2147483633 bytes, more than the 2147483632 a buffer may have");
}

}  // namespace
}  // namespace arenaplan::testing

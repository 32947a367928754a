// Models written by `optimize --for arenaplan` with in-place ops in their schedule run with every
// planner `run` takes: in-place depthwise / ADD (tflm_mobilenet_v2_pt_int8) and in-place
// QUANTIZE from float, whose input the runtime splits into a tied pair (tinyengine_vww), and streams
// writing their output over their input's read rows, stacked ties (mlperf_vww_mobilenet_int8).
// `run --planner P` gives TFLM's golden bytes, and its head is the height of P's plan of the
// runtime's own problem (aliases and ties applied), recorded here in process: host planners
// compile that plan in and the runtime accepts it (best: the lower of that and the runtime's own
// plan). A compiled plan that breaks the tie is refused, naming the tensors; a region plan keeps it.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/cli_testutil.h"
#include "plan/planner.h"
#include "plan/ties.h"
#include "rules/limits.h"
#include "runtime/interpreter.h"
#include "support/shared_dir.h"
#include "util/aligned_bytes.h"

namespace arenaplan::testing {
namespace {

struct Case {
  const char* model;
  bool tied;  // has tied pairs in the runtime's problem (an in-place QUANTIZE from float, a stream
              // writing its output over its input)
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.model; }  // stable test names for ctest

std::string Io(const std::string& model) { return *SharedDir() + "/golden/tflm-x86_64/io/" + model; }

// `optimize --for arenaplan` once per model for the whole binary; "" on failure (reported).
std::string Optimized(const std::string& model) {
  static std::map<std::string, std::string> done;
  auto it = done.find(model);
  if (it != done.end()) return it->second;
  const std::string out = TempDir() + "/" + model + ".tflite";
  const CliRun r = RunCli({"optimize", *SharedDir() + "/models/" + model + ".tflite", "-o", out, "--for", "arenaplan"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return done[model] = r.exit_code == 0 ? out : "";
}

// The runtime's planning problem as AllocateTensors records it (rt::PlanCopy).
struct Recorded {
  std::vector<rt::PlanBuffer> problem = std::vector<rt::PlanBuffer>(rules::kMaxPlanBuffers);
  std::vector<int32_t> offsets = std::vector<int32_t>(rules::kMaxPlanBuffers);
  std::vector<uint16_t> above = std::vector<uint16_t>(rules::kMaxPlanBuffers, 0xFFFFu);
  rt::PlanCopy copy{problem.data(), offsets.data(), rules::kMaxPlanBuffers, 0, above.data()};
  uint32_t head = 0;
  uint32_t in_place_ops = 0;
  uint32_t stream_overlaps = 0;
};

constexpr size_t kArena = 64u << 20;

// Allocates `model` with `options` (plan copy added); the error message on failure.
std::string Allocate(const std::vector<uint8_t>& model, rt::InterpreterOptions options, Recorded* rec) {
  const AlignedBytes arena(kArena);
  options.plan_copy = &rec->copy;
  rt::Interpreter interp(model.data(), model.size(), rt::AllOpsResolver(), arena.data(), kArena, options);
  if (interp.AllocateTensors() != rt::StatusCode::kOk) return interp.error_message();
  rec->head = interp.memory_record().head_bytes;
  rec->in_place_ops = interp.memory_record().in_place_ops;
  rec->stream_overlaps = interp.memory_record().stream_overlaps;
  return "";
}

// The recorded problem as a plain one (zero-byte buffers left out; index[i] = problem buffer or -1).
plan::Problem PlainProblem(const Recorded& r, std::vector<int64_t>* index, std::vector<plan::Tie>* ties) {
  plan::Problem p;
  index->assign(r.copy.count, -1);
  for (uint32_t i = 0; i < r.copy.count; ++i) {
    const rt::PlanBuffer& b = r.problem[i];
    if (b.size == 0) continue;
    (*index)[i] = static_cast<int64_t>(p.buffers.size());
    p.buffers.push_back(plan::Buffer{b.size, b.first, std::max(b.first, b.last), plan::kUnfixed,
                                     static_cast<plan::Bytes>(rules::kBufferAlignment)});
  }
  for (uint32_t i = 0; i < r.copy.count; ++i) {
    if ((*index)[i] < 0) continue;
    uint32_t j = r.above[i];
    while (j != 0xFFFFu && (*index)[j] < 0) j = r.above[j];  // a zero-byte part occupies nothing
    if (j != 0xFFFFu) ties->push_back(plan::Tie{static_cast<size_t>((*index)[i]), static_cast<size_t>((*index)[j])});
  }
  return p;
}

// The optimized model, the problem the runtime records for it under its own planner, and that
// problem as a plain one with its ties.
struct Loaded {
  std::string path;
  std::vector<uint8_t> bytes;
  Recorded rec;
  std::vector<int64_t> index;
  std::vector<plan::Tie> ties;
  plan::Problem problem;
};
// "" on success, else what failed.
std::string Load(const std::string& model, Loaded* l) {
  l->path = Optimized(model);
  if (l->path.empty()) return "optimize failed";
  l->bytes = ReadFileBytes(l->path);
  const std::string error = Allocate(l->bytes, {}, &l->rec);
  if (!error.empty()) return error;
  l->problem = PlainProblem(l->rec, &l->index, &l->ties);
  return "";
}

class InPlaceRun : public ::testing::TestWithParam<Case> {};

TEST_P(InPlaceRun, EveryPlannerGivesTflmBytesWithThePlannedHead) {
  REQUIRE_SHARED();
  const Case c = GetParam();
  Loaded l;
  ASSERT_EQ(Load(c.model, &l), "");
  const std::string& model = l.path;
  const Recorded& rec = l.rec;
  const std::vector<plan::Tie>& ties = l.ties;
  if (c.tied) {
    EXPECT_FALSE(ties.empty());
  }
  ASSERT_TRUE(rec.in_place_ops > 0 || !ties.empty()) << "the optimized model should share buffers (in place or tied)";
  const std::vector<uint8_t> golden = ReadFileBytes(Io(c.model) + ".out0.bin");
  ASSERT_FALSE(golden.empty());
  int planners = 0;
  for (const plan::PlannerEntry& p : plan::Planners()) {
    SCOPED_TRACE(p.name);
    ++planners;
    uint64_t head = rec.head;  // tflm-greedy: the runtime's own plan
    if (p.name != "tflm-greedy") {
      auto planned = plan::PlanAndVerifyTied(l.problem, ties, p.name);
      ASSERT_TRUE(planned.ok()) << planned.status().message();
      head = static_cast<uint64_t>(planned->plan.height);
      // best weighs the runtime's own tie-aware tflm-greedy plan too (the host merges each pair).
      if (p.name == "best" && !ties.empty()) head = std::min<uint64_t>(head, rec.head);
    }
    const std::string out = TempDir() + "/o";
    const CliRun r = RunCli(
        {"run", model, "--planner", p.name, "--inputs-from", Io(c.model), "--outputs-to", out, "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["plan_source"].get<std::string>(), p.name == "tflm-greedy" ? "tflm-greedy" : "compiled");
    EXPECT_EQ(j["head_bytes"].get<uint64_t>(), head);
    EXPECT_EQ(j["in_place_ops"].get<uint32_t>(), rec.in_place_ops);
    EXPECT_EQ(j["stream_overlaps"].get<uint32_t>(), rec.stream_overlaps);
    EXPECT_EQ(ReadFileBytes(out + ".out0.bin"), golden) << "output 0 differs from TFLM's";
  }
  EXPECT_GE(planners, 5);
}

INSTANTIATE_TEST_SUITE_P(Optimized, InPlaceRun,
                         ::testing::Values(Case{"tflm_mobilenet_v2_pt_int8", false}, Case{"tinyengine_vww", true},
                                           Case{"mlperf_vww_mobilenet_int8", true}),
                         [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.model); });

// The runtime checks a compiled plan against its own problem, ties included: the host's plan is
// accepted with the head it says, and the same plan with the upper part of a tie moved is refused.
TEST(InPlaceRun, CompiledPlanMustKeepTheTie) {
  REQUIRE_SHARED();
  Loaded l;
  ASSERT_EQ(Load("tinyengine_vww", &l), "");
  const std::vector<uint8_t>& bytes = l.bytes;
  const Recorded& rec = l.rec;
  const std::vector<int64_t>& index = l.index;
  ASSERT_FALSE(l.ties.empty());
  auto planned = plan::PlanAndVerifyTied(l.problem, l.ties, "best-fit");
  ASSERT_TRUE(planned.ok()) << planned.status().message();
  std::vector<int32_t> offsets(rec.copy.count, 0);
  for (uint32_t i = 0; i < rec.copy.count; ++i) {
    if (index[i] >= 0) offsets[i] = static_cast<int32_t>(planned->plan.offsets[static_cast<size_t>(index[i])]);
  }
  const rt::CompiledPlan compiled{offsets.data(), rec.copy.count, static_cast<uint32_t>(planned->plan.height)};
  rt::InterpreterOptions options;
  options.compiled_plan = &compiled;
  Recorded again;
  ASSERT_EQ(Allocate(bytes, options, &again), "");
  EXPECT_EQ(int64_t{again.head}, planned->plan.height);
  EXPECT_EQ(again.in_place_ops, rec.in_place_ops);
  for (uint32_t i = 0; i < rec.copy.count; ++i) EXPECT_EQ(again.offsets[i], offsets[i]) << "buffer " << i;

  uint32_t upper = 0;
  while (rec.above[upper] == 0xFFFFu) ++upper;
  upper = rec.above[upper];
  std::vector<int32_t> broken = offsets;
  broken[upper] = static_cast<int32_t>(planned->plan.height);  // above everything: no overlap, tie broken
  const rt::CompiledPlan bad{broken.data(), rec.copy.count,
                             static_cast<uint32_t>(planned->plan.height + rec.problem[upper].size)};
  options.compiled_plan = &bad;
  Recorded refused;
  const std::string error = Allocate(bytes, options, &refused);
  EXPECT_NE(error.find("directly on buffer"), std::string::npos) << error;
  EXPECT_NE(error.find("tensor"), std::string::npos) << error;
}

// A region plan compiles the same problem in: the tied pair is one buffer of the region problem,
// so it lands in one region in one piece, and the outputs are TFLM's.
TEST(InPlaceRun, RegionPlanKeepsTheTie) {
  REQUIRE_SHARED();
  const std::string model = Optimized("tinyengine_vww");
  ASSERT_FALSE(model.empty());
  const std::string out = TempDir() + "/o";
  const CliRun r = RunCli({"run", model, "--region", "sram:60000", "--region", "dram:200000", "--inputs-from",
                           Io("tinyengine_vww"), "--outputs-to", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("compiled regions"), std::string::npos) << r.out;
  EXPECT_EQ(ReadFileBytes(out + ".out0.bin"), ReadFileBytes(Io("tinyengine_vww") + ".out0.bin"));
}

}  // namespace
}  // namespace arenaplan::testing

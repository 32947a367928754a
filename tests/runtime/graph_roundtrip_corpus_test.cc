// The runtime gives identical results on a model and on its editable-graph round trip
// (model::ReadGraph -> WriteGraph): same AllocateTensors status, same outputs byte for byte on the
// golden inputs, for every corpus model with golden io files.
#include <gtest/gtest.h>

#include <cstring>

#include "golden_testutil.h"
#include "model/graph.h"
#include "support/shared_dir.h"

namespace arenaplan::testing {
namespace {

constexpr size_t kArena = 8u << 20;

// Status of AllocateTensors + Invoke and the output bytes.
struct Outcome {
  rt::StatusCode status = rt::StatusCode::kOk;
  std::vector<std::vector<uint8_t>> outputs;
};

Outcome RunOnce(std::vector<uint8_t> bytes, const GoldenModel& m) {
  auto run = MakeRun(std::move(bytes), kArena);
  Outcome o;
  o.status = run->interp->AllocateTensors();
  if (o.status != rt::StatusCode::kOk) return o;
  for (uint32_t k = 0; k < run->interp->inputs_size(); ++k) {
    const rt::TensorView in = run->interp->input(k);
    const auto data = ReadFileBytes(IoPath(m, "in" + std::to_string(k)));
    if (data.size() != in.bytes) return o.status = rt::StatusCode::kBadArgument, o;
    std::memcpy(in.data, data.data(), data.size());
  }
  o.status = run->interp->Invoke();
  for (uint32_t k = 0; k < run->interp->outputs_size(); ++k) {
    const rt::TensorView out = run->interp->output(k);
    const auto* p = static_cast<const uint8_t*>(out.data);
    o.outputs.emplace_back(p, p + out.bytes);
  }
  return o;
}

TEST(GraphRoundTripCorpus, RuntimeOutputsIdentical) {
  REQUIRE_SHARED();
  const auto models = GoldenIoModels();
  ASSERT_GT(models.size(), 100u);
  size_t ran = 0;
  for (const auto& m : models) {
    SCOPED_TRACE(m.model);
    const auto bytes = ReadFileBytes(ModelPath(m));
    auto graph = model::ReadGraph(bytes.data(), bytes.size());
    ASSERT_TRUE(graph.ok()) << graph.status().ToString();
    auto written = model::WriteGraph(**graph);
    ASSERT_TRUE(written.ok()) << written.status().ToString();
    const Outcome a = RunOnce(bytes, m);
    const Outcome b = RunOnce(*written, m);
    ASSERT_EQ(a.status, b.status);
    ASSERT_EQ(a.outputs, b.outputs);
    ran += a.status == rt::StatusCode::kOk ? 1 : 0;
  }
  std::printf("graph round trip: %zu of %zu golden-io models run, outputs identical\n", ran, models.size());
  EXPECT_GT(ran, 100u);
}

}  // namespace
}  // namespace arenaplan::testing

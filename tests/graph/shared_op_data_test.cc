// Patch copies of one convolution share its per-channel multipliers and shifts in the runtime when
// the model carries an arenaplan schedule: by hand, a 2x2 grid over two 16-channel 1x1
// convolutions allocates 3 copies x 2 convolutions x 2 arrays of 64 bytes fewer, and one 48-byte
// header (16 + a 32-byte key on a 64-bit host) per unique array (2 per convolution, 3
// convolutions); the outputs stay the same.
#include <gtest/gtest.h>

#include "graph/edit.h"
#include "graph/patch.h"
#include "graph_testutil.h"
#include "rules/schedule.h"
#include "runtime/interpreter.h"
#include "runtime/op_resolver.h"
#include "util/aligned_bytes.h"

namespace arenaplan::testing {
namespace {

rt::MemoryRecord Record(const std::vector<uint8_t>& model) {
  const AlignedBytes arena(1u << 20);
  rt::Interpreter interp(model.data(), model.size(), rt::AllOpsResolver(), arena.data(), arena.size());
  EXPECT_EQ(interp.AllocateTensors(), rt::StatusCode::kOk) << interp.error_message();
  return interp.memory_record();
}

TEST(SharedOpData, PatchCopiesShareTheirMultipliers) {
  static_assert(sizeof(void*) == 8, "the hand-derived header size assumes a 64-bit host");
  Builder b(false);
  const int32_t in = b.Activation("input", {1, 8, 8, 3});
  int32_t x = b.Conv(in, 16, 1, 1, true);
  x = b.Conv(x, 16, 1, 1, true);
  const int32_t y = b.Conv(x, 2, 1, 1, true);
  const auto model = b.Finish({in}, {y});
  auto g = model::ReadGraph(model.data(), model.size());
  ASSERT_TRUE(g.ok());
  auto prefix = graph::AnalyzePrefix(**g, 2);
  ASSERT_TRUE(prefix.ok());
  auto patched = graph::PatchPrefix(**g, *prefix, {2, 2});
  ASSERT_TRUE(patched.ok());
  auto plain = model::WriteGraph(*patched->graph);
  ASSERT_TRUE(plain.ok());
  // An empty schedule: nothing but the mark that the model is for arenaplan's runtime.
  graph::SetMetadata(*patched->graph, rules::kScheduleMetadataName, std::string("\1\0\0\0\0\0\0\0", 8));
  auto marked = model::WriteGraph(*patched->graph);
  ASSERT_TRUE(marked.ok());
  std::string error;
  const auto want = RunModel(model, &error);
  ASSERT_FALSE(want.empty()) << error;
  EXPECT_EQ(RunModel(*plain, &error), want) << error;
  EXPECT_EQ(RunModel(*marked, &error), want) << error;
  const uint32_t unshared = Record(*plain).op_data_bytes, shared = Record(*marked).op_data_bytes;
  EXPECT_EQ(shared, unshared - 3 * 2 * 2 * 64 + 3 * 2 * 48);
}

}  // namespace
}  // namespace arenaplan::testing

// Traffic per planned buffer (lifetime/traffic.h) on a hand-drawn graph; expected figures by hand.
#include "lifetime/traffic.h"

#include <gtest/gtest.h>

#include "model/writer.h"

namespace arenaplan::lifetime {
namespace {

//   in [1,4] f32 (16 B) --ADD(in, in)--> a (16 B) --ADD(a, in)--> out (16 B), model output
//   op 0 requests a 40-byte scratch buffer.
// in:  written by the application, read by op 0 (once, though listed twice) and op 1: 3 x 16 = 48
// a:   written by op 0, read by op 1: 2 x 16 = 32
// out: written by op 1, read by the application: 2 x 16 = 32
// scratch0: written and read by op 0: 2 x 40 = 80
TEST(BufferTraffic, WriterPlusReadersByHand) {
  model::ModelSpec spec;
  const uint32_t add = model::AddOperatorCode(spec, 0);
  model::SubgraphSpec sg;
  for (const char* name : {"in", "a", "out"}) sg.tensors.push_back({name, model::TensorType::kFloat32, {1, 4}});
  sg.inputs = {0};
  sg.outputs = {2};
  sg.operators.push_back({add, {0, 0}, {1}});
  sg.operators.push_back({add, {1, 0}, {2}});
  spec.subgraphs.push_back(sg);
  const std::vector<uint8_t> bytes = model::WriteModel(spec);
  auto m = model::ReadModel(bytes.data(), bytes.size());
  ASSERT_TRUE(m.ok()) << m.status().message();
  Options options;
  options.scratch = {{40, 0}};
  auto lt = ComputeLifetimes(*m, options);
  ASSERT_TRUE(lt.ok()) << lt.status().message();
  ASSERT_EQ(lt->buffers.size(), 4u);
  EXPECT_EQ(lt->buffers[3].id, "scratch0");
  EXPECT_EQ(BufferTraffic(*m, *lt), (std::vector<int64_t>{48, 32, 32, 80}));
}

}  // namespace
}  // namespace arenaplan::lifetime

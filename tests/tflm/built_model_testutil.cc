#include "built_model_testutil.h"

#include <gtest/gtest.h>

#include <utility>

namespace arenaplan::tflm::testing {

BuiltModel BuildModel(const model::ModelSpec& spec) {
  BuiltModel b;
  b.bytes = model::WriteModel(spec);
  auto m = model::ReadModel(b.bytes.data(), b.bytes.size());
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  if (m.ok()) b.model = std::move(*m);
  return b;
}

}  // namespace arenaplan::tflm::testing

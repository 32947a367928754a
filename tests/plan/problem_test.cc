// ValidateProblem's limit (plan/problem.h): every buffer's size + alignment - 1 summed, and the
// online ones' summed plus the highest fixed end, at most kMaxTotalBytes; exactly at the limit
// is fine, one byte above is an error.
#include "plan/problem.h"

#include <gtest/gtest.h>

#include "plan/plan_testutil.h"

namespace arenaplan::plan {
namespace {

using testing::MakeProblem;

constexpr Bytes kHalf = kMaxTotalBytes / 2;
constexpr Bytes kQuarter = kMaxTotalBytes / 4;

TEST(ValidateProblem, FixedBuffersCountOnceAtTheirEnd) {
  // Sizes sum to 3/4 of the limit, and with the fixed end counted too to 5/4: a plan written
  // back with its offsets (everything fixed) must still be a valid problem.
  EXPECT_TRUE(ValidateProblem(MakeProblem({{kHalf, 0, 3, kQuarter}, {kQuarter, 0, 3, 0}})).ok());
}

TEST(ValidateProblem, OnlineSizesPlusTheHighestFixedEndAtMostTheLimit) {
  // A fixed buffer ending at 3/4 of the limit; online buffers above it fill the rest exactly.
  EXPECT_TRUE(ValidateProblem(MakeProblem({{kQuarter, 0, 3, kHalf}, {kQuarter, 1, 2}})).ok());
  const Status over = ValidateProblem(MakeProblem({{kQuarter, 0, 3, kHalf}, {kQuarter + 1, 1, 2}}));
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.message().find("online sizes plus the highest fixed end exceed"), std::string::npos) << over.message();
}

TEST(ValidateProblem, AllSizesAtMostTheLimit) {
  EXPECT_TRUE(ValidateProblem(MakeProblem({{kHalf, 0, 3}, {kHalf, 5, 8}})).ok());
  const Status over = ValidateProblem(MakeProblem({{kHalf, 0, 3, 0}, {kHalf + 1, 5, 8, 0}}));
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.message().find("total bytes exceed"), std::string::npos) << over.message();
}

}  // namespace
}  // namespace arenaplan::plan

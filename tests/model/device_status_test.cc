// model/device_status.h: the one mapping from rules/'s status codes to host error classes.
#include "model/device_status.h"

#include <gtest/gtest.h>

namespace arenaplan {
namespace {

TEST(DeviceStatus, OneMappingToExitClasses) {
  EXPECT_TRUE(StatusOf(rules::StatusCode::kOk, "").ok());
  EXPECT_EQ(ErrorCodeOf(rules::StatusCode::kInvalidModel), ErrorCode::kInvalidArgument);
  EXPECT_EQ(ErrorCodeOf(rules::StatusCode::kBadArgument), ErrorCode::kInvalidArgument);
  EXPECT_EQ(ErrorCodeOf(rules::StatusCode::kKernelError), ErrorCode::kInvalidArgument);
  EXPECT_EQ(ErrorCodeOf(rules::StatusCode::kUnsupported), ErrorCode::kUnsupported);
  EXPECT_EQ(ErrorCodeOf(rules::StatusCode::kArenaFull), ErrorCode::kInfeasible);
  EXPECT_EQ(StatusOf(rules::StatusCode::kUnsupported, "too deep").message(), "too deep");
}

}  // namespace
}  // namespace arenaplan

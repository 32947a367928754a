// The one mapping from the device-grade codes of rules/ and the runtime (rules/status.h) to the
// host's error classes, so that a verdict reached on either side gives the same exit code:
//   kInvalidModel, kBadArgument, kBadState, kKernelError -> kInvalidArgument (exit 2)
//   kUnsupported                                          -> kUnsupported (exit 1)
//   kArenaFull                                            -> kInfeasible (exit 1)
#pragma once

#include <string>

#include "rules/status.h"
#include "util/result.h"

namespace arenaplan {

inline ErrorCode ErrorCodeOf(rules::StatusCode code) {
  switch (code) {
    case rules::StatusCode::kOk: return ErrorCode::kOk;
    case rules::StatusCode::kUnsupported: return ErrorCode::kUnsupported;
    case rules::StatusCode::kArenaFull: return ErrorCode::kInfeasible;
    default: return ErrorCode::kInvalidArgument;
  }
}

// A Status for a device-grade result and its message (OK for kOk).
inline Status StatusOf(rules::StatusCode code, const char* message) {
  if (code == rules::StatusCode::kOk) return Status::Ok();
  return Status(ErrorCodeOf(code), message);
}

}  // namespace arenaplan

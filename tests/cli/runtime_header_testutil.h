// A runtime header (`export --c-header` with --region / --external-io / --keep) read back from its
// text alone, and run in the runtime as firmware would use it: the arrays become the
// rt::CompiledPlan, one 16-aligned buffer of region_bytes[r] per region r >= 1, a main arena of
// ARENA_BYTES, the header's external_io and kept tensors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/op_resolver.h"
#include "runtime/status.h"

namespace arenaplan::testing {

struct RuntimeHeader {
  std::vector<int64_t> offsets, regions, region_bytes, keep;
  int64_t arena_bytes = -1, head_bytes = -1, plan_count = -1, region_count = -1, external_io = -1, keep_count = -1;
};

// The macro `#define <ANY>_<NAME> <N>u` (-1 when absent).
int64_t HeaderMacro(const std::string& text, const std::string& name);
// The integers of `static const T <any>_<name>[N] = {...};` (empty when absent).
std::vector<int64_t> HeaderArray(const std::string& text, const std::string& name);
RuntimeHeader ParseRuntimeHeader(const std::string& text);

struct HeaderRun {
  rt::StatusCode allocate = rt::StatusCode::kOk, invoke = rt::StatusCode::kOk;
  std::string error;
  std::vector<std::vector<uint8_t>> outputs;
};

// One Invoke of `model` with the header's plan; input k is inputs[k] (zeros when absent). External
// inputs / outputs are bound to buffers of their own. arena_bytes < 0: the header's ARENA_BYTES;
// kernels nullptr: the portable ones (AllOpsResolver).
HeaderRun RunWithHeader(const std::vector<uint8_t>& model, const RuntimeHeader& h,
                        const std::vector<std::vector<uint8_t>>& inputs, int64_t arena_bytes = -1,
                        const rt::OpResolver* kernels = nullptr);

}  // namespace arenaplan::testing

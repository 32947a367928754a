// Maps a model's operator codes to kernels. A resolver is a constant table (no mutable state), so
// firmware can pass a short table to drop unused kernels from flash; a table may fall back to
// another for the codes it lacks (e.g. fast kernels in front of the portable ones). Lookup is a
// linear scan, O(entries) along the chain, done once per operator code in AllocateTensors.
#pragma once

#include <cstdint>

#include "runtime/kernel_api.h"

namespace arenaplan::rt {

struct OpResolverEntry {
  int32_t builtin_code;     // tfl::BuiltinOperator value; CUSTOM (32) for custom ops
  const char* custom_code;  // custom op name, nullptr for builtins
  const KernelRegistration* (*registration)();
};

struct OpResolver {
  const OpResolverEntry* entries;
  uint32_t count;
  const OpResolver& (*fallback)() = nullptr;  // searched when `entries` has no match
};

// Every kernel arenaplan has (kernels/op_table.cc).
const OpResolver& AllOpsResolver();

// The kernel for a builtin code / custom name, or nullptr when the resolver has none.
const KernelRegistration* FindKernel(const OpResolver& resolver, int32_t builtin_code, const char* custom_code);

}  // namespace arenaplan::rt

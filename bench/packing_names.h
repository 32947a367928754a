// The packing benchmarks' instances by name (bench-local): packing_bench prints them as
// <variant>-<buffers>-p<pinwheel %>-s<seed> (perfect-800-p20-s19), and the probes take the same
// names, so that an instance seen in one table can be looked at in another. One seed formula for
// all of them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "plan/packing_problem.h"

namespace arenaplan::bench {

// The generator's options for `seed` of a (variant, size, pinwheel share) class. Seeds of
// different variants overlap (perfect s(k + 21) is headroom s(k)): kept, as the README's seed
// tables rely on it.
inline plan::PackingOptions PackingBenchOptions(plan::PackingVariant variant, size_t buffers, double pinwheel_share,
                                                int seed) {
  plan::PackingOptions o;
  o.variant = variant;
  o.buffers = buffers;
  o.pinwheel_share = pinwheel_share;
  o.seed = 1000003ull * buffers + 101ull * static_cast<uint64_t>(pinwheel_share * 100) +
           7ull * static_cast<uint64_t>(variant) + static_cast<uint64_t>(seed);
  return o;
}

inline std::string PackingBenchName(const plan::PackingOptions& o, int seed) {
  char name[64];
  std::snprintf(name, sizeof name, "%s-%zu-p%02d-s%d", plan::PackingVariantName(o.variant), o.buffers,
                static_cast<int>(o.pinwheel_share * 100), seed);
  return name;
}

// The options of a name as PackingBenchName writes it ("-s<seed>" may be left out: seed 0);
// nothing for anything else.
inline std::optional<plan::PackingOptions> ParsePackingBenchName(const std::string& name) {
  char variant[16];
  unsigned buffers = 0;
  int pin = 0, seed = 0, used = 0;
  const int got = std::sscanf(name.c_str(), "%15[a-z]-%u-p%d%n-s%d%n", variant, &buffers, &pin, &used, &seed, &used);
  if (got < 3 || static_cast<size_t>(used) != name.size() || pin < 0 || pin > 100 || seed < 0) return std::nullopt;
  for (plan::PackingVariant v : {plan::PackingVariant::kPerfect, plan::PackingVariant::kSlack,
                                 plan::PackingVariant::kHeadroom, plan::PackingVariant::kGadget}) {
    if (std::string(variant) == plan::PackingVariantName(v)) return PackingBenchOptions(v, buffers, pin / 100.0, seed);
  }
  return std::nullopt;
}

}  // namespace arenaplan::bench

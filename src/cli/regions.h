// `plan --region NAME:BYTES[:COST]`: parsing region specs and the multi-region pipeline (load,
// lifetimes without the model's offline plan, traffic, plan::PlanRegions, which verifies).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/planning.h"
#include "plan/region_planner.h"

namespace arenaplan::cli {

// "sram:512K:2" -> {sram, 524288, 2}. BYTES: decimal digits with an optional binary suffix K, M or
// G (either case); COST: a decimal integer, default 1. InvalidArgument naming the spec otherwise
// (an empty or odd name, a bad suffix, zero, a negative or non-numeric size or cost).
Result<plan::Region> ParseRegion(const std::string& spec);

struct RegionPlannedData {
  std::unique_ptr<LoadedModel> loaded;
  lifetime::Lifetimes lifetimes;
  plan::RegionProblem problem;
  plan::RegionResult result;
  uint32_t alignment = 0;
  bool offline_plan_ignored = false;  // the model has an offline plan, which is for one arena
};

// Plans the model's buffers over the regions; the result may not fit (see RegionResult::fits).
Result<std::unique_ptr<RegionPlannedData>> PlanModelRegions(const PlanningArgs& args,
                                                            const std::vector<std::string>& specs);

// The one-line "does not fit" message: the shortfall and, when the largest buffer exceeds every
// region, that buffer's id and name.
std::string RegionShortfallMessage(const RegionPlannedData& data);

}  // namespace arenaplan::cli

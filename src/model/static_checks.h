// Checks on a parsed model that go beyond well-formedness: the offline plan's validity and what a
// static (ahead-of-time) planner cannot handle. Implemented in src/model (reader side).
#pragma once

#include <string>
#include <vector>

#include "model/model.h"
#include "util/result.h"

namespace arenaplan::model {

// OK when the model has no offline plan, or its OfflineMemoryAllocation entry is well formed:
// count equals the total tensor count, offsets >= 0 or -1, data 4-byte aligned and complete.
Status ValidateOfflinePlan(const Model& model);

// One precise line per problem: dynamic (-1) dims other than batch, STRING tensors, ...
// Empty when every tensor can be planned statically.
std::vector<std::string> StaticPlanningProblems(const Model& model);

}  // namespace arenaplan::model

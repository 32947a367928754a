// What a static (ahead-of-time) arena planner cannot handle in a model: tensors whose size is not
// known from the flatbuffer. O(tensors x rank).
#pragma once

#include <string>
#include <vector>

#include "model/model.h"

namespace arenaplan::model {

// One line per problem, naming subgraph, tensor and the reason: STRING / VARIANT (or other unsized)
// tensor types, dynamic (-1) dimensions in shape_signature other than the batch dimension (dim 0),
// sparse tensors that are not constant. Empty when every planned size is static.
std::vector<std::string> StaticPlanningProblems(const Model& model);

}  // namespace arenaplan::model

// Text and JSON views of a model for `arenaplan inspect`. JSON layout (documented in the README):
//   {"model", "version", "description", "operator_set": [names, first use order],
//    "subgraphs": [{"index", "name", "inputs", "outputs",
//        "tensors": [{"index", "name", "dtype", "shape", "shape_signature", "bytes",
//                     "constant", "variable", "input", "output", "buffer", "quantization"}],
//        "operators": [{"index", "op", "version", "inputs", "outputs", "intermediates",
//                       "called_subgraphs"}]}],
//    "metadata": [{"name", "buffer", "bytes"}],
//    "offline_plan": null | {"valid", "error", "version", "count", "offsets"},
//    "static_planning_problems": [strings]}
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model.h"
#include "util/result.h"

namespace arenaplan::report {

struct InspectedModel {
  std::string model;  // path as given
  const model::Model* parsed = nullptr;
  Status offline_plan_status;                // validation of the offline plan (if any)
  std::vector<std::string> static_problems;  // what a static planner cannot handle
};

// The checks `inspect` reports (offline plan validity, what a static planner cannot handle).
InspectedModel Inspect(const std::string& model_path, const model::Model& parsed);

// Distinct operator names in order of first use, subgraph 0 first.
std::vector<std::string> OperatorSet(const model::Model& model);

nlohmann::json InspectToJson(const InspectedModel& inspected);
std::string InspectToText(const InspectedModel& inspected);

}  // namespace arenaplan::report

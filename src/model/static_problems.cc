#include "model/static_problems.h"

namespace arenaplan::model {

std::vector<std::string> StaticPlanningProblems(const Model& model) {
  std::vector<std::string> problems;
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const Subgraph& sg = model.subgraphs[s];
    for (size_t t = 0; t < sg.tensors.size(); ++t) {
      const Tensor& tensor = sg.tensors[t];
      const std::string where = "subgraph " + std::to_string(s) + ", tensor " + std::to_string(t) + " (" + tensor.name +
                                "): ";
      if (!tensor.bytes) { problems.push_back(where + TensorTypeName(tensor.type) + " tensors have no static size"); }
      for (size_t d = 1; d < tensor.shape_signature.size(); ++d) {
        if (tensor.shape_signature[d] < 0) {
          problems.push_back(where + "dynamic dimension " + std::to_string(d) +
                             " in shape_signature (only the batch dimension 0 may be dynamic)");
          break;
        }
      }
      if (tensor.has_sparsity && !tensor.has_data) {
        problems.push_back(where + "sparse tensor without constant data");
      }
    }
  }
  return problems;
}

}  // namespace arenaplan::model

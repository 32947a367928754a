#include "graph/tflm_evaluator.h"

#include "tflm/arena_size.h"
#include "tflm/export.h"

namespace arenaplan::graph {

Evaluator TflmEvaluator(const tflm::Target& target) {
  return [&target](const std::vector<uint8_t>& bytes, bool final) -> Result<Figures> {
    auto view = model::ReadModel(bytes.data(), bytes.size());
    if (!view.ok()) return view.status();
    auto size = tflm::ComputeArenaSize(*view, target, final ? "tflm-greedy" : "best-fit", final);
    if (!size.ok()) return size.status();
    if (!size->supported) return Unsupported("stock TFLM cannot run it: " + size->error);
    return Figures{size->head_bytes, size->tail_bytes, size->arena_used_bytes, size->min_arena_bytes};
  };
}

std::function<Result<std::vector<uint8_t>>(const std::vector<uint8_t>&)> TflmFinish(const tflm::Target& target) {
  return [&target](const std::vector<uint8_t>& bytes) -> Result<std::vector<uint8_t>> {
    auto exported = tflm::ExportOfflinePlan(bytes.data(), bytes.size(), target, "best");
    if (!exported.ok()) return exported.status();
    return std::move(exported->model_bytes);
  };
}

}  // namespace arenaplan::graph

#include "graph/runtime_evaluator.h"

#include <memory>

#include "runtime/interpreter.h"
#include "runtime/op_resolver.h"
#include "util/aligned_bytes.h"

namespace arenaplan::graph {

Evaluator RuntimeEvaluator(const rt::OpResolver& kernels) {
  // The resolvers are constants with static storage: the reference outlives the evaluator.
  return [&kernels](const std::vector<uint8_t>& bytes, bool) -> Result<Figures> {
    rt::InterpreterOptions opts;
    opts.planner = rt::PlannerKind::kTflmOrderBestFit;
    for (size_t arena_bytes = size_t{16} << 20;; arena_bytes *= 4) {
      // A fresh block per candidate, from calloc (AlignedBytes): AllocateTensors touches a few KiB
      // of it. Zero-filling a vector here was most of optimize's time under the sanitizers, and a
      // block kept across candidates made Release slower: while it lives, glibc's mmap threshold
      // stays low, and every model copy of the search gets fresh pages.
      const AlignedBytes arena(arena_bytes);
      rt::Interpreter interp(bytes.data(), bytes.size(), kernels, arena.data(), arena_bytes, opts);
      const rt::StatusCode s = interp.AllocateTensors();
      if (s == rt::StatusCode::kOk) {
        const rt::MemoryRecord& m = interp.memory_record();
        return Figures{m.head_bytes, m.tail_bytes, uint64_t{m.head_bytes} + m.tail_bytes, m.min_arena_bytes};
      }
      if (s != rt::StatusCode::kArenaFull || arena_bytes >= (size_t{1} << 30)) {
        return Unsupported(std::string("the runtime cannot run it: ") + interp.error_message());
      }
    }
  };
}

Result<OptimizeResult> OptimizeForRuntime(const std::vector<uint8_t>& bytes, const OptimizeOptions& options,
                                          const rt::OpResolver& kernels) {
  OptimizeOptions o = options;
  o.explicit_padding = true;
  return Optimize(bytes, o, RuntimeEvaluator(kernels),
                  [](const std::vector<uint8_t>& b) -> Result<std::vector<uint8_t>> { return b; });
}

}  // namespace arenaplan::graph

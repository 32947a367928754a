// Diagnostic: how right the block stage's glueings (plan/block_merge.h) are on packing_bench's
// instances, measured against the generator's own packing. A block is "off" when its members do
// not tile one rectangle of that packing (their addresses there span more than the block's
// height). Another packing might still agree with an off block, so the off blocks bound the glues
// that no packing agrees with from above. Each row is one glueing of the problem
// (forward, or mirrored in time as the block stage also searches it): the cautious one, each eager
// variant in the order the block stage searches them, and each eager variant applied again to
// the cautious blocks (as the cautious stage does). Shows where the wrong glues come from.
// Usage: glue_probe_bench NAME... (perfect-800-p20-s19, as packing_bench prints them; not gadget)
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "plan/block_merge.h"
#include "plan/optimal_search.h"
#include "plan/packing_problem.h"

using namespace arenaplan::plan;                    // NOLINT: bench-local
using namespace arenaplan::plan::optimal_internal;  // NOLINT: bench-local

namespace {

std::string RuleNames(int rules) {
  static const std::pair<int, const char*> kNames[] = {
      {kStacks, "stacks"},
      {kStacksWithEvidence, "stacks?"},
      {kChainPairs, "chain-pairs"},
      {kChainsWithEvidence, "chains?"},
      {kChainsAfterStacks, "after-stacks"},
      {kStacksFirst, "stacks-first"},
      {kPinwheels, "pinwheels"},
  };
  std::string out;
  for (const auto& [bit, name] : kNames) {
    if (rules & bit) out += (out.empty() ? "" : "+") + std::string(name);
  }
  return out;
}

struct Count {
  size_t blocks = 0, multi = 0, off = 0, off_members = 0;
};

// `blocks` over `parts` (each a set of original buffers; the identity for a first glueing).
Count Judge(const std::vector<Block>& blocks, const std::vector<std::vector<size_t>>& parts,
            const PackingInstance& inst) {
  Count c;
  c.blocks = blocks.size();
  for (const Block& b : blocks) {
    if (b.members.size() < 2) continue;
    ++c.multi;
    Offset lo = 0, hi = 0;
    size_t members = 0;
    for (size_t m : b.members) {
      for (size_t i : parts[m]) {
        const Offset at = inst.packing[i];
        lo = members == 0 ? at : std::min(lo, at);
        hi = members == 0 ? at + inst.problem.buffers[i].size : std::max(hi, at + inst.problem.buffers[i].size);
        ++members;
      }
    }
    if (hi - lo != b.buffer.size) {
      ++c.off;
      c.off_members += members;
    }
  }
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: glue_probe_bench NAME... (perfect-800-p20-s19)\n");
    return 2;
  }
  std::printf("%-22s %-9s %-9s %-48s %6s %6s %5s %11s\n", "instance", "direction", "over", "glueing", "blocks", "multi",
              "off", "off_members");
  for (int a = 1; a < argc; ++a) {
    const std::string name = argv[a];
    const std::optional<PackingOptions> o = ParsePackingBenchName(name);
    if (!o || o->variant == PackingVariant::kGadget) {
      std::fprintf(stderr, "glue_probe_bench: %s is not a feasible instance's name (perfect-800-p20-s19)\n",
                   name.c_str());
      return 2;
    }
    const PackingInstance inst = MakePackingProblem(*o);
    const size_t n = inst.problem.buffers.size();
    std::vector<std::vector<size_t>> singles(n);
    for (size_t i = 0; i < n; ++i) singles[i] = {i};
    for (bool mirrored : {false, true}) {
      const std::vector<Buffer> buffers = mirrored ? MirroredInTime(inst.problem.buffers) : inst.problem.buffers;
      auto row = [&](const char* over, int rules, const Count& c) {
        std::printf("%-22s %-9s %-9s %-48s %6zu %6zu %5zu %11zu\n", name.c_str(), mirrored ? "mirrored" : "forward",
                    over, RuleNames(rules).c_str(), c.blocks, c.multi, c.off, c.off_members);
      };
      const std::vector<Block> cautious = MergeBlocks(buffers, kCautiousRules);
      row("buffers", kCautiousRules, Judge(cautious, singles, inst));
      for (int rules : kGlueVariants) row("buffers", rules, Judge(MergeBlocks(buffers, rules), singles, inst));
      std::vector<std::vector<size_t>> parts;
      for (const Block& b : cautious) parts.push_back(b.members);
      const std::vector<Buffer> as_buffers = BlockBuffers(cautious);
      for (int rules : kGlueVariants) row("cautious", rules, Judge(MergeBlocks(as_buffers, rules), parts, inst));
    }
    std::fflush(stdout);
  }
  return 0;
}

// Diagnostic: the skyline search (plan/skyline_search.h) alone on packing_bench's instances, one
// unbudgeted run per static order, without the portfolio (block stage, gravity, restarts): shows
// whether a single order solves an instance and at what node rate. Instances are named as in
// packing_bench (perfect-800-p20-s19; without "-s<seed>": seed 0).
// Usage: skyline_probe_bench NAME... [--limit=SECONDS per run] [--keys=WAZ,OWA,...]
//                            [--cells=lowest,fewest,fewest-else-lowest] (SkylineCell; default all three)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "plan/packing_problem.h"
#include "plan/skyline_search.h"
#include "plan/verify.h"

using namespace arenaplan::plan;                    // NOLINT
using namespace arenaplan::plan::optimal_internal;  // NOLINT

int main(int argc, char** argv) {
  double limit = 20;
  std::vector<std::string> keys{"WAZ", "OWA", "AWZ", "ZWA", "CWA", "WZA"};
  std::vector<std::string> names;
  const std::vector<std::pair<std::string, SkylineCell>> all_cells{
      {"lowest", SkylineCell::kLowestValley},
      {"fewest", SkylineCell::kFewest},
      {"fewest-else-lowest", SkylineCell::kFewestElseLowest}};
  std::vector<std::pair<std::string, SkylineCell>> cells = all_cells;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--limit=", 0) == 0) {
      limit = std::stod(a.substr(8));
    } else if (a.rfind("--keys=", 0) == 0) {
      keys.clear();
      std::stringstream ss(a.substr(7));
      std::string k;
      while (std::getline(ss, k, ',')) keys.push_back(k);
    } else if (a.rfind("--cells=", 0) == 0) {
      cells.clear();
      std::stringstream ss(a.substr(8));
      std::string c;
      while (std::getline(ss, c, ',')) {
        const auto it = std::find_if(all_cells.begin(), all_cells.end(), [&](const auto& e) { return e.first == c; });
        if (it == all_cells.end()) {
          std::fprintf(stderr, "skyline_probe_bench: unknown cell rule %s\n", c.c_str());
          return 2;
        }
        cells.push_back(*it);
      }
    } else {
      names.push_back(a);
    }
  }
  for (const std::string& name : names) {
    const std::optional<PackingOptions> o = ParsePackingBenchName(name);
    if (!o) {
      std::fprintf(stderr, "skyline_probe_bench: %s is not an instance name (perfect-800-p20-s19)\n", name.c_str());
      return 2;
    }
    const PackingInstance inst = MakePackingProblem(*o);
    SkylineSearch sky(inst.problem.buffers);
    for (const auto& [cell_name, cell] : cells) {
      for (const std::string& k : keys) {
        SkylineOrder ord;
        ord.keys = k;
        ord.cell = cell;
        Limits lim;
        const auto t0 = std::chrono::steady_clock::now();
        lim.deadline = t0 + std::chrono::milliseconds(static_cast<int64_t>(limit * 1000));
        std::vector<Offset> off;
        const int64_t before = sky.nodes();
        const Outcome r = sky.Run(inst.problem.capacity, ord, 0, lim, &off);
        const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::string check = "-";
        if (r == Outcome::kFound) {
          Plan plan{off, PlanHeight(inst.problem, off)};
          check = VerifyPlan(inst.problem, plan).ok() ? "verified" : "BAD";
        }
        std::printf("%-20s %5zu %-18s %-4s %-10s %8.3f s %12lld nodes %s\n", name.c_str(), inst.problem.buffers.size(),
                    cell_name.c_str(), k.c_str(), OutcomeName(r), took, static_cast<long long>(sky.nodes() - before),
                    check.c_str());
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

// The exact planner on seeded zero-slack packings (plan/packing_problem.h): perfect packings of the
// 2^20 x 2^20 square cut by guillotine and pinwheel cuts, packings with 2 % of the area removed,
// perfect packings under a capacity 2 % above them (headroom), and packings made infeasible by a
// gadget although the lower bound equals the capacity. Decision at the capacity (2^20 as in
// MiniMalloc's benchmark; headroom: 1,069,056), one row per instance: size, cut mix, answer, time,
// nodes (of a timeout: as of its last progress report). Every plan is checked by VerifyPlan; a
// feasible instance must fit and a gadget instance must come out infeasible (proven), else the row
// says WRONG.
//
// Usage: packing_bench [--limit=SECONDS] [--seeds=K] [--first-seed=S]
//                      [--only=perfect|slack|headroom|gadget] [--sizes=150,250,...]
//                      [--pinwheels=0.2,...] [--planner=optimal|best] [--work-time] [--threads=1|2]
//                      [--write=DIR]
// --pinwheels sets the pinwheel shares: perfect packings get each (default 0, 0.1, 0.5), the other
// variants the first (default 0.2).
// --write=DIR also writes each instance as MiniMalloc CSV (DIR/<name>.csv) for `arenaplan solve`.
// --work-time (optimal): the limit counts search steps (PlannerOptions::work_time), so that the
// answers and nodes repeat on any machine (the times stay wall times).
// --threads (PlannerOptions::threads; default: 2 where the machine has two cores): 1 searches the
// problem and its mirror image in time one after the other, 2 races them.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "plan/best.h"
#include "plan/csv.h"
#include "plan/lower_bound.h"
#include "plan/optimal.h"
#include "plan/packing_problem.h"
#include "plan/verify.h"

namespace {

using namespace arenaplan::plan;  // NOLINT: bench-local

struct Config {
  PackingVariant variant;
  size_t buffers;
  double pinwheel_share;
};

// Perfect packings with each of `perfect_shares`; the other variants with `share`.
std::vector<Config> DefaultConfigs(const std::vector<size_t>& sizes, const std::vector<double>& perfect_shares,
                                   double share) {
  std::vector<Config> out;
  for (size_t n : sizes) {
    for (double s : perfect_shares) out.push_back({PackingVariant::kPerfect, n, s});
  }
  for (size_t n : sizes) out.push_back({PackingVariant::kSlack, n, share});
  for (size_t n : sizes) out.push_back({PackingVariant::kHeadroom, n, share});
  for (size_t n : sizes) out.push_back({PackingVariant::kGadget, n, share});
  return out;
}

// A comma-separated list, each item read by `parse` (std::stod, std::stoul, ...).
template <typename T, typename Parse>
std::vector<T> ParseList(const std::string& s, Parse parse) {
  std::vector<T> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(static_cast<T>(parse(item)));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  double limit = 20;
  int seeds = 1, first_seed = 0;
  std::string only, planner = "optimal", write_dir;
  bool work_time = false;
  int threads = 0;
  std::vector<size_t> sizes{150, 250, 350, 450, 600, 800};
  std::vector<double> shares;  // empty: the defaults below
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--limit=", 0) == 0)
      limit = std::stod(a.substr(8));
    else if (a.rfind("--seeds=", 0) == 0)
      seeds = std::stoi(a.substr(8));
    else if (a.rfind("--first-seed=", 0) == 0)
      first_seed = std::stoi(a.substr(13));
    else if (a.rfind("--only=", 0) == 0)
      only = a.substr(7);
    else if (a.rfind("--sizes=", 0) == 0)
      sizes = ParseList<size_t>(a.substr(8), [](const std::string& x) { return std::stoul(x); });
    else if (a.rfind("--pinwheels=", 0) == 0)
      shares = ParseList<double>(a.substr(12), [](const std::string& x) { return std::stod(x); });
    else if (a.rfind("--planner=", 0) == 0)
      planner = a.substr(10);
    else if (a.rfind("--write=", 0) == 0)
      write_dir = a.substr(8);
    else if (a.rfind("--threads=", 0) == 0)
      threads = std::stoi(a.substr(10));
    else if (a == "--work-time")
      work_time = true;
    else {
      std::fprintf(stderr, "packing_bench: unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  if (work_time && planner != "optimal") {
    std::fprintf(stderr, "packing_bench: --work-time applies to --planner=optimal only\n");
    return 2;
  }
  std::printf("%-22s %-8s %7s %6s %5s %5s %9s %-11s %-10s %8s %12s %s\n", "instance", "variant", "buffers", "pin%",
              "guil", "pin", "LB", "expected", "answer", "time_s", "nodes", "check");
  int wrong = 0, solved = 0, total = 0;
  double sum_time = 0;
  const std::vector<double> perfect = shares.empty() ? std::vector<double>{0.0, 0.1, 0.5} : shares;
  for (const Config& c : DefaultConfigs(sizes, perfect, shares.empty() ? 0.2 : shares[0])) {
    if (!only.empty() && only != PackingVariantName(c.variant)) continue;
    for (int s = first_seed; s < first_seed + seeds; ++s) {
      const PackingOptions o = PackingBenchOptions(c.variant, c.buffers, c.pinwheel_share, s);
      const PackingInstance inst = MakePackingProblem(o);
      const std::string name = PackingBenchName(o, s);
      if (!write_dir.empty()) {
        std::vector<std::string> ids;
        for (size_t i = 0; i < inst.problem.buffers.size(); ++i) ids.push_back(std::to_string(i));
        Plan none;
        none.offsets.assign(inst.problem.buffers.size(), kUnfixed);
        std::string csv = WriteCsv(ids, inst.problem, none);
        std::ofstream(write_dir + "/" + name + ".csv") << csv;
      }
      PlannerOptions po;
      po.time_limit_seconds = limit;
      po.minimize = false;
      po.work_time = work_time;
      po.threads = threads;
      // A timeout returns no result: its nodes are those of the last progress report (every 0.1 s).
      int64_t reported_nodes = 0;
      po.progress = [&reported_nodes](const PlanProgress& p) { reported_nodes = p.nodes; };
      const auto t0 = std::chrono::steady_clock::now();
      auto r = planner == "best" ? PlanBest(inst.problem, po) : PlanOptimal(inst.problem, po);
      const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::string answer = r.ok() ? PlanStatusName(r->status) : "timeout";
      bool ok;
      if (!r.ok()) {
        ok = false;
      } else if (r->status == PlanStatus::kInfeasible) {
        ok = !inst.feasible;
      } else {
        ok = inst.feasible && VerifyPlan(inst.problem, r->plan).ok();
      }
      // `best` shows its lowest plan even when it misses the capacity: that is no answer.
      const bool answered = r.ok() && (r->status == PlanStatus::kInfeasible || r->plan.height <= inst.problem.capacity);
      if (r.ok() && !answered) answer = "over";
      std::string check = ok ? "ok" : answered ? "WRONG" : "no answer";
      wrong += answered && !ok;
      solved += ok;
      ++total;
      sum_time += took;
      std::printf("%-22s %-8s %7zu %6.0f %5d %5d %9lld %-11s %-10s %8.3f %12lld %s\n", name.c_str(),
                  PackingVariantName(c.variant), inst.problem.buffers.size(), c.pinwheel_share * 100,
                  inst.guillotine_cuts, inst.pinwheel_cuts, static_cast<long long>(LiveBytesLowerBound(inst.problem)),
                  inst.feasible ? "fits" : "infeasible", answer.c_str(), took,
                  static_cast<long long>(r.ok() ? r->nodes : reported_nodes), check.c_str());
      std::fflush(stdout);
    }
  }
  std::printf("solved %d of %d within %.0f s each (%.1f s in total), wrong answers: %d\n", solved, total, limit,
              sum_time, wrong);
  return wrong > 0 ? 1 : 0;
}

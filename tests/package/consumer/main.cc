// Plans and runs arenaplan's demo model through the installed libraries: reader, lifetimes, the
// best planner and the verifier, TFLM's arena on a Cortex-M, and the embedded runtime. Prints
// "head <bytes> bound <bytes> tflm <bytes> runtime <bytes>"; exits non-zero on any failure.
#include <cstdio>
#include <vector>

#include <arenaplan/lifetime/lifetimes.h>
#include <arenaplan/model/model.h>
#include <arenaplan/model/writer.h>
#include <arenaplan/plan/lower_bound.h>
#include <arenaplan/plan/planner.h>
#include <arenaplan/plan/verify.h>
#include <arenaplan/report/plan_report.h>
#include <arenaplan/runtime/interpreter.h>
#include <arenaplan/runtime/test_inputs.h>
#include <arenaplan/tflm/arena_size.h>
#include <arenaplan/tflm/target.h>

using namespace arenaplan;

int main() {
  const std::vector<uint8_t> bytes = model::DemoModel();
  auto m = model::ReadModel(bytes.data(), bytes.size());
  if (!m.ok()) return std::puts(m.status().message().c_str()), 1;
  auto lifetimes = lifetime::ComputeLifetimes(*m);
  if (!lifetimes.ok()) return 1;
  const plan::Problem problem = lifetime::ToProblem(*lifetimes);
  auto planned = plan::FindPlanner("best")->run(problem, plan::PlannerOptions());
  if (!planned.ok() || !plan::VerifyPlan(problem, planned->plan).ok()) return 1;
  auto target = tflm::FindTarget("tflm-cortex-m");
  auto size = tflm::ComputeArenaSize(*m, **target);
  if (!size.ok()) return 1;

  std::vector<uint8_t> arena(64 * 1024);
  rt::Interpreter interp(bytes.data(), bytes.size(), rt::AllOpsResolver(), arena.data(), arena.size());
  if (interp.AllocateTensors() != rt::StatusCode::kOk) return std::puts(interp.error_message()), 1;
  rt::FillGeneratedInput(interp.input(0), 0, 0);
  if (interp.Invoke() != rt::StatusCode::kOk) return std::puts(interp.error_message()), 1;
  std::printf("head %lld bound %lld peak-step %lld tflm %llu runtime %u\n",
              static_cast<long long>(planned->plan.height), static_cast<long long>(plan::LiveBytesLowerBound(problem)),
              static_cast<long long>(report::PeakOf(problem).step),
              static_cast<unsigned long long>(size->min_arena_bytes), interp.memory_record().min_arena_bytes);
  return 0;
}

// The planning pass of AllocateTensors, after every kernel's prepare:
//   1. the scratch table in the tail (4 bytes per request);
//   2. the model's offline plan (rules/offline_plan.h);
//   3. in temp: one rules::PlanBuffer per planned tensor (TFLM's needs_allocating,
//      rules/lifetimes.h) and per scratch request, in TFLM's AddBuffer order, plus a 4-byte
//      workspace per buffer that holds first the sorted planned-tensor ids (for the lifetime walk)
//      and then the placement's order / next arrays: 20 bytes per buffer in all;
//   4. lifetimes (rules::MarkLifetimes); ops the schedule marks in place get their output on their
//      input's buffer where the lifetimes allow it (online and compiled plans, not a model's
//      offline plan; a float QUANTIZE splits its input's buffer into its output's bytes and a rest
//      tied above them that dies at the op); then the offsets: offline as given, a CompiledPlan
//      checked against that same problem (lifetimes, aliases and ties: PlanCopy records it for
//      the host), or online placement (rules::PlaceBuffers);
//   5. temp freed, the head set to the plan's height, every planned tensor and scratch request
//      given its offset; then variables without an offline offset get tail memory, all variables
//      their initial value.
// O(buffers^2) for placement (and for checking a compiled plan), O(visits x arity x log n) for
// the lifetimes.
#pragma once

#include <cstdint>

#include "runtime/interpreter.h"

namespace arenaplan::rt {

// `requests` are the scratch requests prepare left at the head's start.
StatusCode PlanHead(const BoundModel& model, const InterpreterOptions& options, uint32_t num_requests, Arena* arena,
                    TailTables* tables, MemoryRecord* record, ErrorText* error);

// Variables start at zero (int8: at their zero point), as TFLM's ResetVariableTensors does.
void FillVariables(const BoundModel& model, const TailTables& tables, const Arena& arena);

}  // namespace arenaplan::rt

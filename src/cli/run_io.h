// `arenaplan run` with --external-io / --keep (one arena: run_command.cc; several memories:
// run_regions.cc): the tensors named, the CLI's own buffers bound to the external inputs and
// outputs, and the kept tensors' bytes after the last Invoke.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/io_options.h"
#include "cli/running.h"
#include "runtime/interpreter.h"
#include "util/result.h"

namespace arenaplan::cli {

struct RunIo {
  IoSelection selection;
  std::vector<IoCost> costs;                           // each option's change of the head (one arena only)
  std::vector<std::unique_ptr<AlignedBytes>> buffers;  // the CLI's own buffers for external tensors
};

// The tensors a.io names in the model `bytes` (nothing when no option is given).
Status ResolveRunIo(const RunArgs& a, const std::vector<uint8_t>& bytes, RunIo* io);

// Binds a buffer of the CLI's own (16-aligned, exactly the tensor's bytes) to every external
// input and output: those whose view has no data after AllocateTensors. Their subgraph-0 indices
// go to *externals.
rt::StatusCode BindOwnBuffers(rt::Interpreter& interp, RunIo* io, std::vector<uint32_t>* externals);

// The kept tensors' bytes after the last Invoke, as fnv1a64 (compare with a dump's index.json),
// and the text lines saying so.
nlohmann::json KeptJson(const rt::Interpreter& interp, const RunIo& io);
void PrintKept(const nlohmann::json& kept);

}  // namespace arenaplan::cli

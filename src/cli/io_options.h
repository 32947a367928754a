// --external-io and --keep, shared by `plan` (and `report`) and `run`: parsing, the tensors they
// name, and the byte cost of each, head before -> after (rules/io_options.h is the rule; this is
// the command line over it).
//   --external-io inputs|outputs|both   subgraph 0's inputs and/or outputs bound by the application
//   --keep TENSOR ...                   subgraph-0 tensors (by name, or by index) kept valid after Invoke
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cli/cli11_fwd.h"
#include <nlohmann/json.hpp>

#include "model/model.h"
#include "rules/io_options.h"
#include "util/result.h"

namespace arenaplan::cli {

struct IoArgs {
  std::string external_io = "none";
  std::vector<std::string> keep;
  bool any() const { return external_io != "none" || !keep.empty(); }
};

void AddIoOptions(CLI::App& cmd, IoArgs* args);

struct IoSelection {
  rules::ExternalIo external_io = rules::ExternalIo::kNone;
  std::vector<uint32_t> keep;  // subgraph-0 tensor indices, ascending, unique
};

// A --keep entry is a tensor name of subgraph 0 (every tensor of that name), else a decimal index;
// anything else is InvalidArgument "--keep: no tensor 'x' in subgraph 0 (N tensors)".
Result<IoSelection> ResolveIo(const model::Model& model, const IoArgs& args);

// What one option changed: the head before and after it (options applied in order: external I/O,
// then keep), and the tensors it names with their bytes.
struct IoCost {
  std::string option;  // "external-io" or "keep"
  std::string value;   // "both", or the tensor list as given
  uint64_t head_before = 0;
  uint64_t head_after = 0;
  struct Tensor {
    uint32_t index;
    std::string name;
    uint64_t bytes;
  };
  std::vector<Tensor> tensors;
};

// The head for a selection (a plan with the same planner and options); head_of(IoSelection{}) is
// the plain problem's. `externals` lists the tensors --external-io leaves out, with their bytes.
Result<std::vector<IoCost>> MeasureIoCosts(const model::Model& model, const IoArgs& args, const IoSelection& selection,
                                           const std::vector<uint32_t>& externals,
                                           const std::function<Result<uint64_t>(const IoSelection&)>& head_of);

// "external-io  both: 2 tensors, 12288 bytes bound by the application; head 14336 -> 10240 bytes (-4096)"
std::string IoCostText(const std::vector<IoCost>& costs);
// [{"option", "value", "head_before", "head_after", "delta_bytes", "tensors": [{"index", "name", "bytes"}]}]
nlohmann::json IoCostJson(const std::vector<IoCost>& costs);

}  // namespace arenaplan::cli

// `arenaplan run --dump-tensors DIR`: every op's output tensors, written right after the op runs
// (through the runtime's per-op callback, rt::OpCallback, so the arena and the plan are the ones a
// plain run uses), and `--compare-with DIR2`: the first tensor where two dumps differ.
//
// Layout of a dump: DIR/<op>_<tensor name>.bin for ops of subgraph 0 and
// DIR/s<subgraph>_<op>_<tensor name>.bin for the others (names reduced to [A-Za-z0-9._-], at most
// 100 bytes; an op of a WHILE body keeps its last iteration), and DIR/index.json:
//   {"model", "planner", "tensors": [{"file", "subgraph", "op", "op_name", "tensor", "name", "dtype",
//    "shape", "bytes", "fnv1a64", "executions", "quantization": null | {"scale", "zero_point",
//    "quantized_dimension"}}]}
// with tensors in the order they were first produced.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "model/model.h"
#include "runtime/interpreter.h"
#include "util/result.h"

namespace arenaplan::cli {

class TensorDumper {
 public:
  // `model` is the host reader's view of the same bytes the interpreter runs (names, quantization).
  TensorDumper(std::string dir, const model::Model& model) : dir_(std::move(dir)), model_(model) {}
  // Creates the folder (and its parents).
  Status Prepare() const;
  // An rt::OpCallback: `user` is the TensorDumper. A file that cannot be written stops Invoke.
  static rt::StatusCode AfterOp(void* user, const rt::Interpreter& interpreter, uint32_t subgraph, uint32_t op);
  // Writes index.json with `header` fields (model, planner) first.
  Status WriteIndex(const nlohmann::json& header) const;

  const Status& status() const { return status_; }  // the first write error
  size_t tensors() const { return index_.size(); }
  bool enabled = true;  // false: the callback does nothing

 private:
  rt::StatusCode Dump(const rt::Interpreter& interpreter, uint32_t subgraph, uint32_t op);
  std::string FileName(uint32_t subgraph, uint32_t op, int32_t tensor, const std::string& name);

  std::string dir_;
  const model::Model& model_;
  Status status_;
  nlohmann::json index_ = nlohmann::json::array();
  std::map<std::pair<uint32_t, int32_t>, size_t> entry_of_;       // (subgraph, tensor) -> index_ entry
  std::map<std::string, std::pair<uint32_t, int32_t>> owner_of_;  // file name -> (subgraph, tensor)
};

// `<name>` for file names: [A-Za-z0-9._-] kept, anything else '_', no leading '.', at most 100 bytes.
std::string SanitizeFileName(const std::string& name);

struct DumpComparison {
  size_t compared = 0;    // tensors present in both dumps (matched by subgraph and name)
  size_t only_first = 0;  // tensors of the first dump missing from the second
  size_t only_second = 0;
  bool differs = false;
  std::string difference;  // one line: op, tensor and how they differ (empty when equal)
  nlohmann::json ToJson() const;
};

// Walks the first dump in production order and stops at the first matched tensor whose dtype,
// shape or bytes differ. O(total bytes). Errors: a missing or malformed index.json or .bin file.
Result<DumpComparison> CompareDumps(const std::string& first, const std::string& second);

}  // namespace arenaplan::cli

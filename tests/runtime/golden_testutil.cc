#include "golden_testutil.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "support/shared_dir.h"

namespace arenaplan::testing {

std::vector<GoldenModel> GoldenIoModels() {
  std::vector<GoldenModel> out;
  const auto shared = SharedDir();
  if (!shared) return out;
  std::map<std::string, std::string> ops_of;
  for (const auto& row : ReadCsv(*shared + "/golden/models.csv"))
    ops_of[CsvField(row, "file")] = CsvField(row, "operator_codes");
  for (const auto& row : ReadCsv(*shared + "/golden/tflm-x86_64/arena.csv")) {
    if (CsvField(row, "io_files") != "1") continue;
    GoldenModel m;
    m.model = CsvField(row, "model");
    m.stem = m.model.substr(0, m.model.size() - 7);
    std::stringstream ss(ops_of[m.model]);
    for (std::string op; std::getline(ss, op, ';');) m.ops.insert(op);
    m.tflm_arena_used = static_cast<uint32_t>(std::stoul(CsvField(row, "arena_used_bytes")));
    const std::string min = CsvField(row, "min_arena_bytes");
    m.tflm_min_arena = min.empty() ? 0 : static_cast<uint32_t>(std::stoul(min));
    m.num_inputs = static_cast<uint32_t>(std::stoul(CsvField(row, "num_inputs")));
    m.num_outputs = static_cast<uint32_t>(std::stoul(CsvField(row, "num_outputs")));
    out.push_back(m);
  }
  std::sort(out.begin(), out.end(), [](const GoldenModel& a, const GoldenModel& b) { return a.model < b.model; });
  return out;
}

std::string ParamName(const GoldenModel& m) {
  std::string s = m.stem;
  for (char& c : s) {
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

std::string ModelPath(const GoldenModel& m) { return *SharedDir() + "/models/" + m.model; }

std::string IoPath(const GoldenModel& m, const std::string& suffix) {
  return *SharedDir() + "/golden/tflm-x86_64/io/" + m.stem + "." + suffix + ".bin";
}

std::unique_ptr<RuntimeRun> MakeRun(std::vector<uint8_t> model, size_t arena_bytes,
                                    const rt::InterpreterOptions& options, const rt::OpResolver& kernels) {
  auto run = std::make_unique<RuntimeRun>();
  run->model = std::move(model);
  run->arena = std::make_unique<AlignedBytes>(arena_bytes);
  run->interp = std::make_unique<rt::Interpreter>(run->model.data(), run->model.size(), kernels, run->arena->data(),
                                                  arena_bytes, options);
  return run;
}

}  // namespace arenaplan::testing

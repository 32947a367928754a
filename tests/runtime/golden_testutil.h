// Shared helpers for runtime tests: the corpus models that have golden TFLM io files, and
// running one model through the runtime on a heap-allocated arena (test code may allocate).
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "runtime/interpreter.h"
#include "util/aligned_bytes.h"

namespace arenaplan::testing {

struct GoldenModel {
  std::string model;          // path relative to models/, e.g. "tflm_ops/seanet_add_add0.tflite"
  std::string stem;           // model without ".tflite"
  std::set<std::string> ops;  // operator_codes from models.csv ("CUSTOM:Name" for custom ops)
  uint32_t tflm_arena_used = 0;
  uint32_t tflm_min_arena = 0;  // 0 when unknown
  uint32_t num_inputs = 0, num_outputs = 0;
};

// Models of golden/tflm-x86_64/arena.csv with io_files=1 (sorted by path). Empty without ../shared.
std::vector<GoldenModel> GoldenIoModels();
// The model's stem with every character but letters and digits replaced by '_' (a test name).
std::string ParamName(const GoldenModel& m);
// Path helpers under ../shared.
std::string ModelPath(const GoldenModel& m);
std::string IoPath(const GoldenModel& m, const std::string& suffix);  // suffix like "in0" / "out1"

// A runtime interpreter with its own model bytes and arena, kept alive together.
struct RuntimeRun {
  std::vector<uint8_t> model;
  std::unique_ptr<AlignedBytes> arena;
  std::unique_ptr<rt::Interpreter> interp;
};
// Creates the interpreter over `arena_bytes` (16-aligned start) without allocating tensors.
std::unique_ptr<RuntimeRun> MakeRun(std::vector<uint8_t> model, size_t arena_bytes,
                                    const rt::InterpreterOptions& options = rt::InterpreterOptions(),
                                    const rt::OpResolver& kernels = rt::AllOpsResolver());

}  // namespace arenaplan::testing

namespace arenaplan::testing {
inline void PrintTo(const GoldenModel& m, std::ostream* os) { *os << m.model; }
}  // namespace arenaplan::testing

// A model written by the project's writer and read back, kept together because the Model points
// into the bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "model/model.h"
#include "model/writer.h"

namespace arenaplan::tflm::testing {

struct BuiltModel {
  std::vector<uint8_t> bytes;
  model::Model model;
};

// Writes and reads `spec`; a read failure is a test failure (and leaves `model` empty).
BuiltModel BuildModel(const model::ModelSpec& spec);

}  // namespace arenaplan::tflm::testing

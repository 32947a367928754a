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

// input f32[1,4] -> FULLY_CONNECTED (weights f32[8,4], bias f32[8]) -> output f32[1,8]; `code`
// swaps the op, the types make hybrid or int4 variants.
model::ModelSpec FcModel(int32_t code = 9, model::TensorType in_type = model::TensorType::kFloat32,
                         model::TensorType weight_type = model::TensorType::kFloat32);

}  // namespace arenaplan::tflm::testing

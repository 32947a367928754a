// Small models for the model/ tests, built with the writer.
#pragma once

#include <string>
#include <vector>

#include "model/model.h"
#include "model/writer.h"

#include <gtest/gtest.h>

namespace arenaplan::model::testutil {

// in[1,4] --FULLY_CONNECTED(w const [4,4], bias omitted -1)--> mid[1,4] --CUSTOM:MyOp--> out[1,4]
// Tensor 0 carries int8-style quantization (scale 0.5, zero point -3).
ModelSpec SmallSpec();

// ReadModel on the written spec; the bytes are kept in `storage`.
Result<Model> Read(const ModelSpec& spec, std::vector<uint8_t>& storage);

// True when `status` is InvalidArgument and its message contains every one of `words`.
::testing::AssertionResult IsInvalid(const Status& status, const std::vector<std::string>& words);

// Everything but metadata reads the same (b may have extra buffers at the end).
void ExpectSameContent(const Model& a, const Model& b);

}  // namespace arenaplan::model::testutil

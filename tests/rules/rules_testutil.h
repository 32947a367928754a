// Models for the rules/ tests, written with the project's writer and read back as flatbuffers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/writer.h"
#include "rules/model.h"
#include "rules/status.h"

namespace arenaplan::rules::testing {

// The written bytes and the flatbuffer over them, with the model's tensor / op numbering.
struct Built {
  std::vector<uint8_t> bytes;
  const tfl::Model* model = nullptr;
  ModelFile file;
  std::vector<uint32_t> tensor_base, op_base;
  ModelIndex index;
};

// Writes `spec` and indexes it (no checks: tests of the checks build malformed models too).
Built Build(const model::ModelSpec& spec);

// An operator with `code` (added to the spec), inputs and outputs; calls set for IF / WHILE /
// CALL_ONCE (a, b: then/else, cond/body, init).
model::OperatorSpec Op(model::ModelSpec& spec, int32_t code, std::vector<int32_t> in, std::vector<int32_t> out);
model::OperatorSpec Call(model::ModelSpec& spec, tfl::BuiltinOperator code, int32_t a, int32_t b = 0);

// n float32 [1, 4] tensors named t0, t1, ...
std::vector<model::TensorSpec> Tensors(int n);

// "code: message" for failure output.
std::string Describe(StatusCode code, const ErrorText& error);

}  // namespace arenaplan::rules::testing

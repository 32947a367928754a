// Small models for the rewrite tests, built with the object API, and a runtime runner: outputs of
// a model on the generated inputs (runtime/test_inputs.h), so that a rewrite is checked against
// the model it came from, byte for byte.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/edit.h"

namespace arenaplan::testing {

// A graph under construction: one subgraph, buffer 0 empty.
struct Builder {
  std::unique_ptr<model::Graph> g;
  tflo::SubGraphT* sg = nullptr;
  uint32_t seed = 1;
  bool is_float = false;

  explicit Builder(bool float_model);
  // An activation [1, h, w, c] (int8 scale 0.05 * (1 + tag % 3), zero point tag % 7 - 3; or float).
  int32_t Activation(const std::string& name, std::vector<int32_t> shape, int32_t tag = 0);
  // A constant filter / bias with deterministic pseudo-random values.
  int32_t Filter(const std::string& name, std::vector<int32_t> shape);
  int32_t Bias(const std::string& name, int32_t channels);
  int32_t Conv(int32_t in, int32_t out_c, int32_t k, int32_t stride, bool same, int32_t dilation = 1,
               tflo::ActivationFunctionType act = tflo::ActivationFunctionType::NONE);
  int32_t Depthwise(int32_t in, int32_t k, int32_t stride, bool same, int32_t dilation = 1);
  int32_t Add(int32_t a, int32_t b);
  // A float32 activation (in an int8 model: the float input a QUANTIZE reads) and that QUANTIZE
  // (int8 output, Activation's quantization for its tag).
  int32_t FloatActivation(const std::string& name, std::vector<int32_t> shape);
  int32_t Quantize(int32_t in);
  int32_t Pad(int32_t in, int32_t top, int32_t bottom, int32_t left, int32_t right);
  int32_t MaxPool(int32_t in, int32_t k, int32_t stride);
  std::vector<uint8_t> Finish(std::vector<int32_t> inputs, std::vector<int32_t> outputs);
  const std::vector<int32_t>& Shape(int32_t t) const { return sg->tensors[static_cast<size_t>(t)]->shape; }
};

// Outputs (bytes) of the model in arenaplan's runtime on generated inputs (seed 0), with the
// portable kernels or (dsp) the fast kernels in front of them. Empty plus a message in *error
// when it fails.
std::vector<std::vector<uint8_t>> RunModel(const std::vector<uint8_t>& model, std::string* error, bool dsp = false);

// The op names of a model's subgraph 0, in order.
std::vector<std::string> OpNames(const std::vector<uint8_t>& model);

}  // namespace arenaplan::testing

// A hand-worked four-tensor chain for interpreter tests (float32, 16 bytes per tensor):
//   in [1,4] --ADD(in, c = 0.5)--> t1 --ADD(t1, t1)--> t2 --RESHAPE--> out [4]
//   in = 1,2,3,4  ->  t1 = 1.5,2.5,3.5,4.5  ->  t2 = out = 3,5,7,9
// TFLM's lifetimes: in [0,1], t1 [1,2], t2 [2,3], out [3,3]; tensor indices in 0, c 1, t1 2, t2 3, out 4.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "model/writer.h"
#include "schema/tflite_generated.h"

namespace arenaplan::rt {

inline std::vector<uint8_t> ChainModel() {
  model::ModelSpec spec;
  const uint32_t add = model::AddOperatorCode(spec, static_cast<int32_t>(tfl::BuiltinOperator::ADD));
  const uint32_t reshape = model::AddOperatorCode(spec, static_cast<int32_t>(tfl::BuiltinOperator::RESHAPE));
  std::vector<uint8_t> half(16);
  const float c[4] = {0.5f, 0.5f, 0.5f, 0.5f};
  std::memcpy(half.data(), c, sizeof c);
  const uint32_t cbuf = model::AddBuffer(spec, half);
  model::SubgraphSpec sg;
  sg.tensors = {model::TensorSpec{"in", model::TensorType::kFloat32, {1, 4}},
                model::TensorSpec{"c", model::TensorType::kFloat32, {1, 4}, cbuf},
                model::TensorSpec{"t1", model::TensorType::kFloat32, {1, 4}},
                model::TensorSpec{"t2", model::TensorType::kFloat32, {1, 4}},
                model::TensorSpec{"out", model::TensorType::kFloat32, {4}}};
  sg.inputs = {0};
  sg.outputs = {4};
  sg.operators = {model::OperatorSpec{add, {0, 1}, {2}}, model::OperatorSpec{add, {2, 2}, {3}},
                  model::OperatorSpec{reshape, {3}, {4}}};
  spec.subgraphs.push_back(sg);
  return model::WriteModel(spec);
}

}  // namespace arenaplan::rt
